"""The shipped regions are GB/T 2260 as the Ministry of Civil Affairs publishes it.

Source (see resources/regions/README.md): 民政部《中华人民共和国县以上行政区划代码》, the data as
of 2024-12-31, taken from yescallop/areacodes `data/2024.txt` (CC0 1.0, synced with the
ministry's published list on 2025-09-13, commit eed219a). That list has, per level:
  provincial level (省级)      34   (incl. 台湾省 710000, 香港 810000, 澳门 820000)
  prefecture level (地级)     333
  county level (县级)        2846   (incl. 西沙区, 南沙区 and 和康县, 和安县 of 2024)
"""
from __future__ import annotations

import csv
import re

import pytest
from sqlalchemy import func, select

from app.domain.errors import ValidationError
from app.importexport import ImportFailed, run_import
from app.services.common import create_record
from app.services.reference import (DEVELOPMENT_ZONES_FILE, REGIONS_FILE, add_coverage,
                                    load_regions, read_region_file, region_name)
from app.domain.regions import PLACEHOLDER_NAMES
from app.domain.validators import make_uscc
from models import Coverage, Customer, Region, Site, Subsidiary
from tests.support.builders import build_site
from tests.conftest import table_counts

SOURCE_COUNTS = {1: 34, 2: 333, 3: 2846}


def _counts(rows) -> dict[int, int]:
    out = {1: 0, 2: 0, 3: 0}
    for _c, _n, level, _p in rows:
        out[level] += 1
    return out


def test_shipped_list_has_the_source_counts_per_level():
    rows = read_region_file()
    assert _counts(rows) == SOURCE_COUNTS
    by_code = {c: (n, p) for c, n, _l, p in rows}
    assert len(by_code) == len(rows) == sum(SOURCE_COUNTS.values())
    for code, name, parent in (("460302", "西沙区", "460300"), ("460303", "南沙区", "460300"),
                               ("653228", "和康县", "653200"), ("653229", "和安县", "653200"),
                               ("810000", "香港特别行政区", None), ("820000", "澳门特别行政区", None),
                               ("710000", "台湾省", None), ("500229", "城口县", "500000"),
                               ("110101", "东城区", "110000"), ("419001", "济源市", "410000"),
                               ("440309", "龙华区", "440300"), ("460300", "三沙市", "460000")):
        assert by_code[code] == (name, parent), code
    # the statistics bureau's development zones (xx7x) and its stale 三沙 codes are not GB/T 2260
    assert [c for c in by_code if c[4] == "7"] == []
    assert not {"460321", "460322", "460323"} & by_code.keys()
    assert not {n for n, _p in by_code.values()} & PLACEHOLDER_NAMES


def test_loaded_regions_match_the_source_and_names_skip_placeholder_levels(db, admin):
    load_regions(db, admin)
    with db.session() as s:
        counts = dict(s.execute(select(Region.level, func.count()).group_by(Region.level)).all())
        assert counts == SOURCE_COUNTS
        names = {code: region_name(s, code) for code in s.scalars(select(Region.code))}
    assert names["440309"] == "广东省深圳市龙华区"
    assert names["500229"] == "重庆市城口县"
    assert names["110101"] == "北京市东城区"
    assert names["419001"] == "河南省济源市"
    assert names["460302"] == "海南省三沙市西沙区"
    assert names["810000"] == "香港特别行政区"
    for full in names.values():
        assert not re.search("市辖区|省直辖|自治区直辖|市县", full), full


def test_development_zones_are_importable_apart(db, admin):
    load_regions(db, admin)
    with open(DEVELOPMENT_ZONES_FILE, encoding="utf-8") as f:
        zones = list(csv.DictReader(f))
    assert len(zones) == 124 and all(z["code"][4] == "7" for z in zones)
    result = run_import(db, admin, "regions", DEVELOPMENT_ZONES_FILE)
    assert result.created == 124
    with db.session() as s:
        zone = s.get(Region, "130171")
        assert (zone.name, zone.level, zone.parent_code) == ("石家庄高新技术产业开发区", 3, "130100")
        assert region_name(s, "130171") == "河北省石家庄市石家庄高新技术产业开发区"


def _legacy_regions(db):
    """What the old loader left: placeholder levels, a development zone, stale 三沙 codes."""
    with db.session() as s:
        s.add_all([Region(code="110000", name="北京市", level=1),
                   Region(code="110100", name="市辖区", level=2, parent_code="110000"),
                   Region(code="110101", name="东城区", level=3, parent_code="110100"),
                   Region(code="500000", name="重庆市", level=1),
                   Region(code="500200", name="县", level=2, parent_code="500000"),
                   Region(code="500229", name="城口县", level=3, parent_code="500200"),
                   Region(code="130000", name="河北省", level=1),
                   Region(code="130100", name="石家庄市", level=2, parent_code="130000"),
                   Region(code="130171", name="石家庄高新技术产业开发区", level=3, parent_code="130100"),
                   Region(code="460000", name="海南省", level=1),
                   Region(code="460300", name="三沙市", level=2, parent_code="460000"),
                   Region(code="460321", name="西沙群岛", level=3, parent_code="460300"),
                   Region(code="460322", name="南沙群岛", level=3, parent_code="460300")])
        s.commit()


def test_names_and_tree_skip_placeholder_levels_left_by_an_old_load(db, admin):
    from app.read import viewdata as vd

    _legacy_regions(db)
    with db.session() as s:
        assert region_name(s, "500229") == "重庆市城口县"
        assert region_name(s, "110101") == "北京市东城区"
    assert [(n.code, n.name) for n in vd.region_tree(db, "500000")] == [("500229", "城口县")]
    assert [(n.code, n.name) for n in vd.region_tree(db, "110000")] == [("110101", "东城区")]
    cov = vd.coverage_for(db, "500229")
    assert cov.full_name == "重庆市城口县" and [c for c, _n in cov.path] == ["500000", "500229"]
    assert vd.region_path(db, "110101") == ("110000", "110101")
    assert vd.find_regions(db, "县") == (("500229", "城口县", 3),)


def test_reload_fixes_an_old_load_and_keeps_what_is_referred_to(db, admin):
    _legacy_regions(db)
    sub = create_record(db, admin, "subsidiary", dict(code="HN", name="华锐（海南）有限公司",
                                                      credit_code=make_uscc("91460000MA5T1234X")))
    with db.session() as s:   # written before the list changed: a site on a retired 三沙 code
        s.add(Site(code="SS1", name="永兴岛机房", subsidiary_id=sub, region_code="460321"))
        s.commit()
    result = load_regions(db, admin)
    # gone: 110100 市辖区, 500200 县, 130171 (a development zone), 460322; kept: 460321, still in use
    assert (result.removed, result.kept) == (4, ("460321",))
    assert result.moved == 2          # 东城区 and 城口县 now hang from their municipality
    with db.session() as s:
        assert s.get(Region, "110101").parent_code == "110000"
        assert s.get(Region, "500229").parent_code == "500000"
        assert s.get(Region, "110100") is None and s.get(Region, "130171") is None
        assert s.get(Region, "460321").name == "西沙群岛"
        assert s.get(Region, "460302").parent_code == "460300"
    again = load_regions(db, admin)
    assert (again.added, again.moved, again.removed, again.kept) == (0, 0, 0, ("460321",))


@pytest.mark.parametrize("code", ["110100", "130171", "460321", "999999"])
def test_a_six_digit_code_not_in_the_list_is_refused_everywhere(db, admin, tmp_path, code):
    ids = build_site(db, admin)
    before = table_counts(db)
    with pytest.raises(ValidationError, match=code) as err:
        create_record(db, admin, "customer", dict(name="某某科技有限公司", credit_code=make_uscc("91440106MA59ABCD1"),
                                                   region_code=code))
    assert set(err.value.errors) == {"region_code"}
    with pytest.raises(ValidationError, match=code):
        create_record(db, admin, "site", dict(code="X1", name="某机房", subsidiary_id=ids["subsidiary"],
                                              region_code=code))
    with pytest.raises(ValidationError, match=code):
        create_record(db, admin, "subsidiary", dict(code="XX", name="某公司", credit_code=make_uscc("91440106MA59ABCD2"),
                                                    region_code=code))
    with pytest.raises(ValidationError, match=code):
        add_coverage(db, admin, ids["subsidiary"], code, service_level="remote", response_hours=8)
    rows = tmp_path / "customers.csv"
    rows.write_text("name,credit_code,region\n某某科技有限公司,%s,%s\n" % (make_uscc("91440106MA59ABCD1"), code),
                    encoding="utf-8")
    with pytest.raises(ImportFailed, match=code):
        run_import(db, admin, "customers", rows)
    sites = tmp_path / "sites.csv"
    sites.write_text(f"code,name,subsidiary,region\nX1,某机房,GZ,{code}\n", encoding="utf-8")
    with pytest.raises(ImportFailed, match=code):
        run_import(db, admin, "sites", sites)
    assert table_counts(db) == before


def test_a_code_that_is_not_six_digits_is_refused_naming_it(db, admin):
    load_regions(db, admin)
    with pytest.raises(ValidationError, match="'4401' is not a region code"):
        create_record(db, admin, "customer", dict(name="某某科技有限公司", credit_code=make_uscc("91440106MA59ABCD1"),
                                                   region_code="4401"))


def test_demo_uses_only_listed_codes(demo_db):
    listed = {c for c, *_ in read_region_file(REGIONS_FILE)}
    with demo_db.session() as s:
        used = set(s.scalars(select(Customer.region_code))) | set(s.scalars(select(Site.region_code))) \
            | set(s.scalars(select(Subsidiary.region_code)))
        used |= set(s.scalars(select(Coverage.region_code)))
        in_db = set(s.scalars(select(Region.code)))
    used.discard(None)
    assert used and used <= listed
    assert in_db == listed


def test_a_new_database_has_the_regions_from_its_first_upgrade(db, tmp_path, capsys, monkeypatch):
    """`db upgrade` on a database without regions loads the shipped list (audited, as the system), so the
    first admin's `import subsidiaries` finds 310000; a second upgrade does not load it again."""
    from app.cli.main import main
    url = db.engine.url.render_as_string(hide_password=False)
    assert main(["--db", url, "db", "upgrade"]) == 0
    assert "loaded 3213 regions" in capsys.readouterr().out
    with db.session() as s:
        assert s.execute(select(func.count()).select_from(Region)).scalar_one() == sum(SOURCE_COUNTS.values())
        assert s.get(Region, "310000").name == "上海市"
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "correct-horse-1")
    monkeypatch.setenv("IDC_CONSOLE_NEW_PASSWORD", "correct-horse-1")
    assert main(["--db", url, "user", "add", "admin", "--role", "admin"]) == 0
    subs = tmp_path / "subsidiaries.csv"
    with open(subs, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["code", "name", "credit_code", "region"],
                                 ["SH", "上海分公司", make_uscc("91310000600037341"), "310000"]])
    capsys.readouterr()
    assert main(["--db", url, "--user", "admin", "import", "subsidiaries", str(subs)]) == 0, capsys.readouterr().err
    assert main(["--db", url, "--user", "admin", "db", "upgrade"]) == 0
    assert "regions" not in capsys.readouterr().out
    from models import AuditEvent
    with db.session() as s:
        assert s.execute(select(func.count()).where(AuditEvent.action == "region.load")).scalar_one() == 1

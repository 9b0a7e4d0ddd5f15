"""Fapiao export tax coding: the code follows the kind of line *and* its VAT rate, from a table an
administrator edits (audited); discounts and downtime credits go out as 折扣行 under the line they
reduce; every row says it is without tax (含税标志 0). Both backends.

The worked statement, October 2026 (31 days = 2,678,400 s), one contract:

| line | kind | rate | amount | tax | hand computation |
| --- | --- | --- | --- | --- | --- |
| rack A-01 | rack | 6 % | 6,000.00 | 360.00 | 6,000.00 × 0.06 |
| discount | discount | 6 % | −500.00 | −30.00 | −500.00 × 0.06 |
| 2 H100 by the month | gpu | 13 % | 20,000.00 | 2,600.00 | 2 × 10,000.00; × 0.13 |
| downtime credit GPU 1, 24 h | gpu credit | 13 % | −322.58 | −41.94 | 10,000.00 × 86,400 / 2,678,400 = 322.5806…; × 0.13 = 41.9354… |

Expected rows: rack (被折扣行 2) then its discount (折扣行 1, same code and rate), GPU at 13 % under
有形动产经营租赁 3040502019900000000 (not an IT-service code) then its credit.
"""
from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal as D

import pytest
from sqlalchemy import select

from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.domain.rating import ELECTRICITY
from app.services import billing as BS
from app.services.receivables import fapiao as FP
from app.services.receivables.fapiao import taxcodes as FPT
from app.services import contracts as C
from models import AuditEvent, TaxCode
from models.choices import ItemKind, PriceUnit
from tests.billing.test_billing_world import add_readings, cst, gpu_item, make_world, rack_item, signed


@pytest.fixture
def october(db, admin, manager):
    w = make_world(db)
    discount = C.ItemSpec(kind=ItemKind.DISCOUNT, description="长期客户优惠", unit_price=D("500"),
                          price_unit=PriceUnit.MONTH)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000"), gpu_item(w, [1, 2], "10000", unit=PriceUnit.MONTH),
                                   discount], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    BS.record_downtime(db, admin, gpu_id=w.gpu_ids[0], start=cst(2026, 10, 10), end=cst(2026, 10, 11), reason="XID 79")
    BS.run_billing(db, admin, "2026-10", issue=True)
    return w


def _rows(db):
    heads, rows = FP.fapiao_lines(db, "2026-10")
    return heads, [dict(zip(FP.LINE_COLUMNS, r)) for r in rows]


def test_code_follows_kind_and_rate_and_discounts_sit_under_their_line(db, october):
    heads, rows = _rows(db)
    assert len(heads) == 1
    figures = [(r["商品和服务税收分类编码"], D(r["金额"]), D(r["税率"]), D(r["税额"]), r["发票行性质"]) for r in rows]
    assert figures == [
        ("3040203000000000000", D("6000.00"), D("0.06"), D("360.00"), "2"),
        ("3040203000000000000", D("-500.00"), D("0.06"), D("-30.00"), "1"),
        ("3040502019900000000", D("20000.00"), D("0.13"), D("2600.00"), "2"),
        ("3040502019900000000", D("-322.58"), D("0.13"), D("-41.94"), "1"),
    ]
    # a 折扣行 repeats the name of the line it reduces; every row is without tax
    assert rows[1]["项目名称"] == rows[0]["项目名称"] and rows[0]["项目名称"].startswith("*信息系统服务*")
    assert rows[3]["项目名称"] == rows[2]["项目名称"] and rows[2]["项目名称"].startswith("*经营租赁*")
    assert {r["含税标志"] for r in rows} == {"0"}
    # nothing was lost: the rows sum to the statement
    assert sum(D(r["金额"]) for r in rows) == D("25177.42") and sum(D(r["税额"]) for r in rows) == D("2888.06")
    # no row goes out under the code 0019 seeded, found in no public source
    assert all(r["商品和服务税收分类编码"] != "3040203050000000000" for r in rows)


def test_metered_electricity_is_coded_as_electricity_and_never_as_an_it_service(db, admin, manager):
    assert FP.line_kind(ItemKind.RACK, "power") == ELECTRICITY == FP.line_kind(ItemKind.POWER, "power")
    assert FP.line_kind(ItemKind.POWER, "fee") == ItemKind.POWER
    codes = {(t.line_kind, t.tax_rate): t for t in FP.list_tax_codes(db)}
    assert codes[("electricity", D("0.1300"))].code == "1100101020200000000"
    assert ("electricity", D("0.0600")) not in codes  # energy billed at 6 %: no default, the desk decides
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000", power_allowance_kw=D("1"), kwh_price=D("1.2"))],
           dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    # daily readings, 100 kWh a day: 3,100 kWh used, 1 kW × 744 h = 744 allowed, 2,356 kWh over
    add_readings(db, w.rack_ids[0], [(cst(2026, 10, 1) + dt.timedelta(days=k), str(100 * k)) for k in range(32)])
    BS.run_billing(db, admin, "2026-10", issue=True)
    # the rent (power included) stays the rack's IDC service at 6 %; the energy over the allowance is
    # electricity at 13 % under 售电: 6,000.00 × 0.06 = 360.00; 2,356 × 1.20 = 2,827.20, × 0.13 = 367.536
    rows = _rows(db)[1]
    assert [(r["商品和服务税收分类编码"], D(r["税率"]), D(r["金额"]), D(r["税额"])) for r in rows] == [
        ("3040203000000000000", D("0.06"), D("6000.00"), D("360.00")),
        ("1100101020200000000", D("0.13"), D("2827.20"), D("367.54"))]
    assert "超额用电 2356" in rows[1]["项目名称"] and rows[1]["项目名称"].startswith("*供电*")


def test_missing_code_refuses_the_export_with_the_way_to_add_it(db, admin, october, monkeypatch):
    with db.session() as s:
        s.delete(s.execute(select(TaxCode).where(TaxCode.line_kind == "gpu", TaxCode.tax_rate == D("0.13"))).scalar_one())
        s.commit()
    monkeypatch.setattr(FPT, "default_tax_codes", lambda: {})  # where tax_codes() looks it up
    with pytest.raises(RuleViolation, match=r"no tax code for gpu lines at 13 %.*fapiao tax-code gpu --rate 0.13"):
        FP.fapiao_lines(db, "2026-10")
    FP.set_tax_code(db, admin, "gpu", "0.13", code="3040502019900000000", short_name="经营租赁", item_name="GPU服务器租赁",
                    source="confirmed with the tax office 2026-12-01")
    assert len(_rows(db)[1]) == 4


def test_an_administrator_edits_the_table_audited_and_a_refused_edit_changes_nothing(db, admin, manager, october):
    with pytest.raises(PermissionDenied):
        FP.set_tax_code(db, manager, "rack", "0.06", code="3040203000000000000", short_name="x", item_name="y")
    with pytest.raises(ValidationError) as e:
        FP.set_tax_code(db, admin, "discount", "abc", code="123", short_name="", item_name="")
    assert set(e.value.errors) == {"kind", "rate", "code", "short_name", "item_name"}
    # the code's rate and the line's must agree (the complaint: a 13 % GPU line under a 6 % IT-service code)
    with pytest.raises(ValidationError, match="信息技术服务, taxed at 6 %, not 13 %"):
        FP.set_tax_code(db, admin, "gpu", "0.13", code="3040205000000000000", short_name="信息系统增值服务",
                        item_name="算力服务")
    with pytest.raises(ValidationError, match="不动产经营租赁, taxed at 9 %"):
        FP.set_tax_code(db, admin, "gpu", "0.13", code="3040502020000000000", short_name="经营租赁", item_name="x")
    before = {(t.line_kind, t.tax_rate, t.code) for t in FP.list_tax_codes(db)}
    info = FP.set_tax_code(db, admin, "maintenance", "0.13", code="2010000000000000000", short_name="修理修配劳务",
                           item_name="设备维修", source="税务局 2026-12-01")
    assert info.project_name == "*修理修配劳务*设备维修" and info.rate_text == "13 %"
    after = {(t.line_kind, t.tax_rate, t.code) for t in FP.list_tax_codes(db)}
    assert after - before == {("maintenance", D("0.1300"), "2010000000000000000")}
    FP.set_tax_code(db, admin, "rack", "0.06", code="3040203000000000000", short_name="信息系统服务", item_name="机柜服务")
    with db.session() as s:
        ev = s.execute(select(AuditEvent).where(AuditEvent.object_type == "tax_code").order_by(AuditEvent.seq)).scalars().all()
    assert [e.action for e in ev] == ["tax_code.create", "tax_code.update"]
    assert _rows(db)[1][0]["项目名称"].startswith("*信息系统服务*")
    from app.audit.reconcile import reconcile
    with db.session() as s:
        assert not [d for d in reconcile(s).differences if d.object_type == "tax_code"]


def test_defaults_file_matches_the_migration_and_cites_a_source_for_every_code():
    import importlib.util
    from pathlib import Path

    path = Path(FP.__file__).resolve().parents[4] / "models" / "migrations" / "versions" / "0026_tax_codes.py"
    spec = importlib.util.spec_from_file_location("m0026", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    with FP.TAX_CODES_FILE.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["line_kind"], D(r["tax_rate"]), r["code"], r["short_name"], r["item_name"]) for r in rows] == \
        [(k, D(r), c, s, n) for k, r, c, s, n in m.DEFAULTS]
    assert all(r["source"] and r["verified"] in ("verified", "corroborated", "unverified") for r in rows)
    assert all(len(r["code"]) == 19 and r["code"].isdigit() for r in rows)
    for r in rows:  # every default passes the service's own check (code and rate agree)
        FP.check_tax_code(r["line_kind"], r["tax_rate"], r["code"], r["short_name"], r["item_name"])


def test_cli_lists_and_sets_a_tax_code(db, admin, monkeypatch, capsys):
    from app.cli.main import main
    from tests.conftest import PASSWORD
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)

    def cli(*argv):
        rc = main(["--db", db.url, "--user", "admin", *argv])
        out = capsys.readouterr()
        return rc, out.out, out.err
    rc, out, err = cli("fapiao", "tax-code", "gpu")
    assert rc == 0 and "gpu\t13 %\t3040502019900000000\t*经营租赁*GPU服务器经营租赁" in out, err
    rc, out, err = cli("fapiao", "tax-code", "gpu", "--code", "3040205000000000000")
    assert rc != 0 and "--rate" in out + err
    rc, out, err = cli("fapiao", "tax-code", "electricity", "--rate", "0.06", "--code", "3040203000000000000",
                       "--short-name", "信息系统服务", "--name", "机房电费", "--source", "税务局确认")
    assert rc == 0 and "electricity\t6 %\t3040203000000000000\t*信息系统服务*机房电费" in out, err

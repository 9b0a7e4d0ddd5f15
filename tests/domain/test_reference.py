"""Regions, coverage, deletes of referenced records, validation of credit codes, locking."""
from __future__ import annotations

import pytest

from app.domain.errors import Conflict, InUse, ValidationError
from app.services.common import create_record, delete_record, update_record
from app.services.dcim import place_device
from app.services.reference import add_coverage, delete_region, load_regions, who_serves
from app.domain.validators import make_uscc, uscc_problem
from models import Region
from tests.support.builders import build_customer, build_site, build_types
from tests.conftest import table_counts


def test_uscc_check_character():
    assert uscc_problem("91350100M000100Y43") is None  # a real-world published code
    assert "check character" in uscc_problem("91350100M000100Y44")
    assert "18 characters" in uscc_problem("9135")
    assert "cannot contain" in uscc_problem("91350100M000100YO3")


def test_region_load_is_repeatable_and_renames_by_code(db, admin, tmp_path):
    first = load_regions(db, admin)
    assert first.added == 3213 and first.removed == 0 and first.kept == ()
    again = load_regions(db, admin)
    assert (again.added, again.renamed, again.moved, again.removed, again.unchanged) == (0, 0, 0, 0, 3213)
    from app.services.reference import REGIONS_FILE
    text = REGIONS_FILE.read_text(encoding="utf-8").replace("460108,美兰区,", "460108,美兰新区,")
    (tmp_path / "regions.csv").write_text(text, encoding="utf-8")
    third = load_regions(db, admin, tmp_path / "regions.csv")
    assert (third.renamed, third.added, third.unchanged) == (1, 0, 3212)
    with db.session() as s:
        assert s.get(Region, "460108").name == "美兰新区"


def test_who_serves_walks_up_the_tree(db, admin):
    ids = build_site(db, admin)
    add_coverage(db, admin, ids["subsidiary"], "460100", service_level="partner", response_hours=12)  # 海口市
    fz = create_record(db, admin, "subsidiary", dict(code="FZ", name="华锐算力科技（福州）有限公司",
                                                     credit_code=make_uscc("91350100MA2Y7K3L0")))
    add_coverage(db, admin, fz, "460108", service_level="remote", response_hours=8)  # 美兰区
    answers = who_serves(db, "460108")
    assert [(a.subsidiary_code, a.covered_via) for a in answers] == [("FZ", "460108"), ("GZ", "460100")]
    assert [a.subsidiary_code for a in who_serves(db, "460105")] == ["GZ"]  # 秀英区 via the city
    assert who_serves(db, "110105") == []


def test_referenced_records_are_not_deleted(db, admin):
    ids = build_site(db, admin)
    ids.update(build_types(db, admin))
    place_device(db, admin, dict(name="srv-1", device_type_id=ids["server"], rack_id=ids["racks"][0], position=1))
    before = table_counts(db)
    with pytest.raises(InUse, match="1 device"):
        delete_record(db, admin, "rack", ids["racks"][0])
    with pytest.raises(InUse, match="2 rack"):
        delete_record(db, admin, "room", ids["room"])
    with pytest.raises(InUse, match="site"):
        delete_region(db, admin, "440112")
    assert table_counts(db) == before
    delete_record(db, admin, "rack", ids["racks"][1])


def test_customer_validation_and_unique_credit_code(db, admin):
    load_regions(db, admin)
    before = table_counts(db)
    with pytest.raises(ValidationError) as err:
        create_record(db, admin, "customer", dict(name="", credit_code="91440106MA59ABCD10"))
    assert set(err.value.errors) == {"name", "credit_code"}
    assert table_counts(db) == before
    build_customer(db, admin)
    with pytest.raises(ValidationError, match="belongs to another customer"):
        build_customer(db, admin, name="另一家")


def test_stale_version_is_refused_naming_who(db, admin, operator):
    ids = build_site(db, admin)
    update_record(db, operator, "rack", ids["racks"][0], {"power_capacity_kw": 12}, expected_version=1)
    before = table_counts(db)
    with pytest.raises(Conflict) as err:
        update_record(db, admin, "rack", ids["racks"][0], {"power_capacity_kw": 14}, expected_version=1)
    assert "op" in err.value.message and err.value.who == "op"
    assert table_counts(db) == before

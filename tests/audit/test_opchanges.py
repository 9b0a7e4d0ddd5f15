"""Services report what they changed (OpChanges), collected from the units of work that committed."""
from __future__ import annotations

import pytest

from app.domain.changes import collect_changes
from app.domain.errors import ValidationError
from app.services.common import update_record
from tests.support.builders import build_customer, build_site


def test_a_committed_write_reports_its_kinds(db, admin):
    ids = build_site(db, admin, racks=1)
    with collect_changes() as changes:
        update_record(db, admin, "rack", ids["racks"][0], {"name": "B01"})
    assert changes.kinds == {"rack", "audit"}


def test_several_units_of_work_add_up(db, admin):
    with collect_changes() as changes:
        build_site(db, admin, racks=1)
        build_customer(db, admin)
    assert {"customer", "site", "room", "rack", "subsidiary", "audit"} <= changes.kinds


def test_a_refused_write_reports_nothing(db, admin):
    ids = build_site(db, admin, racks=1)
    with collect_changes() as changes, pytest.raises(ValidationError):
        update_record(db, admin, "rack", ids["racks"][0], {"name": ""})
    assert not changes and changes.kinds == set()


def test_nested_collections_are_separate_and_outside_nothing_is_collected(db, admin):
    ids = build_site(db, admin, racks=1)
    with collect_changes() as outer:
        with collect_changes() as inner:
            update_record(db, admin, "rack", ids["racks"][0], {"name": "C01"})
        assert inner.kinds == {"rack", "audit"}
    assert outer.kinds == set()
    update_record(db, admin, "rack", ids["racks"][0], {"name": "D01"})  # no collection open: nothing breaks

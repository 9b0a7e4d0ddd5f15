"""Lookups that were written twice with different rules, now one function each (issue 13)."""
from __future__ import annotations

import ast
import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from app import documents
from app.domain.errors import NotFound, ValidationError
from app.services import billing as SB
from app.services import contracts as C
from app.services.racknames import find_rack
from app.services.reference import tax_rates_on
from models import Rack, Room, TaxRate
from tests.billing.test_billing_world import make_world, rack_item

ROOT = Path(__file__).resolve().parents[2]


def test_the_local_zone_is_defined_once():
    """Asia/Shanghai was defined in seven places; now only app/domain/clock.py builds the zone."""
    found = []
    for folder in ("app", "ui", "models", "reports"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "ZoneInfo":
                    found.append(path.relative_to(ROOT).as_posix())
                if isinstance(node, ast.Constant) and node.value == "Asia/Shanghai":
                    found.append(path.relative_to(ROOT).as_posix())
    assert sorted(set(found)) == ["app/domain/clock.py"]


def test_every_local_time_reads_the_same():
    from app.audit import query as audit_query
    from app.domain import rating as billing
    from app.domain import clock
    from app.services.entities import local_time
    t = dt.datetime(2026, 11, 30, 16, 30, tzinfo=dt.timezone.utc)      # 00:30 on 1 December in Shanghai
    assert billing.local_date(t) == clock.local_date(t) == dt.date(2026, 12, 1)
    assert local_time(t) == audit_query.to_local(t) == clock.local_text(t) == "2026-12-01 00:30:00"
    assert audit_query.local_midnight_utc(dt.date(2026, 12, 1)) == billing.local_midnight(dt.date(2026, 12, 1)) \
        == dt.datetime(2026, 11, 30, 16, 0, tzinfo=dt.timezone.utc)


# --- a record by what a person types: the documents and the services read keys the same way ----


def test_a_contract_by_number_or_id_padded_or_not(db, admin, manager):
    w = make_world(db)
    c = C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                          start_date=dt.date(2026, 9, 1), end_date=dt.date(2027, 8, 31), items=[rack_item(w, 1, "1")])
    for key in (c.number, f"  {c.number} ", c.id, str(c.id)):
        assert C.get_contract(db, key).id == c.id, key
        assert documents.contract_doc(db, key).number == c.number, key
    for key in ("GZ-1999-0001", "99999"):
        with pytest.raises(NotFound):
            C.get_contract(db, key)
        with pytest.raises(NotFound):
            documents.contract_doc(db, key)


def test_a_statement_by_number_or_draft_id(db, admin, manager):
    from tests.billing.test_billing_world import signed
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "6000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    run = SB.run_billing(db, admin, "2026-09")
    draft = run.statements[0]
    for key in (draft.id, str(draft.id), f" {draft.id} "):
        assert SB.get_statement(db, key).id == draft.id
        assert documents.statement_doc(db, key).number.endswith(f"#{draft.id}")
    SB.issue_statements(db, admin, period="2026-09")
    number = SB.get_statement(db, draft.id).number
    for key in (number, f" {number} "):
        assert SB.get_statement(db, key).id == draft.id
        assert documents.statement_doc(db, key).number == number


def test_a_rack_by_tag_path_name_or_id_reads_the_same_for_pdfs_and_meter_files(db, admin):
    w = make_world(db)
    with db.session() as s:
        rack = s.get(Rack, w.rack_ids[0])
        rack.asset_tag = "TAG-0001"
        other_room = Room(site_id=s.get(Room, rack.room_id).site_id, name="B")
        s.add(other_room)
        s.flush()
        s.add(Rack(room_id=other_room.id, name="A-02"))       # A-02 is now ambiguous
        s.commit()
    keys = ["TAG-0001", "GZ1/A/A-01", "GZ1/A-01", "A-01", str(w.rack_ids[0])]
    for key in keys:
        assert find_rack(db, key) == w.rack_ids[0], key
    readings = [{"rack": key, "read_at": f"2026-11-0{n + 1}T00:00", "kwh_total": str(100 * (n + 1))}
                for n, key in enumerate(keys)]
    assert SB.import_meter_readings(db, admin, readings).imported == len(keys)
    with pytest.raises(ValidationError, match="2 racks are called A-02"):
        find_rack(db, "A-02")
    with pytest.raises(ValidationError, match="2 racks are called A-02"):
        SB.import_meter_readings(db, admin, [{"rack": "A-02", "read_at": "2026-11-01T00:00", "kwh_total": "1"}])


def test_the_tax_rate_on_a_date_is_one_reading(db, admin, manager):
    from app.domain.rating import Period
    with db.session() as s:
        base = dict(tax_rates_on(s, dt.date(2026, 9, 1)))
        s.add(TaxRate(category="idc", rate=Decimal("0.0900"), valid_from=dt.date(2027, 1, 1)))
        s.commit()
        assert tax_rates_on(s, dt.date(2026, 12, 31)) == base
        assert tax_rates_on(s, dt.date(2027, 1, 1))["idc"] == Decimal("0.09")
        assert SB.tax_rates(s, Period.parse("2027-01")) == tax_rates_on(s, dt.date(2027, 1, 1))
    w = make_world(db)
    c = C.create_contract(db, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                          start_date=dt.date(2027, 1, 1), end_date=dt.date(2027, 12, 31), items=[rack_item(w, 1, "1")])
    assert documents.contract_doc(db, c.id).items[0].tax_rate == Decimal("0.09")

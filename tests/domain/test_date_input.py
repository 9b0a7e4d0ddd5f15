"""Dates and billing periods given by a person: one reading each (app.domain.clock.parse_date,
app.domain.rating.Period.parse) for the command line, the services and the imports. YYYY-MM-DD (and what a
spreadsheet writes for a date: 2026/1/5, a midnight timestamp), years 2000 to 2099; 20261101, an int,
9999-12-31 refused with a field error, not a TypeError and not a lease that never ends."""
from __future__ import annotations

import datetime as dt

import pytest

from app.domain.rating import Period
from app.cli.main import parse_day, parse_period
from app.domain.clock import DateError, local_today, parse_date
from app.domain.errors import ValidationError
from app.services import billing as BS
from app.services.receivables import deposits as DEP
from app.services import receivables as R
from app.services.space import lease_space
from app.importexport import run_import
from models import Customer, Rack
from tests.conftest import table_counts
from tests.billing.test_billing_world import make_world


@pytest.mark.parametrize("value,day", [
    ("2026-11-01", dt.date(2026, 11, 1)), (" 2026-11-01 ", dt.date(2026, 11, 1)), ("2026/1/5", dt.date(2026, 1, 5)),
    ("2026-1-5", dt.date(2026, 1, 5)), ("2026-01-05 00:00:00", dt.date(2026, 1, 5)),
    ("2026-01-05T00:00", dt.date(2026, 1, 5)), (dt.date(2026, 1, 5), dt.date(2026, 1, 5)),
    (dt.datetime(2026, 1, 5, 9, 30), dt.date(2026, 1, 5)), ("", None), (None, None),
])
def test_one_reading_of_a_date(value, day):
    assert parse_date(value) == day


@pytest.mark.parametrize("value,why", [
    ("20261101", "use YYYY-MM-DD"), (20261101, "use YYYY-MM-DD"), (2026.11, "use YYYY-MM-DD"),
    ("2026-02-30", "of the calendar"), ("9999-12-31", "out of range"), (dt.date(9999, 12, 31), "out of range"),
    ("1999-12-31", "out of range"), ("2026-01-01garbage", "use YYYY-MM-DD"), ("2026/01-05", "use YYYY-MM-DD"),
    ("2026-01-05 08:00", "use YYYY-MM-DD"),
])
def test_what_is_not_a_date_is_refused_with_a_sentence(value, why):
    with pytest.raises(DateError, match=why):
        parse_date(value)


def test_the_command_line_reads_dates_and_periods_as_the_services_do():
    assert parse_day("2026-11-01") == parse_date("2026-11-01")
    with pytest.raises(ValueError, match="out of range"):
        parse_day("9999-12-31")
    assert parse_period("2026-10") == Period.parse("2026-10").label == "2026-10"
    assert parse_period("last", dt.date(2027, 1, 3)) == Period.parse("last", dt.date(2027, 1, 3)).label == "2026-12"
    assert Period.last_month(dt.date(2027, 3, 31)) == Period(2027, 2)
    assert Period.this_month(dt.date(2027, 3, 31)) == Period(2027, 3)


@pytest.mark.parametrize("text", ["2026-1", "202610", "2026-13", "1999-12", "2026-10-01"])
def test_what_is_not_a_period_is_refused_alike(text):
    with pytest.raises(ValueError, match="not a period|out of range"):
        Period.parse(text)
    with pytest.raises(ValueError):
        parse_period(text)


def test_run_billing_refuses_a_period_the_command_line_refuses(db, admin):
    make_world(db)
    before = table_counts(db)
    for text in ("2026-1", "202610"):
        with pytest.raises(ValidationError) as info:
            BS.run_billing(db, admin, text, dry_run=True)
        assert "period" in info.value.errors
    assert table_counts(db) == before


@pytest.mark.parametrize("day", ["20261101", 20261101, "9999-12-31", "2026-02-30"])
def test_services_refuse_what_is_not_a_date(db, admin, day):
    w = make_world(db)
    with db.session() as s:
        code = s.get(Customer, w.customer_id).credit_code
    before = table_counts(db)
    with pytest.raises(ValidationError) as info:
        DEP.receive_deposit(db, admin, code, "100", on_date=day)
    assert "date" in info.value.errors
    with pytest.raises(ValidationError) as info:
        R.record_payment(db, admin, code, "100", day, "BR-1")
    assert "date" in info.value.errors
    assert table_counts(db) == before


def test_a_lease_cannot_end_in_9999(db, admin, tmp_path):
    w = make_world(db)
    before = table_counts(db)
    with pytest.raises(ValidationError) as info:
        lease_space(db, admin, customer_id=w.customer_id, rack_id=w.rack_ids[0], start_date=dt.date(2026, 1, 1),
                    end_date=dt.date(9999, 12, 31))
    assert "out of range" in info.value.errors["end_date"]
    with pytest.raises(ValidationError) as info:
        lease_space(db, admin, customer_id=w.customer_id, rack_id=w.rack_ids[0], start_date="20260101")
    assert "use YYYY-MM-DD" in info.value.errors["start_date"]
    with db.session() as s:
        rack = s.get(Rack, w.rack_ids[0])
        site, room, name = rack.room.site.code, rack.room.name, rack.name
        customer = s.get(Customer, w.customer_id).name
    path = tmp_path / "leases.csv"
    path.write_text(f"site,location,rack,customer,start,end\n{site},{room},{name},{customer},2026-01-01,9999-12-31\n",
                    encoding="utf-8")
    with pytest.raises(ValidationError) as info:
        run_import(db, admin, "leases", path)
    assert "line 2, column end" in info.value.errors and "out of range" in info.value.errors["line 2, column end"]
    assert table_counts(db) == before
    assert lease_space(db, admin, customer_id=w.customer_id, rack_id=w.rack_ids[0], start_date="2026-01-01",
                       end_date="2099-12-31")
    assert local_today() <= dt.date(2099, 12, 31)

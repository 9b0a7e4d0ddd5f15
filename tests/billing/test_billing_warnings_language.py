"""The billing run's warnings in the reader's language: the console asks in its own, so an English
reader is not shown "电表于 … 复位" for a Chinese contract; the lines keep the contract's words."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from tests.billing.test_billing import daily_readings, add_readings, make_world, rack_item, run, signed


def test_run_warnings_follow_the_asked_language_lines_the_contract(db, admin, manager):
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 2, "5000", power_allowance_kw=D(5), kwh_price=D("1.20"))],
           dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    add_readings(db, w.rack_ids[1], daily_readings(1, 15, 10000, 150) + daily_readings(16, 17, 150, 150))
    english = run(db, admin, "2026-10", dry_run=True, language="en")
    [reset] = [x for x in english.warnings if "reset" in x]
    assert "meter reset at" in reset and "segments summed" in reset and "复位" not in reset
    assert not any("复位" in x or "尚未" in x for x in english.warnings)
    assert "复位" in english.statements[0].lines[1].note          # the line: the contract's (Chinese) words
    chinese = run(db, admin, "2026-10", dry_run=True, language="zh")
    assert any("复位" in x for x in chinese.warnings)
    by_contract = run(db, admin, "2026-10", dry_run=True)         # no language: the contract's, as before
    assert any("复位" in x for x in by_contract.warnings)
    # the open month's "not ended" warning too
    now = run(db, admin, "2026-11", dry_run=True, language="en",
              as_of=dt.datetime(2026, 11, 10, tzinfo=dt.timezone.utc))
    assert any("has not ended; power is not billed yet" in x for x in now.warnings), now.warnings

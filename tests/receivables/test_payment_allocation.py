"""A receipt is allocated oldest due first, and among statements due the same day, the older
month first (SQLite and PostgreSQL).

October is run before September, then both are issued together (same issue instant, same due
date, October with the lower id). Rack at 1,000.00 a month + 6 % = 1,060.00 each; a receipt of
1,500.00 goes 1,060.00 to September, 440.00 to October.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from app.domain.clock import local_today
from app.services import billing as BS
from app.services import receivables as R
from tests.billing.test_billing_world import cst, make_world, rack_item, signed


def test_ties_in_allocation_go_to_the_older_month_first(db, admin, manager):
    w = make_world(db)
    signed(db, manager, admin, w, [rack_item(w, 1, "1000")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    for period in ("2026-10", "2026-09"):
        BS.run_billing(db, admin, period, as_of=cst(2026, 12, 1, 9))
    BS.issue_statements(db, admin, statement_ids=[s.id for s in BS.list_statements(db)])
    sts = {s.period: s for s in BS.list_statements(db)}
    assert sts["2026-10"].id < sts["2026-09"].id and sts["2026-10"].total == sts["2026-09"].total == D("1060.00")
    p = R.record_payment(db, admin, w.customer_id, "1500", local_today(), "TIE-1")
    assert p.allocations == ((sts["2026-09"].number, D("1060.00")), (sts["2026-10"].number, D("440.00")))

"""Concurrent runs and issues on PostgreSQL never duplicate or skip a number.

Each thread has its own engine (its own connections), as separate console processes would.
"""
from __future__ import annotations

import datetime as dt
import os
import threading
from decimal import Decimal

import pytest
from sqlalchemy import func, select

from app.domain.clock import local_today
from app.store.db import Database
from app.services import billing as BS
from models import Customer, Statement, StatementLine
from models.choices import StatementStatus
from tests.billing.test_billing_world import cst, make_world, rack_item, signed

# SQLite serialises writers, so the races are PostgreSQL's: these tests run there only.
ON_POSTGRESQL = pytest.mark.parametrize("db", ["postgresql"], indirect=True)
pytestmark = pytest.mark.skipif(not os.environ.get("IDC_TEST_PG_URL"),
                                reason="concurrency is tested on PostgreSQL (set IDC_TEST_PG_URL)")

N_CUSTOMERS = 12
NOW = cst(2026, 12, 1, 9)  # October and November have ended


def _setup(db, admin, manager):
    w = make_world(db, n_racks=N_CUSTOMERS, n_customers=N_CUSTOMERS)
    with db.session() as s:
        customers = list(s.execute(select(Customer.id).order_by(Customer.id)).scalars())
    for n, cid in enumerate(customers, start=1):
        signed(db, manager, admin, w, [rack_item(w, n, str(1000 * n))], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
               customer_id=cid)
    return w


def _in_threads(db, n, fn):
    errors, results = [], []
    barrier = threading.Barrier(n)

    def work():
        own = Database(db.url)
        try:
            barrier.wait()
            results.append(fn(own))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            own.dispose()

    threads = [threading.Thread(target=work) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    return results


@ON_POSTGRESQL
def test_concurrent_issue_keeps_numbers_gapless(db, admin, manager):
    _setup(db, admin, manager)
    assert BS.run_billing(db, admin, "2026-10", as_of=NOW).statements_created == N_CUSTOMERS
    results = _in_threads(db, 6, lambda own: BS.issue_statements(own, admin, period="2026-10"))
    numbers = sorted(n for r in results for _i, n, _t in r.issued)
    assert numbers == [f"GZ-202610-{i:06d}" for i in range(1, N_CUSTOMERS + 1)]
    with db.session() as s:
        assert s.execute(select(func.count()).select_from(Statement).where(
            Statement.status == StatementStatus.ISSUED)).scalar_one() == N_CUSTOMERS


@ON_POSTGRESQL
def test_concurrent_runs_bill_each_line_once_and_number_gaplessly(db, admin, manager):
    _setup(db, admin, manager)
    results = _in_threads(db, 4, lambda own: BS.run_billing(own, admin, "2026-11", issue=True, as_of=NOW))
    assert sum(r.lines_created for r in results) == N_CUSTOMERS
    assert sorted(r.lines_created for r in results)[-1] == N_CUSTOMERS  # one run billed, the others found it done
    issued = sorted(n for r in results for n in r.issued)
    assert issued == [f"GZ-202611-{i:06d}" for i in range(1, N_CUSTOMERS + 1)]
    with db.session() as s:
        assert s.execute(select(func.count()).select_from(StatementLine)).scalar_one() == N_CUSTOMERS
        assert s.execute(select(func.sum(Statement.subtotal))).scalar_one() == Decimal(1000 * sum(range(1, 13)))


@ON_POSTGRESQL
def test_concurrent_drafting_keeps_contract_numbers_gapless(db, admin, manager):
    from app.services import contracts as C

    w = make_world(db)

    def draft(own):
        return [C.create_contract(own, manager, subsidiary_id=w.subsidiary_id, customer_id=w.customer_id,
                                  start_date=dt.date(2026, 10, 1), end_date=dt.date(2027, 9, 30),
                                  items=[rack_item(w, 1, "1")]).number for _ in range(3)]
    numbers = sorted(n for batch in _in_threads(db, 5, draft) for n in batch)
    year = local_today().year
    assert numbers == [f"GZ-{year}-{i:04d}" for i in range(1, 16)]

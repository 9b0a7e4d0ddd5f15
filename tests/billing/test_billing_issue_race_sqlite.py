"""Two `billing run --issue` of one month at once on SQLite: the loser says another run issued the
month, and no number is taken twice (SQLite has no SKIP LOCKED; PostgreSQL's races are in
test_billing_concurrency.py).

The race is made deterministic, without sleeps: the loser reads the drafts, and just before its
first write of the issue (taking the statement numbers) the winner, on its own connection, issues
the whole month, as a second console would between the two steps.
"""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import event, func, select

from app.store.db import Database
from app.services import billing as BS
from models import Customer, Statement
from models.choices import StatementStatus
from tests.billing.test_billing_world import cst, make_world, rack_item, signed

AT = cst(2026, 12, 1, 9)


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_the_loser_of_two_issuing_runs_says_another_run_issued_the_month(db, admin, manager):
    w = make_world(db, n_racks=3, n_customers=3)
    with db.session() as s:
        customers = list(s.execute(select(Customer.id).order_by(Customer.id)).scalars())
    for n, cid in enumerate(customers, start=1):
        signed(db, manager, admin, w, [rack_item(w, n, str(1000 * n))], dt.date(2026, 10, 1), dt.date(2027, 9, 30),
               customer_id=cid)
    BS.run_billing(db, admin, "2026-10", as_of=AT)  # three drafts
    winner, loser = Database(db.url), Database(db.url)
    won = []

    def between_read_and_write(conn, cursor, statement, parameters, context, executemany):
        if not won and "document_counter" in statement and "statement" in (parameters or ()):
            won.append(BS.issue_statements(winner, admin, period="2026-10"))
    event.listen(loser.engine, "before_cursor_execute", between_read_and_write)
    try:
        summary = BS.run_billing(loser, admin, "2026-10", issue=True, as_of=AT)
    finally:
        event.remove(loser.engine, "before_cursor_execute", between_read_and_write)
        winner.dispose()
        loser.dispose()
    assert len(won[0].issued) == 3
    assert summary.issued == () and summary.issued_elsewhere == 3
    assert "another run issued 3 statement(s) of 2026-10 meanwhile" in summary.describe()
    with db.session() as s:
        numbers = list(s.execute(select(Statement.number).where(Statement.status == StatementStatus.ISSUED)
                                 .order_by(Statement.number)).scalars())
        assert s.execute(select(func.count()).select_from(Statement)).scalar_one() == 3
    assert numbers == ["GZ-202610-000001", "GZ-202610-000002", "GZ-202610-000003"]

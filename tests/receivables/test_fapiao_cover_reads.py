"""Opening a statement reads only that statement's fapiao rows (issue 26): `covers(s, [id])` used to
total every fapiao and credit note of every statement to show one, so the statement panel grew with
the data. SQLite and PostgreSQL.

Two customers, three months billed (rack 1,000.00 + 6 % = 1,060.00 a statement), a fapiao on each
statement, one statement credited in full with a red-letter fapiao against its fapiao. Opening one
statement sends four queries and reads at most a row each, and the cover is the one the whole set
gives.
"""
from __future__ import annotations

import datetime as dt

from sqlalchemy import event
from sqlalchemy.orm import Session

from app.domain.clock import local_today
from app.services import billing as BS
from app.services.receivables import fapiao as FP
from tests.billing.test_billing_world import cst, make_world, rack_item, signed


def _world(db, admin, manager):
    w = make_world(db)
    for k, cid in enumerate((w.customer_id, w.other_customer_id), start=1):
        signed(db, manager, admin, w, [rack_item(w, k, "1000")], dt.date(2026, 8, 1), dt.date(2027, 7, 31),
               customer_id=cid)
    for month in (8, 9, 10):
        BS.run_billing(db, admin, f"2026-{month:02d}", issue=True, as_of=cst(2026, month + 1, 1, 9))
    sts = sorted((s for s in BS.list_statements(db) if s.kind == "statement"), key=lambda s: s.id)
    today = local_today()
    for n, st in enumerate(sts, start=1):
        FP.add_fapiao(db, admin, st.number, f"2644200000000000{n:04d}", today, "1000.00", "60.00")
    cn = BS.credit_statement(db, admin, sts[0].number, "wrong rack on the statement")
    FP.add_red_fapiao(db, admin, cn.number, "26442000000000009001", "26442000000000000001")
    return sts, cn


def test_one_statement_reads_only_its_own_rows(db, admin, manager):
    sts, cn = _world(db, admin, manager)
    assert len(sts) == 6
    reads: list[int] = []

    def count_rows(state):
        frozen = state.invoke_statement().freeze()
        reads.append(len(frozen().all()))
        return frozen()

    with db.session() as s:
        whole = FP.covers(s)
        event.listen(Session, "do_orm_execute", count_rows)
        try:
            one = FP.covers(s, [sts[1].id])
            credited = FP.covers(s, [sts[0].id])
            note = FP.covers(s, [cn.id])
        finally:
            event.remove(Session, "do_orm_execute", count_rows)
    assert one == {sts[1].id: whole[sts[1].id]} and credited == {sts[0].id: whole[sts[0].id]}
    assert note == {cn.id: whole[cn.id]}
    assert whole[sts[0].id].status == whole[sts[1].id].status == whole[cn.id].status == "full"
    # four queries a call; each reads at most the statement's own row (its credit notes, fapiao, red ones)
    assert len(reads) == 12, reads
    assert max(reads) <= 1 and sum(reads[:4]) == 2 and sum(reads[4:8]) == 4, reads

"""An amendment bills from its effective date, however late it is activated (SQLite and PostgreSQL).

A rack at 3,300.00 a month from 1 September; an amendment raises it to 4,000.00 effective
16 October, but is activated only on 2 December, after October and November were billed and
issued at the old price. The old revision ends on 15 October and the amendment's item is handed
over on 16 October (its planned start), so the runs of October and November credit the old
lines that no longer stand and bill the months as they now stand, on a statement referring to
the credited one. Every figure by hand (VAT 6 %, half-up to the fen per line):

| month | line                          | arithmetic            | amount    | tax     |
|-------|-------------------------------|-----------------------|-----------|---------|
| Oct   | billed at the old price        | 3,300 × 31/31         | 3,300.00  | 198.00  |
| Oct   | credit note                    | −(3,300.00)           | −3,300.00 | −198.00 |
| Oct   | old revision, rev. 2, 1–15 Oct | 3,300 × 15/31 = 1,596.774… (quantity 0.48387) | 1,596.77 | 95.81 (95.806…) |
| Oct   | amendment, 16–31 Oct           | 4,000 × 16/31 = 2,064.516… (quantity 0.51613) | 2,064.52 | 123.87 (123.871…) |
| Nov   | billed at the old price        | 3,300 × 30/30         | 3,300.00  | 198.00  |
| Nov   | credit note                    | −(3,300.00)           | −3,300.00 | −198.00 |
| Nov   | amendment, whole month         | 4,000 × 30/30         | 4,000.00  | 240.00  |

October now charges 1,596.77 + 2,064.52 = 3,661.29 + 219.68 tax = 3,880.97 (the difference
+361.29 + 21.68 = +382.97); November 4,000.00 + 240.00 = 4,240.00 (the difference +742.00).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from sqlalchemy import select

from app.services import billing as BS
from app.services import contracts as C
from app.services.contracts import handover as H
from models import AuditEvent
from tests.billing.test_billing_world import cst, make_world, rack_item, signed

BEFORE = cst(2026, 12, 1, 9)  # October and November billed and issued at the old price
AFTER = cst(2026, 12, 2, 12)  # the runs after the late activation


def _late_amendment(db, admin, manager):
    w = make_world(db)
    old = signed(db, manager, admin, w, [rack_item(w, 1, "3300")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    for period in ("2026-09", "2026-10", "2026-11"):
        BS.run_billing(db, admin, period, issue=True, as_of=BEFORE)
    new = C.amend_contract(db, manager, old.id, effective_date=dt.date(2026, 10, 16), reason="调价",
                           items=[rack_item(w, 1, "4000")])
    C.submit_contract(db, manager, new.id)
    C.approve_contract(db, admin, new.id)
    C.activate_contract(db, admin, new.id, at=cst(2026, 12, 2, 0, 30))
    return old, new


def _lines(summary):
    return sorted((ln.contract_number, ln.revision, ln.quantity, ln.unit_price, ln.amount, ln.tax)
                  for st in summary.statements for ln in st.lines)


def test_an_amendment_activated_late_bills_from_its_effective_date(db, admin, manager):
    old, new = _late_amendment(db, admin, manager)
    (item,) = H.handovers(db, new.number)
    assert item.billed_from == dt.date(2026, 10, 16)
    assert item.handover_at == cst(2026, 10, 16)

    # any run (here a preview of December) says which months to run again
    dec = BS.run_billing(db, admin, "2026-12", dry_run=True, as_of=AFTER)
    assert "请重新运行 2026-10, 2026-11 的计费以补开差额" in " ".join(dec.warnings), dec.warnings

    dry = BS.run_billing(db, admin, "2026-10", dry_run=True, as_of=AFTER)
    assert any("would be credited" in w or "将冲销" in w for w in dry.warnings), dry.warnings

    octo = BS.run_billing(db, admin, "2026-10", issue=True, as_of=AFTER)
    assert _lines(octo) == _lines(dry) == sorted([
        (old.number, 2, D("0.48387"), D("3300"), D("1596.77"), D("95.81")),
        (new.number, 1, D("0.51613"), D("4000"), D("2064.52"), D("123.87"))])
    (st,) = octo.statements
    assert st.total == D("3880.97") and st.rebills_number is not None
    nov = BS.run_billing(db, admin, "2026-11", issue=True, as_of=AFTER)
    assert _lines(nov) == [(new.number, 1, D("1"), D("4000"), D("4000.00"), D("240.00"))]
    assert nov.statements[0].total == D("4240.00")

    # the credit notes reverse the old lines in full; the customer is charged exactly the new figures
    by_period: dict[str, D] = {}
    for s_ in BS.list_statements(db):
        by_period[s_.period] = by_period.get(s_.period, D("0")) + s_.total
    assert by_period["2026-10"] == D("3880.97") and by_period["2026-11"] == D("4240.00")
    assert by_period["2026-09"] == D("3498.00")  # 3,300 + 198: before the effective date, unchanged
    cns = [s_ for s_ in BS.list_statements(db) if s_.kind == "credit_note"]
    assert sorted((c.period, c.total) for c in cns) == [("2026-10", D("-3498.00")), ("2026-11", D("-3498.00"))]
    with db.session() as s:
        reasons = set(s.execute(select(AuditEvent.reason).where(AuditEvent.action == "statement.credit")).scalars())
    assert reasons == {f"补充协议 {new.number} 自 2026-10-16 起生效：按现行条款重开"}

    # a later run bills nothing more, and nothing is left to run again
    again = BS.run_billing(db, admin, "2026-10", as_of=AFTER)
    assert (again.lines_created, again.rebilled) == (0, 0)
    dec = BS.run_billing(db, admin, "2026-12", dry_run=True, as_of=AFTER)
    assert not [w for w in dec.warnings if "补充协议" in w], dec.warnings


def test_late_activation_takes_the_old_revision_off_drafts(db, admin, manager):
    """A draft of a month after the effective date loses the old revision's line; the run bills it anew."""
    w = make_world(db)
    old = signed(db, manager, admin, w, [rack_item(w, 1, "3300")], dt.date(2026, 9, 1), dt.date(2027, 8, 31))
    BS.run_billing(db, admin, "2026-11", as_of=BEFORE)  # a draft, not issued
    new = C.amend_contract(db, manager, old.id, effective_date=dt.date(2026, 10, 16), reason="调价",
                           items=[rack_item(w, 1, "4000")])
    C.submit_contract(db, manager, new.id)
    C.approve_contract(db, admin, new.id)
    C.activate_contract(db, admin, new.id, at=cst(2026, 12, 2, 0, 30))
    assert not [s_ for s_ in BS.list_statements(db) if s_.period == "2026-11"]
    nov = BS.run_billing(db, admin, "2026-11", as_of=AFTER)
    assert _lines(nov) == [(new.number, 1, D("1"), D("4000"), D("4000.00"), D("240.00"))]


def test_gpu_hours_move_to_the_amendment_on_its_effective_date(db, admin, manager):
    """Two H100 by the hour, 10.00 → 12.00 effective 16 October, activated 2 December (VAT 13 %).

    | month | line                    | GPU-hours                  | amount     | tax      |
    |-------|-------------------------|----------------------------|------------|----------|
    | Oct   | billed before, credited | 2 × 31 d × 24 h = 1,488    | 14,880.00  | 1,934.40 |
    | Oct   | old revision, rev. 2    | 2 × 15 d × 24 h = 720      | 7,200.00   | 936.00   |
    | Oct   | amendment               | 2 × 16 d × 24 h = 768 × 12 | 9,216.00   | 1,198.08 |
    | Nov   | billed before, credited | 2 × 30 d × 24 h = 1,440    | 14,400.00  | 1,872.00 |
    | Nov   | amendment               | 1,440 × 12                 | 17,280.00  | 2,246.40 |
    """
    from tests.billing.test_billing_world import gpu_item
    w = make_world(db)
    old = signed(db, manager, admin, w, [gpu_item(w, [1, 2], "10")], dt.date(2026, 10, 1), dt.date(2027, 9, 30))
    for period in ("2026-10", "2026-11"):
        BS.run_billing(db, admin, period, issue=True, as_of=BEFORE)
    new = C.amend_contract(db, manager, old.id, effective_date=dt.date(2026, 10, 16), reason="调价",
                           items=[gpu_item(w, [1, 2], "12")])
    C.submit_contract(db, manager, new.id)
    C.approve_contract(db, admin, new.id)
    C.activate_contract(db, admin, new.id, at=cst(2026, 12, 2, 0, 30))
    octo = BS.run_billing(db, admin, "2026-10", issue=True, as_of=AFTER)
    assert [(n, r, q, a, t) for n, r, q, _p, a, t in _lines(octo)] == sorted([
        (old.number, 2, D("720"), D("7200.00"), D("936.00")),
        (new.number, 1, D("768"), D("9216.00"), D("1198.08"))])
    nov = BS.run_billing(db, admin, "2026-11", issue=True, as_of=AFTER)
    assert [(n, r, q, a, t) for n, r, q, _p, a, t in _lines(nov)] == [
        (new.number, 1, D("1440"), D("17280.00"), D("2246.40"))]
    cns = sorted((s_.period, s_.total) for s_ in BS.list_statements(db) if s_.kind == "credit_note")
    assert cns == [("2026-10", D("-16814.40")), ("2026-11", D("-16272.00"))]

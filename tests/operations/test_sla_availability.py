"""Availability below the contract's promise credits the shortfall (issue 24), worked by hand: the
sweep proposes it once the month has ended, an administrator approves it, the statement prints it
with the ticket number."""
from decimal import Decimal as D

from app.services import billing as BS
from app.services.operations import credits as CR
from app.services.operations import sla as SV
from app.services.operations import tickets as TK
from models.choices import TicketObjectType
from tests.billing.test_billing_world import cst
from tests.operations.test_operations import world  # noqa: F401  (72,000.00 a month, 99.9 % promised)


def test_availability_below_the_promise_becomes_the_exact_credit_on_the_statement(db, admin, operator,
                                                                                   world):  # noqa: F811
    w, c, site_id = world
    t = TK.open_ticket(db, operator, title="GPU down", priority="P2", customer_id=w.customer_id, contract_id=c.id,
                       site_id=site_id, channel="phone", objects=[(TicketObjectType.GPU, w.gpu_ids[0])],
                       at=cst(2026, 10, 10, 3))
    TK.acknowledge(db, operator, t.id, at=cst(2026, 10, 10, 3, 1))
    TK.move_ticket(db, operator, t.id, "on_site", at=cst(2026, 10, 10, 3, 2))
    TK.move_ticket(db, operator, t.id, "resolved", note="workload moved", at=cst(2026, 10, 10, 3, 5))
    TK.record_ticket_downtime(db, operator, t.id, start=cst(2026, 10, 10, 3), end=cst(2026, 10, 10, 13))
    assert SV.check_sla(db, operator, now=cst(2026, 10, 31, 23)).credits == ()   # October has not ended
    swept = SV.check_sla(db, operator, now=cst(2026, 11, 1, 9))
    assert swept.breaches == () and len(swept.credits) == 1
    # | October     | 744 h = 2,678,400 s | down 10 h = 36,000 s                  |
    # | achieved    | 100 × 2,642,400 / 2,678,400 = 98.6559… → 98.656 %          |
    # | shortfall   | 99.900 − 98.656 = 1.244 % of 72,000.00 = 895.68 (cap 5,760) |
    (cr,) = CR.list_credits(db)
    assert (cr.amount, cr.percent, cr.period, cr.ticket, cr.state) == (D("895.68"), D("1.244"), "2026-10", t.number,
                                                                       "proposed")
    assert "98.656% < promised 99.900%" in cr.reason
    assert SV.check_sla(db, operator, now=cst(2026, 11, 1, 10)).credits == ()     # once per item and month
    assert CR.propose_for_availability(db, operator, "2026-09") == []             # no down hours in September
    CR.approve_credit(db, admin, cr.id)
    out = BS.run_billing(db, admin, "2026-10", as_of=cst(2026, 11, 2))
    lines = {ln.charge: ln for st in out.statements for ln in st.lines}
    assert lines["credit"].amount == D("-120.97")      # the down hours not billed: 9,000 × 36,000 / 2,678,400
    sla = lines["sla_credit"]
    assert sla.amount == D("-895.68") and t.number in sla.description
    assert "可用性" in sla.note       # the line says why (the statement's language): the availability

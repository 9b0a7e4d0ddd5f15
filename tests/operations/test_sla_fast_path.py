"""The set-wise path of the SLA state (open_sla_states: tickets as plain rows, the rules' tables read
whole for thousands of contracts, the sweep loading a Ticket only to act on it) gives what each
ticket computed alone gives, on histories that cross National Day 2026 and its make-up Saturday
(调休, Sat 10 Oct), pause, change priority and reopen."""
import datetime as dt

from sqlalchemy import select

from app.domain.clock import TZ
from app.services.operations import sla as SV
from app.services.operations import tickets as TK
from models import Ticket
from models.choices import TicketState
from tests.operations.test_operations import world  # noqa: F401  (the contract with its credit rule)


def cst(*a) -> dt.datetime:
    return dt.datetime(*a, tzinfo=TZ)


def _varied(db, operator, w, c, site_id) -> list[int]:
    def opened(priority, at):
        return TK.open_ticket(db, operator, title=f"{priority} {at:%m-%d %H:%M}", priority=priority,
                              customer_id=w.customer_id, contract_id=c.id, site_id=site_id, channel="phone",
                              at=at).id
    # P3/P4 run on the business calendar with China's days; P1/P2 on 7×24
    quiet = opened("P3", cst(2026, 9, 30, 17))                        # across the holiday to the 调休 Saturday
    paused = opened("P4", cst(2026, 9, 29, 10))
    TK.acknowledge(db, operator, paused, at=cst(2026, 9, 29, 11))
    TK.move_ticket(db, operator, paused, "waiting_customer", at=cst(2026, 9, 30, 9))
    TK.move_ticket(db, operator, paused, "in_progress", at=cst(2026, 10, 10, 14))  # resumed on the Saturday
    raised = opened("P3", cst(2026, 10, 9, 16))
    TK.acknowledge(db, operator, raised, at=cst(2026, 10, 9, 16, 30))
    TK.change_priority(db, operator, raised, "P1", "the customer's whole cluster is down", at=cst(2026, 10, 10, 9))
    reopened = opened("P2", cst(2026, 10, 8, 8))
    TK.acknowledge(db, operator, reopened, at=cst(2026, 10, 8, 8, 10))
    TK.move_ticket(db, operator, reopened, "on_site", at=cst(2026, 10, 8, 8, 40))
    TK.move_ticket(db, operator, reopened, "resolved", note="PSU swapped", at=cst(2026, 10, 8, 11))
    TK.reopen_ticket(db, operator, reopened, "it failed again", at=cst(2026, 10, 9, 9))
    TK.move_ticket(db, operator, reopened, "waiting_vendor", at=cst(2026, 10, 9, 10))
    new_p1 = opened("P1", cst(2026, 10, 12, 3))
    return [quiet, paused, raised, reopened, new_p1]


def test_open_sla_states_equal_each_ticket_alone(db, admin, operator, world, monkeypatch):  # noqa: F811
    w, c, site_id = world
    ids = _varied(db, operator, w, c, site_id)
    now = cst(2026, 10, 12, 12)
    alone = {i: SV.ticket_sla(db, i, now) for i in ids}
    seen = {c.state for st in alone.values() for c in st.clocks.values()}
    assert {"breached", "met"} <= seen, seen                                   # the set is not all of one kind
    assert any(c.paused_seconds for st in alone.values() for c in st.clocks.values())
    everything = TicketState.OPEN | {TicketState.RESOLVED, TicketState.CLOSED}
    for whole in (10_000, 0):      # the rules read per chunk of contracts, then as whole tables
        monkeypatch.setattr(SV, "WHOLE_TABLES", whole)
        with db.session() as s:
            rows = SV.open_sla_states(s, now, states=everything)
            objects = SV.sla_states(s, list(s.execute(select(Ticket).where(Ticket.id.in_(ids))).scalars()), now)
        assert {i: rows[i] for i in ids} == alone == {i: objects[i] for i in ids}, whole
    # the sweep acts on what the rows say: a breach per clock that ran out, each recorded once
    swept = SV.check_sla(db, operator, now=now)
    expected = sorted((t, m) for t, st in alone.items() for m, c in st.clocks.items() if c.breached_at)
    with db.session() as s:
        numbers = dict(s.execute(select(Ticket.id, Ticket.number).where(Ticket.id.in_(ids))).all())
    assert sorted((n, m) for n, m, _at in swept.breaches) == sorted((numbers[t], m) for t, m in expected)
    assert SV.check_sla(db, operator, now=now).breaches == ()

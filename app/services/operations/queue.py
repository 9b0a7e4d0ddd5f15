"""The queue: tickets with their SLA state, sorted by what runs out first (what the Operations page,
`ticket list` and the dashboard's cards read)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select

from models import Customer, Site, Ticket, User
from models.choices import TicketState

from app.store.db import Database
from app.services.operations.sla import load_rules, sla_states

UTC = dt.timezone.utc
_PRIO = {"P1": 0, "P2": 1, "P3": 2, "P4": 3}


@dataclass(frozen=True)
class QueueRow:
    id: int
    number: str
    priority: str
    state: str
    kind: str
    title: str
    customer: str | None
    site: str | None
    assignee_id: int | None
    assignee: str | None
    opened_at: dt.datetime
    due_at: dt.datetime | None      # of the clock that runs out first (None: paused, or every clock stopped)
    metric: str | None              # which clock that is
    remaining_seconds: int          # of that clock (negative: overdue)
    sla_state: str                  # ok, warning, breached, met
    escalation: int


def _filtered(q, include_closed: bool, assignee_id: int | None):
    if not include_closed:
        q = q.where(Ticket.state.in_(TicketState.OPEN))
    if assignee_id is not None:
        q = q.where(Ticket.assignee_id == assignee_id)
    return q


def _rows_of(s, tickets: list[Ticket], states, now: dt.datetime) -> list[QueueRow]:
    names = {}
    ids = [t.id for t in tickets]
    for chunk in (ids[k:k + 500] for k in range(0, len(ids), 500)):
        names.update({tid: rest for tid, *rest in s.execute(
            select(Ticket.id, Customer.name, Site.name, User.display_name)
            .outerjoin(Customer, Customer.id == Ticket.customer_id).outerjoin(Site, Site.id == Ticket.site_id)
            .outerjoin(User, User.id == Ticket.assignee_id).where(Ticket.id.in_(chunk)))})
    out = []
    for t in tickets:
        customer, site, assignee = names[t.id]
        st = states[t.id]
        nxt = st.next
        remaining = int((nxt.due_at - now).total_seconds()) if nxt else 0
        out.append(QueueRow(t.id, t.number, t.priority, t.state, t.kind, t.title, customer, site, t.assignee_id,
                            assignee, t.opened_at, nxt.due_at if nxt else None, nxt.metric if nxt else None,
                            remaining, st.worst, t.escalation))
    return out


def _order(r: QueueRow):
    return (r.due_at is None, r.due_at or _FAR, _PRIO.get(r.priority, 9), r.id)


_FAR = dt.datetime.max.replace(tzinfo=UTC)


def queue_rows(db: Database, *, include_closed: bool = False, assignee_id: int | None = None,
               now: dt.datetime | None = None) -> list[QueueRow]:
    now = now or dt.datetime.now(UTC)
    with db.session() as s:
        tickets = list(s.execute(_filtered(select(Ticket), include_closed, assignee_id)).scalars())
        out = _rows_of(s, tickets, sla_states(s, tickets, now), now)
    out.sort(key=_order)
    return out


def queue_page(db: Database, *, limit: int = 50, include_closed: bool = False, assignee_id: int | None = None,
               now: dt.datetime | None = None, batch: int = 200) -> list[QueueRow]:
    """The first `limit` rows of queue_rows, without computing every ticket's clocks: no clock of a
    ticket runs out before its opening plus the shortest target still able to run (working time
    never outruns the wall clock, and pauses only push a due time later). Tickets are taken in that
    bound's order, their clocks computed from their histories a batch at a time, until the
    `limit`-th due time found comes before the bound of every ticket not yet computed."""
    now = now or dt.datetime.now(UTC)
    with db.session() as s:
        light = s.execute(_filtered(select(Ticket.id, Ticket.opened_at, Ticket.priority, Ticket.contract_id,
                                           Ticket.state), include_closed, assignee_id)).all()
        rules = load_rules(s, [r.contract_id for r in light])
        bound = {}
        for tid, opened_at, priority, contract_id, state in light:
            got = rules.target(contract_id, priority)
            if got is None:
                bound[tid] = _FAR
                continue
            tg = got[0]
            can_run = [tg.resolve] + ([tg.ack] if state == TicketState.NEW else []) + \
                ([tg.onsite] if tg.onsite is not None and state != TicketState.ON_SITE else [])
            bound[tid] = opened_at + dt.timedelta(minutes=min(can_run))
        order = sorted(bound, key=lambda tid: (bound[tid], tid))
        done: list[QueueRow] = []
        batch = max(batch, 4 * limit)
        for k in range(0, len(order), batch):
            ids = order[k:k + batch]
            tickets = list(s.execute(select(Ticket).where(Ticket.id.in_(ids))).scalars())
            done += _rows_of(s, tickets, sla_states(s, tickets, now, rules), now)
            done.sort(key=_order)
            nxt = order[k + batch] if k + batch < len(order) else None
            if nxt is None or (len(done) >= limit and done[limit - 1].due_at is not None
                               and done[limit - 1].due_at < bound[nxt]):
                break
        return done[:limit]


@dataclass(frozen=True)
class DeskCounts:
    open_p1: int
    open_p2: int
    breaching_within_hour: int
    breached: int


def desk_counts(db: Database, now: dt.datetime | None = None) -> DeskCounts:
    """The dashboard's cards: open P1 and P2, tickets whose next clock runs out within the hour."""
    now = now or dt.datetime.now(UTC)
    rows = queue_rows(db, now=now)
    soon = now + dt.timedelta(hours=1)
    return DeskCounts(sum(r.priority == "P1" for r in rows), sum(r.priority == "P2" for r in rows),
                      sum(1 for r in rows if r.due_at is not None and now <= r.due_at <= soon),
                      sum(r.sla_state == "breached" for r in rows))

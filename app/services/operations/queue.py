"""The queue: tickets with their SLA state, sorted by what runs out first (what the Operations page,
`ticket list` and the dashboard's cards read)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select

from models import Customer, Site, Ticket, User
from models.choices import TicketState

from app.store.db import Database
from app.services.operations.sla import sla_states

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


def queue_rows(db: Database, *, include_closed: bool = False, assignee_id: int | None = None,
               now: dt.datetime | None = None) -> list[QueueRow]:
    now = now or dt.datetime.now(UTC)
    with db.session() as s:
        q = (select(Ticket, Customer.name, Site.name, User.display_name)
             .outerjoin(Customer, Customer.id == Ticket.customer_id).outerjoin(Site, Site.id == Ticket.site_id)
             .outerjoin(User, User.id == Ticket.assignee_id))
        if not include_closed:
            q = q.where(Ticket.state.in_(TicketState.OPEN))
        if assignee_id is not None:
            q = q.where(Ticket.assignee_id == assignee_id)
        rows = s.execute(q).all()
        states = sla_states(s, [r[0] for r in rows], now)
        out = []
        for t, customer, site, assignee in rows:
            st = states[t.id]
            nxt = st.next
            remaining = int((nxt.due_at - now).total_seconds()) if nxt else 0
            out.append(QueueRow(t.id, t.number, t.priority, t.state, t.kind, t.title, customer, site, t.assignee_id,
                                assignee, t.opened_at, nxt.due_at if nxt else None, nxt.metric if nxt else None,
                                remaining, st.worst, t.escalation))
    far = dt.datetime.max.replace(tzinfo=UTC)
    out.sort(key=lambda r: (r.due_at is None, r.due_at or far, _PRIO.get(r.priority, 9), r.id))
    return out


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

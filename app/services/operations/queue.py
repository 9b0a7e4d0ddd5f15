"""The queue: tickets with their SLA state, sorted by what runs out first (what the Operations page,
`ticket list` and the dashboard's cards read)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import case, exists, extract, func, select, true
from sqlalchemy.orm import aliased

from models import Contract, Customer, SlaBreach, SlaTarget, Site, Ticket, User
from models.choices import TicketState

from app.store.db import Database
from app.services.operations.sla import (BASE_RULE_READS, clocks_together, contract_rule_reads, events_of, every_coverage,
                                         excluded_for, kept_counts, rules_of, sla_states, states_of)

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


@dataclass(frozen=True)
class QueueFilter:
    """The queue's column filters: text is found anywhere in the column (case ignored); a set is the
    values whose label the user's text matches (the screen matches its translated labels)."""

    number: str = ""
    priorities: frozenset[str] | None = None
    states: frozenset[str] | None = None
    sla_states: frozenset[str] | None = None      # of the computed clocks: narrows the rows, not the counts
    customer: str = ""
    site: str = ""
    assignee: str = ""
    title: str = ""


def _like(column, text: str):
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return func.lower(column).like(f"%{escaped}%", escape="\\")


def _filtered(q, include_closed: bool, assignee_id: int | None, where: QueueFilter | None = None):
    if not include_closed:
        q = q.where(Ticket.state.in_(TicketState.OPEN))
    if assignee_id is not None:
        q = q.where(Ticket.assignee_id == assignee_id)
    if where is None:
        return q
    if where.number:
        q = q.where(_like(Ticket.number, where.number))
    if where.title:
        q = q.where(_like(Ticket.title, where.title))
    if where.priorities is not None:
        q = q.where(Ticket.priority.in_(sorted(where.priorities)))
    if where.states is not None:
        q = q.where(Ticket.state.in_(sorted(where.states)))
    for text, model, fk, column in ((where.customer, Customer, Ticket.customer_id, Customer.name),
                                    (where.site, Site, Ticket.site_id, Site.name),
                                    (where.assignee, User, Ticket.assignee_id, User.display_name)):
        if text:
            q = q.where(select(model.id).where(model.id == fk, _like(column, text)).exists())
    return q


def _rows_of(s, tickets: list[Ticket], states, now: dt.datetime) -> list[QueueRow]:
    return _built(tickets, states, _names(s, [t.id for t in tickets]), now)


def _names(s, ids) -> dict[int, list]:
    """Each ticket's customer, site and assignee names."""
    names = {}
    for chunk in (ids[k:k + 500] for k in range(0, len(ids), 500)):
        names.update({tid: rest for tid, *rest in s.execute(
            select(Ticket.id, Customer.name, Site.name, User.display_name)
            .outerjoin(Customer, Customer.id == Ticket.customer_id).outerjoin(Site, Site.id == Ticket.site_id)
            .outerjoin(User, User.id == Ticket.assignee_id).where(Ticket.id.in_(chunk)))})
    return names


def _built(tickets, states, names, now: dt.datetime) -> list[QueueRow]:
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


_FAR_MINUTES = float("inf")


def _bound_minutes(dialect: str):
    """Minutes since 1970 before which no clock of the ticket can run out: its opening plus the
    shortest target still able to run (working time never outruns the wall clock, and pauses only
    push a due time later); NULL for a priority without any target. The shortest target of each
    priority over every contract and default (a lower bound for any ticket) is joined by priority
    (_LEAST), so the ordering statement needs no read before it (issue 26: it went after one)."""
    opened = (extract("epoch", Ticket.opened_at) / 60.0 if dialect == "postgresql"
              else (func.julianday(Ticket.opened_at) - 2440587.5) * 1440.0)
    least = func.least if dialect == "postgresql" else func.min     # SQLite's min() of several is the scalar one
    onsite = case((_LEAST.c.onsite > 0, _LEAST.c.onsite), else_=_LEAST.c.resolve)   # no on-site target: none
    return opened + case((Ticket.state == TicketState.NEW, least(_LEAST.c.resolve, _LEAST.c.ack, onsite)),
                         (Ticket.state == TicketState.ON_SITE, _LEAST.c.resolve),
                         else_=least(_LEAST.c.resolve, onsite))


_LEAST = (select(SlaTarget.priority.label("priority"), func.min(SlaTarget.ack_minutes).label("ack"),
                 func.min(SlaTarget.onsite_minutes).label("onsite"), func.min(SlaTarget.resolve_minutes).label("resolve"))
          .group_by(SlaTarget.priority).subquery("least_target"))


def queue_page(db: Database, *, limit: int = 50, include_closed: bool = False, assignee_id: int | None = None,
               now: dt.datetime | None = None, batch: int = 200, where: QueueFilter | None = None) -> list[QueueRow]:
    """The first `limit` rows of queue_rows, without computing every ticket's clocks: tickets are
    taken in the order of a bound before which none of their clocks can run out (_bound_minutes),
    their clocks computed from their histories a batch at a time, until the `limit`-th due time
    found comes before the bound of every ticket not yet computed."""
    with db.session() as s:
        return _page(s, limit, include_closed, assignee_id, now or dt.datetime.now(UTC), batch, where)[0]


@dataclass(frozen=True)
class _Stub:
    """A ticket of the ordering statement: what its batch's reads need before the ticket itself."""

    id: int
    contract_id: int | None
    opened_at: dt.datetime


def _page(s, limit: int, include_closed: bool, assignee_id: int | None, now: dt.datetime, batch: int,
          where: QueueFilter | None, *, compute=None, first=None) -> tuple[list[QueueRow], int, int, int]:
    """queue_page's rows, and the number of tickets the filters match, of those P1 and of those with a
    breach the sweep recorded (counted on the way).
    `compute` (a batch of tickets -> their rows) as read elsewhere, else in `s`; `first`: the ordering
    statement's first batch when read already (_ordering)."""

    def in_session(stubs) -> list[QueueRow]:
        tickets = list(s.execute(select(Ticket).where(Ticket.id.in_([t.id for t in stubs]))).scalars())
        return _rows_of(s, tickets, sla_states(s, tickets, now), now)
    compute = compute or in_session
    batch = _batch(limit, batch)
    q = _ordering(s.get_bind().dialect.name, include_closed, assignee_id, where)
    done: list[QueueRow] = []
    total = p1 = breached = 0
    k = 0
    while True:
        part = first if k == 0 and first is not None else s.execute(q.limit(batch + 1).offset(k)).all()
        if not part:
            break
        total, p1, breached = part[0][2], int(part[0][3] or 0), int(part[0][4] or 0)
        got = compute([_Stub(r[0], r[5], r[6]) for r in part[:batch]])
        done += [r for r in got if where is None or where.sla_states is None or r.sla_state in where.sla_states]
        done.sort(key=_order)
        if len(part) <= batch:
            break
        minutes = part[batch][1]       # the bound of the first ticket not yet computed
        nxt = _FAR_MINUTES if minutes is None else minutes - 1   # a minute's margin for the floats
        if len(done) >= limit and done[limit - 1].due_at is not None and done[limit - 1].due_at.timestamp() / 60 < nxt:
            break
        k += batch
    return done[:limit], total, p1, breached


def _ordering(dialect: str, include_closed: bool, assignee_id: int | None, where: QueueFilter | None):
    """The tickets the filters match in the order of their bound (_bound_minutes), a batch at a time
    (limit and offset added by the caller), each with the counts of all of them beside it (the tickets,
    the P1s, those with a breach recorded: one row of totals joined, counted once, so that the order
    is a top-N sort rather than a sort of every open ticket under a window; issue 26: 37-70 -> 35-50 ms on
    the large data's 10,000 open tickets) and what its batch's reads need to start: narrow rows, not
    every open ticket brought into Python to keep 200."""
    bound_sql = _bound_minutes(dialect)
    totals = _filtered(select(func.count().label("n"),
                              func.sum(case((Ticket.priority == "P1", 1), else_=0)).label("p1"),
                              func.sum(case((exists().where(SlaBreach.ticket_id == Ticket.id), 1), else_=0))
                              .label("breached")),
                       include_closed, assignee_id, where).subquery("totals")
    return (_filtered(select(Ticket.id, bound_sql, totals.c.n, totals.c.p1, totals.c.breached,
                             Ticket.contract_id, Ticket.opened_at)
                      .join(totals, true())
                      .outerjoin(_LEAST, _LEAST.c.priority == Ticket.priority),
                      include_closed, assignee_id, where)
            .order_by(bound_sql.is_(None), bound_sql, Ticket.id))


def _batch(limit: int, batch: int = 200) -> int:
    return max(batch, 4 * limit)


@dataclass(frozen=True)
class QueueView:
    """What the Operations page shows: the first rows by SLA due and the counts of the whole queue."""

    rows: list[QueueRow]
    total: int          # tickets the filters match (the SLA column's filter aside)
    p1: int
    breached: int       # of those, with a breach the sweep recorded or found breached on this page


def queue_view(db: Database, *, limit: int = 50, include_closed: bool = False, assignee_id: int | None = None,
               where: QueueFilter | None = None, now: dt.datetime | None = None) -> QueueView:
    """The page's first `limit` rows (queue_page) and its summary: the tickets and P1s counted while
    ordering them, the breaches recorded by the sweep (plus any found on the page since).

    Read in two waves of statements sent side by side (Database.read_together; on SQLite in turn),
    none wider than the read threads: the ordering statement (the first batch's tickets and the counts,
    the shortest targets joined in it) beside the rules' tables; then the tickets' names, breaches and
    contracts, their events, their maintenance, their contracts' targets and coverage. At 30 ms RTT that
    is three round trips in a row instead of thirteen (issue 26)."""
    now = now or dt.datetime.now(UTC)

    batch = _batch(limit)
    ordering = _ordering(db.engine.dialect.name, include_closed, assignee_id, where).limit(batch + 1)
    # the coverage whole beside them (before the contracts are known): the batch's reads are then one
    # statement each, a round trip fewer
    first, *base, cover = db.read_sessions_together(lambda s: s.execute(ordering).all(), *BASE_RULE_READS,
                                                    every_coverage)
    recorded: set[int] = set()

    def compute(stubs) -> list[QueueRow]:
        ids = [t.id for t in stubs]
        own, _contracts, _coverage = contract_rule_reads([t.contract_id for t in stubs])
        (tickets, names, breaches, contracts), events, excluded, targets = db.read_sessions_together(
            lambda s: _facts(s, ids), lambda s: events_of(s, ids), lambda s: excluded_for(s, stubs, now), own)
        recorded.update(breaches)
        rules = rules_of(base, (targets, contracts, cover), [t.contract_id for t in stubs])
        return _built(tickets, states_of(tickets, events, rules, now, excluded), names, now)

    with db.read_session() as s:   # no transaction: each statement reads what is committed as it starts
        rows, total, p1, breached = _page(s, limit, include_closed, assignee_id, now, batch, where,
                                          compute=compute, first=first)
    late_here = {r.id for r in rows if r.sla_state == "breached"} - recorded
    return QueueView(rows, total, p1, breached + len(late_here))


def _facts(s, ids) -> tuple[list[Ticket], dict[int, list], set[int], list]:
    """These tickets, in one statement per 500, with the names shown (customer, site, assignee), which
    have a breach recorded, and their contracts' subsidiary and customer's region (for the rules)."""
    holder = aliased(Customer)
    tickets, names, breached, contracts = [], {}, set(), {}
    for chunk in (ids[k:k + 500] for k in range(0, len(ids), 500)):
        for ticket, customer, site, assignee, has_breach, cid, sub, region in s.execute(
                select(Ticket, Customer.name, Site.name, User.display_name,
                       exists().where(SlaBreach.ticket_id == Ticket.id), Contract.id, Contract.subsidiary_id,
                       holder.region_code)
                .outerjoin(Customer, Customer.id == Ticket.customer_id).outerjoin(Site, Site.id == Ticket.site_id)
                .outerjoin(User, User.id == Ticket.assignee_id).outerjoin(Contract, Contract.id == Ticket.contract_id)
                .outerjoin(holder, holder.id == Contract.customer_id).where(Ticket.id.in_(chunk))):
            tickets.append(ticket)
            names[ticket.id] = [customer, site, assignee]
            if has_breach:
                breached.add(ticket.id)
            if cid is not None:
                contracts[cid] = (cid, sub, region)
    return tickets, names, breached, list(contracts.values())


@dataclass(frozen=True)
class DeskCounts:
    open_p1: int
    open_p2: int
    breaching_within_hour: int
    breached: int


def desk_counts(db: Database, now: dt.datetime | None = None) -> DeskCounts:
    """The dashboard's cards: open P1 and P2, tickets whose next clock runs out within the hour, tickets
    with a clock run out. A ticket's clocks are what the sweep kept of them (ticket_sla_state) while
    those still hold (kept_counts; a running clock's due time does not move while nothing is written),
    computed again for the others: on the large data 10,000 histories in Python (≈ 1 s) become the
    few written since the last sweep (issue 26). Within two seconds of a kept due time the clocks are
    computed too: whole seconds of working time decide there whether it has run out."""
    now = now or dt.datetime.now(UTC)
    ((n, p1, p2, within, breached), live), *base = db.read_sessions_together(lambda s: kept_counts(s, now),
                                                                            *BASE_RULE_READS)
    # all of them (no sweep yet, or the rules moved): their events and contracts by subquery, in one statement
    chosen = select(Ticket.id).where(Ticket.state.in_(TicketState.OPEN)) if len(live) == n else None
    states = clocks_together(db, live, now, base, chosen)
    soon = now + dt.timedelta(hours=1)
    for st in states.values():
        due = st.next.due_at if st.next else None
        within += due is not None and now <= due <= soon
        breached += st.worst == "breached"
    return DeskCounts(p1, p2, within, breached)

"""SLA state of tickets, read from their timelines, and the sweep that records breaches, proposes
credits (per breach, and per month's availability) and escalates unacknowledged P1s (`check_sla`:
the console's timer and `ticket check` call it).

Targets: a contract's own rows of sla_target, else the defaults of its coverage's service level
(the coverage of the contract's subsidiary for the customer's region, city or province; on-site
when none). Calendars per target row; China's days from holiday_day."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import and_, bindparam, case, delete, func, insert, literal, null, or_, select, union_all, update
from sqlalchemy.orm import Session

from models import (Contract, Coverage, Customer, HolidayDay, SlaBreach, SlaCalendar, SlaRulesGeneration, SlaTarget,
                    Ticket, TicketEvent, TicketSlaState)
from models.choices import ServiceLevel, TicketState

from app.domain.actor import Actor
from app.domain import sla as S
from app.domain.auth import require
from app.domain import rating as B
from app.domain.clock import local_date, local_text
from app.domain.errors import ValidationError
from app.store.db import Database
from app.store.uow import UnitOfWork
from app.services.operations.maintenance_sla import maintenance_excluded_in, maintenance_horizons_in
from app.services.billing.statements import _chunks

UTC = dt.timezone.utc


@dataclass
class _Rules:
    """Calendars, China's days and targets, read once per call."""

    calendars: dict[int, S.Calendar] = field(default_factory=dict)
    defaults: dict[tuple[str, str], SlaTarget] = field(default_factory=dict)
    own: dict[tuple[int, str], SlaTarget] = field(default_factory=dict)
    level_of_contract: dict[int, str] = field(default_factory=dict)

    memo: dict = field(default_factory=dict)

    def target(self, contract_id: int | None, priority: str) -> tuple[S.Targets, S.Calendar] | None:
        key = (contract_id, priority)
        if key not in self.memo:
            self.memo[key] = self._target(contract_id, priority)
        return self.memo[key]

    def _target(self, contract_id: int | None, priority: str) -> tuple[S.Targets, S.Calendar] | None:
        row = self.own.get((contract_id, priority)) if contract_id else None
        if row is None:
            level = self.level_of_contract.get(contract_id, ServiceLevel.ONSITE) if contract_id else ServiceLevel.ONSITE
            row = self.defaults.get((level, priority)) or self.defaults.get((ServiceLevel.ONSITE, priority))
        if row is None:
            return None
        return S.Targets(row.ack_minutes, row.onsite_minutes, row.resolve_minutes), self.calendars[row.calendar_id]


def load_rules(s: Session, contract_ids) -> _Rules:
    return rules_of([read(s) for read in BASE_RULE_READS], [read(s) for read in contract_rule_reads(contract_ids)],
                    contract_ids)


WHOLE_TABLES = 2000    # contracts above which load_rules reads the tables whole


# load_rules' reads, each of a session, so that a screen can send them side by side
# (Database.read_together: the Operations page, issue 26): China's days, the calendars, the defaults;
# then, per set of contracts, their own targets, their subsidiary and region, their coverage.
def _days(s: Session) -> dict:
    return {d: off for d, off in s.execute(select(HolidayDay.day, HolidayDay.off))}


def _calendars(s: Session) -> list:
    return list(s.execute(select(SlaCalendar)).scalars())


def _defaults(s: Session) -> list:
    return list(s.execute(select(SlaTarget).where(SlaTarget.contract_id.is_(None))).scalars())


BASE_RULE_READS = (_days, _calendars, _defaults)


def contract_rule_reads(contract_ids) -> tuple:
    """The reads of the contracts' own targets, subsidiary and region, and coverage: thousands of
    contracts (every open ticket's) read the three small tables whole, in one query each, rather than
    three queries per 500 contracts."""
    ids = sorted({c for c in contract_ids if c})
    chunks = [None] if len(ids) > WHOLE_TABLES else list(_chunks(ids))

    def own(s):
        return [t for chunk in chunks for t in s.execute(select(SlaTarget).where(
            SlaTarget.contract_id.in_(chunk) if chunk else SlaTarget.contract_id.is_not(None))).scalars()]

    def contracts(s):
        q = select(Contract.id, Contract.subsidiary_id, Customer.region_code).join(Customer, Customer.id == Contract.customer_id)
        return [row for chunk in chunks for row in s.execute(q.where(Contract.id.in_(chunk)) if chunk else q)]

    def coverage(s):
        return [row for chunk in chunks for row in s.execute(_COVERAGE.where(Coverage.subsidiary_id.in_(
            select(Contract.subsidiary_id).where(Contract.id.in_(chunk)))) if chunk else _COVERAGE)]
    return (own, contracts, coverage)


_COVERAGE = select(Coverage.subsidiary_id, Coverage.region_code, Coverage.service_level)


def every_coverage(s) -> list:
    """The coverage table whole (a row per subsidiary and region it serves: tens): what contract_rule_reads'
    coverage gives for any contracts is in it, so a caller can read it before knowing the contracts."""
    return s.execute(_COVERAGE).all()


def rules_of(base, per_contract, contract_ids) -> _Rules:
    """_Rules from what BASE_RULE_READS and contract_rule_reads returned."""
    (days, calendars, defaults), (own, contracts, coverage) = base, per_contract
    wanted = {c for c in contract_ids if c}
    r = _Rules()
    for c in calendars:
        hours = None if c.mode == "7x24" else S.parse_hours(c.hours)
        r.calendars[c.id] = S.Calendar(hours, days, c.follows_holidays)
    for t in defaults:
        r.defaults[(t.service_level, t.priority)] = t
    for t in own:
        if t.contract_id in wanted:
            r.own[(t.contract_id, t.priority)] = t
    cov = {(sub, code): lv for sub, code, lv in coverage}
    for cid, sub, code in contracts:
        if cid in wanted and code:
            for cand in (code, code[:4] + "00", code[:2] + "0000"):
                if (sub, cand) in cov:
                    r.level_of_contract[cid] = cov[(sub, cand)]
                    break
    return r


def steps_of(ticket, events) -> list[S.Step]:
    """The ticket's history as steps of (state, priority), from its opening, in order (`ticket`: a
    Ticket or a row with its opened_at and priority)."""
    priority = next((e.from_value for e in events if e.kind == "priority"), ticket.priority)
    state = TicketState.NEW
    step = S.Step
    out = [step(ticket.opened_at, state, priority)]
    for e in events:
        kind = e.kind
        if kind == "state":
            state = e.to_value
        elif kind == "priority":
            priority = e.to_value
        else:
            continue
        out.append(step(e.at, state, priority))
    return out


@dataclass(frozen=True)
class TicketSla:
    ticket_id: int
    clocks: dict
    next: S.Clock | None          # the clock that runs out first
    worst: str                    # ok, warning, breached (any clock), met (all)


def _sla_of(t, events, rules: _Rules, now: dt.datetime, excluded_of: dict) -> TicketSla:
    steps = steps_of(t, events)
    got = rules.target(t.contract_id, steps[-1].priority)
    if got is None:
        return TicketSla(t.id, {}, None, "ok")
    targets, calendar = got
    spans = excluded_of.get(t.contract_id) if t.contract_id else None
    excluded = S.clipped(spans, t.opened_at, now) if spans else []
    cs = S.clocks(steps, lambda p: rules.target(t.contract_id, p)[0], calendar, now, excluded)
    states = {c.state for c in cs.values()}
    worst = ("breached" if "breached" in states else "warning" if "warning" in states
             else "met" if states == {"met"} else "ok")
    return TicketSla(t.id, cs, S.next_due(cs), worst)


# what the clocks read of a ticket: Ticket objects, or these columns as plain rows (open_sla_states)
CLOCK_COLUMNS = (Ticket.id, Ticket.contract_id, Ticket.opened_at, Ticket.priority)


def open_sla_states(s: Session, now: dt.datetime | None = None, states=TicketState.OPEN) -> dict[int, TicketSla]:
    """The SLA state of every ticket in `states` (the open ones), the tickets read as plain rows:
    10,000 ORM objects cost more than their clocks."""
    rows = s.execute(select(*CLOCK_COLUMNS).where(Ticket.state.in_(states)).order_by(Ticket.id)).all()
    return sla_states(s, rows, now)


def clocks_together(db: Database, rows, now: dt.datetime, base=None, chosen=None) -> dict[int, TicketSla]:
    """The SLA states of these tickets (rows of CLOCK_COLUMNS): their events, their contracts'
    maintenance and rules read side by side (`base`: what BASE_RULE_READS returned, when read
    already; `chosen`: a select of exactly these tickets' ids, to read their events and contracts by
    subquery instead of by lists of ids), the clocks in Python."""
    if not rows:
        return {}
    if base is None:
        base = db.read_sessions_together(*BASE_RULE_READS)
    ids = [r.id for r in rows]
    first = min(r.opened_at for r in rows)
    contracts = ([r.contract_id for r in rows] if chosen is None else
                 select(Ticket.contract_id).where(Ticket.id.in_(chosen), Ticket.contract_id.is_not(None)))
    own, contract_rows, coverage = contract_rule_reads([r.contract_id for r in rows])
    events, excluded, *per_contract = db.read_sessions_together(
        lambda s: events_of(s, ids, chosen), lambda s: maintenance_excluded_in(s, contracts, first, now),
        own, contract_rows, coverage)
    rules = rules_of(base, per_contract, [r.contract_id for r in rows])
    return states_of(rows, events, rules, now, excluded)


def sla_states(s: Session, tickets, now: dt.datetime | None = None,
               rules: _Rules | None = None) -> dict[int, TicketSla]:
    """The SLA state of many tickets (Ticket objects or rows of CLOCK_COLUMNS): three queries per 500
    tickets and one per 500 contracts for the maintenance left out, the clocks in Python."""
    return events_and_states(s, tickets, now or dt.datetime.now(UTC), rules)[1]


def events_and_states(s: Session, tickets, now: dt.datetime, rules: _Rules | None = None,
                      chosen=None) -> tuple[dict[int, list], dict[int, TicketSla]]:
    """(each ticket's events, its SLA state): sla_states with the events it read, for a caller that keeps
    what the clocks came from (keep_states_in); `chosen` as for events_of."""
    rules = rules or load_rules(s, [t.contract_id for t in tickets])   # given: it must cover these tickets' contracts
    events = events_of(s, [t.id for t in tickets], chosen)
    return events, states_of(tickets, events, rules, now, excluded_for(s, tickets, now))


def events_of(s: Session, ticket_ids, chosen=None) -> dict[int, list]:
    """Each ticket's state and priority events in order (plain rows, not ORM objects: 10k open
    tickets read their history in a fraction of the time); with `chosen` (a select of the same
    tickets' ids) in one statement instead of one per 500."""
    by_ticket: dict[int, list] = {i: [] for i in ticket_ids}
    for chunk in [chosen] if chosen is not None else _chunks(list(by_ticket)):
        for e in s.execute(select(TicketEvent.ticket_id, TicketEvent.at, TicketEvent.kind, TicketEvent.from_value,
                                  TicketEvent.to_value, TicketEvent.id)
                           .where(TicketEvent.ticket_id.in_(chunk), TicketEvent.kind.in_(("state", "priority")))
                           .order_by(TicketEvent.ticket_id, TicketEvent.at, TicketEvent.id)):
            if e.ticket_id in by_ticket:
                by_ticket[e.ticket_id].append(e)
    return by_ticket


def excluded_for(s: Session, tickets, now: dt.datetime) -> dict:
    """The maintenance to leave out of these tickets' clocks, for every contract at once (one query
    per 500 contracts)."""
    if not tickets:
        return {}
    first = min((t.opened_at for t in tickets), default=now)
    return maintenance_excluded_in(s, {t.contract_id for t in tickets}, first, now)


def states_of(tickets, events: dict, rules: _Rules, now: dt.datetime, excluded_of: dict) -> dict[int, TicketSla]:
    """The clocks of these tickets from their events (events_of), in Python."""
    return {t.id: _sla_of(t, events[t.id], rules, now, excluded_of) for t in tickets}


def ticket_sla(db: Database, ticket_id: int, now: dt.datetime | None = None) -> TicketSla:
    with db.session() as s:
        t = s.get(Ticket, ticket_id)
        return sla_states(s, [t], now)[t.id]


# --- what the sweep keeps of each open ticket (ticket_sla_state, migration 0041) ---------------

def rules_generation(s: Session) -> int:
    """The number the rules' writes move (sla_rules_generation): read BEFORE the rules, so that a
    state computed from rules newer than its number is only thrown away, never taken for current."""
    return s.execute(select(SlaRulesGeneration.n).where(SlaRulesGeneration.id == 1)).scalar_one_or_none() or 0


def _last_event(events) -> int:
    return max((e.id for e in events), default=0)


def keep_states_in(s: Session, tickets, events: dict, states: dict[int, TicketSla], now: dt.datetime,
                   generation: int) -> int:
    """Keep what these clocks are (states_of at `now`, from `events` and rules read under `generation`)
    for every open ticket among `tickets` (rows with id, priority, state, contract_id), with the inputs
    they come from; drop the kept states of tickets no longer open. Only the rows that differ are
    written. Returns how many were."""
    open_ = [t for t in tickets if t.state in TicketState.OPEN]
    horizons = maintenance_horizons_in(s, {t.contract_id for t in open_}, now)
    want = {}
    for t in open_:
        st = states[t.id]
        want[t.id] = (generation, _last_event(events[t.id]), t.priority, t.state, t.contract_id,
                      st.next.due_at if st.next else None, st.worst == "breached", horizons.get(t.contract_id))
    K = TicketSlaState
    cols = (K.generation, K.last_event_id, K.priority, K.state, K.contract_id, K.next_due, K.breached, K.valid_until)
    have = {r[0]: tuple(r[1:]) for r in s.execute(select(K.ticket_id, *cols))}
    gone = [tid for tid in have if tid not in want]
    for chunk in _chunks(gone):
        s.execute(delete(K.__table__).where(K.__table__.c.ticket_id.in_(chunk)))
    names = [c.key for c in cols]
    fresh = [{"ticket_id": tid, **dict(zip(names, v)), "computed_at": now} for tid, v in want.items() if tid not in have]
    moved = [{"tid": tid, **dict(zip(names, v)), "computed_at": now} for tid, v in want.items()
             if tid in have and have[tid] != v]
    table = K.__table__   # Core statements, many rows each (executemany)
    if fresh:
        s.execute(insert(table), fresh)
    if moved:
        s.execute(update(table).where(table.c.ticket_id == bindparam("tid")), moved)
    return len(fresh) + len(moved)


def keep_sla_states(db: Database, now: dt.datetime | None = None) -> int:
    """Every open ticket's clocks computed and kept (keep_states_in), outside any use case: for a bulk
    load that wrote tickets with SQL (bench/scale.py); the console's sweep (check_sla) keeps them as it
    goes. The rows are derived, not audited."""
    now = now or dt.datetime.now(UTC)
    with db.session() as s:
        generation = rules_generation(s)
        rows = s.execute(select(*CLOCK_COLUMNS, Ticket.state).where(Ticket.state.in_(TicketState.OPEN))
                         .order_by(Ticket.id)).all()
        events, states = events_and_states(s, rows, now,
                                           chosen=select(Ticket.id).where(Ticket.state.in_(TicketState.OPEN)))
        n = keep_states_in(s, rows, events, states, now, generation)
        s.commit()
    return n


NEAR_DUE = dt.timedelta(seconds=2)   # within this of a kept due time its clocks are computed again


def kept_counts(s: Session, now: dt.datetime) -> tuple[tuple[int, int, int, int, int], list]:
    """The desk's counts of the open tickets whose kept state holds at `now` (ticket_sla_state: computed
    from their present inputs under the present rules, at or before `now`, standing at `now`, and not
    within NEAR_DUE of its due time), counted in the database, and the other open tickets as rows of
    CLOCK_COLUMNS for their clocks to be computed: ((open tickets, open P1, open P2, of the kept: due
    within the hour, run out), rows). One statement: the totals a first row of a UNION ALL, the rows
    after it (issue 26: 10,000 kept rows brought into Python cost the main window's start 0.2 s of
    CPU to count)."""
    K = TicketSlaState
    last = (select(func.coalesce(func.max(TicketEvent.id), 0))
            .where(TicketEvent.ticket_id == Ticket.id, TicketEvent.kind.in_(("state", "priority"))).scalar_subquery())
    generation = select(SlaRulesGeneration.n).where(SlaRulesGeneration.id == 1).scalar_subquery()
    near = and_(K.next_due > now - NEAR_DUE, K.next_due < now + NEAR_DUE)
    holds = and_(K.ticket_id.is_not(None), K.generation == generation, K.priority == Ticket.priority,
                 K.state == Ticket.state, K.contract_id.is_not_distinct_from(Ticket.contract_id),
                 K.computed_at <= now, or_(K.valid_until.is_(None), K.valid_until > now), K.last_event_id == last,
                 or_(K.next_due.is_(None), ~near))
    kept = (select(*CLOCK_COLUMNS, case((holds, 1), else_=0).label("kept"), K.next_due, K.breached)
            .outerjoin(K, K.ticket_id == Ticket.id).where(Ticket.state.in_(TicketState.OPEN)).cte("kept"))
    c = kept.c

    def n(cond):
        return func.coalesce(func.sum(case((cond, 1), else_=0)), 0)
    is_kept = c.kept == 1
    # the rows first in the UNION, so that its columns carry their types (opened_at: UTCDateTime)
    others = select(literal(1).label("row"), c.id, c.contract_id, c.opened_at, c.priority, null().label("n"),
                    null().label("p1"), null().label("p2"), null().label("within"),
                    null().label("breached")).where(c.kept == 0)
    totals = select(literal(0), null(), null(), null(), null(), func.count(),
                    n(c.priority == "P1"), n(c.priority == "P2"),
                    n(and_(is_kept, c.next_due >= now, c.next_due <= now + dt.timedelta(hours=1))),
                    n(and_(is_kept, or_(c.breached.is_(True), c.next_due < now)))).select_from(kept)
    both = union_all(others, totals).subquery()
    rows = s.execute(select(both).order_by(both.c.row, both.c.id)).all()
    head = rows[0]
    counts = (int(head.n), int(head.p1), int(head.p2), int(head.within), int(head.breached))
    return counts, rows[1:]     # named as CLOCK_COLUMNS: id, contract_id, opened_at, priority


def set_holiday_in(uow: UnitOfWork, day, off: bool, name: str, source: str | None = None, *,
                   reason: str | None = None) -> str:
    """One day of China's schedule (a day off, or a make-up working day): what `import holidays`
    writes when an administrator adds a year. Returns created, updated or unchanged."""
    require(uow.actor, "manage_sla")
    if not name:
        raise ValidationError({"name": "the holiday's name (元旦, 春节 …)"})
    s = uow.session
    row = s.get(HolidayDay, day)
    if row is not None and (row.off, row.name, row.source) == (off, name, source):
        return "unchanged"
    before = {"off": row.off, "name": row.name} if row is not None else None
    if row is None:
        s.add(HolidayDay(day=day, off=off, name=name, source=source))
    else:
        row.off, row.name, row.source = off, name, source
    s.flush()
    uow.audit("holiday.set", "holiday_day", None, str(day), before=before,
              after={"day": day, "off": off, "name": name, "source": source}, reason=reason)
    return "created" if before is None else "updated"


# --- the sweep ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SweepResult:
    breaches: tuple[tuple[str, str, dt.datetime], ...]       # (ticket number, metric, when)
    credits: tuple[int, ...]                                  # credit ids proposed
    escalations: tuple[tuple[str, int], ...]                  # (ticket number, level)

    @property
    def anything(self) -> bool:
        return bool(self.breaches or self.credits or self.escalations)


def check_sla(db: Database, actor: Actor, now: dt.datetime | None = None) -> SweepResult:
    """Record each breach as it happens (once per ticket and metric), propose its credit, and
    escalate P1s nobody acknowledged in time (secondary, then the site manager); once a month has
    ended, propose its availability credits (credits.propose_for_availability_in, once per item)."""
    from app.services.operations.credits import propose_for_availability_in, propose_for_breach
    from app.services.operations.oncall import escalate_in

    require(actor, "work_tickets")
    now = now or dt.datetime.now(UTC)
    if now.tzinfo is None:
        raise ValidationError({"now": "an aware time"})
    breaches, credits, escalations = [], [], []
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        # plain rows: the Ticket object is loaded only for a ticket the sweep acts on
        generation = rules_generation(s)   # before the rules (rules_generation)
        tickets = s.execute(select(*CLOCK_COLUMNS, Ticket.number, Ticket.state, Ticket.escalation)
                            .where(Ticket.state.in_(TicketState.OPEN | {TicketState.RESOLVED}))
                            .order_by(Ticket.id)).all()
        events, states = events_and_states(s, tickets, now)
        known = set()
        for chunk in _chunks([t.id for t in tickets]):
            known |= set(s.execute(select(SlaBreach.ticket_id, SlaBreach.metric)
                                   .where(SlaBreach.ticket_id.in_(chunk))).all())
        for t in tickets:
            st = states[t.id]
            for metric, c in st.clocks.items():
                if c.breached_at is None or (t.id, metric) in known:
                    continue
                b = SlaBreach(ticket_id=t.id, metric=metric, priority=t.priority, due_at=c.breached_at,
                              recorded_at=now)
                s.add(b)
                s.flush()
                uow.audit("sla.breach", "ticket", t.id, t.number,
                          after={"metric": metric, "due_at": c.breached_at, "priority": t.priority, "breach": b.id},
                          reason=f"{metric} target of {c.target_minutes} min missed at {local_text(c.breached_at)}")
                s.add(TicketEvent(ticket_id=t.id, at=max(now, c.breached_at), actor=actor.login, kind="sla",
                                  to_value=metric, note=f"{c.target_minutes} min · {local_text(c.breached_at)[:16]}"))
                breaches.append((t.number, metric, c.breached_at))
                cid = propose_for_breach(uow, s.get(Ticket, t.id), b)
                if cid:
                    credits.append(cid)
            ack = st.clocks.get("ack")
            if t.priority == "P1" and t.state == TicketState.NEW and ack is not None and ack.breached_at is not None:
                # level 1 when the acknowledge target passes, level 2 one more target later
                over = (now - ack.breached_at).total_seconds() / 60
                level = 2 if over >= ack.target_minutes else 1
                if level > t.escalation:
                    escalate_in(uow, s.get(Ticket, t.id), level, now)
                    escalations.append((t.number, level))
        # the month just ended: an item its tickets' down hours left below the promised availability
        credits += propose_for_availability_in(uow, B.Period.last_month(local_date(now)))
        # what the clocks are now, for the dashboard's cards; a breach recorded above added a "sla" event,
        # not a state or priority one, so these states stand
        keep_states_in(s, tickets, events, states, now, generation)
        uow.commit()
    return SweepResult(tuple(breaches), tuple(credits), tuple(escalations))

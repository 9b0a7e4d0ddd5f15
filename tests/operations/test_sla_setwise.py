"""The set-wise SLA clock (issue 24's large data): the calendar's working-time index against the
day-by-day walk it replaces, the maintenance left out per ticket, and one query for every contract's
maintenance giving what the query per contract gives."""
import datetime as dt
import random

from sqlalchemy import select

from models import MaintenanceImpact, Ticket
from app.domain.clock import TZ
from app.domain.sla import Calendar, Step, Targets, Timeline, clipped, clocks, parse_hours
from app.services.operations.maintenance_sla import maintenance_excluded, maintenance_excluded_in
from app.services.operations.sla import sla_states, steps_of
from tests.operations.test_sla_clock import china_days

HOURS = parse_hours("mon 09:00-12:00; mon 13:00-18:00; tue 09:00-18:00; wed 09:00-18:00; thu 09:00-18:00; "
                    "fri 09:00-18:00")


def walked_seconds(cal: Calendar, start: dt.datetime, end: dt.datetime) -> int:
    """Working seconds by walking every day's windows: the definition the index must agree with."""
    total, day = 0, start.astimezone(TZ).date()
    while day <= end.astimezone(TZ).date():
        for a, b in cal.windows(day):
            lo = max(dt.datetime.combine(day, dt.time(), TZ) + dt.timedelta(minutes=a), start)
            hi = min(dt.datetime.combine(day, dt.time(), TZ) + dt.timedelta(minutes=b), end)
            if hi > lo:
                total += int((hi - lo).total_seconds())
        day += dt.timedelta(days=1)
    return total


def test_index_agrees_with_the_day_walk_across_national_day_and_tiaoxiu():
    days = china_days(2025) | china_days(2026)
    rng = random.Random(24)
    base = dt.datetime(2025, 9, 1, tzinfo=TZ)
    for _ in range(300):
        cal = Calendar(HOURS, days)   # a fresh calendar: its index is widened in every direction below
        a = base + dt.timedelta(minutes=rng.randint(0, 60 * 24 * 400))
        b = a + dt.timedelta(minutes=rng.randint(0, 60 * 24 * 40))
        assert cal.seconds_between(a, b) == walked_seconds(cal, a, b)
        seconds = rng.randint(1, 60 * 60 * 9 * 15)
        due = cal.advance(a, seconds)
        assert walked_seconds(cal, a, due) == seconds
        assert walked_seconds(cal, a, due - dt.timedelta(seconds=1)) == seconds - 1


def test_widening_the_index_keeps_earlier_figures_comparable():
    cal = Calendar(HOURS, china_days(2026))
    late, early = dt.datetime(2026, 12, 1, 10, tzinfo=TZ), dt.datetime(2026, 1, 5, 10, tzinfo=TZ)
    assert cal.seconds_between(late, late + dt.timedelta(hours=3)) == 3 * 3600   # builds the index around December
    # January lies before that index: it is rebuilt wider; both ends still count from one origin
    assert cal.seconds_between(early, late) == walked_seconds(cal, early, late)


def test_excluded_maintenance_is_left_out_and_the_breach_moves_past_it():
    # 7×24, resolve 120 min; 00:30–01:30 noticed maintenance: the breach moves from 02:00 to 03:00
    at = dt.datetime(2026, 6, 1, 0, 0, tzinfo=TZ)
    ex = [(at + dt.timedelta(minutes=30), at + dt.timedelta(minutes=90))]
    steps = [Step(at, "new", "P2"), Step(at + dt.timedelta(minutes=5), "in_progress", "P2")]
    c = clocks(steps, lambda p: Targets(10, None, 120), Calendar(), at + dt.timedelta(hours=4), ex)["resolve"]
    assert (c.elapsed_minutes, c.breached_at) == (180, at + dt.timedelta(hours=3))
    line = Timeline(Calendar(HOURS, {}), ex)
    assert line.counted(at, at + dt.timedelta(hours=2)) == 0          # a Monday night: no working time
    assert clipped([(at, at + dt.timedelta(hours=1)), (at + dt.timedelta(hours=5), at + dt.timedelta(hours=6))],
                   at + dt.timedelta(minutes=30), at + dt.timedelta(hours=5, minutes=10)) == [
        (at + dt.timedelta(minutes=30), at + dt.timedelta(hours=1)),
        (at + dt.timedelta(hours=5), at + dt.timedelta(hours=5, minutes=10))]


def test_one_query_for_every_contract_gives_each_contracts_windows(demo_db):
    with demo_db.session() as s:
        contracts = sorted({c for (c,) in s.execute(select(MaintenanceImpact.contract_id)) if c})
        start, end = dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc), dt.datetime(2030, 1, 1, tzinfo=dt.timezone.utc)
        together = maintenance_excluded_in(s, contracts, start, end)
    assert together, "the demo has noticed maintenance affecting contracts"
    for cid in contracts:
        assert together.get(cid, []) == maintenance_excluded(demo_db, cid, start, end)


def test_sla_states_of_many_tickets_equal_each_ticket_alone(demo_db):
    now = dt.datetime.now(dt.timezone.utc)
    with demo_db.session() as s:
        tickets = list(s.execute(select(Ticket)).scalars())
        together = sla_states(s, tickets, now)
        for t in tickets:
            alone = sla_states(s, [t], now)[t.id]
            assert alone.clocks == together[t.id].clocks, t.number
            assert steps_of(t, [])[0].at == t.opened_at


def test_queue_first_page_is_the_start_of_the_whole_queue(demo_db):
    from app.services.operations.queue import queue_page, queue_rows

    now = dt.datetime.now(dt.timezone.utc)
    whole = queue_rows(demo_db, now=now)
    assert len(whole) >= 3, "the demo's week of tickets has open ones"
    for limit in (1, 2, 3, len(whole), len(whole) + 5):
        for batch in (1, 2, 200):   # one ticket a batch: the bound must stop it only when nothing can come first
            assert queue_page(demo_db, limit=limit, now=now, batch=batch) == whole[:limit], (limit, batch)
    with_closed = queue_rows(demo_db, include_closed=True, now=now)
    assert queue_page(demo_db, limit=4, include_closed=True, now=now, batch=1) == with_closed[:4]


def test_queue_view_filters_and_counts_as_the_whole_queue(demo_db):
    """The page's filters and summary, worked out in the service, give what filtering and counting
    every row of queue_rows would."""
    from app.services.operations.queue import QueueFilter, queue_rows, queue_view
    from app.services.operations.sla import check_sla
    from app.services.users import login

    now = dt.datetime.now(dt.timezone.utc)
    check_sla(demo_db, login(demo_db, "admin", "demo1234"), now)   # the breaches recorded, as the desk's sweep does
    whole = queue_rows(demo_db, now=now)
    view = queue_view(demo_db, limit=2, now=now)
    assert view.rows == whole[:2]
    assert (view.total, view.p1, view.breached) == (len(whole), sum(r.priority == "P1" for r in whole),
                                                    sum(r.sla_state == "breached" for r in whole))
    some = whole[len(whole) // 2]
    cases = [(QueueFilter(number=some.number[-3:].lower()), lambda r: some.number[-3:] in r.number),
             (QueueFilter(priorities=frozenset({"P1", "P2"})), lambda r: r.priority in ("P1", "P2")),
             (QueueFilter(states=frozenset({some.state})), lambda r: r.state == some.state),
             (QueueFilter(customer=(some.customer or "")[:2].lower()),
              lambda r: (some.customer or "")[:2].lower() in (r.customer or "").lower()),
             (QueueFilter(title=some.title[:3].upper()), lambda r: some.title[:3].lower() in r.title.lower()),
             (QueueFilter(assignee="%"), lambda r: "%" in (r.assignee or "")),   # a wildcard is a plain character
             (QueueFilter(sla_states=frozenset({"breached"})), lambda r: r.sla_state == "breached")]
    for where, keep in cases:
        wanted = [r for r in whole if keep(r)]
        got = queue_view(demo_db, limit=3, where=where, now=now)
        assert got.rows == wanted[:3], where
        if where.sla_states is None:
            assert got.total == len(wanted), where


def test_the_desk_cards_count_what_the_queue_shows(demo_db):
    """desk_counts reads only the clocks, in waves and by subquery (open_sla_together); its cards are
    what counting queue_rows' rows gives."""
    from app.services.operations.queue import desk_counts, queue_rows

    now = dt.datetime.now(dt.timezone.utc)
    rows, soon = queue_rows(demo_db, now=now), now + dt.timedelta(hours=1)
    got = desk_counts(demo_db, now)
    assert (got.open_p1, got.open_p2, got.breaching_within_hour, got.breached) == (
        sum(r.priority == "P1" for r in rows), sum(r.priority == "P2" for r in rows),
        sum(1 for r in rows if r.due_at is not None and now <= r.due_at <= soon),
        sum(r.sla_state == "breached" for r in rows))
    assert got.open_p1 + got.open_p2 > 0 and len(rows) > 0

"""The SLA clock: a pure function of a ticket's history, its calendar and its targets.

Never a stored counter (GLPI's drift and lost pauses, Zammad #5624): each call replays the history
of states and priorities (the ticket's events) from the opening, so a priority or SLA change
mid-ticket recomputes every clock and keeps every paused minute.

- A clock runs while the ticket is in a working state (not waiting for the customer or a vendor)
  and inside the calendar's working time: 7×24 always; business hours per weekday, with China's
  days off (法定节假日) and make-up working days (调休: a weekend day that is a working day, with
  the hours of an ordinary working day).
- acknowledge stops when the ticket first leaves "new"; on site when it first reaches "on site"
  (resolving without going on site stops it too: nobody had to come); resolve stops at
  "resolved" and runs on after a reopen, adding to the minutes it had.
- Targets are those of the ticket's current priority; warning from 80 % of a target.
- Intervals in `excluded` (planned maintenance noticed in time) do not count.
"""
from __future__ import annotations

import bisect
import datetime as dt
import functools
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from app.domain.clock import TZ

UTC = dt.timezone.utc
WARNING_SHARE = 0.8
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# the states that stop the clocks (models/choices.TicketState.PAUSED; repeated here: domain/ is stdlib only)
PAUSED = frozenset({"waiting_customer", "waiting_vendor"})
ACK, ONSITE, RESOLVE = "ack", "onsite", "resolve"
METRICS = (ACK, ONSITE, RESOLVE)

_HOURS = re.compile(r"^\s*(mon|tue|wed|thu|fri|sat|sun)\s+(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


def parse_hours(text: str | None) -> dict[int, list[tuple[int, int]]]:
    """'mon 09:00-12:00; mon 13:00-18:00; tue 09:00-18:00' -> {0: [(540, 720), (780, 1080)], 1: [...]}
    (minutes after local midnight). Raises ValueError with the piece it cannot read."""
    out: dict[int, list[tuple[int, int]]] = {}
    for piece in (text or "").split(";"):
        if not piece.strip():
            continue
        m = _HOURS.match(piece.lower())
        if not m:
            raise ValueError(f"cannot read {piece.strip()!r}: write e.g. 'mon 09:00-18:00'")
        day, h1, m1, h2, m2 = m.groups()
        a, b = int(h1) * 60 + int(m1), int(h2) * 60 + int(m2)
        if not (0 <= a < b <= 24 * 60) or int(m1) > 59 or int(m2) > 59:
            raise ValueError(f"{piece.strip()!r}: the end must come after the start, within the day")
        out.setdefault(WEEKDAYS.index(day), []).append((a, b))
    for windows in out.values():
        windows.sort()
    return out


@dataclass(frozen=True)
class Calendar:
    """7×24 when `hours` is None; else working windows per weekday (0 = Monday), local time.
    `days`: date -> True for a day off, False for a make-up working day (applied when `holidays`)."""

    hours: dict[int, list[tuple[int, int]]] | None = None
    days: dict[dt.date, bool] = field(default_factory=dict)
    holidays: bool = True
    _cache: dict = field(default_factory=dict, compare=False, repr=False, hash=False)

    @property
    def always(self) -> bool:
        return self.hours is None

    def windows(self, day: dt.date) -> list[tuple[int, int]]:
        """Working windows of a local day, in minutes after midnight."""
        if self.hours is None:
            return [(0, 24 * 60)]
        if self.holidays and day in self.days:
            if self.days[day]:
                return []
            return self._workday_hours()
        return self.hours.get(day.weekday(), [])

    def _workday_hours(self) -> list[tuple[int, int]]:
        # a make-up working day keeps an ordinary working day's hours (the first weekday that has any)
        for wd in range(5):
            if self.hours.get(wd):
                return self.hours[wd]
        return next((w for w in self.hours.values() if w), [])

    def seconds_between(self, start: dt.datetime, end: dt.datetime) -> int:
        """Working seconds in [start, end)."""
        if end <= start:
            return 0
        if self.hours is None:
            return int((end - start).total_seconds())
        return (self._worked_us(end) - self._worked_us(start)) // 1_000_000

    def advance(self, start: dt.datetime, seconds: int, limit_days: int = 3700) -> dt.datetime:
        """The instant when `seconds` working seconds have passed after `start`."""
        if self.hours is None:
            return start + dt.timedelta(seconds=seconds)
        if seconds > 0:
            u = _us(start)
            ix = self._cache.get("index")
            if ix is None or not ix.lo_us <= u <= ix.hi_us:   # the index answers start (and 60 days on)
                ix = self._index_for(start, start)
            at = ix.instant(ix.worked(u) + seconds * 1_000_000)
            if at is not None:
                return (_EPOCH + dt.timedelta(microseconds=at)).astimezone(start.tzinfo)
        return self._advance_by_days(start, seconds, limit_days)

    def _worked_us(self, t: dt.datetime) -> int:
        """Working microseconds up to t since the start of the calendar's index (business hours only)."""
        ix = self._cache.get("index")
        u = _us(t)
        if ix is None or not ix.lo_us <= u <= ix.hi_us:
            ix = self._index_for(t, t)
        return ix.worked(u)

    def _index_for(self, start: dt.datetime, end: dt.datetime) -> _WorkIndex:
        """The working intervals around [start, end), built once per calendar and widened on demand
        (a set of tickets asks the same calendar thousands of times)."""
        lo, hi = start.astimezone(TZ).date(), end.astimezone(TZ).date()
        ix = self._cache.get("index")
        if ix is None or lo < ix.first or hi + dt.timedelta(days=60) > ix.last:
            first = min(lo, ix.first) if ix else lo
            last = max(hi + dt.timedelta(days=400), ix.last if ix else hi)
            ix = _WorkIndex(self, first - dt.timedelta(days=7), last)
            # every index of this calendar counts from the same instant, so figures read before a
            # widening and after it subtract correctly
            anchor = self._cache.setdefault("anchor", ix.lo_us)
            ix.base = ix.worked(anchor)
            self._cache["index"] = ix
        return ix

    def _advance_by_days(self, start: dt.datetime, seconds: int, limit_days: int) -> dt.datetime:
        left = seconds
        day = start.astimezone(TZ).date()
        for _ in range(limit_days):
            for a, b in self.windows(day):
                lo = max(_at(day, a), start)
                hi = _at(day, b)
                if hi <= lo:
                    continue
                span = int((hi - lo).total_seconds())
                if span >= left:
                    return lo + dt.timedelta(seconds=left)
                left -= span
            day += dt.timedelta(days=1)
        raise ValueError("the calendar has no working time in the next ten years")

    def _working_spans(self, start: dt.datetime, end: dt.datetime):
        day = start.astimezone(TZ).date()
        last = end.astimezone(TZ).date()
        while day <= last:
            for a, b in self.windows(day):
                lo, hi = max(_at(day, a), start), min(_at(day, b), end)
                if hi > lo:
                    yield lo, hi
            day += dt.timedelta(days=1)


class _WorkIndex:
    """A calendar's working intervals over [first, last] as microseconds since the epoch (exact), merged where they touch,
    with the working seconds before each: working time up to an instant, and the instant a working
    time is reached, by bisection (the day-by-day walk, done once)."""

    def __init__(self, calendar: Calendar, first: dt.date, last: dt.date):
        self.first, self.last = first, last
        # instants whose working time the index answers (its last 60 days kept for advancing)
        self.lo_us = _us(_at(first, 0))
        self.hi_us = _us(_at(last, 0)) - 60 * 86400 * 1_000_000
        starts: list[int] = []
        ends: list[int] = []
        day = first
        while day <= last:
            for a, b in calendar.windows(day):
                lo, hi = _us(_at(day, a)), _us(_at(day, b))
                if ends and ends[-1] == lo:
                    ends[-1] = hi
                else:
                    starts.append(lo)
                    ends.append(hi)
            day += dt.timedelta(days=1)
        self.starts, self.ends = starts, ends
        self.before: list[int] = []     # working microseconds before interval i
        self.through: list[int] = []    # working microseconds up to the end of interval i
        total = 0
        for lo, hi in zip(starts, ends):
            self.before.append(total)
            total += hi - lo
            self.through.append(total)

    base = 0    # the working time before the calendar's anchor (its first index's start)

    def worked(self, t: int) -> int:
        i = bisect.bisect_right(self.starts, t) - 1
        if i < 0:
            return -self.base
        return self.before[i] + min(t, self.ends[i]) - self.starts[i] - self.base

    def instant(self, w: int) -> int | None:
        """The first instant at which `w` working microseconds are reached (None: beyond the index)."""
        w += self.base
        i = bisect.bisect_left(self.through, w)
        if i >= len(self.starts):
            return None
        return self.starts[i] + (w - self.before[i])


_EPOCH = dt.datetime(1970, 1, 1, tzinfo=UTC)


def _us(t: dt.datetime) -> int:
    """Microseconds since the epoch, exactly: a float timestamp of these years is within a quarter
    of a microsecond, so rounding gives the integer (and is several times faster than timedelta division)."""
    return round(t.timestamp() * 1_000_000)


@functools.lru_cache(maxsize=65536)
def _at(day: dt.date, minute: int) -> dt.datetime:
    base = dt.datetime(day.year, day.month, day.day, tzinfo=TZ)
    return (base + dt.timedelta(minutes=minute)).astimezone(UTC) if minute < 24 * 60 else \
        dt.datetime(*(day + dt.timedelta(days=1)).timetuple()[:3], tzinfo=TZ).astimezone(UTC)


@dataclass(frozen=True)
class Targets:
    """Minutes per metric (onsite None: no on-site promise)."""

    ack: int
    onsite: int | None
    resolve: int

    def of(self, metric: str) -> int | None:
        return getattr(self, metric)


class Step(NamedTuple):
    """From `at` on the ticket was in `state` at `priority` (one per opening, move and priority change).
    A named tuple, like Clock: a set of 10,000 tickets makes tens of thousands of both, and a frozen
    dataclass costs several times more to make."""

    at: dt.datetime
    state: str
    priority: str


class Clock(NamedTuple):
    metric: str
    target_minutes: int
    elapsed_seconds: int
    paused_seconds: int       # working time spent waiting (kept across priority and SLA changes)
    due_at: dt.datetime | None    # None while paused or once stopped
    stopped_at: dt.datetime | None
    breached_at: dt.datetime | None
    state: str                # ok, warning, breached, met

    @property
    def elapsed_minutes(self) -> int:
        return self.elapsed_seconds // 60

    @property
    def paused_minutes(self) -> int:
        return self.paused_seconds // 60

    @property
    def remaining_seconds(self) -> int:
        return self.target_minutes * 60 - self.elapsed_seconds

    @property
    def share(self) -> float:
        return self.elapsed_seconds / (self.target_minutes * 60)


def _stop_of(metric: str, steps: list[Step]) -> list[tuple[dt.datetime, bool]]:
    """(instant, running) changes of one metric's clock over the history."""
    out: list[tuple[dt.datetime, bool]] = []
    stopped = False
    for s in steps:
        if metric == ACK:
            if stopped:
                break
            if s.state != "new":
                out.append((s.at, False))
                stopped = True
                continue
            out.append((s.at, True))
        elif metric == ONSITE:
            if stopped:
                break
            if s.state in ("on_site", "resolved", "closed"):
                out.append((s.at, False))
                stopped = True
                continue
            out.append((s.at, s.state not in PAUSED))
        else:
            out.append((s.at, s.state not in PAUSED and s.state not in ("resolved", "closed")))
    return out


def clipped(spans: list[tuple[dt.datetime, dt.datetime]], lo: dt.datetime,
            hi: dt.datetime) -> list[tuple[dt.datetime, dt.datetime]]:
    """The parts of sorted, disjoint spans inside [lo, hi) (one contract's excluded maintenance, cut
    to one ticket's life)."""
    i = max(0, bisect.bisect_right(spans, (lo,)) - 1)
    out = []
    for a, b in spans[i:]:
        if a >= hi:
            break
        a, b = max(a, lo), min(b, hi)
        if a < b:
            out.append((a, b))
    return out


def _subtract(spans: list[tuple[dt.datetime, dt.datetime]], excluded) -> list[tuple[dt.datetime, dt.datetime]]:
    for ex_lo, ex_hi in excluded or ():
        nxt = []
        for lo, hi in spans:
            if ex_hi <= lo or ex_lo >= hi:
                nxt.append((lo, hi))
                continue
            if lo < ex_lo:
                nxt.append((lo, ex_lo))
            if ex_hi < hi:
                nxt.append((ex_hi, hi))
        spans = nxt
    return spans


class Timeline:
    """One ticket's working time: the calendar's working seconds between two instants, less the
    excluded maintenance (sorted, disjoint spans), each instant's working time computed once."""

    def __init__(self, calendar: Calendar, excluded=()):
        self.calendar = calendar
        self.excluded = list(excluded or ())
        self._w: dict[dt.datetime, int] = {}
        self._starts: list[dt.datetime] | None = None

    def _prepare(self) -> None:
        """The excluded spans' working time, each span's and the sum of those before it."""
        self._starts = [a for a, _b in self.excluded]
        self._raw_a = [self._raw(a) for a, _b in self.excluded]
        self._raw_b = [self._raw(b) for _a, b in self.excluded]
        self._before = [0]
        for ra, rb in zip(self._raw_a, self._raw_b):
            self._before.append(self._before[-1] + rb - ra)

    def _at(self, t: dt.datetime) -> int:
        """Working microseconds up to t (from an origin of the calendar's own), excluded spans left out."""
        got = self._w.get(t)
        if got is None:
            got = self._raw(t)
            if self.excluded:
                if self._starts is None:
                    self._prepare()
                i = bisect.bisect_left(self._starts, t)     # the spans starting before t: 0 … i-1
                if i:
                    j = i - 1                                # the spans before j end before it starts
                    end = got if t < self.excluded[j][1] else self._raw_b[j]
                    got -= self._before[j] + end - self._raw_a[j]
            self._w[t] = got
        return got

    def _raw(self, t: dt.datetime) -> int:
        if self.calendar.hours is None:
            return _us(t)
        return self.calendar._worked_us(t)

    def counted(self, lo: dt.datetime, hi: dt.datetime) -> int:
        """Working seconds in [lo, hi) that count (excluded maintenance left out)."""
        return (self._at(hi) - self._at(lo)) // 1_000_000 if hi > lo else 0

    def worked(self, lo: dt.datetime, hi: dt.datetime) -> int:
        """Working seconds in [lo, hi), maintenance or not (paused time)."""
        return (self._raw(hi) - self._raw(lo)) // 1_000_000 if hi > lo else 0

    def reached(self, lo: dt.datetime, hi: dt.datetime, seconds: int) -> dt.datetime:
        """The instant in [lo, hi) when `seconds` counted seconds have passed after lo."""
        if not any(a < hi and b > lo for a, b in self.excluded):
            return self.calendar.advance(lo, seconds)
        left = seconds
        for a, b in _subtract([(lo, hi)], self.excluded):
            part = self.calendar.seconds_between(a, b)
            if part > left:
                return self.calendar.advance(a, left)
            left -= part
        return hi


def metric_clock(metric: str, steps: list[Step], targets: Targets, calendar: Calendar, now: dt.datetime,
                 excluded=(), timeline: Timeline | None = None) -> Clock | None:
    """The clock of one metric (None when the targets make no promise for it)."""
    minutes = targets.of(metric)
    if minutes is None or not steps:
        return None
    changes = _stop_of(metric, steps)
    running: list[tuple[dt.datetime, dt.datetime]] = []
    paused: list[tuple[dt.datetime, dt.datetime]] = []
    stopped_at = None
    for i, (at, run) in enumerate(changes):
        nxt = changes[i + 1][0] if i + 1 < len(changes) else None
        end = min(nxt, now) if nxt is not None else now
        if metric != RESOLVE and not run and i == len(changes) - 1:
            stopped_at = at
            break
        if metric == RESOLVE and steps[i].state in ("resolved", "closed"):
            continue   # resolved: stopped, not paused
        if end > at:
            (running if run else paused).append((at, end))
    if metric == RESOLVE and steps[-1].state in ("resolved", "closed"):
        # stopped at the last resolution (a priority change after it moves nothing)
        stopped_at = next((s.at for s in reversed(steps) if s.state == "resolved"), steps[-1].at)
        for j in range(len(steps) - 1, 0, -1):
            if steps[j].state == "resolved" and steps[j - 1].state not in ("resolved", "closed"):
                stopped_at = steps[j].at
                break
    line = timeline if timeline is not None else Timeline(calendar, excluded)
    target_s = minutes * 60
    elapsed = 0
    breached_at = None
    for lo, hi in running:
        part = line.counted(lo, hi)
        if breached_at is None and elapsed + part > target_s:
            breached_at = line.reached(lo, hi, target_s - elapsed)
        elapsed += part
    paused_s = sum(line.worked(lo, hi) for lo, hi in paused)
    currently_running = stopped_at is None and bool(changes) and changes[-1][1]
    due = None
    if currently_running and breached_at is None:
        due = calendar.advance(now, target_s - elapsed)
    elif currently_running:
        due = breached_at
    if breached_at is not None:
        state = "breached"
    elif stopped_at is not None:
        state = "met"
    elif elapsed >= WARNING_SHARE * target_s:
        state = "warning"
    else:
        state = "ok"
    return Clock(metric, minutes, elapsed, paused_s, due, stopped_at, breached_at, state)


def clocks(steps: list[Step], targets_of, calendar: Calendar, now: dt.datetime, excluded=()) -> dict[str, Clock]:
    """Every metric's clock; `targets_of(priority)` gives the Targets of a priority (the current
    priority's apply: a change recomputes the whole history against them)."""
    if not steps:
        return {}
    targets = targets_of(steps[-1].priority)
    if targets is None:
        return {}
    out = {}
    line = Timeline(calendar, excluded)   # one per ticket: its instants' working time read once for every metric
    for metric in METRICS:
        c = metric_clock(metric, steps, targets, calendar, now, excluded, line)
        if c is not None:
            out[metric] = c
    return out


def next_due(cs: dict[str, Clock]) -> Clock | None:
    """The clock that runs out first (what the queue sorts by)."""
    running = [c for c in cs.values() if c.due_at is not None]
    return min(running, key=lambda c: c.due_at) if running else None

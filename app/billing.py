"""The billing arithmetic: periods, proration, metering, power and tax. Pure: no database.

Every function takes plain values (Decimal, date, aware datetime) and returns plain values,
so each rule can be checked by hand in the tests' worked examples.

- A period is a calendar month in Asia/Shanghai, half-open [first day, first day of next).
- Service dates (start, end) are inclusive calendar days in Asia/Shanghai.
- Amounts and taxes are rounded half-up to the fen once, at the end of each line.
"""
from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from .clock import TZ, UTC, local_date, local_midnight, local_today  # noqa: F401  (the one local zone)
FEN = Decimal("0.01")
ZERO = Decimal(0)
# Consecutive meter readings further apart than this leave a gap that is not billed blindly.
MAX_METER_GAP = dt.timedelta(hours=48)


def fen(value: Decimal) -> Decimal:
    """Round half-up (ties away from zero) to 0.01."""
    return Decimal(value).quantize(FEN, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class Period:
    """A billing month: [first, next_first) in Asia/Shanghai."""

    year: int
    month: int

    @classmethod
    def parse(cls, text: str) -> "Period":
        m = re.fullmatch(r"\s*(\d{4})-(\d{1,2})\s*", text or "")
        if not m or not 1 <= int(m.group(2)) <= 12:
            raise ValueError(f"a billing period is written YYYY-MM (e.g. 2026-11), not {text!r}")
        return cls(int(m.group(1)), int(m.group(2)))

    @classmethod
    def containing(cls, day: dt.date) -> "Period":
        return cls(day.year, day.month)

    @property
    def label(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def compact(self) -> str:
        return f"{self.year:04d}{self.month:02d}"

    @property
    def first(self) -> dt.date:
        return dt.date(self.year, self.month, 1)

    @property
    def last(self) -> dt.date:
        return dt.date(self.year, self.month, self.days)

    @property
    def next_first(self) -> dt.date:
        return self.last + dt.timedelta(days=1)

    @property
    def days(self) -> int:
        return calendar.monthrange(self.year, self.month)[1]

    @property
    def start(self) -> dt.datetime:
        return local_midnight(self.first)

    @property
    def end(self) -> dt.datetime:
        return local_midnight(self.next_first)

    def next(self) -> "Period":
        return Period.containing(self.next_first)

    def __str__(self) -> str:
        return self.label


# --- day proration ----------------------------------------------------------------

@dataclass(frozen=True)
class Proration:
    first: dt.date | None  # first active day in the period (None: not active)
    last: dt.date | None
    days: int  # active days
    days_in_month: int
    amount: Decimal  # rounded to the fen

    @property
    def full_month(self) -> bool:
        return self.days == self.days_in_month


def active_days(period: Period, service_start: dt.date | None,
                service_end: dt.date | None) -> tuple[dt.date | None, dt.date | None, int]:
    """First and last active day (inclusive) of a service inside the period, and their count."""
    first = max(period.first, service_start) if service_start else period.first
    last = min(period.last, service_end) if service_end else period.last
    if last < first:
        return None, None, 0
    return first, last, (last - first).days + 1


def prorate(price: Decimal, quantity: Decimal, period: Period, service_start: dt.date | None,
            service_end: dt.date | None, *, yearly: bool = False) -> Proration:
    """price × quantity × active days ÷ days in the month; a yearly price counts as 1/12 a month."""
    first, last, days = active_days(period, service_start, service_end)
    monthly = Decimal(price) / 12 if yearly else Decimal(price)
    amount = fen(monthly * Decimal(quantity) * days / period.days) if days else ZERO.quantize(FEN)
    return Proration(first, last, days, period.days, amount)


# --- metering ---------------------------------------------------------------------

Interval = tuple[dt.datetime, dt.datetime]


def clip(interval: Interval, window: Interval) -> Interval | None:
    start, end = max(interval[0], window[0]), min(interval[1], window[1])
    return (start, end) if end > start else None


def merge(intervals: list[Interval]) -> list[Interval]:
    """Union of intervals as sorted, disjoint intervals."""
    out: list[list[dt.datetime]] = []
    for start, end in sorted(i for i in intervals if i[1] > i[0]):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return [(a, b) for a, b in out]


def seconds(intervals: list[Interval]) -> int:
    return int(sum((b - a).total_seconds() for a, b in merge(intervals)))


@dataclass(frozen=True)
class Metered:
    leased_seconds: int  # inside the window, before downtime
    down_seconds: int  # of that, while the GPU or its server was down

    @property
    def billable_seconds(self) -> int:
        return self.leased_seconds - self.down_seconds


def meter_lease(lease: Interval, downtime: list[Interval], window: Interval) -> Metered:
    """One GPU's lease inside the window, and how much of it the GPU was down."""
    leased = clip(lease, window)
    if leased is None:
        return Metered(0, 0)
    down = [c for c in (clip(d, leased) for d in downtime) if c]
    return Metered(seconds([leased]), seconds(down))


def started_units(secs: int, unit_seconds: int) -> int:
    """Billed per started unit: 1 second of a new hour counts as the hour."""
    return -(-secs // unit_seconds) if secs > 0 else 0


def hours(secs: int) -> Decimal:
    return (Decimal(secs) / 3600).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class HybridCharge:
    commit: Decimal  # prorated commitment fee, rounded
    included_hours: Decimal  # prorated hours included
    used_hours: int  # started hours used
    over_hours: Decimal
    overage: Decimal  # rounded


def hybrid(commit_fee: Decimal, included_hours: Decimal, hourly_rate: Decimal, used_hours: int,
           active: int, days_in_month: int) -> HybridCharge:
    """commit + max(0, used − included) × rate; a part month prorates the fee and the hours alike."""
    share = Decimal(active) / days_in_month
    commit = fen(Decimal(commit_fee) * active / days_in_month)
    included = Decimal(included_hours) * share
    if active != days_in_month:
        included = included.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    over = max(ZERO, Decimal(used_hours) - included)
    return HybridCharge(commit, included, used_hours, over, fen(over * Decimal(hourly_rate)))


# --- power --------------------------------------------------------------------------

@dataclass(frozen=True)
class MeterResult:
    kwh: Decimal  # energy counted inside the window
    opening: tuple[dt.datetime, Decimal] | None
    closing: tuple[dt.datetime, Decimal] | None
    resets: tuple[tuple[dt.datetime, Decimal, Decimal], ...] = ()  # at, before, after
    gaps: tuple[str, ...] = ()  # sentences, one per gap

    @property
    def complete(self) -> bool:
        return not self.gaps and self.opening is not None and self.closing is not None


def meter_consumption(readings: list[tuple[dt.datetime, Decimal]], start: dt.datetime, end: dt.datetime,
                      max_gap: dt.timedelta = MAX_METER_GAP) -> MeterResult:
    """kWh between the readings that open and close the window, from a cumulative counter.

    The opening reading is the last one at or before `start` (else the first one after it),
    the closing one the last at or before `end`; consecutive months thus share their boundary
    reading and no kWh is counted twice. A counter that goes down was reset: the segments are
    summed, counting the reading after the reset from zero. Readings further apart than
    `max_gap`, or boundaries with no reading within `max_gap`, are gaps: the result is
    incomplete and must not be billed as it stands.
    """
    rows = sorted((t, Decimal(v)) for t, v in readings)
    before = [r for r in rows if r[0] <= start]
    opening = before[-1] if before else next((r for r in rows if start < r[0] <= end), None)
    upto_end = [r for r in rows if r[0] <= end]
    closing = upto_end[-1] if upto_end else None
    gaps: list[str] = []

    def fmt(t: dt.datetime) -> str:
        return t.astimezone(TZ).strftime("%Y-%m-%d %H:%M")

    if opening is None or closing is None or closing[0] <= opening[0]:
        gaps.append(f"no readings between {fmt(start)} and {fmt(end)}")
        return MeterResult(ZERO, opening, closing, (), tuple(gaps))
    if abs(opening[0] - start) > max_gap:
        gaps.append(f"no reading within {_h(max_gap)} h of the start {fmt(start)} (first {fmt(opening[0])})")
    if end - closing[0] > max_gap:
        gaps.append(f"no reading within {_h(max_gap)} h of the end {fmt(end)} (last {fmt(closing[0])})")
    span = [r for r in rows if opening[0] <= r[0] <= closing[0]]
    kwh = ZERO
    resets = []
    for (t0, v0), (t1, v1) in zip(span, span[1:]):
        if t1 - t0 > max_gap:
            gaps.append(f"readings missing from {fmt(t0)} to {fmt(t1)}")
        if v1 < v0:
            resets.append((t1, v0, v1))
            kwh += v1  # the counter restarted from zero
        else:
            kwh += v1 - v0
    return MeterResult(kwh, opening, closing, tuple(resets), tuple(gaps))


def _h(delta: dt.timedelta) -> int:
    return int(delta.total_seconds() // 3600)


@dataclass(frozen=True)
class PowerOverage:
    allowance_kwh: Decimal
    over_kwh: Decimal
    amount: Decimal


def power_overage(kwh: Decimal, allowance_kw: Decimal, hours_in_period: Decimal, price: Decimal) -> PowerOverage:
    """max(0, kWh − allowance kW × hours) × price per kWh."""
    allowance = Decimal(allowance_kw) * Decimal(hours_in_period)
    over = max(ZERO, Decimal(kwh) - allowance)
    return PowerOverage(allowance, over, fen(over * Decimal(price)))


# --- tax ----------------------------------------------------------------------------

def tax_for(amount: Decimal, rate: Decimal) -> Decimal:
    """Each line's tax rounded half-up to the fen; statement totals are sums of lines."""
    return fen(Decimal(amount) * Decimal(rate))


@dataclass(frozen=True)
class Totals:
    subtotal: Decimal
    tax: Decimal
    total: Decimal


def totals(lines: list[tuple[Decimal, Decimal]]) -> Totals:
    """(amount, tax) pairs → subtotal, tax and total, each a plain sum."""
    subtotal = sum((a for a, _t in lines), ZERO.quantize(FEN))
    tax = sum((t for _a, t in lines), ZERO.quantize(FEN))
    return Totals(subtotal, tax, subtotal + tax)


# --- what a line says ---------------------------------------------------------------

@dataclass(frozen=True)
class Charge:
    """One computed statement line, before it is written (or shown by a dry run)."""

    contract_item_id: int | None
    charge: str  # fee, usage, overage, power, credit
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    amount: Decimal
    tax_category: str
    note: str = ""
    warnings: tuple[str, ...] = field(default=())

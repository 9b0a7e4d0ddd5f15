"""The billing arithmetic: periods, proration, metering, power and tax. Pure: no database.

Every function takes plain values (Decimal, date, aware datetime) and returns plain values,
so each rule can be checked by hand in the tests' worked examples.

- A period is a calendar month in Asia/Shanghai, half-open [first day, first day of next).
- Service dates (start, end) are inclusive calendar days in Asia/Shanghai.
- Amounts and taxes are rounded half-up to the fen once, at the end of each line
  (app/domain/money.py: the one rounding of the program).
- Every line multiplies out: quantity × unit price = amount to the fen. A part month's
  quantity is the exact share of the month written with the fewest decimals that give the
  prorated amount (`line_figures`); the unit price is the contract's, never rounded.
"""
from __future__ import annotations

import calendar
import datetime as dt
import math
import re
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from app.domain import messages as M
from app.domain.clock import FIRST_YEAR, LAST_YEAR, TZ, UTC, local_date, local_midnight, local_today  # noqa: F401  (the one local zone)
from app.domain.errors import RuleViolation
from app.domain.money import round_fen
from app.domain.wording import Text  # noqa: F401  (a Charge's texts, both languages)

FEN = Decimal("0.01")
ZERO = Decimal(0)
# Consecutive meter readings further apart than this leave a gap that is not billed blindly.
MAX_METER_GAP = dt.timedelta(hours=48)


# Decimals a line's quantity may carry (statement_line.quantity is Numeric(26, 12)).
QTY_PLACES = 12


def fen(value: Decimal | Fraction) -> Decimal:
    """Round half-up (ties away from zero) to 0.01; a Fraction is rounded exactly."""
    if isinstance(value, Fraction):
        return fen_of_fraction(value)
    return round_fen(value)


def fen_of_fraction(value: Fraction) -> Decimal:
    """An exact rational rounded half-up to the fen (no intermediate rounding)."""
    cents, rest = divmod(abs(value) * 100, 1)
    cents = int(cents) + (1 if rest >= Fraction(1, 2) else 0)
    return (Decimal(cents if value >= 0 else -cents) / 100).quantize(FEN)


def line_figures(exact_quantity: Fraction | Decimal | int, unit_price: Decimal,
                 max_places: int = QTY_PLACES) -> tuple[Decimal, Decimal]:
    """(quantity, amount) of a line, such that fen(quantity × unit price) == amount.

    The amount is the exact product rounded half-up. The quantity is `exact_quantity` written
    with the fewest decimals (rounded, or else cut down or up) that still gives that amount, e.g.
    6,000 × 20/31: quantity 0.645161 (0.6452 would give 3,871.20), amount 3,870.97. If no
    quantity of up to `max_places` decimals does (a price so large that 10⁻¹² of it is a fen),
    the quantity is rounded to `max_places` and the amount follows it, at most a fen away.
    """
    q = Fraction(exact_quantity) if not isinstance(exact_quantity, Decimal) else Fraction(exact_quantity)
    price = Decimal(unit_price)
    amount = fen_of_fraction(q * Fraction(price))
    if q.denominator == 1:  # a whole quantity (most lines: full months, counts) is its own shortest form
        return Decimal(q.numerator), amount
    with localcontext() as ctx:
        ctx.prec = 60
        exact = Decimal(q.numerator) / Decimal(q.denominator)
        for places in range(0, max_places + 1):
            step = Decimal(1).scaleb(-places)
            for rounding in (ROUND_HALF_UP, ROUND_FLOOR, ROUND_CEILING):
                cand = exact.quantize(step, rounding=rounding)
                if round_fen(cand * price) == amount:
                    return cand, amount
        cand = exact.quantize(Decimal(1).scaleb(-max_places), rounding=ROUND_HALF_UP)
        return cand, round_fen(cand * price)


def multiplies_out(quantity: Decimal, unit_price: Decimal, amount: Decimal) -> bool:
    """The fapiao rule: quantity × unit price, rounded half-up to the fen, is the amount."""
    with localcontext() as ctx:
        ctx.prec = 60
        return round_fen(Decimal(quantity) * Decimal(unit_price)) == Decimal(amount)


@dataclass(frozen=True)
class Period:
    """A billing month: [first, next_first) in Asia/Shanghai."""

    year: int
    month: int

    @classmethod
    def parse(cls, text: "str | Period", today: dt.date | None = None) -> "Period":
        """The one reading of a billing period, for the command line, the services and the console:
        'YYYY-MM' (2000-01 to 2099-12), 'last' (the previous Shanghai month) or 'this'. ValueError
        with a message for people for anything else: 2026-1, 202610, 2026-13, an int."""
        if isinstance(text, Period):
            return text
        if not isinstance(text, str):
            raise ValueError(f"{text!r} is not a period: use YYYY-MM (e.g. 2026-10), last or this")
        t = text.strip().lower()
        if t == "last":
            return cls.last_month(today)
        if t == "this":
            return cls.this_month(today)
        m = re.fullmatch(r"(\d{4})-(\d{2})", t)
        if not m or not 1 <= int(m.group(2)) <= 12:
            raise ValueError(f"{text!r} is not a period: use YYYY-MM (e.g. 2026-10), last or this")
        if not FIRST_YEAR <= int(m.group(1)) <= LAST_YEAR:
            raise ValueError(f"{text!r} is out of range: periods run from {FIRST_YEAR}-01 to {LAST_YEAR}-12")
        return cls(int(m.group(1)), int(m.group(2)))

    @classmethod
    def this_month(cls, today: dt.date | None = None) -> "Period":
        """The Shanghai month of `today` (default: today in Shanghai)."""
        return cls.containing(today or local_today())

    @classmethod
    def last_month(cls, today: dt.date | None = None) -> "Period":
        """The month before `today`'s, in Shanghai: what a monthly billing run bills."""
        return cls.containing((today or local_today()).replace(day=1) - dt.timedelta(days=1))

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
    share = month_share(Decimal(quantity), days, period.days, yearly)
    amount = fen_of_fraction(share * Fraction(Decimal(price))) if days else ZERO.quantize(FEN)
    return Proration(first, last, days, period.days, amount)


def month_share(quantity: Decimal, days: int, days_in_month: int, yearly: bool = False) -> Fraction:
    """The exact quantity a monthly (or yearly) price is multiplied by: quantity × days / days in
    the month, and a twelfth of that for a yearly price."""
    share = Fraction(Decimal(quantity)) * Fraction(days, days_in_month)
    return share / 12 if yearly else share


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
    if len(intervals) <= 1:  # the common case (one lease, no downtime), without sorting and merging
        return max(0, int((intervals[0][1] - intervals[0][0]).total_seconds())) if intervals else 0
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
    return round_fen(Decimal(secs) / 3600)


@dataclass(frozen=True)
class HybridCharge:
    share: Fraction  # active days / days in the month
    commit_quantity: Decimal  # the share as written on the line (see line_figures)
    commit: Decimal  # prorated commitment fee, rounded
    included_hours: Fraction  # prorated hours included, exact
    used_hours: int  # started hours used
    over_hours: int  # whole started hours beyond the included ones
    overage: Decimal  # rounded


def hybrid(commit_fee: Decimal, included_hours: Decimal, hourly_rate: Decimal, billable_seconds: int,
           active: int, days_in_month: int) -> HybridCharge:
    """commit × share + started hours beyond (included × share) × rate.

    A part month prorates the fee and the included hours alike, exactly (2,000 h × 16/31 =
    1,032.258… h, not rounded); the overage is counted in whole started hours: the hours used
    beyond the included ones, rounded up (1,040.2 h used → 7.94… h over → 8 h billed).
    """
    share = Fraction(active, days_in_month)
    qty, commit = line_figures(share, Decimal(commit_fee))
    included = Fraction(Decimal(included_hours or 0)) * share
    over_seconds = Fraction(billable_seconds) - included * 3600
    over = math.ceil(over_seconds / 3600) if over_seconds > 0 else 0
    return HybridCharge(share, qty, commit, included, started_units(billable_seconds, 3600), over,
                        fen(over * Decimal(hourly_rate)))


def decimal_of(value: Fraction, places: int = 4) -> Decimal:
    """A Fraction shown with `places` decimals (for notes, never for arithmetic)."""
    with localcontext() as ctx:
        ctx.prec = 60
        return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
            Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP).normalize()


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

class TaxRates(dict):
    """category → the VAT rate in force on `day` (app.services.reference.tax_rates_on reads them);
    `rate(category)` refuses a category without one, as billing, the contract form and its PDF do."""

    def __init__(self, day: dt.date, rates: dict[str, Decimal], starts: dict[str, dt.date] | None = None):
        super().__init__(rates)
        self.day = day
        self.starts = dict(starts or {})   # category -> its first valid_from on record

    def rate(self, category: str) -> Decimal:
        if category in self:
            return self[category]
        raise missing_tax_rate(category, self.day, self.starts.get(category))


def missing_tax_rate(category: str, day: dt.date, first: dt.date | None = None):
    """The refusal of a line whose tax category has no rate valid in `day`'s month: the one message,
    saying where the rates on record start (no screen adds a rate; they come with the upgrades)."""
    month = f"{day:%Y-%m}"
    if first is None or first <= day:
        return RuleViolation(M.TAX_RATE_NONE(category, month))
    return RuleViolation(M.TAX_RATE_MISSING(category, month, f"{first:%Y-%m}"))


def rate_of(rates: dict[str, Decimal], category: str, day: dt.date) -> Decimal:
    """`rates[category]`, refused as billing refuses when there is none (never quoted at 0 %)."""
    if isinstance(rates, TaxRates):
        return rates.rate(category)
    if category in rates:
        return rates[category]
    raise missing_tax_rate(category, day)


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
    description: Text  # in both languages (app/domain/wording.py)
    quantity: Decimal
    unit: str  # the word of the contract's language (models.choices.LineUnit)
    unit_price: Decimal
    amount: Decimal
    tax_category: str
    note: Text | None = None
    warnings: tuple[str, ...] = field(default=())


# Metered energy is charged as `power` and taxed as electricity (models.choices.ELECTRICITY, the
# sale of electricity at 13 %), not at the item's category: the one rule for every kWh line (a
# rack's kWh beyond its allowance, a kWh-priced item, a circuit's metered kWh). A rent that includes
# power ("含 6 kW 电力") is a fee at the item's category. docs/billing.md, "Electricity".
ENERGY_CHARGE = "power"
ELECTRICITY = "electricity"  # = models.choices.ELECTRICITY (this module imports no models)


def energy_charge(contract_item_id: int, description: Text, kwh: Decimal, unit: str, price: Decimal,
                  amount: Decimal, note: Text | None = None) -> Charge:
    """The statement line of metered energy: `kwh` at `price` a kWh, taxed as electricity."""
    return Charge(contract_item_id, ENERGY_CHARGE, description, kwh, unit, price, amount, ELECTRICITY, note=note)



def bills_energy(item) -> bool:
    """Whether a contract item (a ContractItem or an ItemSpec) has metered-energy lines: a kWh price,
    or a kWh price beside a rack's power allowance or a circuit's fee (app.services.billing.charges,
    app.services.power_billing). Those lines are taxed as electricity, whatever the item's category."""
    if item.price_unit == "kwh":
        return True
    return item.kwh_price is not None and (
        item.kind == "power" or (item.kind == "rack" and item.power_allowance_kw is not None))

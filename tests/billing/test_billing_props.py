"""Properties of the pure billing arithmetic (app/domain/rating.py), checked over many inputs."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain import rating as B

prices = st.decimals(min_value=Decimal("0"), max_value=Decimal("1000000"), places=2)
periods = st.builds(B.Period, st.integers(2000, 2100), st.integers(1, 12))
quantities = st.integers(1, 64).map(Decimal)


@given(prices, quantities, periods)
def test_a_full_month_is_the_full_price(price, qty, p):
    assert B.prorate(price, qty, p, None, None).amount == B.fen(price * qty)
    assert B.prorate(price, qty, p, p.first, p.last).days == p.days


@given(prices, periods, st.data())
def test_two_parts_of_a_month_sum_to_the_price_within_a_fen(price, p, data):
    split = data.draw(st.integers(1, p.days - 1))
    cut = p.first + dt.timedelta(days=split)
    a = B.prorate(price, Decimal(1), p, None, cut - dt.timedelta(days=1))
    b = B.prorate(price, Decimal(1), p, cut, None)
    assert a.days + b.days == p.days
    assert abs(a.amount + b.amount - price) <= Decimal("0.01")


@given(prices, periods)
def test_every_day_billed_separately_sums_to_the_price_within_half_a_fen_per_day(price, p):
    days = [p.first + dt.timedelta(days=i) for i in range(p.days)]
    total = sum(B.prorate(price, Decimal(1), p, d, d).amount for d in days)
    assert abs(total - price) <= Decimal("0.005") * p.days


@given(prices, periods, st.data())
def test_more_days_never_cost_less(price, p, data):
    d1 = data.draw(st.integers(0, p.days - 1))
    d2 = data.draw(st.integers(d1, p.days - 1))
    a = B.prorate(price, Decimal(1), p, p.first + dt.timedelta(days=p.days - 1 - d1), None)
    b = B.prorate(price, Decimal(1), p, p.first + dt.timedelta(days=p.days - 1 - d2), None)
    assert a.days == d1 + 1 and b.days == d2 + 1
    assert a.amount <= b.amount <= B.fen(price)


@given(prices, periods)
def test_a_yearly_price_over_twelve_months_is_the_yearly_price_within_six_fen(price, p):
    months = [B.Period(p.year, m) for m in range(1, 13)]
    total = sum(B.prorate(price, Decimal(1), m, None, None, yearly=True).amount for m in months)
    assert abs(total - price) <= Decimal("0.06")


@given(st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2100, 12, 31)),
       st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2100, 12, 31)), periods)
def test_active_days_lie_inside_both_the_month_and_the_service(start, end, p):
    first, last, n = B.active_days(p, start, end)
    if n:
        assert p.first <= first <= last <= p.last and start <= first and last <= end
        assert n == (last - first).days + 1
    else:
        assert end < p.first or start > p.last or end < start


@given(st.integers(0, 10**8), st.sampled_from([60, 3600]))
def test_started_units_cover_the_seconds_and_no_more(secs, unit):
    n = B.started_units(secs, unit)
    assert n * unit >= secs and (n - 1) * unit < secs or (secs == 0 and n == 0)


@given(st.lists(st.integers(0, 2000), min_size=2, max_size=40), st.data())
@settings(max_examples=200)
def test_meter_segments_sum_with_and_without_a_reset(increments, data):
    """Without a reset kWh = last − first; a reset to zero loses nothing counted after it."""
    start = dt.datetime(2026, 10, 1, tzinfo=B.UTC)
    times = [start + dt.timedelta(hours=12 * i) for i in range(len(increments))]
    values, v = [], Decimal(5000)
    for inc in increments:
        v += inc
        values.append(v)
    end = times[-1]
    plain = B.meter_consumption(list(zip(times, values)), start, end)
    assert plain.complete and plain.kwh == values[-1] - values[0] and not plain.resets
    k = data.draw(st.integers(1, len(values) - 1))
    # the counter restarts at zero just after reading k-1: later readings drop by values[k-1]
    reset = values[:k] + [x - values[k - 1] for x in values[k:]]
    if reset[k] < reset[k - 1]:
        r = B.meter_consumption(list(zip(times, reset)), start, end)
        assert len(r.resets) == 1 and r.kwh == values[-1] - values[0]


def test_gaps_and_missing_boundaries_are_reported():
    t0 = dt.datetime(2026, 10, 1, tzinfo=B.UTC)
    end = t0 + dt.timedelta(days=10)
    daily = [(t0 + dt.timedelta(days=i), Decimal(100 * i)) for i in range(11)]
    assert B.meter_consumption(daily, t0, end).complete
    holey = daily[:3] + daily[7:]
    r = B.meter_consumption(holey, t0, end)
    assert not r.complete and "readings missing" in r.gaps[0]
    late = B.meter_consumption(daily[:5], t0, end)
    assert not late.complete and "of the end" in late.gaps[0]
    assert not B.meter_consumption([], t0, end).complete


@given(st.decimals(min_value=Decimal("-100000"), max_value=Decimal("100000"), places=2),
       st.sampled_from([Decimal("0.06"), Decimal("0.13")]))
def test_tax_is_half_up_to_the_fen_and_symmetric(amount, rate):
    t = B.tax_for(amount, rate)
    assert t == t.quantize(Decimal("0.01"))
    assert abs(t - amount * rate) <= Decimal("0.005")
    assert B.tax_for(-amount, rate) == -t


def test_hybrid_prorates_commitment_and_included_hours_alike():
    # 15 of 30 days: commit 50,000 × 15/30 = 25,000.00; included 2,000 × 0.5 = 1,000 h; used 1,200 h → 200 × 30
    h = B.hybrid(Decimal(50000), Decimal(2000), Decimal(30), 1200 * 3600, 15, 30)
    assert (h.commit, h.included_hours, h.over_hours, h.overage) == (
        Decimal("25000.00"), 1000, 200, Decimal("6000.00"))


def test_hybrid_part_month_prorates_included_hours_exactly_and_bills_whole_started_hours():
    """16 of 31 days, 2,000 h included a month, 1,040 h 12 min used, ¥30 an hour beyond.

    | figure            | arithmetic                         | value                        |
    |-------------------|------------------------------------|------------------------------|
    | commitment        | 2,000 × 16/31                      | 1,032.258… → 1,032.26        |
    | included hours    | 2,000 × 16/31 (exact, not 1,032.26) | 1,032.2580645… h             |
    | over              | 1,040.2 − 1,032.258… = 7.94… h     | 8 started hours              |
    | overage           | 8 × 30                             | 240.00                       |
    Before: included rounded to 1,032.26 and over = 1,041 − 1,032.26 = 8.74 h → 262.20.
    """
    h = B.hybrid(Decimal(2000), Decimal(2000), Decimal(30), 1040 * 3600 + 12 * 60, 16, 31)
    assert h.included_hours == Fraction(32000, 31) and h.commit == Decimal("1032.26")
    assert (h.used_hours, h.over_hours, h.overage) == (1041, 8, Decimal("240.00"))
    assert B.multiplies_out(h.commit_quantity, Decimal(2000), h.commit)
    # exactly the included hours: nothing over; one second more: one started hour
    at = int(Fraction(32000, 31) * 3600) + 1
    assert B.hybrid(Decimal(2000), Decimal(2000), Decimal(30), at - 1, 16, 31).over_hours == 0
    assert B.hybrid(Decimal(2000), Decimal(2000), Decimal(30), at, 16, 31).over_hours == 1


@given(st.decimals(min_value=Decimal("0"), max_value=Decimal("999999999.9999"), places=4),
       st.integers(0, 31), st.integers(28, 31), st.booleans(), st.integers(1, 64))
@settings(max_examples=300)
def test_every_prorated_line_multiplies_out(price, days, month_days, yearly, qty):
    """quantity × unit price = amount to the fen, and the amount is the exact proration's."""
    days = min(days, month_days)
    share = B.month_share(Decimal(qty), days, month_days, yearly)
    q, amount = B.line_figures(share, price)
    assert B.multiplies_out(q, price, amount)
    assert q == q.quantize(Decimal("1e-12"))
    assert abs(amount - B.fen(share * Fraction(price))) <= Decimal("0.01")


def test_period_boundaries_are_shanghai_midnight():
    p = B.Period.parse("2026-11")
    assert p.start == dt.datetime(2026, 10, 31, 16, tzinfo=B.UTC)
    assert p.end == dt.datetime(2026, 11, 30, 16, tzinfo=B.UTC)
    assert (B.Period.parse("2028-02").days, B.Period.parse("2027-02").days) == (29, 28)

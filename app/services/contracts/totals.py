"""A contract's totals: monthly recurring, one-off, the whole term's value, VAT and the total in
Chinese upper-case numerals (大写).

Computed here once, the way billing will charge it, and read by the draft form, the detail panel
and the contract PDF: each recurring line is prorated month by month over its service period
(app.domain.rating.prorate: price × quantity × active days ÷ days in the month; a yearly price is 1/12 a
month), each month's line is taxed and rounded to the fen as a statement line is, and one-off lines
(and each cross-connect's installation fee) count once. Usage (GPU-hours, kWh over an allowance, hybrid overage) is not known in advance and is
left out; `usage_based` says whether the contract has such charges.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from app.domain.money import amount_in_words
from app.domain.rating import FEN, Period, fen, prorate, rate_of, tax_for
from app.services.contracts.records import DEFAULT_TAX
from models.choices import TaxCategory

ZERO = Decimal("0.00")
RECURRING = {"month", "year", "mbps_month", "hybrid"}
USAGE = {"gpu_hour", "gpu_minute", "kwh"}


@dataclass(frozen=True)
class TotalsLine:
    """What one contract item contributes (plain values: from a saved item or a draft's spec)."""

    kind: str
    price_unit: str
    unit_price: Decimal
    quantity: Decimal
    tax_category: str | None = None
    service_start: dt.date | None = None
    service_end: dt.date | None = None
    mbps: int | None = None
    power_allowance_kw: Decimal | None = None
    setup_price: Decimal | None = None  # cross-connects: an installation fee each, once
    included_hours: Decimal | None = None  # hybrid: the hours the commitment includes (the whole item)
    hourly_rate: Decimal | None = None     # hybrid: the rate beyond them


@dataclass(frozen=True)
class ContractTotals:
    monthly: Decimal       # recurring charges of one full month, before VAT
    one_off: Decimal       # before VAT
    term_value: Decimal    # the whole term before VAT: recurring prorated over the term, plus one-off
    vat: Decimal
    total: Decimal         # term_value + vat
    in_words: str          # the total in 大写
    usage_based: bool      # the contract also bills by use (GPU-hours, kWh), not counted above
    # GPU-hours (and a hybrid's overage) at full use over the item's window: what an hourly draft is
    # expected to bill, so it does not read ¥0.00 (kWh beyond an allowance is not guessed)
    expected_usage: Decimal = ZERO
    expected_total: Decimal = ZERO  # term_value + expected_usage + their VAT
    expected_in_words: str = ""


def _signed_price(line: TotalsLine) -> Decimal:
    price = Decimal(line.unit_price)
    return -price if line.kind == "discount" else price


def _quantity(line: TotalsLine) -> Decimal:
    if line.price_unit == "mbps_month" and line.mbps:
        return Decimal(line.mbps)
    if line.price_unit == "hybrid":
        return Decimal(1)  # the commitment is the whole item's, as billing charges it (not per GPU)
    return Decimal(line.quantity)


def _months(start: dt.date, end: dt.date):
    period = Period.containing(start)
    while period.first <= end:
        yield period
        period = period.next()


def expected_usage(line: TotalsLine, start: dt.date, end: dt.date) -> Decimal:
    """A GPU item's usage at full use (24 h a day) over its window, month by month as billing rounds
    it: started GPU-hours (or minutes) × rate; a hybrid item's overage beyond its included hours."""
    from app.domain.rating import hybrid

    if line.kind != "gpu" or line.price_unit not in ("gpu_hour", "gpu_minute", "hybrid"):
        return ZERO
    first = max(line.service_start or start, start)
    last = min(line.service_end or end, end)
    qty = Decimal(line.quantity)
    total = ZERO
    for period in _months(first, last):
        a, b = max(period.first, first), min(period.last, last)
        days = (b - a).days + 1
        if line.price_unit == "hybrid":
            total += hybrid(Decimal(line.unit_price), Decimal(line.included_hours or 0), Decimal(line.hourly_rate or 0),
                            int(qty * days * 86400), days, period.days).overage
        else:
            units = days * (1440 if line.price_unit == "gpu_minute" else 24)
            total += fen(Decimal(line.unit_price) * qty * units)
    return total.quantize(FEN)


def contract_totals(lines: list[TotalsLine], start: dt.date, end: dt.date,
                    rates: dict[str, Decimal]) -> ContractTotals:
    """The totals of a contract running `start`..`end` (inclusive); `rates` maps a tax category to
    its VAT rate on the contract's start (app.services.reference.tax_rates_on)."""
    monthly = one_off = term = vat = expected = expected_vat = ZERO
    usage = False
    for line in lines:
        price, qty = _signed_price(line), _quantity(line)
        category = line.tax_category or DEFAULT_TAX.get(line.kind, TaxCategory.IDC)
        if line.power_allowance_kw is not None or line.price_unit in USAGE or line.price_unit == "hybrid":
            usage = True
        guess = expected_usage(line, start, end)
        if guess:
            expected += guess
            expected_vat += tax_for(guess, rate_of(rates, category, start))
        if line.kind == "xconnect" and line.setup_price:
            # each cross-connect's installation fee, once (billed in the month it is installed)
            amount = fen(Decimal(line.setup_price) * Decimal(line.quantity))
            one_off += amount
            term += amount
            vat += tax_for(amount, rate_of(rates, category, start))
        if line.price_unit == "one_off":
            amount = fen(price * qty)
            one_off += amount
            term += amount
            vat += tax_for(amount, rate_of(rates, category, start))
        elif line.price_unit in RECURRING:
            yearly = line.price_unit == "year"
            monthly += fen(price * qty / 12) if yearly else fen(price * qty)
            first = max(line.service_start or start, start)
            last = min(line.service_end or end, end)
            for period in _months(first, last):
                amount = prorate(price, qty, period, first, last, yearly=yearly).amount
                term += amount
                vat += tax_for(amount, rate_of(rates, category, start))
    term, vat = term.quantize(FEN), vat.quantize(FEN)
    total = term + vat
    expected_total = (total + expected + expected_vat).quantize(FEN)
    return ContractTotals(monthly.quantize(FEN), one_off.quantize(FEN), term, vat, total,
                          amount_in_words(total), usage, expected.quantize(FEN), expected_total,
                          amount_in_words(expected_total))


def totals_of_contract(db, contract_id: int) -> ContractTotals:
    """The totals of a stored contract, by id."""
    from app.services.reference import tax_rates_on
    from models import Contract

    with db.session() as s:
        c = s.get(Contract, contract_id)
        rates = tax_rates_on(s, c.start_date)
        lines = [line_of_item(it) for it in c.items]
        return contract_totals(lines, c.start_date, c.end_date, rates)


def totals_in(session, lines: list[TotalsLine], start: dt.date, end: dt.date) -> ContractTotals:
    """contract_totals with the VAT rates on `start` read inside the caller's session (a panel's one read)."""
    from app.services.reference import tax_rates_on

    return contract_totals(lines, start, end, tax_rates_on(session, start))


def totals_of_draft(db, items, start: dt.date, end: dt.date) -> ContractTotals:
    """The totals of a contract being edited: `items` are app.services.contracts.ItemSpec."""
    from app.services.reference import tax_rates_on

    with db.session() as s:
        rates = tax_rates_on(s, start)
    return contract_totals([line_of_item(it) for it in items], start, end, rates)


def line_of_item(it) -> TotalsLine:
    """A TotalsLine from a ContractItem row or an ItemSpec (the same attribute names)."""
    return TotalsLine(kind=it.kind, price_unit=it.price_unit, unit_price=Decimal(it.unit_price or 0),
                      quantity=Decimal(it.quantity or 0), tax_category=it.tax_category,
                      service_start=it.service_start, service_end=it.service_end, mbps=it.mbps,
                      power_allowance_kw=it.power_allowance_kw, setup_price=getattr(it, "setup_price", None),
                      included_hours=getattr(it, "included_hours", None), hourly_rate=getattr(it, "hourly_rate", None))

"""The price list: a GPU model (or a colocation add-on) × term × subsidiary, valid from a day.

One home of what a term costs for a window: `term_figures` prices N GPUs of a model over a
window for every term (hourly at full use, monthly and yearly prorated by day as billing
prorates them, hybrid with its commitment and the overage at full use), with VAT and 大写. The
contract draft, the capacity search's offers and the quote all read it.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from models import GpuModel, Subsidiary
from models.capacity import PriceListEntry
from models.choices import PriceProduct, PriceTerm, TaxCategory

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import RuleViolation, ValidationError
from app.domain.money import AmountError, amount_in_words, format_price, parse_decimal
from app.domain.rating import FEN, Period, fen, hybrid, prorate, tax_for
from app.services.entities import get_or_404, snapshot
from app.store.db import Database
from app.store.uow import UnitOfWork

ZERO = Decimal("0.00")
TERMS = tuple(PriceTerm.values())


@dataclass(frozen=True)
class PriceInfo:
    id: int
    product: str
    gpu_model_id: int | None
    gpu_model: str | None
    subsidiary_id: int | None
    subsidiary: str | None
    term: str
    unit_price: Decimal
    included_hours: Decimal | None
    hourly_rate: Decimal | None
    setup_price: Decimal | None
    valid_from: dt.date
    valid_to: dt.date | None
    note: str | None


@dataclass(frozen=True)
class TermFigures:
    """What `count` GPUs cost over a window on one term."""

    term: str
    unit_price: Decimal          # per GPU: per hour, month or year; hybrid: the commitment per GPU-month
    included_hours: Decimal | None  # hybrid: per GPU per month
    hourly_rate: Decimal | None     # hybrid: beyond the included hours
    first_month: Decimal         # the first billing month before VAT (what the first statement charges)
    amount: Decimal              # the whole window before VAT
    vat: Decimal
    total: Decimal
    in_words: str
    basis: str                   # how the amount was reached, in English (the screen translates the pattern)


# --- reading --------------------------------------------------------------------------------

def _in_force(day: dt.date):
    return and_(PriceListEntry.valid_from <= day,
                or_(PriceListEntry.valid_to.is_(None), PriceListEntry.valid_to >= day))


def prices_on(session: Session, *, product: str = PriceProduct.GPU, gpu_model_id: int | None = None,
              subsidiary_id: int | None = None, day: dt.date) -> dict[str, PriceListEntry]:
    """The price of each term in force on `day`: the subsidiary's own before the group's (NULL)."""
    q = select(PriceListEntry).where(PriceListEntry.product == product, _in_force(day),
                                     or_(PriceListEntry.subsidiary_id.is_(None),
                                         PriceListEntry.subsidiary_id == subsidiary_id))
    q = q.where(PriceListEntry.gpu_model_id == gpu_model_id) if gpu_model_id is not None \
        else q.where(PriceListEntry.gpu_model_id.is_(None))
    out: dict[str, PriceListEntry] = {}
    # group rows first, then the subsidiary's, so the subsidiary's own wins; later validity wins
    for row in session.execute(q.order_by(PriceListEntry.subsidiary_id.is_not(None), PriceListEntry.valid_from)).scalars():
        out[row.term] = row
    return out


def list_prices(db: Database, *, day: dt.date | None = None) -> list[PriceInfo]:
    """Every price-list row (in force on `day` when given), by product, model, subsidiary, term."""
    with db.session() as s:
        q = (select(PriceListEntry, GpuModel.name, Subsidiary.code)
             .outerjoin(GpuModel, GpuModel.id == PriceListEntry.gpu_model_id)
             .outerjoin(Subsidiary, Subsidiary.id == PriceListEntry.subsidiary_id))
        if day is not None:
            q = q.where(_in_force(day))
        rows = s.execute(q.order_by(PriceListEntry.product, GpuModel.name, Subsidiary.code,
                                    PriceListEntry.term, PriceListEntry.valid_from)).all()
        return [_info(p, model, sub) for p, model, sub in rows]


def _info(p: PriceListEntry, model: str | None, sub: str | None) -> PriceInfo:
    return PriceInfo(p.id, p.product, p.gpu_model_id, model, p.subsidiary_id, sub, p.term, p.unit_price,
                     p.included_hours, p.hourly_rate, p.setup_price, p.valid_from, p.valid_to, p.note)


# --- writing --------------------------------------------------------------------------------

FIELDS = ("product", "gpu_model_id", "subsidiary_id", "term", "unit_price", "included_hours", "hourly_rate",
          "setup_price", "valid_from", "valid_to", "note")


def _number(value, name: str, errors: dict, *, required: bool = False, places: int = 4) -> Decimal | None:
    try:
        d = parse_decimal(value, places=places, whole_digits=10, currency=name != "included_hours")
    except AmountError as exc:
        errors[name] = str(exc)
        return None
    if d is None and required:
        errors[name] = "is required"
    elif d is not None and d < 0:
        errors[name] = "cannot be negative"
    return d


def set_price_in(uow: UnitOfWork, *, product: str = PriceProduct.GPU, term: str, unit_price,
                 valid_from: dt.date, gpu_model_id: int | None = None, subsidiary_id: int | None = None,
                 valid_to: dt.date | None = None, included_hours=None, hourly_rate=None, setup_price=None,
                 note: str | None = None) -> int:
    """Add a price. A price of the same product, model, term and subsidiary still open on
    `valid_from` ends the day before (a new price replaces it); one starting later is refused."""
    s = uow.session
    errors: dict[str, str] = {}
    if product not in PriceProduct.values():
        errors["product"] = f"one of {', '.join(PriceProduct.values())}"
    if term not in TERMS:
        errors["term"] = f"one of {', '.join(TERMS)}"
    if product == PriceProduct.GPU and (gpu_model_id is None or s.get(GpuModel, gpu_model_id) is None):
        errors["gpu_model_id"] = "a GPU price names an existing GPU model"
    if product != PriceProduct.GPU and gpu_model_id is not None:
        errors["gpu_model_id"] = "only a GPU price names a GPU model"
    if product != PriceProduct.GPU and term != PriceTerm.MONTHLY:
        errors["term"] = "colocation add-ons are priced by the month"
    if subsidiary_id is not None and s.get(Subsidiary, subsidiary_id) is None:
        errors["subsidiary_id"] = f"subsidiary {subsidiary_id} does not exist"
    price = _number(unit_price, "unit_price", errors, required=True)
    inc = _number(included_hours, "included_hours", errors, places=2)
    rate = _number(hourly_rate, "hourly_rate", errors)
    setup = _number(setup_price, "setup_price", errors)
    if term == PriceTerm.HYBRID and (inc is None or not rate):
        errors["hourly_rate"] = "a hybrid price gives the hours included per GPU-month and the rate beyond them"
    if term != PriceTerm.HYBRID and (inc is not None or rate is not None):
        errors["included_hours"] = "included hours and an overage rate belong to a hybrid price"
    if setup is not None and product != PriceProduct.XCONNECT:
        errors["setup_price"] = "an installation price is for cross-connects"
    if valid_from is None:
        errors["valid_from"] = "is required"
    elif valid_to is not None and valid_to < valid_from:
        errors["valid_to"] = f"ends ({valid_to}) before it starts ({valid_from})"
    if errors:
        raise ValidationError(errors)
    same = [PriceListEntry.product == product, PriceListEntry.term == term,
            PriceListEntry.gpu_model_id.is_(None) if gpu_model_id is None else PriceListEntry.gpu_model_id == gpu_model_id,
            PriceListEntry.subsidiary_id.is_(None) if subsidiary_id is None else PriceListEntry.subsidiary_id == subsidiary_id]
    later = s.execute(select(PriceListEntry).where(*same, PriceListEntry.valid_from >= valid_from)).scalars().first()
    if later is not None:
        raise RuleViolation(f"a price of this kind already starts on {later.valid_from}; "
                            "change that one or give a later start")
    for old in s.execute(select(PriceListEntry).where(*same, PriceListEntry.valid_from < valid_from,
                                                      or_(PriceListEntry.valid_to.is_(None),
                                                          PriceListEntry.valid_to >= valid_from))).scalars():
        before = {"valid_to": old.valid_to.isoformat() if old.valid_to else None}
        old.valid_to = valid_from - dt.timedelta(days=1)
        old.updated_by = uow.actor.login
        s.flush()
        uow.audit("price.close", "price", old.id, _label(s, old), before=before,
                  after={"valid_to": old.valid_to.isoformat()}, reason=f"replaced from {valid_from}")
    row = PriceListEntry(product=product, gpu_model_id=gpu_model_id, subsidiary_id=subsidiary_id, term=term,
                         unit_price=price, included_hours=inc, hourly_rate=rate, setup_price=setup,
                         valid_from=valid_from, valid_to=valid_to, note=(note or "").strip() or None,
                         updated_by=uow.actor.login)
    s.add(row)
    s.flush()
    uow.audit("price.create", "price", row.id, _label(s, row), after=snapshot(row, FIELDS))
    return row.id


def set_price(db: Database, actor: Actor, **values) -> int:
    """Add a price to the list (administrators; see set_price_in)."""
    require(actor, "manage_prices")
    with UnitOfWork(db, actor) as uow:
        pid = set_price_in(uow, **values)
        uow.commit()
        return pid


def _label(s: Session, p: PriceListEntry) -> str:
    what = s.get(GpuModel, p.gpu_model_id).name if p.gpu_model_id else PriceProduct.label(p.product)
    sub = s.get(Subsidiary, p.subsidiary_id).code if p.subsidiary_id else "*"
    return f"{what} {PriceTerm.label(p.term)} {sub} {p.valid_from}"


def get_price_row(session: Session, price_id: int) -> PriceListEntry:
    return get_or_404(session, PriceListEntry, price_id, "price")


# --- a term's figures -------------------------------------------------------------------------

def _months(first: dt.date, last: dt.date):
    period = Period.containing(first)
    while period.first <= last:
        yield period
        period = period.next()


def window_hours(start: dt.date, end: dt.date) -> int:
    """Hours from local midnight of `start` to local midnight after `end` (Shanghai has no DST)."""
    return ((end - start).days + 1) * 24


def term_amounts(term: str, price: PriceListEntry | None, count: int, start: dt.date,
                 end: dt.date) -> tuple[Decimal, Decimal, str] | None:
    """(first month, whole window, basis) before VAT for `count` GPUs on `term`; None without a price.
    Monthly and yearly are prorated by day as billing prorates them (a yearly price is 1/12 a month);
    hourly and hybrid assume full use (24 hours a day), which is what a training job does."""
    if price is None:
        return None
    unit = Decimal(price.unit_price)
    q = Decimal(count)
    months = list(_months(start, end))
    per_month: list[Decimal] = []
    if term == PriceTerm.HOURLY:
        for p in months:
            first, last = max(p.first, start), min(p.last, end)
            per_month.append(fen(unit * q * window_hours(first, last)))
        basis = f"{count} GPU × {window_hours(start, end)} h × {format_price(unit)}"
    elif term in (PriceTerm.MONTHLY, PriceTerm.YEARLY):
        yearly = term == PriceTerm.YEARLY
        per_month = [prorate(unit, q, p, start, end, yearly=yearly).amount for p in months]
        basis = f"{count} GPU × {format_price(unit)} / {'year' if yearly else 'month'}, prorated by day"
    else:
        inc = Decimal(price.included_hours or 0)
        for p in months:
            first, last = max(p.first, start), min(p.last, end)
            days = (last - first).days + 1
            h = hybrid(unit * q, inc * q, Decimal(price.hourly_rate or 0), count * days * 86400, days, p.days)
            per_month.append(h.commit + h.overage)
        basis = (f"{count} GPU × ({format_price(unit)} / month incl. {format_price(inc)} h + "
                 f"{format_price(price.hourly_rate)} / h beyond), full use")
    return (per_month[0] if per_month else ZERO), sum(per_month, ZERO).quantize(FEN), basis


def term_figures(session: Session, gpu_model_id: int, subsidiary_id: int | None, count: int,
                 start: dt.date, end: dt.date, rates: dict[str, Decimal]) -> list[TermFigures]:
    """Every term priced on the list for `count` GPUs over `start`..`end`, side by side (VAT at the
    GPU rental's category: equipment leasing)."""
    prices = prices_on(session, gpu_model_id=gpu_model_id, subsidiary_id=subsidiary_id, day=start)
    rate = rates.get(TaxCategory.EQUIPMENT_LEASE, Decimal(0))
    out = []
    for term in TERMS:
        p = prices.get(term)
        figures = term_amounts(term, p, count, start, end)
        if figures is None:
            continue
        first, amount, basis = figures
        vat = tax_for(amount, rate)
        out.append(TermFigures(term, Decimal(p.unit_price), p.included_hours, p.hourly_rate, first, amount, vat,
                               amount + vat, amount_in_words(amount + vat), basis))
    return out


def gpu_defaults(session: Session, gpu_model_id: int, subsidiary_id: int | None, term: str, count: int,
                 day: dt.date) -> dict | None:
    """What a contract item of `count` GPUs on `term` takes from the list: unit price and price unit
    (and a hybrid's commitment and hours for the whole item, as billing charges a hybrid item)."""
    p = prices_on(session, gpu_model_id=gpu_model_id, subsidiary_id=subsidiary_id, day=day).get(term)
    if p is None:
        return None
    unit = PriceTerm.PRICE_UNIT[term]
    if term == PriceTerm.HYBRID:
        return dict(unit_price=Decimal(p.unit_price) * count, price_unit=unit, quantity=Decimal(count),
                    included_hours=Decimal(p.included_hours or 0) * count, hourly_rate=Decimal(p.hourly_rate))
    return dict(unit_price=Decimal(p.unit_price), price_unit=unit, quantity=Decimal(count))


def price_of_item(db: Database, *, gpu_model_id: int, subsidiary_id: int | None, term: str, count: int,
                  day: dt.date) -> dict | None:
    """gpu_defaults for the contract form (its own session)."""
    with db.session() as s:
        return gpu_defaults(s, gpu_model_id, subsidiary_id, term, count, day)


def compare_terms(db: Database, *, gpu_model_id: int, subsidiary_id: int | None, count: int,
                  start: dt.date, end: dt.date) -> list[TermFigures]:
    """term_figures with its own session (the draft form, the CLI)."""
    from app.services.reference import tax_rates_on

    with db.session() as s:
        return term_figures(s, gpu_model_id, subsidiary_id, count, start, end, tax_rates_on(s, start))

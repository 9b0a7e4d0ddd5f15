"""Quotes (报价单): the held GPU nodes and colocation add-ons (racks or U ranges, power circuits,
cross-connects) priced from the price list for one term, the other terms beside it, valid until a
day; accepting one makes the draft contract whose GPU item names the held nodes' GPUs.

The figures are the contract's own (app.services.contracts.totals over the lines the contract
will carry): what the quote says is what the contract's first statement bills.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import Customer, GpuAsset, GpuModel, Rack, Subsidiary
from models.capacity import CapacityHold, Quote, QuoteLine
from models.choices import HoldStatus, PriceProduct, PriceTerm, QuoteStatus, TaxCategory

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import local_date
from app.domain.errors import RuleViolation, ValidationError
from app.domain.rating import Period
from app.services.capacity.holds import convert_hold_in, find_hold, find_numbered, hold_node_devices
from app.services.capacity.prices import TermFigures, gpu_defaults, prices_on, term_figures
from app.services.contracts.totals import ContractTotals, TotalsLine, contract_totals
from app.store.db import Database
from app.store.uow import UnitOfWork


@dataclass(frozen=True)
class AddOn:
    """A colocation add-on asked for in a quote: a whole rack, a U range, circuits, cross-connects."""

    product: str
    quantity: Decimal = Decimal(1)
    rack_id: int | None = None
    u_from: int | None = None
    u_to: int | None = None
    unit_price: Decimal | None = None  # None: the price list's
    description: str | None = None


@dataclass(frozen=True)
class QuoteLineInfo:
    product: str
    description: str
    description_en: str | None
    quantity: Decimal
    unit_price: Decimal
    price_unit: str
    included_hours: Decimal | None
    hourly_rate: Decimal | None
    setup_price: Decimal | None
    tax_category: str


@dataclass(frozen=True)
class QuoteInfo:
    id: int
    number: str
    customer_id: int
    customer: str
    subsidiary_id: int
    subsidiary: str
    hold_id: int | None
    hold_number: str | None
    title: str | None
    term: str
    start_date: dt.date
    end_date: dt.date
    valid_until: dt.date
    language: str
    status: str
    contract_id: int | None
    gpu_model: str | None
    gpus: int
    nodes: tuple[str, ...]
    lines: tuple[QuoteLineInfo, ...]
    totals: ContractTotals            # the whole term (the contract's totals)
    first_month: ContractTotals       # the first billing month: what the first statement charges
    terms: tuple[TermFigures, ...]    # the GPU part on every term, side by side
    version: int


# --- figures ---------------------------------------------------------------------------------------

def _totals_line(q: QuoteLine) -> TotalsLine:
    kind = PriceProduct.ITEM_KIND[q.product]
    return TotalsLine(kind=kind, price_unit=q.price_unit, unit_price=Decimal(q.unit_price), quantity=Decimal(q.quantity),
                      tax_category=q.tax_category, setup_price=q.setup_price, included_hours=q.included_hours,
                      hourly_rate=q.hourly_rate)


def _info(s: Session, q: Quote) -> QuoteInfo:
    from app.services.reference import tax_rates_on

    rates = tax_rates_on(s, q.start_date)
    lines = [_totals_line(x) for x in q.lines]
    month_end = min(q.end_date, Period.containing(q.start_date).last)
    gpu = next((x for x in q.lines if x.product == PriceProduct.GPU), None)
    hold = s.get(CapacityHold, q.hold_id) if q.hold_id else None
    nodes: tuple[str, ...] = ()
    if hold is not None:
        from app.services.capacity.holds import _info as hold_info

        nodes = hold_info(s, hold).nodes
    gpus = int(gpu.quantity) if gpu else 0
    terms = tuple(term_figures(s, gpu.gpu_model_id, q.subsidiary_id, gpus, q.start_date, q.end_date, rates)) if gpu else ()
    model = s.get(GpuModel, gpu.gpu_model_id) if gpu else None
    sub = s.get(Subsidiary, q.subsidiary_id)
    return QuoteInfo(q.id, q.number, q.customer_id, s.get(Customer, q.customer_id).name, q.subsidiary_id, sub.name,
                     q.hold_id, hold.number if hold else None, q.title, q.term, q.start_date, q.end_date, q.valid_until,
                     q.language, q.status, q.contract_id, model.name if model else None, gpus, nodes,
                     tuple(QuoteLineInfo(x.product, x.description, x.description_en, x.quantity, x.unit_price,
                                         x.price_unit, x.included_hours, x.hourly_rate, x.setup_price, x.tax_category)
                           for x in q.lines),
                     contract_totals(lines, q.start_date, q.end_date, rates),
                     contract_totals(lines, q.start_date, month_end, rates), terms, q.version)


def find_quote(s: Session, key: int | str) -> Quote:
    return find_numbered(s, Quote, key, "quote")


def get_quote(db: Database, key: int | str) -> QuoteInfo:
    with db.session() as s:
        return _info(s, find_quote(s, key))


def list_quotes(db: Database, *, status: str | None = None) -> list[QuoteInfo]:
    with db.session() as s:
        q = select(Quote)
        if status:
            q = q.where(Quote.status == status)
        return [_info(s, x) for x in s.execute(q.order_by(Quote.id.desc())).scalars()]


# --- writing ---------------------------------------------------------------------------------------

ADDON_WORDS = {  # (zh, en) of each add-on's line
    PriceProduct.RACK: ("整机柜租赁", "Whole rack"),
    PriceProduct.U_RANGE: ("机位托管", "Rack units"),
    PriceProduct.CIRCUIT: ("电力回路", "Power circuits"),
    PriceProduct.XCONNECT: ("交叉连接", "Cross-connects"),
}


def _addon_line(s: Session, a: AddOn, subsidiary_id: int, day: dt.date, n: int, errors: dict) -> QuoteLine | None:
    key = f"add_ons[{n}]"
    if a.product not in ADDON_WORDS:
        errors[key] = f"an add-on is one of {', '.join(ADDON_WORDS)}"
        return None
    qty = Decimal(a.quantity)
    if qty <= 0 or qty % 1:
        errors[key] = "a whole number of racks, units, circuits or cross-connects"
        return None
    rack = s.get(Rack, a.rack_id) if a.rack_id else None
    if a.product in (PriceProduct.RACK, PriceProduct.U_RANGE) and rack is None:
        errors[key] = "a rack or a U range names an existing rack"
        return None
    if a.product == PriceProduct.U_RANGE:
        if a.u_from is None or a.u_to is None or not 1 <= a.u_from <= a.u_to <= rack.u_height:
            errors[key] = f"a U range runs within the rack's 1–{rack.u_height}U"
            return None
        qty = Decimal(a.u_to - a.u_from + 1)
    price = prices_on(s, product=a.product, subsidiary_id=subsidiary_id, day=day).get(PriceTerm.MONTHLY)
    unit = a.unit_price if a.unit_price is not None else (price.unit_price if price else None)
    if unit is None:
        errors[key] = (f"the price list has no monthly price of {PriceProduct.label(a.product).lower()} on {day}; "
                       "give the price or add it to the list")
        return None
    zh, en = ADDON_WORDS[a.product]
    where = f" {rack.name}" + (f" U{a.u_from}-{a.u_to}" if a.product == PriceProduct.U_RANGE else "") if rack else ""
    return QuoteLine(product=a.product, description=(a.description or f"{zh}{where}").strip(),
                     description_en=f"{en}{where}", quantity=qty, unit_price=Decimal(unit), price_unit="month",
                     setup_price=price.setup_price if (price and a.product == PriceProduct.XCONNECT) else None,
                     rack_id=a.rack_id, u_from=a.u_from if a.product == PriceProduct.U_RANGE else None,
                     u_to=a.u_to if a.product == PriceProduct.U_RANGE else None, tax_category=TaxCategory.IDC)


def create_quote(db: Database, actor: Actor, *, hold: int | str, term: str = PriceTerm.MONTHLY,
                 add_ons: tuple[AddOn, ...] = (), valid_until: dt.date | None = None, title: str | None = None,
                 language: str = "zh", now: dt.datetime | None = None) -> QuoteInfo:
    """A quote for a hold's GPUs (whole window, `term` from the price list) and the add-ons; valid
    until the hold expires unless a day is given (never later than that)."""
    require(actor, "draft_contracts")
    now = now or dt.datetime.now(dt.timezone.utc)
    errors: dict[str, str] = {}
    if term not in PriceTerm.values():
        errors["term"] = f"one of {', '.join(PriceTerm.values())}"
    if language not in ("zh", "en"):
        errors["language"] = "zh or en"
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        h = find_hold(s, hold)
        if h.status != HoldStatus.ACTIVE or h.expires_at <= now:
            raise RuleViolation(f"hold {h.number} no longer holds its nodes; search again and hold them first")
        if h.end_date is None:
            raise ValidationError({"hold": f"hold {h.number} is open-ended; a quote prices a window: hold with an end date"})
        expiry = local_date(h.expires_at)
        valid = valid_until or expiry
        if valid < local_date(now) or valid > expiry:
            raise ValidationError({"valid_until": f"a day from today to {expiry}, when hold {h.number} expires"})
        devices = hold_node_devices(s, h.id)
        gpus = s.execute(select(GpuAsset).where(GpuAsset.device_id.in_(devices))).scalars().all()
        model_id = h.gpu_model_id or (gpus[0].gpu_model_id if gpus else None)
        model = s.get(GpuModel, model_id)
        count = len(gpus)
        item = gpu_defaults(s, model_id, h.subsidiary_id, term, count, h.start_date)
        if item is None:
            raise RuleViolation(f"the price list has no {PriceTerm.label(term).lower()} price of {model.name} on "
                                f"{h.start_date}; add it (price set) or choose another term")
        lines = [QuoteLine(product=PriceProduct.GPU, description=f"{model.name} 算力租赁 {count} 卡（{len(devices)} 台）",
                           description_en=f"{model.name} GPU rental, {count} GPUs ({len(devices)} nodes)",
                           gpu_model_id=model_id, quantity=item["quantity"], unit_price=item["unit_price"],
                           price_unit=item["price_unit"], included_hours=item.get("included_hours"),
                           hourly_rate=item.get("hourly_rate"), tax_category=TaxCategory.EQUIPMENT_LEASE)]
        for n, a in enumerate(add_ons, start=1):
            line = _addon_line(s, a, h.subsidiary_id, h.start_date, n, errors)
            if line is not None:
                lines.append(line)
        if errors:
            raise ValidationError(errors)
        sub = s.get(Subsidiary, h.subsidiary_id)
        from app.services.entities import next_document_number

        n = next_document_number(s, h.subsidiary_id, "quote", str(now.year))
        q = Quote(number=f"{sub.code}-Q{now.year}-{n:04d}", customer_id=h.customer_id, subsidiary_id=h.subsidiary_id,
                  hold_id=h.id, title=(title or "").strip() or None, term=term, start_date=h.start_date,
                  end_date=h.end_date, valid_until=valid, language=language, status=QuoteStatus.OPEN,
                  created_by=actor.login, created_at=now, updated_by=actor.login)
        q.lines.extend(lines)
        s.add(q)
        s.flush()
        info = _info(s, q)
        uow.audit("quote.create", "quote", q.id, q.number,
                  after={"number": q.number, "customer_id": q.customer_id, "subsidiary_id": q.subsidiary_id,
                         "hold_id": h.id, "term": term, "start_date": q.start_date.isoformat(),
                         "end_date": q.end_date.isoformat(), "valid_until": valid.isoformat(), "status": q.status,
                         "language": language, "total": str(info.totals.total),
                         "lines": [{"product": x.product, "description": x.description, "quantity": str(x.quantity),
                                    "unit_price": str(x.unit_price), "price_unit": x.price_unit} for x in lines]})
        uow.commit()
        return info


def accept_quote(db: Database, actor: Actor, key: int | str, *, now: dt.datetime | None = None):
    """The customer accepted: a draft contract (the contract use case) whose GPU item names the held
    nodes' GPUs, the add-ons as items; the hold moves to the contract. Returns the ContractInfo."""
    from app.services import contracts as C
    from app.services.contracts import drafting as CD
    from app.services.contracts import records as CR

    require(actor, "draft_contracts")
    now = now or dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        q = find_quote(s, key)
        if q.status != QuoteStatus.OPEN:
            raise RuleViolation(f"quote {q.number} is {QuoteStatus.label(q.status).lower()}; only an open quote is accepted")
        if q.valid_until < local_date(now):
            raise RuleViolation(f"quote {q.number} was valid until {q.valid_until}; make a new quote")
        h = s.get(CapacityHold, q.hold_id)
        gpu_ids = tuple(s.execute(select(GpuAsset.id).where(GpuAsset.device_id.in_(hold_node_devices(s, h.id)))
                                  .order_by(GpuAsset.serial)).scalars())
        items = []
        for x in q.lines:
            kind = PriceProduct.ITEM_KIND[x.product]
            extra = {}
            if x.product == PriceProduct.GPU:
                extra = dict(gpu_ids=gpu_ids, included_hours=x.included_hours, hourly_rate=x.hourly_rate)
            elif x.product in (PriceProduct.RACK, PriceProduct.U_RANGE):
                extra = dict(rack_id=x.rack_id, u_from=x.u_from, u_to=x.u_to)
            items.append(C.ItemSpec(kind=kind, description=x.description, description_en=x.description_en,
                                    unit_price=x.unit_price, price_unit=x.price_unit,
                                    quantity=Decimal(len(gpu_ids)) if x.product == PriceProduct.GPU else x.quantity,
                                    tax_category=x.tax_category, setup_price=x.setup_price, **extra))
        c = CD._new_contract(uow, subsidiary_id=q.subsidiary_id, customer_id=q.customer_id, start_date=q.start_date,
                            end_date=q.end_date, items=items, title=q.title or f"报价单 {q.number}", terms=None,
                            service_level=None, language=q.language)
        uow.audit("contract.create", "contract", c.id, c.number,
                  after=dict(CD.snapshot(c, C.HEADER_FIELDS), items=CD._audit_items(s, c)),
                  reason=f"from quote {q.number}")
        convert_hold_in(uow, h, c.id, c.number, now)
        before = {"status": q.status}
        q.status, q.contract_id, q.updated_by = QuoteStatus.ACCEPTED, c.id, actor.login
        s.flush()
        uow.audit("quote.accept", "quote", q.id, q.number, before=before,
                  after={"status": q.status, "contract_id": c.id}, reason=f"draft contract {c.number}")
        info = CR._info(s, c)
        uow.commit()
        return info


def withdraw_quote(db: Database, actor: Actor, key: int | str, reason: str) -> QuoteInfo:
    require(actor, "draft_contracts")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "say why the quote is withdrawn"})
    with UnitOfWork(db, actor) as uow:
        q = find_quote(uow.session, key)
        if q.status != QuoteStatus.OPEN:
            raise RuleViolation(f"quote {q.number} is {QuoteStatus.label(q.status).lower()}; only an open quote is withdrawn")
        q.status, q.updated_by = QuoteStatus.WITHDRAWN, actor.login
        uow.session.flush()
        uow.audit("quote.withdraw", "quote", q.id, q.number, before={"status": QuoteStatus.OPEN},
                  after={"status": q.status}, reason=reason.strip())
        info = _info(uow.session, q)
        uow.commit()
        return info


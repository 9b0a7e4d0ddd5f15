"""Contracts: drafting, approval, activation (leasing racks and GPUs), renewal and amendment.

Lifecycle (models.choices.ContractStatus.TRANSITIONS):
draft → pending_approval (→ draft when rejected) → approved → active ⇄ suspended → expired | terminated.
Account managers draft and submit; administrators approve, activate, suspend and end. Four eyes:
whoever drafted or submitted a contract may not approve it, unless the installation's setting
(app.services.settings) is off. Which action is allowed, and why not, is answered by
available_actions from the ACTIONS table; every use case here refuses by the same rules.
Prices change only by amendment: a new revision with an effective date that supersedes the old.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields, replace
from decimal import Decimal

from sqlalchemy import delete, false, func, insert, or_, select
from sqlalchemy.orm import Session

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require, why_not
from app.domain.clock import DateError, parse_date
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.messages import message_of
from app.domain.money import AmountError, parse_decimal
from app.domain.rating import TZ, local_midnight, local_today
from app.read.settings import CONTRACT_FOUR_EYES, setting_in
from app.services.entities import check_version, flush_or_refuse, flush_versioned, get_or_404, next_document_number, snapshot
from app.services.gpus import move_gpu
from app.services.space import (  # the GPU lifecycle move: validates, writes GpuHistory, audits
    end_item_leases_in,
    item_space,
    open_lease_in,
    space_problems,
)
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import (
    Cage,
    Contract,
    ContractItem,
    Customer,
    GpuAsset,
    GpuLease,
    GpuModel,
    Rack,
    Subsidiary,
    contract_item_gpu,
)
from models.choices import (
    LIVE_CONTRACT,
    ContractStatus,
    CustomerStatus,
    GpuState,
    ItemKind,
    PriceUnit,
    RackStatus,
    TaxCategory,
)

ALERT_DAYS = (30, 60, 90, 180)
HELD = LIVE_CONTRACT

# Which price units each kind of item may use.
UNITS_BY_KIND: dict[str, frozenset[str]] = {
    ItemKind.RACK: frozenset({PriceUnit.MONTH, PriceUnit.YEAR}),
    ItemKind.HOSTING: frozenset({PriceUnit.MONTH, PriceUnit.YEAR, PriceUnit.KWH}),
    ItemKind.GPU: frozenset({PriceUnit.GPU_HOUR, PriceUnit.GPU_MINUTE, PriceUnit.MONTH, PriceUnit.YEAR,
                             PriceUnit.HYBRID}),
    ItemKind.BANDWIDTH: frozenset({PriceUnit.MBPS_MONTH, PriceUnit.MONTH, PriceUnit.YEAR}),
    ItemKind.MAINTENANCE: frozenset({PriceUnit.MONTH, PriceUnit.YEAR, PriceUnit.ONE_OFF}),
    ItemKind.ONE_OFF: frozenset({PriceUnit.ONE_OFF}),
    ItemKind.DISCOUNT: frozenset({PriceUnit.MONTH, PriceUnit.YEAR, PriceUnit.ONE_OFF}),
    # a fee per circuit (quantity = circuits) and/or metered energy (kwh, or kwh_price beside a fee)
    ItemKind.POWER: frozenset({PriceUnit.MONTH, PriceUnit.YEAR, PriceUnit.KWH}),
    ItemKind.XCONNECT: frozenset({PriceUnit.MONTH}),  # + setup_price each (app/services/xconnects.py)
}
DEFAULT_TAX = {ItemKind.GPU: TaxCategory.EQUIPMENT_LEASE, ItemKind.BANDWIDTH: TaxCategory.TELECOM}


# --- plain values in and out -------------------------------------------------------------

@dataclass(frozen=True)
class ItemSpec:
    """One line of a contract as entered. GPUs: `gpu_model_id` × `quantity`, or named `gpu_ids`."""

    kind: str
    description: str
    unit_price: Decimal
    price_unit: str
    quantity: Decimal = Decimal(1)
    tax_category: str | None = None  # default by kind: GPU 13 % equipment lease, bandwidth telecom, else IDC
    rack_id: int | None = None
    u_from: int | None = None
    u_to: int | None = None
    device_id: int | None = None
    gpu_model_id: int | None = None
    gpu_ids: tuple[int, ...] = ()
    service_start: dt.date | None = None  # handover; None = the contract's start
    service_end: dt.date | None = None  # None = the contract's end
    power_allowance_kw: Decimal | None = None
    kwh_price: Decimal | None = None
    included_hours: Decimal | None = None
    hourly_rate: Decimal | None = None
    mbps: int | None = None
    cage_id: int | None = None  # a rack lease of a whole cage (app/services/space.py)
    face: str | None = None  # of a U range; None: both faces
    setup_price: Decimal | None = None  # cross-connects: the installation price of each
    # English documents of a Chinese contract print this (None: a name from the kind and object)
    description_en: str | None = None


@dataclass(frozen=True)
class ItemInfo:
    id: int
    kind: str
    description: str
    quantity: Decimal
    unit_price: Decimal
    price_unit: str
    tax_category: str
    rack_id: int | None
    u_from: int | None
    u_to: int | None
    device_id: int | None
    gpu_model_id: int | None
    gpu_ids: tuple[int, ...]
    service_start: dt.date | None
    service_end: dt.date | None
    power_allowance_kw: Decimal | None
    kwh_price: Decimal | None
    included_hours: Decimal | None
    hourly_rate: Decimal | None
    mbps: int | None
    cage_id: int | None = None
    face: str | None = None
    setup_price: Decimal | None = None
    description_en: str | None = None

    def spec(self, **changes) -> ItemSpec:
        """This item as input for a renewal or amendment, with `changes` applied."""
        names = {f.name for f in fields(ItemSpec)}
        return replace(ItemSpec(**{k: getattr(self, k) for k in names}), **changes)


@dataclass(frozen=True)
class ContractInfo:
    id: int
    number: str
    subsidiary_id: int
    customer_id: int
    customer_name: str
    title: str | None
    status: str
    start_date: dt.date
    end_date: dt.date
    renewal_of_id: int | None
    amends_id: int | None
    revision: int
    effective_date: dt.date | None
    language: str
    version: int
    items: tuple[ItemInfo, ...] = ()
    facts: "ContractFacts | None" = None  # what available_actions needs to know


@dataclass(frozen=True)
class ContractFacts:
    """What decides which actions a contract allows, read in one go."""

    number: str
    status: str
    end_date: dt.date
    drafted_by: str | None = None
    submitted_by: str | None = None
    approved_by: str | None = None
    approved_four_eyes: bool | None = None
    open_renewal: str | None = None    # a renewal of this contract that has not ended
    open_amendment: str | None = None  # an amendment of this contract still being drafted or approved
    amends: str | None = None          # the revision this one amends, and its status
    amends_status: str | None = None
    four_eyes: bool = True             # the installation's setting when the facts were read


@dataclass(frozen=True)
class ContractAction:
    key: str
    allowed: bool
    reason: str | None = None   # why not, a sentence a person can act on
    target: str | None = None   # the status a lifecycle move leads to
    applies: bool = True        # the contract's status is one this action starts from (what a screen offers)
    permission: str = ""        # the permission it needs (a refusal for the role names it)


@dataclass(frozen=True)
class ContractDue:
    id: int
    number: str
    customer_name: str
    status: str
    end_date: dt.date
    days_left: int
    alert: int | None  # the 30/60/90/180-day band it falls in; None beyond 180 days
    renewed: bool  # a renewal has been drafted


# --- numbering ----------------------------------------------------------------------------

# --- reading ------------------------------------------------------------------------------

def _item_info(session: Session, it: ContractItem) -> ItemInfo:
    gpu_ids = tuple(session.execute(select(contract_item_gpu.c.gpu_id).where(
        contract_item_gpu.c.item_id == it.id).order_by(contract_item_gpu.c.gpu_id)).scalars())
    return ItemInfo(it.id, it.kind, it.description, it.quantity, it.unit_price, it.price_unit, it.tax_category,
                    it.rack_id, it.u_from, it.u_to, it.device_id, it.gpu_model_id, gpu_ids, it.service_start,
                    it.service_end, it.power_allowance_kw, it.kwh_price, it.included_hours, it.hourly_rate,
                    it.mbps, it.cage_id, it.face, it.setup_price, it.description_en)


def _facts(session: Session, c: Contract) -> ContractFacts:
    open_renewal = session.execute(select(Contract.number).where(
        Contract.renewal_of_id == c.id, Contract.id != c.id,
        Contract.status.not_in((ContractStatus.EXPIRED, ContractStatus.TERMINATED)))
        .order_by(Contract.id).limit(1)).scalar()
    open_amendment = session.execute(select(Contract.number).where(Contract.amends_id == c.id, Contract.status.in_(
        (ContractStatus.DRAFT, ContractStatus.PENDING, ContractStatus.APPROVED))).order_by(Contract.id).limit(1)).scalar()
    old = session.get(Contract, c.amends_id) if c.amends_id else None
    return ContractFacts(c.number, c.status, c.end_date, c.drafted_by, c.submitted_by, c.approved_by,
                         c.approved_four_eyes, open_renewal, open_amendment, old.number if old else None,
                         old.status if old else None, setting_in(session, CONTRACT_FOUR_EYES))


def _info(session: Session, c: Contract) -> ContractInfo:
    customer = session.get(Customer, c.customer_id)
    return ContractInfo(c.id, c.number, c.subsidiary_id, c.customer_id, customer.name if customer else "",
                        c.title, c.status, c.start_date, c.end_date, c.renewal_of_id, c.amends_id, c.revision,
                        c.effective_date, c.language, c.version,
                        tuple(_item_info(session, it) for it in c.items), _facts(session, c))


def find_contract(session: Session, key: int | str) -> Contract:
    """A contract by number (e.g. "GZ-2026-0007") or, failing that, by id: the one lookup by key."""
    if isinstance(key, int):
        return get_or_404(session, Contract, key, "contract")
    text = str(key).strip()
    c = session.execute(select(Contract).where(Contract.number == text)).scalar_one_or_none()
    if c is None and text.isdigit():
        c = session.get(Contract, int(text))
    if c is None:
        raise NotFound(f"there is no contract numbered {text}")
    return c


_find = find_contract


def get_contract(db: Database, key: int | str) -> ContractInfo:
    """By id or by number (e.g. "GZ-2026-0007")."""
    with db.session() as s:
        return _info(s, _find(s, key))




def contracts_due(db: Database, within_days: int = 180, today: dt.date | None = None) -> list[ContractDue]:
    """Contracts in force that end within `within_days`, soonest first, with their alert band."""
    today = today or local_today()
    with db.session() as s:
        renewed = select(Contract.renewal_of_id).where(Contract.renewal_of_id.is_not(None))
        rows = s.execute(
            select(Contract, Customer.name).join(Customer, Customer.id == Contract.customer_id)
            .where(Contract.status.in_((ContractStatus.APPROVED,) + HELD),
                   Contract.end_date >= today, Contract.end_date <= today + dt.timedelta(days=within_days))
            .order_by(Contract.end_date, Contract.number)).all()
        renewed_ids = set(s.execute(renewed).scalars())
        out = []
        for c, name in rows:
            left = (c.end_date - today).days
            band = next((d for d in ALERT_DAYS if left <= d), None)
            out.append(ContractDue(c.id, c.number, name, c.status, c.end_date, left, band, c.id in renewed_ids))
        return out


# --- validation ---------------------------------------------------------------------------

_PRICES = ("unit_price", "kwh_price", "hourly_rate", "setup_price")  # may carry ¥/￥


def _digits(name: str) -> tuple[int | None, int]:
    """(decimals, digits before the point) the ContractItem column `name` holds."""
    col = ContractItem.__table__.c[name].type
    return col.scale, col.precision - (col.scale or 0)


def _number(value, name: str) -> Decimal | None:
    """A contract item's number as typed (the one grammar, app.domain.money.parse_decimal): "1,200",
    "¥1,200.50", "￥100"; None when empty. AmountError for anything else."""
    places, whole = _digits(name)
    return parse_decimal(value, places=places, whole_digits=whole, currency=name in _PRICES)


def _dec(value, name: str, errors: dict, *, positive: bool = False, required: bool = True) -> Decimal | None:
    try:
        d = _number(value, name)
    except AmountError as exc:
        errors[name] = message_of(exc)
        return None
    if d is None:
        if required:
            errors[name] = M.REQUIRED()
        return None
    if d < 0 or (positive and d == 0):
        errors[name] = M.MUST_BE_POSITIVE() if positive else M.CANNOT_BE_NEGATIVE()
        return None
    return d


def _unit_range_fits(s: Session, it: ItemSpec, e: dict[str, str]) -> None:
    """A unit range (rack lease or hosting) ends within its rack's height."""
    rack = s.get(Rack, it.rack_id) if it.u_from is not None and it.rack_id is not None else None
    if rack is not None and it.u_to > rack.u_height:
        e["u_to"] = M.RACK_HEIGHT(rack.u_height)


def _validate_items(s: Session, items: list[ItemSpec], start: dt.date, end: dt.date) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not items:
        errors["items"] = M.CONTRACT_NO_ITEMS()
    for n, it in enumerate(items, start=1):
        e: dict[str, str] = {}
        if it.kind not in ItemKind.values():
            e["kind"] = f"must be one of {', '.join(ItemKind.values())}"
        elif it.price_unit not in UNITS_BY_KIND[it.kind]:
            e["price_unit"] = (f"a {ItemKind.label(it.kind).lower()} item is priced "
                               f"{' or '.join(sorted(PriceUnit.label(u) for u in UNITS_BY_KIND[it.kind]))}, "
                               f"not {PriceUnit.label(it.price_unit)}")
        if not (it.description or "").strip():
            e["description"] = M.REQUIRED()
        if len((it.description or "").strip()) > 255:
            e["description"] = "at most 255 characters"
        if len((it.description_en or "").strip()) > 255:
            e["description_en"] = "at most 255 characters"
        _dec(it.unit_price, "unit_price", e)
        _dec(it.quantity, "quantity", e, positive=True)
        if it.tax_category is not None and it.tax_category not in TaxCategory.values():
            e["tax_category"] = f"must be one of {', '.join(TaxCategory.values())}"
        if it.service_start and not start <= it.service_start <= end:
            e["service_start"] = f"the handover {it.service_start} is outside the contract ({start} – {end})"
        if it.service_end and not start <= it.service_end <= end:
            e["service_end"] = f"{it.service_end} is outside the contract ({start} – {end})"
        if it.service_start and it.service_end and it.service_end < it.service_start:
            e["service_end"] = M.SERVICE_ENDS_FIRST()
        if it.face not in (None, "front", "rear"):
            e["face"] = "face is front or rear (empty: both faces)"
        if it.kind == ItemKind.RACK:
            if it.cage_id is not None:
                if s.get(Cage, it.cage_id) is None:
                    e["cage_id"] = f"cage {it.cage_id} does not exist"
                elif it.rack_id is not None or it.u_from is not None:
                    e["cage_id"] = "a cage is leased whole: name the cage or a rack, not both"
            elif it.rack_id is None or s.get(Rack, it.rack_id) is None:
                e["rack_id"] = M.RACK_LEASE_TARGET()
            if it.u_from is not None and (it.u_to is None or it.u_to < it.u_from or it.u_from < 1):
                e["u_to"] = M.UNIT_RANGE()
            else:
                _unit_range_fits(s, it, e)
            if (it.power_allowance_kw is None) != (it.kwh_price is None):
                e["power_allowance_kw"] = M.POWER_ALLOWANCE_PAIR()
            _dec(it.power_allowance_kw, "power_allowance_kw", e, required=False)
            _dec(it.kwh_price, "kwh_price", e, required=False)
        if it.kind == ItemKind.HOSTING:
            if it.device_id is None and it.rack_id is None:
                e["rack_id"] = M.HOSTING_TARGET()
            if it.rack_id is not None and s.get(Rack, it.rack_id) is None:
                e["rack_id"] = f"rack {it.rack_id} does not exist"
            if it.u_from is not None and (it.u_to is None or it.u_to < it.u_from or it.u_from < 1):
                e["u_to"] = M.UNIT_RANGE()
            else:
                _unit_range_fits(s, it, e)
            if it.price_unit == PriceUnit.KWH and it.rack_id is None:
                e["rack_id"] = "power billed per kWh needs the rack whose meter is read"
        if it.kind == ItemKind.GPU:
            if it.gpu_ids:
                gpus = [s.get(GpuAsset, g) for g in it.gpu_ids]
                missing = [str(g) for g, obj in zip(it.gpu_ids, gpus) if obj is None]
                if missing:
                    e["gpu_ids"] = f"GPU(s) {', '.join(missing)} do not exist"
                elif len(set(it.gpu_ids)) != len(it.gpu_ids):
                    e["gpu_ids"] = "a GPU is named twice"
                elif Decimal(it.quantity) != len(it.gpu_ids):
                    e["quantity"] = f"{len(it.gpu_ids)} GPUs are named, so the quantity is {len(it.gpu_ids)}"
            elif it.gpu_model_id is None or s.get(GpuModel, it.gpu_model_id) is None:
                e["gpu_model_id"] = M.GPU_ITEM_TARGET()
            if it.quantity is not None and Decimal(str(it.quantity)) % 1:
                e["quantity"] = M.GPU_WHOLE()
            if it.price_unit == PriceUnit.HYBRID:
                _dec(it.included_hours, "included_hours", e)
                _dec(it.hourly_rate, "hourly_rate", e, positive=True)
        if it.kind == ItemKind.POWER:  # circuits: app/services/power.py names them, billing meters them
            if it.quantity is not None and Decimal(str(it.quantity)) % 1:
                e["quantity"] = "circuits are counted in whole numbers"
            if it.rack_id is not None and s.get(Rack, it.rack_id) is None:
                e["rack_id"] = f"rack {it.rack_id} does not exist"
            _dec(it.kwh_price, "kwh_price", e, required=False)
        if it.setup_price is not None and it.kind != ItemKind.XCONNECT:
            e["setup_price"] = "an installation price per piece is for cross-connect items"
        _dec(it.setup_price, "setup_price", e, required=False)
        if it.kind == ItemKind.BANDWIDTH and it.price_unit == PriceUnit.MBPS_MONTH and not (it.mbps and it.mbps > 0):
            e["mbps"] = M.MBPS_REQUIRED()
        for k, v in e.items():
            errors[f"items[{n}].{k}"] = v
    return errors


def _validate_header(s: Session, subsidiary_id: int, customer_id: int, start: dt.date, end: dt.date,
                     language: str) -> dict[str, str]:
    errors: dict[str, str] = {}
    if s.get(Subsidiary, subsidiary_id) is None:
        errors["subsidiary_id"] = f"subsidiary {subsidiary_id} does not exist"
    customer = s.get(Customer, customer_id)
    if customer is None:
        errors["customer_id"] = f"customer {customer_id} does not exist"
    elif customer.status != CustomerStatus.ACTIVE:
        errors["customer_id"] = M.CUSTOMER_INACTIVE(customer.name)
    for key, day in (("start_date", start), ("end_date", end)):
        try:
            parse_date(day)
        except DateError as exc:
            errors[key] = message_of(exc)
    if not start or not end:
        errors["start_date"] = M.CONTRACT_DATES()
    elif errors.get("start_date") or errors.get("end_date"):
        pass
    elif end < start:
        errors["end_date"] = M.CONTRACT_ENDS_FIRST(end, start)
    if language not in ("zh", "en"):
        errors["language"] = "zh or en"
    return errors


def _write_items(s: Session, c: Contract, items: list[ItemSpec]) -> None:
    for spec in items:
        gpu_model_id = spec.gpu_model_id
        if spec.kind == ItemKind.GPU and spec.gpu_ids and gpu_model_id is None:
            models = {s.get(GpuAsset, g).gpu_model_id for g in spec.gpu_ids}
            gpu_model_id = models.pop() if len(models) == 1 else None
        it = ContractItem(
            kind=spec.kind, description=spec.description.strip(),
            description_en=(spec.description_en or "").strip() or None, rack_id=spec.rack_id, u_from=spec.u_from,
            u_to=spec.u_to, device_id=spec.device_id, gpu_model_id=gpu_model_id,
            quantity=_number(spec.quantity, "quantity"), unit_price=_number(spec.unit_price, "unit_price"),
            price_unit=spec.price_unit, tax_category=spec.tax_category or DEFAULT_TAX.get(spec.kind, TaxCategory.IDC),
            service_start=spec.service_start, service_end=spec.service_end,
            power_allowance_kw=_number(spec.power_allowance_kw, "power_allowance_kw"),
            kwh_price=_number(spec.kwh_price, "kwh_price"), included_hours=_number(spec.included_hours, "included_hours"),
            hourly_rate=_number(spec.hourly_rate, "hourly_rate"), mbps=spec.mbps,
            cage_id=spec.cage_id, face=spec.face or None,
            setup_price=_number(spec.setup_price, "setup_price"))
        c.items.append(it)
        s.flush()
        for g in spec.gpu_ids:
            s.execute(insert(contract_item_gpu).values(item_id=it.id, gpu_id=g))


def _audit_items(s: Session, c: Contract) -> list[dict]:
    return [dict(snapshot(it, ("kind", "description", "quantity", "unit_price", "price_unit", "tax_category",
                               "rack_id", "gpu_model_id", "service_start", "service_end", "power_allowance_kw",
                               "kwh_price", "included_hours", "hourly_rate", "mbps", "u_from", "u_to", "face",
                               "cage_id", "setup_price", "description_en")),
                 gpu_ids=list(_item_info(s, it).gpu_ids)) for it in c.items]


HEADER_FIELDS = ("number", "subsidiary_id", "customer_id", "title", "status", "start_date", "end_date",
                 "renewal_of_id", "amends_id", "revision", "effective_date", "language")


def _new_contract(uow: UnitOfWork, *, subsidiary_id: int, customer_id: int, start_date: dt.date,
                  end_date: dt.date, items: list[ItemSpec], title: str | None, terms: str | None,
                  service_level: str | None, language: str, number: str | None = None, **links) -> Contract:
    s = uow.session
    errors = _validate_header(s, subsidiary_id, customer_id, start_date, end_date, language)
    errors.update(_validate_items(s, items, start_date, end_date))
    if errors:
        raise ValidationError(errors)
    if number is None:
        sub = s.get(Subsidiary, subsidiary_id)
        year = local_today().year
        n = next_document_number(s, subsidiary_id, "contract", str(year))
        number = f"{sub.code}-{year}-{n:04d}"
    c = Contract(number=number, subsidiary_id=subsidiary_id, customer_id=customer_id, title=title,
                 status=ContractStatus.DRAFT, start_date=start_date, end_date=end_date, terms=terms,
                 service_level=service_level, language=language, updated_by=uow.actor.login,
                 drafted_by=uow.actor.login, **links)
    s.add(c)
    flush_or_refuse(s)
    _write_items(s, c, items)
    flush_or_refuse(s)
    refuse_short_capacity(s, c, "saved", "the contract")  # its number is not taken when refused
    return c


def create_contract(db: Database, actor: Actor, *, subsidiary_id: int, customer_id: int, start_date: dt.date,
                    end_date: dt.date, items: list[ItemSpec], title: str | None = None, terms: str | None = None,
                    service_level: str | None = None, language: str = "zh") -> ContractInfo:
    """A draft with its items; takes the subsidiary's next contract number (e.g. GZ-2026-0007)."""
    require(actor, "draft_contracts")
    with UnitOfWork(db, actor) as uow:
        c = _new_contract(uow, subsidiary_id=subsidiary_id, customer_id=customer_id, start_date=start_date,
                          end_date=end_date, items=list(items), title=title, terms=terms,
                          service_level=service_level, language=language)
        uow.audit("contract.create", "contract", c.id, c.number,
                  after=dict(snapshot(c, HEADER_FIELDS), items=_audit_items(uow.session, c)))
        info = _info(uow.session, c)
        uow.commit()
        return info


_UNSET = object()


def update_draft(db: Database, actor: Actor, contract_id: int, expected_version: int | None = None, *,
                 title=_UNSET, start_date: dt.date | None = None, end_date: dt.date | None = None,
                 terms=_UNSET, service_level=_UNSET, language: str | None = None,
                 items: list[ItemSpec] | None = None) -> ContractInfo:
    """Change a draft; `items`, when given, replaces all items. Only drafts change."""
    require(actor, "draft_contracts")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = _find(s, contract_id)
        check_version(c, expected_version, f"contract {c.number}")
        _refuse_unless_allowed("edit", _facts(s, c), actor, local_today())
        before = dict(snapshot(c, HEADER_FIELDS), items=_audit_items(s, c))
        start, end = start_date or c.start_date, end_date or c.end_date
        lang = language or c.language
        errors = _validate_header(s, c.subsidiary_id, c.customer_id, start, end, lang)
        new_items = items if items is not None else [_item_info(s, it).spec() for it in c.items]
        errors.update(_validate_items(s, new_items, start, end))
        if errors:
            raise ValidationError(errors)
        c.start_date, c.end_date, c.language = start, end, lang
        if title is not _UNSET:
            c.title = title
        if terms is not _UNSET:
            c.terms = terms
        if service_level is not _UNSET:
            c.service_level = service_level
        if items is not None:
            for it in list(c.items):
                s.execute(delete(contract_item_gpu).where(contract_item_gpu.c.item_id == it.id))
            c.items.clear()
            s.flush()
            _write_items(s, c, items)
        flush_versioned(uow, c, f"contract {c.number}")
        refuse_short_capacity(s, c, "saved")
        after = dict(snapshot(c, HEADER_FIELDS), items=_audit_items(s, c))
        uow.audit("contract.update", "contract", c.id, c.number, before=before, after=after)
        info = _info(s, c)
        uow.commit()
        return info


# --- the lifecycle ------------------------------------------------------------------------

# Every action on a contract: key, the status a move leads to (None: not a move), the statuses it
# starts from (None: any), and the permission it needs. The one place these rules live:
# available_actions answers the console from it, and every use case below refuses by it.
_S = ContractStatus
ACTIONS: tuple[tuple[str, str | None, tuple[str, ...] | None, str], ...] = (
    ("edit", None, (_S.DRAFT,), "draft_contracts"),
    ("submit", _S.PENDING, (_S.DRAFT,), "draft_contracts"),
    ("reject", _S.DRAFT, (_S.PENDING,), "approve_contracts"),
    ("approve", _S.APPROVED, (_S.PENDING,), "approve_contracts"),
    ("activate", _S.ACTIVE, (_S.APPROVED,), "approve_contracts"),
    ("suspend", _S.SUSPENDED, (_S.ACTIVE,), "approve_contracts"),
    ("resume", _S.ACTIVE, (_S.SUSPENDED,), "approve_contracts"),
    ("expire", _S.EXPIRED, (_S.ACTIVE, _S.SUSPENDED), "approve_contracts"),
    ("terminate", _S.TERMINATED, (_S.APPROVED, _S.ACTIVE, _S.SUSPENDED), "approve_contracts"),
    ("renew", None, (_S.APPROVED, _S.ACTIVE, _S.SUSPENDED, _S.EXPIRED), "draft_contracts"),
    ("amend", None, HELD, "draft_contracts"),
    ("print", None, None, "print"),
)
_ACTION = {a[0]: a for a in ACTIONS}


def _status(value: str) -> str:
    return ContractStatus.label(value).lower()


def _state_refusal(key: str, f: ContractFacts, actor: Actor, today: dt.date) -> str | None:
    """Why the contract's state (not the actor's role) refuses `key`; None when it allows it."""
    _key, target, sources, _perm = _ACTION[key]
    if sources is not None and f.status not in sources:
        if key == "edit":
            return (f"contract {f.number} is {_status(f.status)}; only drafts can be edited. Prices and terms of "
                    "a signed contract change by amendment.")
        if key == "renew":
            return f"contract {f.number} is {_status(f.status)}; only a signed contract is renewed"
        if key == "amend":
            return (f"contract {f.number} is {_status(f.status)}; only a contract in force is amended "
                    "(edit a draft directly)")
        allowed = ", ".join(_status(x) for x in sorted(ContractStatus.TRANSITIONS[f.status]))
        return (f"contract {f.number} is {_status(f.status)}; it cannot become {_status(target)} "
                f"(from here: {allowed or 'nothing, it has ended'})")
    if key == "approve" and f.four_eyes and actor.login in (f.drafted_by, f.submitted_by):
        did = " and ".join(w for w, who in (("drafted", f.drafted_by), ("submitted", f.submitted_by))
                           if who == actor.login)
        return (f"you {did} contract {f.number}; four eyes: another administrator approves it "
                "(a one-person shop can turn four-eyes off in the settings)")
    if key == "activate" and f.amends and f.amends_status not in HELD:
        return (f"contract {f.number} amends {f.amends}, which is {_status(f.amends_status)}; only a contract "
                "in force can be amended")
    if key == "expire" and today < f.end_date:
        return f"contract {f.number} runs until {f.end_date}; to end it earlier, terminate it with a reason"
    if key == "renew" and f.open_renewal:
        return f"contract {f.number} already has the renewal {f.open_renewal}; finish or change that one"
    if key == "amend" and f.open_amendment:
        return f"amendment {f.open_amendment} of {f.number} is still open; finish or change that one"
    return None


def available_actions(contract: ContractInfo | ContractFacts, actor: Actor,
                      today: dt.date | None = None) -> tuple[ContractAction, ...]:
    """Every action on the contract, allowed or with the reason it is refused (role first, then state).

    The console only asks this; the use cases refuse by the same rules.
    """
    f = contract.facts if isinstance(contract, ContractInfo) else contract
    today = today or local_today()
    out = []
    for key, target, sources, perm in ACTIONS:
        reason = why_not(actor, perm) or _state_refusal(key, f, actor, today)
        out.append(ContractAction(key, reason is None, reason, target, sources is None or f.status in sources, perm))
    return tuple(out)


def _refuse_unless_allowed(key: str, f: ContractFacts, actor: Actor, today: dt.date) -> None:
    require(actor, _ACTION[key][3])
    reason = _state_refusal(key, f, actor, today)
    if reason:
        raise RuleViolation(reason)


def _effective_start(c: Contract, it: ContractItem) -> dt.date:
    return it.service_start or c.start_date


def _effective_end(c: Contract, it: ContractItem) -> dt.date:
    return it.service_end or c.end_date


def _whole_racks(s: Session, it: ContractItem) -> list[int]:
    """Racks an item leases whole (status leased, with the customer): a rack without a unit range,
    or every rack of a cage."""
    if it.kind != ItemKind.RACK:
        return []
    if it.cage_id is not None:
        return [sp.rack_id for sp in _item_space(s, it)]
    return [it.rack_id] if it.rack_id and it.u_from is None else []


def _item_space(s: Session, it: ContractItem):
    return item_space(s, it.kind, it.rack_id, it.u_from, it.u_to, it.face, it.cage_id)


def _item_gpus(s: Session, item_id: int, lock: bool = True) -> list[GpuAsset]:
    q = (select(GpuAsset).join(contract_item_gpu, contract_item_gpu.c.gpu_id == GpuAsset.id)
         .where(contract_item_gpu.c.item_id == item_id).order_by(GpuAsset.serial))
    return list(s.execute(q.with_for_update(of=GpuAsset) if lock else q).scalars())


def _allocate_gpus(s: Session, c: Contract, it: ContractItem, problems: list[str], *, dry: bool = False) -> None:
    """A model × quantity item gets named GPUs at activation: available ones, same subsidiary first
    (`dry`: only say whether there are enough, as at save, submit and approval)."""
    from models import Device, Room, Site

    want = int(it.quantity)
    local = (select(Site.subsidiary_id).select_from(Device).join(Rack, Rack.id == Device.rack_id)
             .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
             .where(Device.id == GpuAsset.device_id).scalar_subquery())
    taken = select(contract_item_gpu.c.gpu_id).join(ContractItem, ContractItem.id == contract_item_gpu.c.item_id) \
        .join(Contract, Contract.id == ContractItem.contract_id).where(
            Contract.status.in_((ContractStatus.APPROVED,) + HELD))  # incl. this contract's named GPUs
    from app.services.capacity.search import held_gpus_for_others, where_free

    held = held_gpus_for_others(c.customer_id, contract_id=c.id)  # nodes held for another customer's deal
    rows = s.execute(select(GpuAsset.id).where(
        GpuAsset.gpu_model_id == it.gpu_model_id, GpuAsset.state == GpuState.AVAILABLE,
        GpuAsset.id.not_in(taken), GpuAsset.id.not_in(held))
        .order_by((func.coalesce(local, 0) != c.subsidiary_id), GpuAsset.serial).limit(want)).scalars().all()
    if len(rows) < want:
        model = s.get(GpuModel, it.gpu_model_id)
        where = where_free(s, it.gpu_model_id, select(taken.subquery().c.gpu_id).union(held))
        problems.append(f"item “{it.description}” needs {want} × {model.name if model else it.gpu_model_id}, "
                        f"but only {len(rows)} are available, {want - len(rows)} short"
                        + (f"; free now: {where}" if where else "; none is free in any cluster"))
        return
    if dry:
        return
    for g in rows:
        s.execute(insert(contract_item_gpu).values(item_id=it.id, gpu_id=g))


def _capacity_problems(s: Session, c: Contract, *, allocate: bool = False) -> list[str]:
    """What the contract's items need that is not there: space leased or reserved by others over its
    days, racks not available, too few GPUs of a model, named GPUs not available. The one check, run
    at save of a draft, submit, approval and (locking, checking whole racks' status now, and allocating
    GPUs to model × quantity items: `allocate`) activation, so a contract is refused capacity when it
    is written, not only when it is activated."""
    problems: list[str] = []
    for it in c.items:
        for sp in _item_space(s, it):
            if allocate:
                s.execute(select(Rack.id).where(Rack.id == sp.rack_id).with_for_update(of=Rack)).all()
            problems.extend(space_problems(s, c.customer_id, sp, _effective_start(c, it), _effective_end(c, it)))
        # A rack's status says who holds it now; before activation the leases' and reservations' dates
        # above decide (a rack leased until the day before this contract starts is free for it).
        for rack_id in (_whole_racks(s, it) if allocate else ()):
            rack = s.execute(select(Rack).where(Rack.id == rack_id).with_for_update(of=Rack)).scalar_one()
            ours = rack.customer_id == c.customer_id
            if rack.status == RackStatus.LEASED and not ours:
                problems.append(f"rack {rack.name} is leased to another customer")
            elif rack.status == RackStatus.RESERVED and rack.customer_id not in (None, c.customer_id):
                problems.append(f"rack {rack.name} is reserved for another customer")
            elif rack.status not in (RackStatus.AVAILABLE, RackStatus.RESERVED, RackStatus.LEASED):
                problems.append(f"rack {rack.name} is {RackStatus.label(rack.status).lower()}, not available")
        if it.kind == ItemKind.GPU and it.gpu_model_id and not _item_gpus(s, it.id, lock=allocate):
            _allocate_gpus(s, c, it, problems, dry=not allocate)
        if it.kind == ItemKind.GPU:
            from app.services.capacity.search import held_gpus_for_others

            held = set(s.execute(held_gpus_for_others(c.customer_id, contract_id=c.id).where(
                GpuAsset.id.in_(select(contract_item_gpu.c.gpu_id).where(contract_item_gpu.c.item_id == it.id))))
                .scalars())
            for gpu in _item_gpus(s, it.id, lock=allocate):
                if gpu.id in held:
                    problems.append(f"GPU {gpu.serial} is on a node held for another customer's deal")
                    continue
                if gpu.state == GpuState.LEASED and gpu.customer_id == c.customer_id:
                    continue  # renewal or amendment: handed over at activation
                if gpu.state != GpuState.AVAILABLE:
                    problems.append(f"GPU {gpu.serial} is {GpuState.label(gpu.state).lower()}, not available")
    return list(dict.fromkeys(problems))


def refuse_short_capacity(s: Session, c: Contract, verb: str, what: str | None = None) -> None:
    """Refuse (RuleViolation naming what is short) when the contract's items do not fit now."""
    problems = _capacity_problems(s, c)
    if problems:
        raise RuleViolation(f"{what or f'contract {c.number}'} cannot be {verb}: " + "; ".join(problems))


def _activate(uow: UnitOfWork, c: Contract, at: dt.datetime) -> dict:
    """Lease the racks and GPUs of every item; transfers what this customer already holds."""
    s = uow.session
    leased_racks, leased_gpus = [], []
    problems = _capacity_problems(s, c, allocate=True)
    if problems:
        raise RuleViolation(f"contract {c.number} cannot be activated: " + "; ".join(problems))
    leased_space = []
    for it in c.items:
        for sp in _item_space(s, it):
            lease = open_lease_in(uow, c.customer_id, sp, _effective_start(c, it), _effective_end(c, it),
                                  contract_item_id=it.id, reason=f"contract {c.number} activated")
            leased_space.append(f"{s.get(Rack, lease.rack_id).name} U{lease.u_from}-{lease.u_to}")
        for rack_id in _whole_racks(s, it):
            rack = s.get(Rack, rack_id)
            if rack.status != RackStatus.LEASED or rack.customer_id != c.customer_id:
                before = {"status": rack.status, "customer_id": rack.customer_id}
                rack.status, rack.customer_id = RackStatus.LEASED, c.customer_id
                flush_versioned(uow, rack, f"rack {rack.name}")
                uow.audit("rack.lease", "rack", rack.id, rack.name, before=before,
                          after={"status": rack.status, "customer_id": rack.customer_id},
                          reason=f"contract {c.number} activated")
            leased_racks.append(rack.name)
        if it.kind == ItemKind.GPU:
            planned = local_midnight(_effective_start(c, it))
            for gpu in _item_gpus(s, it.id):
                # a GPU the customer keeps under an amendment changes contract on the effective date,
                # however late the amendment is activated; any other lease opens at activation at the earliest
                keeps = c.amends_id is not None and gpu.state == GpuState.LEASED and gpu.customer_id == c.customer_id
                start = planned if keeps else max(at, planned)
                open_leases = s.execute(select(GpuLease).where(GpuLease.gpu_id == gpu.id,
                                                               GpuLease.end.is_(None))).scalars().all()
                for lease in open_leases:  # the previous contract's lease ends where this one starts
                    lease.end = max(lease.start, start)
                if gpu.state == GpuState.AVAILABLE:
                    gpu.customer_id = c.customer_id
                    move_gpu(uow, gpu, GpuState.LEASED, f"leased under contract {c.number}")
                s.add(GpuLease(gpu_id=gpu.id, contract_item_id=it.id, start=start))
                leased_gpus.append(gpu.serial)
    if leased_gpus:  # the servers of those GPUs are allocated nodes now (issue 25)
        from app.services.clusters.nodes import follow_leases_in
        s.flush()
        follow_leases_in(uow, [it.id for it in c.items if it.kind == ItemKind.GPU], at,
                         f"contract {c.number} activated")
    from app.services.handover import (
        hand_over_at_activation,  # items bill from their handover (app/services/handover.py)
    )
    handed = hand_over_at_activation(c, at, uow.actor.login)
    s.flush()
    return {"racks": leased_racks, "space": leased_space, "gpus": leased_gpus, "handed_over": handed}


def _release(uow: UnitOfWork, c: Contract, last_day: dt.date, now: dt.datetime) -> dict:
    """End the service on `last_day` (inclusive): close leases, free GPUs and racks no one else holds."""
    s = uow.session
    lease_end = min(now, local_midnight(last_day + dt.timedelta(days=1)))
    released_gpus, released_racks = [], []
    for it in c.items:
        if _effective_end(c, it) > last_day:
            it.service_end = max(last_day, _effective_start(c, it) - dt.timedelta(days=1))
    item_ids = [it.id for it in c.items]
    leases = s.execute(select(GpuLease).where(GpuLease.contract_item_id.in_(item_ids),
                                              GpuLease.end.is_(None))).scalars().all()
    for lease in leases:
        lease.end = max(lease.start, lease_end)
    s.flush()
    for lease in leases:
        gpu = s.execute(select(GpuAsset).where(GpuAsset.id == lease.gpu_id).with_for_update(of=GpuAsset)).scalar_one()
        still = s.execute(select(func.count()).select_from(GpuLease).where(
            GpuLease.gpu_id == gpu.id, GpuLease.end.is_(None))).scalar_one()
        if not still and gpu.state == GpuState.LEASED:
            move_gpu(uow, gpu, GpuState.AVAILABLE, f"contract {c.number} ended")
            released_gpus.append(gpu.serial)
    if leases:  # nodes with no open lease left are available again (issue 25)
        from app.services.clusters.nodes import follow_leases_in
        s.flush()
        follow_leases_in(uow, item_ids, lease_end, f"contract {c.number} ended")
    freed = end_item_leases_in(uow, item_ids, last_day, f"contract {c.number} ended")
    for it in c.items:
        for rack_id in _whole_racks(s, it):  # a rack item's rack, or each rack of its cage
            cage_id = s.get(Rack, rack_id).cage_id
            others = s.execute(select(func.count()).select_from(ContractItem).join(Contract).where(
                or_(ContractItem.rack_id == rack_id, ContractItem.cage_id == cage_id if cage_id else false()),
                ContractItem.kind == ItemKind.RACK, ContractItem.u_from.is_(None), Contract.id != c.id,
                Contract.status.in_(HELD))).scalar_one()
            rack = s.get(Rack, rack_id)
            if not others and rack.status == RackStatus.LEASED:
                before = {"status": rack.status, "customer_id": rack.customer_id}
                rack.status, rack.customer_id = RackStatus.AVAILABLE, None
                flush_versioned(uow, rack, f"rack {rack.name}")
                uow.audit("rack.release", "rack", rack.id, rack.name, before=before,
                          after={"status": rack.status, "customer_id": None}, reason=f"contract {c.number} ended")
                released_racks.append(rack.name)
    return {"racks": released_racks, "space": freed, "gpus": released_gpus, "last_day": last_day.isoformat()}


def _move(db: Database, actor: Actor, contract_id: int | str, action: str, *,
          reason: str | None = None, expected_version: int | None = None, at: dt.datetime | None = None,
          last_day: dt.date | None = None, needs_reason: bool = False) -> ContractInfo:
    _key, to, _sources, permission = _ACTION[action]
    require(actor, permission)
    if needs_reason and not (reason and reason.strip()):
        raise ValidationError({"reason": f"say why the contract is {ContractStatus.label(to).lower()}"})
    if at is not None and at.tzinfo is None:
        raise ValidationError({"at": "give an aware time (UTC or Asia/Shanghai)"})
    now = dt.datetime.now(dt.timezone.utc)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = _find(s, contract_id)
        check_version(c, expected_version, f"contract {c.number}")
        _refuse_unless_allowed(action, _facts(s, c), actor, (at or now).astimezone(TZ).date())
        before = {"status": c.status}
        extra: dict = {}
        if action in ("submit", "approve"):  # the activation's capacity check, before anyone signs
            refuse_short_capacity(s, c, "submitted" if action == "submit" else "approved")
        if action == "submit":
            c.submitted_by = actor.login
        elif action == "approve":
            c.approved_by = actor.login
            c.approved_four_eyes = setting_in(s, CONTRACT_FOUR_EYES)
            extra.update(approved_by=actor.login, four_eyes=c.approved_four_eyes)
        if to == ContractStatus.ACTIVE and c.status == ContractStatus.APPROVED:
            old = s.get(Contract, c.amends_id) if c.amends_id else None
            extra.update(_activate(uow, c, at or now))
            if old is not None:
                c.status = to  # so that releasing the old revision sees who holds the racks now
                s.flush()
                extra["supersedes"] = _supersede(uow, old, c, at or now)
        elif to in (ContractStatus.EXPIRED, ContractStatus.TERMINATED):
            if to == ContractStatus.EXPIRED:
                last_day = c.end_date
            last = last_day or (at.astimezone(TZ).date() if at else local_today())
            if c.status == ContractStatus.APPROVED:  # never in service: nothing to bill or release
                for it in c.items:
                    it.service_end = _effective_start(c, it) - dt.timedelta(days=1)
                extra["never_active"] = True
            else:
                extra.update(_release(uow, c, min(last, c.end_date), at or now))
        c.status = to
        flush_versioned(uow, c, f"contract {c.number}")
        uow.audit(f"contract.{action}", "contract", c.id, c.number, before=before,
                  after=dict({"status": to}, **extra), reason=reason.strip() if reason else None)
        info = _info(s, c)
        uow.commit()
        return info


def _supersede(uow: UnitOfWork, old: Contract, c: Contract, now: dt.datetime) -> str:
    """An amendment takes over from the revision it amends on its effective date."""
    eff = c.effective_date or c.start_date
    last = eff - dt.timedelta(days=1)
    before = {"status": old.status}
    released = _release(uow, old, last, now)
    from app.services.handover import (
        _clear_draft_lines,  # drafts billed the old revision past its new end: the run bills them again
    )

    cleared = sum(_clear_draft_lines(uow, it.id, f"{eff:%Y-%m}") for it in old.items)
    if cleared:
        released["draft_lines_removed"] = cleared
    if eff < now.astimezone(TZ).date().replace(day=1):
        # months before this one may have been billed with the old revision: the run of each bills the difference
        released["rebill_from"] = f"{eff:%Y-%m}"
    old.status = ContractStatus.EXPIRED
    flush_versioned(uow, old, f"contract {old.number}")
    uow.audit("contract.supersede", "contract", old.id, old.number, before=before,
              after=dict(released, status=ContractStatus.EXPIRED, superseded_by=c.number),
              reason=f"superseded by revision {c.revision} ({c.number}) effective {eff}")
    return old.number


def submit_contract(db: Database, actor: Actor, contract_id: int | str, expected_version: int | None = None) -> ContractInfo:
    return _move(db, actor, contract_id, "submit",
                 expected_version=expected_version)


def reject_contract(db: Database, actor: Actor, contract_id: int | str, reason: str,
                    expected_version: int | None = None) -> ContractInfo:
    return _move(db, actor, contract_id, "reject", reason=reason,
                 expected_version=expected_version, needs_reason=True)


def approve_contract(db: Database, actor: Actor, contract_id: int | str, expected_version: int | None = None) -> ContractInfo:
    return _move(db, actor, contract_id, "approve",
                 expected_version=expected_version)


def activate_contract(db: Database, actor: Actor, contract_id: int | str, *, at: dt.datetime | None = None,
                      expected_version: int | None = None) -> ContractInfo:
    """Leases racks and GPUs; GPU leases open at max(`at` (default now), the item's handover day)."""
    return _move(db, actor, contract_id, "activate", at=at,
                 expected_version=expected_version)


def suspend_contract(db: Database, actor: Actor, contract_id: int | str, reason: str,
                     expected_version: int | None = None) -> ContractInfo:
    """Suspension keeps racks and GPUs held (and billed) until the contract resumes or ends."""
    return _move(db, actor, contract_id, "suspend", reason=reason,
                 expected_version=expected_version, needs_reason=True)


def resume_contract(db: Database, actor: Actor, contract_id: int | str, expected_version: int | None = None) -> ContractInfo:
    return _move(db, actor, contract_id, "resume",
                 expected_version=expected_version)


def expire_contract(db: Database, actor: Actor, contract_id: int | str, *, at: dt.datetime | None = None,
                    expected_version: int | None = None) -> ContractInfo:
    """The natural end on the contract's end date: releases racks and GPUs."""
    return _move(db, actor, contract_id, "expire", at=at,
                 expected_version=expected_version)


def terminate_contract(db: Database, actor: Actor, contract_id: int | str, reason: str, *,
                       last_day: dt.date | None = None, at: dt.datetime | None = None,
                       expected_version: int | None = None) -> ContractInfo:
    """End early. `last_day` is the last day of service (billed), default the day of `at` or today."""
    return _move(db, actor, contract_id, "terminate",
                 reason=reason, at=at, last_day=last_day, expected_version=expected_version, needs_reason=True)


# --- renewal and amendment ----------------------------------------------------------------

def renew_contract(db: Database, actor: Actor, contract_id: int | str, *, start_date: dt.date,
                   end_date: dt.date, items: list[ItemSpec] | None = None, title: str | None = None) -> ContractInfo:
    """A new draft contract (new number) linked to the old; items copied unless given."""
    require(actor, "draft_contracts")
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        old = _find(s, contract_id)
        _refuse_unless_allowed("renew", _facts(s, old), actor, local_today())
        if items is None:
            items = [_item_info(s, it).spec(service_start=None, service_end=None) for it in old.items]
        c = _new_contract(uow, subsidiary_id=old.subsidiary_id, customer_id=old.customer_id, start_date=start_date,
                          end_date=end_date, items=items, title=title or old.title, terms=old.terms,
                          service_level=old.service_level, language=old.language, renewal_of_id=old.id)
        uow.audit("contract.renew", "contract", c.id, c.number,
                  after=dict(snapshot(c, HEADER_FIELDS), items=_audit_items(s, c)), reason=f"renewal of {old.number}")
        info = _info(s, c)
        uow.commit()
        return info


def amend_contract(db: Database, actor: Actor, contract_id: int | str, *, effective_date: dt.date, reason: str,
                   items: list[ItemSpec] | None = None, end_date: dt.date | None = None) -> ContractInfo:
    """A new revision (same number + “-R<n>”) of a contract in force, effective on `effective_date`.

    Items are copied unless given; their service starts on the effective date. Once approved and
    activated, it supersedes the old revision, which ends the day before.
    """
    require(actor, "draft_contracts")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": "say why the contract is amended"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        old = _find(s, contract_id)
        _refuse_unless_allowed("amend", _facts(s, old), actor, local_today())
        end = end_date or old.end_date
        if not old.start_date < effective_date <= end:
            raise ValidationError({"effective_date": f"must fall after the start {old.start_date} and by the end {end}"})
        if items is None:
            items = [_item_info(s, it).spec() for it in old.items]
        items = [replace(it, service_start=max(it.service_start or effective_date, effective_date),
                         service_end=None if it.service_end and it.service_end > end else it.service_end)
                 for it in items]
        base = old.number.rsplit("-R", 1)[0] if old.revision > 1 else old.number
        revision = old.revision + 1
        c = _new_contract(uow, subsidiary_id=old.subsidiary_id, customer_id=old.customer_id,
                          start_date=old.start_date, end_date=end, items=items, title=old.title, terms=old.terms,
                          service_level=old.service_level, language=old.language,
                          number=f"{base}-R{revision}", amends_id=old.id, revision=revision,
                          effective_date=effective_date, renewal_of_id=old.renewal_of_id)
        uow.audit("contract.amend", "contract", c.id, c.number,
                  after=dict(snapshot(c, HEADER_FIELDS), items=_audit_items(s, c)), reason=reason.strip())
        info = _info(s, c)
        uow.commit()
        return info

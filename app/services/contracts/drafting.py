"""Drafting a contract: its items validated (numbers, units, racks, GPUs) and written, the header
checked, a draft created or updated."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import delete, insert
from sqlalchemy.orm import Session

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import DateError, parse_date
from app.domain.errors import ValidationError
from app.domain.messages import message_of
from app.domain.money import AmountError, parse_decimal
from app.domain.rating import local_today
from app.services.entities import check_version, flush_or_refuse, flush_versioned, next_document_number, snapshot
from app.services.contracts.actions import _refuse_unless_allowed
from app.services.contracts.activation import refuse_short_capacity
from app.services.contracts.records import (
    DEFAULT_TAX,
    UNITS_BY_KIND,
    ContractInfo,
    ItemSpec,
    _facts,
    _find,
    _info,
    _item_info,
)
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import (
    Cage,
    Contract,
    ContractItem,
    Customer,
    GpuAsset,
    GpuModel,
    Rack,
    Subsidiary,
    contract_item_gpu,
)
from models.choices import (
    ContractStatus,
    CustomerStatus,
    ItemKind,
    PriceUnit,
    TaxCategory,
)


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
        for k, v in _item_errors(s, it, start, end).items():
            errors[f"items[{n}].{k}"] = v
    return errors


def _item_errors(s: Session, it: ItemSpec, start: dt.date, end: dt.date) -> dict[str, str]:
    """One item's errors by field: what every item needs, then its kind's own checks."""
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
    kind_check = _KIND_CHECKS.get(it.kind)
    if kind_check is not None:
        kind_check(s, it, e)
    if it.setup_price is not None and it.kind != ItemKind.XCONNECT:
        e["setup_price"] = "an installation price per piece is for cross-connect items"
    _dec(it.setup_price, "setup_price", e, required=False)
    if it.kind == ItemKind.BANDWIDTH and it.price_unit == PriceUnit.MBPS_MONTH and not (it.mbps and it.mbps > 0):
        e["mbps"] = M.MBPS_REQUIRED()
    return e


def _rack_item_errors(s: Session, it: ItemSpec, e: dict[str, str]) -> None:
    """A rack lease: a cage whole, or a rack (whole or a unit range within its height), and a power
    allowance with its price."""
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


def _hosting_item_errors(s: Session, it: ItemSpec, e: dict[str, str]) -> None:
    """Hosting: a device or a rack, a unit range within the rack's height, the meter's rack for kWh."""
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


def _gpu_item_errors(s: Session, it: ItemSpec, e: dict[str, str]) -> None:
    """GPUs: named ones (each once, as many as the quantity) or a model, whole numbers, a hybrid's
    hours and rate."""
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


def _power_item_errors(s: Session, it: ItemSpec, e: dict[str, str]) -> None:
    """Circuits (app/services/power.py names them, billing meters them): whole numbers, an existing rack."""
    if it.quantity is not None and Decimal(str(it.quantity)) % 1:
        e["quantity"] = "circuits are counted in whole numbers"
    if it.rack_id is not None and s.get(Rack, it.rack_id) is None:
        e["rack_id"] = f"rack {it.rack_id} does not exist"
    _dec(it.kwh_price, "kwh_price", e, required=False)


_KIND_CHECKS = {ItemKind.RACK: _rack_item_errors, ItemKind.HOSTING: _hosting_item_errors,
                ItemKind.GPU: _gpu_item_errors, ItemKind.POWER: _power_item_errors}


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

"""A contract's plain values in and out (ItemSpec, ContractInfo, ContractFacts …), the rules of
which price units an item may use, and reading: a contract by id or number, the contracts due."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields, replace
from decimal import Decimal

from sqlalchemy import exists, select
from sqlalchemy.orm import Session, aliased

from app.domain.errors import NotFound
from app.domain.rating import local_today
from app.read.settings import CONTRACT_FOUR_EYES, setting_in
from app.services.entities import get_or_404
from app.store.db import Database
from models import (
    Contract,
    ContractItem,
    Customer,
    contract_item_gpu,
)
from models.choices import (
    LIVE_CONTRACT,
    ContractStatus,
    ItemKind,
    PriceUnit,
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
    """Contracts in force that end within `within_days`, soonest first, with their alert band: one
    statement of plain columns, whether a renewal names each asked beside it (issue 26: the contracts as
    ORM objects and every renewal's id in a second statement cost the main window's start 0.1-0.3 s of
    CPU on the large data)."""
    today = today or local_today()
    renewal = aliased(Contract)
    with db.session() as s:
        rows = s.execute(
            select(Contract.id, Contract.number, Customer.name, Contract.status, Contract.end_date,
                   exists().where(renewal.renewal_of_id == Contract.id))
            .join(Customer, Customer.id == Contract.customer_id)
            .where(Contract.status.in_((ContractStatus.APPROVED,) + HELD),
                   Contract.end_date >= today, Contract.end_date <= today + dt.timedelta(days=within_days))
            .order_by(Contract.end_date, Contract.number)).all()
    out = []
    for cid, number, name, status, end, renewed in rows:
        left = (end - today).days
        band = next((d for d in ALERT_DAYS if left <= d), None)
        out.append(ContractDue(cid, number, name, status, end, left, band, bool(renewed)))
    return out

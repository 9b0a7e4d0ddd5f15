"""Records brought over from another system (or another database) in the state they are in.

A migration is not the normal workflow: a contract comes in already approved or active, with
its items as they were handed over. It still goes through the same checks as a new contract
(app.services.contracts: header and item rules), writes an audit event, and never moves a GPU
or rack through its lifecycle (those come in their own state through their own import kinds).
"""
from __future__ import annotations

import re

from sqlalchemy import select

from app.domain.auth import require
from app.domain.errors import RuleViolation, ValidationError
from app.domain.rating import local_midnight
from app.services.contracts import ItemSpec
from app.services.contracts.drafting import _validate_header, _validate_items, _write_items
from app.services.entities import flush_or_refuse, snapshot
from app.store.uow import UnitOfWork
from models import Contract, DocumentCounter, GpuAsset, GpuLease, Subsidiary
from models.choices import ContractStatus

CONTRACT_FIELDS = ("subsidiary_id", "customer_id", "title", "status", "start_date", "end_date", "revision",
                   "effective_date", "language", "renewal_of_id", "amends_id", "service_level", "terms")
LEASING = (ContractStatus.ACTIVE, ContractStatus.SUSPENDED)


def import_contract_item_in(uow: UnitOfWork, number: str, header: dict, item: ItemSpec, handover: dict,
                            new_in_this_import: set[str]) -> str:
    """One item of contract `number`; the first item of a contract not yet in the database creates it.

    Returns 'created' (a new contract, or an item of a contract this import created) or 'unchanged'
    (the contract exists already: an import never changes a contract; amend it in the console).
    """
    require(uow.actor, "draft_contracts")
    s = uow.session
    if header.get("status") not in ContractStatus.values():
        raise ValidationError({"status": f"{header.get('status')!r} is not a contract status "
                                         f"({', '.join(ContractStatus.values())})"})
    c = s.execute(select(Contract).where(Contract.number == number)).scalar_one_or_none()
    if c is not None and number not in new_in_this_import:
        differs = [k for k in CONTRACT_FIELDS if k in header and getattr(c, k) != header[k]]
        if differs:
            raise RuleViolation(f"contract {number} exists with another {', '.join(differs)}; an import does not "
                                "change a contract: amend, renew or terminate it in the console")
        return "unchanged"
    errors = _validate_header(s, header["subsidiary_id"], header["customer_id"], header["start_date"],
                              header["end_date"], header.get("language") or "zh")
    if c is not None:
        errors = {}
    errors.update(_validate_items(s, [item], header["start_date"], header["end_date"]))
    if errors:
        raise ValidationError(errors)
    first = c is None
    if c is None:
        c = Contract(number=number, updated_by=uow.actor.login, **{k: header.get(k) for k in CONTRACT_FIELDS})
        c.language = c.language or "zh"
        c.revision = c.revision or 1
        s.add(c)
        flush_or_refuse(s)
        _count_number(s, c)
        new_in_this_import.add(number)
    _write_items(s, c, [item])
    it = c.items[-1]
    for key in ("handover_at", "handover_by", "handover_note"):
        setattr(it, key, handover.get(key))
    if c.status in LEASING and item.gpu_ids:
        start = handover.get("handover_at") or local_midnight(item.service_start or c.start_date)
        for gpu_id in item.gpu_ids:
            s.add(GpuLease(gpu_id=gpu_id, contract_item_id=it.id, start=start))
    flush_or_refuse(s)
    if first:
        uow.audit("contract.import", "contract", c.id, c.number, after=snapshot(c, ("number",) + CONTRACT_FIELDS),
                  reason=f"imported as {ContractStatus.label(c.status)}")
    else:
        uow.audit("contract.import_item", "contract", c.id, c.number,
                  after=dict(snapshot(it, ("kind", "description", "quantity", "unit_price", "price_unit")),
                             gpu_ids=list(item.gpu_ids)))
    return "created"


def _count_number(s, c: Contract) -> None:
    """A number in the console's own form (FZ-2026-0007) moves its counter on, so the next new
    contract of that subsidiary and year does not take it again."""
    sub = s.get(Subsidiary, c.subsidiary_id)
    m = re.fullmatch(re.escape(sub.code) + r"-(\d{4})-(\d+)", c.number)
    if not m:
        return
    counter = s.get(DocumentCounter, (c.subsidiary_id, "contract", m.group(1)))
    if counter is None:
        s.add(DocumentCounter(subsidiary_id=c.subsidiary_id, kind="contract", scope=m.group(1),
                              last_value=int(m.group(2))))
    elif counter.last_value < int(m.group(2)):
        counter.last_value = int(m.group(2))


def gpu_ids_by_serial(s, serials: list[str]) -> tuple[list[int], list[str]]:
    """(ids in the given order, serials not in the fleet)."""
    found = dict(s.execute(select(GpuAsset.serial, GpuAsset.id).where(GpuAsset.serial.in_(serials))).all())
    return [found[x] for x in serials if x in found], [x for x in serials if x not in found]


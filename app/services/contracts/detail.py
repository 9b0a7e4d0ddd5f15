"""The contract panel's read (issue 26): the contract with its customer, the facts available_actions
needs, the number of the contract it renews, its items with their GPUs, and its totals, in two
statements (the contract and its items in one, the VAT rates on its start in the other) where the
reads it replaces (get_contract, queries.record, totals_of_contract) sent 10 to 13. A click from a
subsidiary pays a round trip per statement. Same values as those reads: tests/read/test_panel_reads.py."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sqlalchemy import bindparam, select
from sqlalchemy.orm import aliased

from app.domain.errors import NotFound, RuleViolation
from app.read.settings import CONTRACT_FOUR_EYES, setting_of
from app.services.contracts.records import ContractFacts, ContractInfo, ItemInfo
from app.services.contracts.totals import ContractTotals, line_of_item, totals_in
from app.store.db import Database
from models import AppSetting, Contract, ContractItem, Customer, contract_item_gpu
from models.choices import ContractStatus


@dataclass(frozen=True)
class ContractDetail:
    info: ContractInfo
    renews_number: str | None         # the number of the contract this one renews (None: none, or gone)
    totals: ContractTotals | None     # None when refused (a line without a VAT rate): `refused` says why
    refused: RuleViolation | None = None


@cache
def _header_query():
    """The contract, its customer's name and, as scalar subqueries, what its facts and its renewal show;
    built once (its aliases cost more to build than the query takes to run), the id bound at each call."""
    other = aliased(Contract)

    def first_number(*where):
        return select(other.number).where(*where).order_by(other.id).limit(1).scalar_subquery()
    amended, renewed = aliased(Contract), aliased(Contract)
    return (select(Contract, Customer.name,
                   first_number(other.renewal_of_id == Contract.id, other.id != Contract.id,
                                other.status.not_in((ContractStatus.EXPIRED, ContractStatus.TERMINATED))),
                   first_number(other.amends_id == Contract.id, other.status.in_(
                       (ContractStatus.DRAFT, ContractStatus.PENDING, ContractStatus.APPROVED))),
                   amended.number, amended.status, renewed.number,
                   select(AppSetting.value).where(AppSetting.key == CONTRACT_FOUR_EYES).scalar_subquery(),
                   ContractItem, contract_item_gpu.c.gpu_id)
            .outerjoin(Customer, Customer.id == Contract.customer_id)
            .outerjoin(amended, amended.id == Contract.amends_id)
            .outerjoin(renewed, renewed.id == Contract.renewal_of_id)
            .outerjoin(ContractItem, ContractItem.contract_id == Contract.id)
            .outerjoin(contract_item_gpu, contract_item_gpu.c.item_id == ContractItem.id)
            .where(Contract.id == bindparam("contract_id"))
            .order_by(ContractItem.id, contract_item_gpu.c.gpu_id))


def _item(it: ContractItem, gpu_ids: list[int]) -> ItemInfo:
    return ItemInfo(it.id, it.kind, it.description, it.quantity, it.unit_price, it.price_unit, it.tax_category,
                    it.rack_id, it.u_from, it.u_to, it.device_id, it.gpu_model_id, tuple(gpu_ids), it.service_start,
                    it.service_end, it.power_allowance_kw, it.kwh_price, it.included_hours, it.hourly_rate,
                    it.mbps, it.cage_id, it.face, it.setup_price, it.description_en)


def contract_detail(db: Database, contract_id: int) -> ContractDetail:
    """What the contract panel shows of one contract, by id (NotFound when it is gone)."""
    with db.read_session() as s:
        rows = s.execute(_header_query(), {"contract_id": contract_id}).all()
        if not rows:
            raise NotFound(f"there is no contract #{contract_id}")
        c, customer, open_renewal, open_amendment, old_number, old_status, renews, four_eyes = rows[0][:8]
        items: dict[int, tuple[ContractItem, list[int]]] = {}
        for *_, it, gpu_id in rows:
            if it is None:
                continue
            gpus = items.setdefault(it.id, (it, []))[1]
            if gpu_id is not None:
                gpus.append(gpu_id)
        facts = ContractFacts(c.number, c.status, c.end_date, c.drafted_by, c.submitted_by, c.approved_by,
                              c.approved_four_eyes, open_renewal, open_amendment, old_number, old_status,
                              setting_of(CONTRACT_FOUR_EYES, four_eyes))
        info = ContractInfo(c.id, c.number, c.subsidiary_id, c.customer_id, customer or "", c.title, c.status,
                            c.start_date, c.end_date, c.renewal_of_id, c.amends_id, c.revision, c.effective_date,
                            c.language, c.version, tuple(_item(it, gpus) for it, gpus in items.values()), facts)
        try:
            totals = totals_in(s, [line_of_item(it) for it, _ in items.values()], c.start_date, c.end_date)
        except RuleViolation as exc:   # a line without a VAT rate: the panel says so, as billing would
            return ContractDetail(info, renews, None, exc)
        return ContractDetail(info, renews, totals)

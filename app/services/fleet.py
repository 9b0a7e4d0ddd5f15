"""The GPU fleet's money rules: straight-line book value and GPU revenue per model (read-only).

The fleet report (app.documents.fleet) and anything else that values the fleet ask here; the
rules are not written a second time in a document or a screen.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import func, select

from app.domain.money import round_fen
from app.store.db import Database
from models import ContractItem, GpuAsset, GpuModel, Statement, StatementLine, contract_item_gpu
from models.choices import GpuState, ItemKind, StatementStatus

ZERO = Decimal(0)
DEFAULT_DEPRECIATION_MONTHS = 36


def months_elapsed(start: dt.date, today: dt.date) -> int:
    """Whole months from `start` to `today` (a month counts once its day-of-month is reached)."""
    months = (today.year - start.year) * 12 + (today.month - start.month)
    if today.day < start.day:
        months -= 1
    return max(0, months)


def book_value(cost: Decimal | None, purchased: dt.date | None, months: int, today: dt.date) -> Decimal:
    """Straight-line: cost × (months left ÷ depreciation months), to the fen; no cost, no value."""
    if cost is None:
        return ZERO
    if purchased is None or purchased > today:
        return round_fen(Decimal(cost))
    used = min(months_elapsed(purchased, today), months)
    return round_fen(Decimal(cost) * (months - used) / months)


def _month_back(day: dt.date, months: int) -> str:
    y, m = divmod(day.year * 12 + day.month - 1 - months, 12)
    return f"{y:04d}-{m + 1:02d}"


def revenue_by_model(db: Database, today: dt.date, months: int = 12) -> dict[str, Decimal]:
    """Net revenue (before tax) of GPU items on issued statements and credit notes, per GPU model name,
    for the `months` billing periods ending with the current month."""
    first = _month_back(today, months - 1)
    last = f"{today.year:04d}-{today.month:02d}"
    with db.session() as s:
        rows = s.execute(
            select(ContractItem.id, ContractItem.gpu_model_id, func.sum(StatementLine.amount))
            .join(StatementLine, StatementLine.contract_item_id == ContractItem.id)
            .join(Statement, Statement.id == StatementLine.statement_id)
            .where(Statement.status == StatementStatus.ISSUED, ContractItem.kind == ItemKind.GPU,
                   StatementLine.period >= first, StatementLine.period <= last)
            .group_by(ContractItem.id, ContractItem.gpu_model_id)).all()
        names = dict(s.execute(select(GpuModel.id, GpuModel.name)).all())
        out: dict[str, Decimal] = defaultdict(lambda: ZERO)
        for item_id, model_id, amount in rows:
            amount = Decimal(amount or 0)
            if model_id is not None:
                out[names[model_id]] += amount
                continue
            # named GPUs of several models: share the item's revenue by GPU count
            mix = s.execute(select(GpuAsset.gpu_model_id, func.count())
                            .join(contract_item_gpu, contract_item_gpu.c.gpu_id == GpuAsset.id)
                            .where(contract_item_gpu.c.item_id == item_id)
                            .group_by(GpuAsset.gpu_model_id)).all()
            total = sum(n for _m, n in mix)
            for m, n in mix:
                out[names[m]] += amount * n / total
    return {k: round_fen(v) for k, v in out.items()}


@dataclass
class ModelValue:
    """One GPU model: how many are in each state, their book value today, revenue billed."""

    model: str
    counts: Counter = field(default_factory=Counter)
    book_value: Decimal = ZERO
    revenue: Decimal = ZERO


def fleet_values(db: Database, today: dt.date) -> tuple[list[ModelValue], list[str]]:
    """Every GPU model with its counts by state, book value (retired GPUs are written off) and the
    last 12 billing months' GPU revenue; plus the states present, in lifecycle order."""
    with db.session() as s:
        gpus = s.execute(select(GpuModel.name, GpuAsset.state, GpuAsset.purchase_cost, GpuAsset.purchase_date,
                                GpuAsset.depreciation_months)
                         .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)).all()
    by_model: dict[str, ModelValue] = {}
    present: set[str] = set()
    for model, state, cost, bought, months in gpus:
        mv = by_model.setdefault(model, ModelValue(model))
        mv.counts[state] += 1
        present.add(state)
        if state != GpuState.RETIRED:
            mv.book_value += book_value(cost, bought, int(months or DEFAULT_DEPRECIATION_MONTHS), today)
    for model, amount in revenue_by_model(db, today).items():
        by_model.setdefault(model, ModelValue(model)).revenue = amount
    states = [st for st in GpuState.values() if st in present]
    return [by_model[m] for m in sorted(by_model)], states

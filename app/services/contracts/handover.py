"""Handover of contract items: from when each item is billed.

An item bills from its handover instant, taken as its Asia/Shanghai calendar date, for every kind
of charge (monthly, yearly, hourly, hybrid, rack, power, bandwidth, one-off). Until then it bills
nothing and the due list shows it as awaiting handover. Activating a new contract hands over the
items planned to start by then, at the activation instant; items of a renewal or an amendment
continue a service the customer already has and are handed over at their planned start (an
amendment's even when it is activated later: it takes over from the old revision on its
effective date; a renewal's at activation if that is later). Any
other handover is recorded here: who, when (an instant), and the evidence. It may be corrected
until an issued statement has billed the item; the item's lines on draft statements are then
taken off, and the next run bills them from the corrected date.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.domain import rating as B
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.services.entities import flush_versioned
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Contract, ContractItem, Customer, Statement, StatementLine
from models.choices import ContractStatus, StatementStatus

IN_SERVICE = (ContractStatus.ACTIVE, ContractStatus.SUSPENDED, ContractStatus.EXPIRED, ContractStatus.TERMINATED)
IN_FORCE = (ContractStatus.ACTIVE, ContractStatus.SUSPENDED)


@dataclass(frozen=True)
class HandoverInfo:
    contract_number: str
    position: int  # 1-based, in the contract's item order
    item_id: int
    description: str
    handover_at: dt.datetime | None
    handover_by: str | None
    note: str | None
    billed_from: dt.date | None  # the first day billed: planned start, contract start and handover date
    corrected: bool = False
    drafts_cleared: int = 0  # lines taken off draft statements by a correction


@dataclass(frozen=True)
class AwaitingHandover:
    contract_id: int
    contract_number: str
    customer_name: str
    position: int
    item_id: int
    description: str
    planned_start: dt.date


def _planned_start(c: Contract, it: ContractItem) -> dt.date:
    return max(it.service_start or c.start_date, c.start_date)


def _billed_from(c: Contract, it: ContractItem) -> dt.date | None:
    if it.handover_at is None:
        return None
    return max(_planned_start(c, it), B.local_date(it.handover_at))


def _info(c: Contract, it: ContractItem, **extra) -> HandoverInfo:
    pos = [i.id for i in c.items].index(it.id) + 1
    return HandoverInfo(c.number, pos, it.id, it.description, it.handover_at, it.handover_by, it.handover_note,
                        _billed_from(c, it), **extra)


def hand_over_at_activation(c: Contract, at: dt.datetime, login: str) -> list[str]:
    """Called by the contract activation (same transaction, audited with it): hands over the items
    due by then. Returns the descriptions of the items handed over."""
    continuing = c.renewal_of_id is not None or c.amends_id is not None
    done = []
    for it in c.items:
        if it.handover_at is not None:
            continue
        planned = _planned_start(c, it)
        if c.amends_id is not None:
            # an amendment takes over from the revision in force on its effective date, however late it
            # is activated (the old one ends the day before): its items bill from their planned start
            when = B.local_midnight(planned)
        elif continuing:
            when = max(at, B.local_midnight(planned))
        elif planned <= B.local_date(at):
            when = at
        else:
            continue  # planned later: the handover is recorded when it happens
        it.handover_at, it.handover_by = when, login
        it.handover_note = "handed over at activation" if when == at else "continues the previous contract's service"
        done.append(it.description)
    return done


def _find_contract(s: Session, contract: int | str) -> Contract:
    q = select(Contract)
    q = q.where(Contract.number == contract) if isinstance(contract, str) and not contract.isdigit() \
        else q.where(Contract.id == int(contract))
    c = s.execute(q).scalar_one_or_none()
    if c is None:
        raise NotFound(f"there is no contract {contract}")
    return c


def _find_item(s: Session, contract: int | str, position: int) -> tuple[Contract, ContractItem]:
    c = _find_contract(s, contract)
    if not 1 <= position <= len(c.items):
        raise ValidationError({"item": f"contract {c.number} has items 1 to {len(c.items)}, not {position}"})
    return c, c.items[position - 1]


def record_handover(db: Database, actor: Actor, contract: int | str, position: int, at: dt.datetime, note: str,
                    *, now: dt.datetime | None = None) -> HandoverInfo:
    """Record (or correct) the handover of item `position` (1-based) of a contract."""
    require(actor, "approve_contracts")
    now = now or dt.datetime.now(dt.timezone.utc)
    errors = {}
    if at is None or at.tzinfo is None:
        errors["at"] = "the handover time with its zone (Asia/Shanghai when none is written)"
    elif at > now + dt.timedelta(minutes=5):
        errors["at"] = f"{at.astimezone(B.TZ):%Y-%m-%d %H:%M} is in the future; record a handover once it happened"
    if not (note and note.strip()):
        errors["note"] = "the evidence: who received it, the signed handover form or ticket number"
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c, it = _find_item(s, contract, position)
        if c.status not in IN_SERVICE:
            raise RuleViolation(f"contract {c.number} is {ContractStatus.label(c.status).lower()}; items are handed "
                                "over once it is activated")
        end = min(it.service_end or c.end_date, c.end_date)
        if B.local_date(at) > end:
            raise ValidationError({"at": f"after the item's last day {end}; nothing would be billed"})
        before = {"handover_at": it.handover_at, "handover_by": it.handover_by, "handover_note": it.handover_note}
        cleared = 0
        if it.handover_at is not None:
            used = s.execute(select(Statement.number).join(StatementLine).where(
                StatementLine.contract_item_id == it.id, Statement.status != StatementStatus.DRAFT)
                .order_by(Statement.number).limit(1)).scalar()
            if used:
                raise RuleViolation(f"the handover of item {position} of {c.number} was billed on {used}; it can no "
                                    "longer be corrected. Correct the charge with a credit note and a rebill")
            cleared = _clear_draft_lines(uow, it.id)
        it.handover_at, it.handover_by, it.handover_note = at, actor.login, note.strip()
        flush_versioned(uow, it, f"item {position} of contract {c.number}")
        uow.audit("contract_item.handover", "contract_item", it.id, f"{c.number} #{position} {it.description}"[:255],
                  before=before if before["handover_at"] else None,
                  after={"handover_at": at, "handover_by": actor.login, "handover_note": note.strip(),
                         "billed_from": _billed_from(c, it), "draft_lines_removed": cleared},
                  reason=note.strip())
        info = _info(c, it, corrected=before["handover_at"] is not None, drafts_cleared=cleared)
        uow.commit()
        return info


def _clear_draft_lines(uow: UnitOfWork, item_id: int, from_period: str | None = None) -> int:
    """Take an item's lines off draft statements (billed from the old handover), those of `from_period`
    (YYYY-MM) and later when given; drop drafts left empty."""
    s = uow.session
    q = select(StatementLine).join(Statement).where(
        StatementLine.contract_item_id == item_id, Statement.status == StatementStatus.DRAFT)
    if from_period is not None:
        q = q.where(StatementLine.period >= from_period)
    lines = s.execute(q).scalars().all()
    touched = {ln.statement_id for ln in lines}
    for ln in lines:
        s.delete(ln)
    s.flush()
    for sid in sorted(touched):
        st = s.get(Statement, sid)
        s.refresh(st, ["lines"])
        if not st.lines:
            s.delete(st)
        else:
            tot = B.totals([(ln.amount, ln.tax) for ln in st.lines])
            st.subtotal, st.tax, st.total = tot.subtotal, tot.tax, tot.total
            flush_versioned(uow, st, f"draft statement #{sid}")
    s.flush()
    return len(lines)


def handovers(db: Database, contract: int | str) -> list[HandoverInfo]:
    """Every item of a contract with its handover."""
    with db.session() as s:
        c = _find_contract(s, contract)
        return [_info(c, it) for it in c.items]


def awaiting_handover(db: Database) -> list[AwaitingHandover]:
    """Items of contracts in force not yet handed over (billing nothing), by planned start."""
    with db.session() as s:
        rows = s.execute(select(Contract, ContractItem, Customer.name)
                         .join(ContractItem, ContractItem.contract_id == Contract.id)
                         .join(Customer, Customer.id == Contract.customer_id)
                         .where(Contract.status.in_(IN_FORCE), ContractItem.handover_at.is_(None))
                         .order_by(Contract.number, ContractItem.id)).all()
        out = []
        for c, it, name in rows:
            pos = [i.id for i in c.items].index(it.id) + 1
            out.append(AwaitingHandover(c.id, c.number, name, pos, it.id, it.description, _planned_start(c, it)))
        out.sort(key=lambda a: (a.planned_start, a.contract_number, a.position))
        return out


"""SLA credits: a contract's credit rule, the credit a breach proposes, an administrator's approval
(four eyes: not the proposer), and the `sla_credit` line the billing run puts on the statement of
the credit's period (app/services/billing/charges.sla_credit_charges), naming the ticket.

The rule, per breach: `breach_percent` of the affected item's monthly fee, rounded to the fen; all
credits of one item in one month together at most `monthly_cap_percent` of that fee (a credit that
would pass the cap is cut to what is left of it; none once it is reached). The affected item: the
contract item leasing the ticket's GPU (or a GPU of its server) when the ticket opened, else the
item of its rack or server, else the contract's first monthly item."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models import (Contract, ContractItem, GpuAsset, GpuLease, SlaBreach, SlaCredit, SlaCreditRule, Statement,
                    StatementLine, Ticket, TicketObject)
from models.choices import CreditState, ItemKind, PriceUnit, StatementStatus, TicketObjectType

from app.domain.actor import Actor
from app.domain import rating as B
from app.domain.auth import require
from app.domain.clock import local_date
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.money import format_amount, parse_decimal
from app.store.db import Database
from app.store.uow import UnitOfWork
from app.services.entities import flush_versioned, get_or_404

UTC = dt.timezone.utc
MONTHLY = (PriceUnit.MONTH, PriceUnit.YEAR, PriceUnit.MBPS_MONTH, PriceUnit.HYBRID)
METRIC_WORDS = {"ack": ("响应", "acknowledge"), "onsite": ("到场", "arrive on site"), "resolve": ("解决", "resolve")}


def monthly_fee(it: ContractItem) -> Decimal | None:
    """What the item costs a month (None: not priced by the month, so no percentage of it)."""
    if it.price_unit not in MONTHLY or it.kind == ItemKind.DISCOUNT:
        return None
    if it.price_unit == PriceUnit.MBPS_MONTH:
        return it.unit_price * Decimal(it.mbps or 0)
    fee = it.unit_price * it.quantity
    return fee / 12 if it.price_unit == PriceUnit.YEAR else fee


def set_credit_rule(db: Database, actor: Actor, contract_id: int, *, breach_percent, monthly_cap_percent,
                    promised_availability=None) -> int:
    require(actor, "manage_sla")
    errors = {}
    try:
        bp = parse_decimal(breach_percent, places=2)
        cap = parse_decimal(monthly_cap_percent, places=2)
        pa = parse_decimal(promised_availability, places=3) if promised_availability not in (None, "") else None
    except ValueError as exc:
        raise ValidationError({"breach_percent": str(exc)}) from None
    if bp is None or not 0 <= bp <= 100:
        errors["breach_percent"] = "a percentage from 0 to 100"
    if cap is None or not 0 <= cap <= 100:
        errors["monthly_cap_percent"] = "a percentage from 0 to 100"
    if pa is not None and not 0 < pa <= 100:
        errors["promised_availability"] = "a percentage above 0, at most 100 (e.g. 99.95)"
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        c = get_or_404(s, Contract, contract_id, "contract")
        row = s.execute(select(SlaCreditRule).where(SlaCreditRule.contract_id == c.id)).scalar()
        values = {"breach_percent": bp, "monthly_cap_percent": cap, "promised_availability": pa}
        if row is None:
            row = SlaCreditRule(contract_id=c.id, **values, updated_by=actor.login)
            s.add(row)
            s.flush()
            uow.audit("sla_credit_rule.create", "sla_credit_rule", row.id, c.number, after=dict(values, contract_id=c.id))
        else:
            before = {k: getattr(row, k) for k in values}
            for k, v in values.items():
                setattr(row, k, v)
            flush_versioned(uow, row, f"credit rule of {c.number}")
            uow.audit("sla_credit_rule.update", "sla_credit_rule", row.id, c.number, before=before, after=values)
        uow.commit()
        return row.id


def affected_item(s: Session, t: Ticket) -> ContractItem | None:
    if t.contract_id is None:
        return None
    items = list(s.execute(select(ContractItem).where(ContractItem.contract_id == t.contract_id)
                           .order_by(ContractItem.id)).scalars())
    if not items:
        return None
    ids = {it.id for it in items}
    objs = list(s.execute(select(TicketObject.object_type, TicketObject.object_id)
                          .where(TicketObject.ticket_id == t.id)).all())
    gpu_ids = [oid for ot, oid in objs if ot == TicketObjectType.GPU]
    devices = [oid for ot, oid in objs if ot == TicketObjectType.DEVICE]
    if devices:
        gpu_ids += list(s.execute(select(GpuAsset.id).where(GpuAsset.device_id.in_(devices))).scalars())
    if gpu_ids:
        leased = s.execute(select(GpuLease.contract_item_id).where(
            GpuLease.gpu_id.in_(gpu_ids), GpuLease.start <= t.opened_at,
            (GpuLease.end.is_(None)) | (GpuLease.end > t.opened_at)).order_by(GpuLease.contract_item_id)).scalars()
        for item_id in leased:
            if item_id in ids:
                return next(it for it in items if it.id == item_id)
    racks = {oid for ot, oid in objs if ot == TicketObjectType.RACK}
    for it in items:
        if (it.rack_id and it.rack_id in racks) or (it.device_id and it.device_id in devices):
            return it
    return next((it for it in items if monthly_fee(it)), None)


def _credit_period(s: Session, item: ContractItem, at: dt.datetime | B.Period) -> str:
    """The breach's billing month, unless that month's statement with the item is already issued:
    then the first later month without one (the next statement)."""
    p = at if isinstance(at, B.Period) else B.Period.containing(local_date(at))
    for _ in range(24):
        issued = s.execute(select(func.count()).select_from(StatementLine)
                           .join(Statement, Statement.id == StatementLine.statement_id)
                           .where(StatementLine.contract_item_id == item.id, StatementLine.period == p.label,
                                  Statement.status != StatementStatus.DRAFT)).scalar()
        if not issued:
            return p.label
        p = B.Period.containing(p.next_first)
    return p.label


def propose_for_breach(uow: UnitOfWork, t: Ticket, b: SlaBreach) -> int | None:
    """The credit a breach proposes by its contract's rule (None: no rule, no monthly item, cap reached)."""
    s = uow.session
    if t.contract_id is None:
        return None
    rule = s.execute(select(SlaCreditRule).where(SlaCreditRule.contract_id == t.contract_id)).scalar()
    item = affected_item(s, t)
    fee = monthly_fee(item) if item is not None else None
    if rule is None or not fee or not rule.breach_percent:
        return None
    period = _credit_period(s, item, b.due_at)
    cap = B.fen(fee * rule.monthly_cap_percent / 100)
    used = s.execute(select(func.coalesce(func.sum(SlaCredit.amount), 0)).where(
        SlaCredit.contract_item_id == item.id, SlaCredit.period == period,
        SlaCredit.state != CreditState.REJECTED)).scalar() or Decimal(0)
    amount = min(B.fen(fee * rule.breach_percent / 100), cap - Decimal(used))
    if amount <= 0:
        return None
    zh, en = METRIC_WORDS.get(b.metric, (b.metric, b.metric))
    capped = amount < B.fen(fee * rule.breach_percent / 100)
    reason = (f"{t.number} {b.priority} {en} target missed; {rule.breach_percent}% of {format_amount(B.fen(fee))}"
              + (f", cut to the monthly cap {rule.monthly_cap_percent}%" if capped else ""))
    c = SlaCredit(contract_item_id=item.id, ticket_id=t.id, breach_id=b.id, period=period,
                  percent=rule.breach_percent, amount=amount, reason=reason[:255], state=CreditState.PROPOSED,
                  proposed_by=uow.actor.login, proposed_at=b.recorded_at, updated_by=uow.actor.login)
    s.add(c)
    s.flush()
    uow.audit("sla_credit.propose", "sla_credit", c.id, t.number,
              after={"contract_item_id": item.id, "ticket_id": t.id, "breach_id": b.id, "period": period,
                     "percent": rule.breach_percent, "amount": amount, "state": c.state, "reason": c.reason})
    return c.id


def _decide(db: Database, actor: Actor, credit_id: int, state: str, reason: str | None) -> str:
    require(actor, "approve_credits")
    with UnitOfWork(db, actor) as uow:
        c = uow.session.get(SlaCredit, credit_id)
        if c is None:
            raise NotFound(f"SLA credit {credit_id} does not exist")
        if c.state != CreditState.PROPOSED:
            raise RuleViolation(f"SLA credit {credit_id} is already {CreditState.label(c.state).lower()} "
                                f"by {c.decided_by}")
        if c.proposed_by == actor.login:
            raise RuleViolation(f"you proposed SLA credit {credit_id}: another administrator approves or rejects it "
                                "(four eyes)")
        if state == CreditState.REJECTED and not (reason and reason.strip()):
            raise ValidationError({"reason": "say why the credit is rejected"})
        t = uow.session.get(Ticket, c.ticket_id) if c.ticket_id else None
        if state == CreditState.APPROVED:
            item = uow.session.get(ContractItem, c.contract_item_id)
            c.period = _credit_period(uow.session, item, B.Period.parse(c.period))  # issued meanwhile: the next
        c.state = state
        c.decided_by = actor.login
        c.decided_at = dt.datetime.now(UTC)
        flush_versioned(uow, c, f"SLA credit {credit_id}")
        uow.audit(f"sla_credit.{'approve' if state == CreditState.APPROVED else 'reject'}", "sla_credit", c.id,
                  t.number if t else None, before={"state": CreditState.PROPOSED},
                  after={"state": state, "decided_by": actor.login, "period": c.period}, reason=reason)
        uow.commit()
        return state


def approve_credit(db: Database, actor: Actor, credit_id: int) -> str:
    return _decide(db, actor, credit_id, CreditState.APPROVED, None)


def reject_credit(db: Database, actor: Actor, credit_id: int, reason: str) -> str:
    return _decide(db, actor, credit_id, CreditState.REJECTED, reason)


@dataclass(frozen=True)
class CreditRow:
    id: int
    ticket: str | None
    contract: str
    customer_id: int
    item: str
    period: str
    percent: Decimal
    amount: Decimal
    state: str
    reason: str
    proposed_by: str | None
    decided_by: str | None


def list_credits(db: Database, *, state: str | None = None, period: str | None = None) -> list[CreditRow]:
    with db.session() as s:
        q = (select(SlaCredit, Contract.number, Contract.customer_id, ContractItem.description, Ticket.number)
             .join(ContractItem, ContractItem.id == SlaCredit.contract_item_id)
             .join(Contract, Contract.id == ContractItem.contract_id)
             .outerjoin(Ticket, Ticket.id == SlaCredit.ticket_id).order_by(SlaCredit.id.desc()))
        if state:
            q = q.where(SlaCredit.state == state)
        if period:
            q = q.where(SlaCredit.period == period)
        return [CreditRow(c.id, tn, cn, cust, desc, c.period, c.percent, c.amount, c.state, c.reason, c.proposed_by,
                          c.decided_by) for c, cn, cust, desc, tn in s.execute(q).all()]


def approved_credits(s: Session, item_ids, period: str) -> dict[int, list[tuple[str | None, str, Decimal, str]]]:
    """item id -> [(ticket number, metric, amount, reason)] of the approved credits of a period (the billing reads it)."""
    out: dict[int, list] = {}
    ids = list(item_ids)
    if not ids:
        return out
    rows = s.execute(select(SlaCredit.contract_item_id, Ticket.number, SlaBreach.metric, SlaCredit.amount,
                            SlaCredit.reason)
                     .outerjoin(Ticket, Ticket.id == SlaCredit.ticket_id)
                     .outerjoin(SlaBreach, SlaBreach.id == SlaCredit.breach_id)
                     .where(SlaCredit.contract_item_id.in_(ids), SlaCredit.period == period,
                            SlaCredit.state == CreditState.APPROVED)
                     .order_by(SlaCredit.contract_item_id, SlaCredit.id)).all()
    for item_id, number, metric, amount, reason in rows:
        out.setdefault(item_id, []).append((number, metric or "", amount, reason))
    return out

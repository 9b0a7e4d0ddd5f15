"""SLA credits: a contract's credit rule, the credit a breach proposes, an administrator's approval
(four eyes: not the proposer), and the `sla_credit` line the billing run puts on the statement of
the credit's period (app/services/billing/charges.sla_credit_charges), naming the ticket.

The rule, per breach: `breach_percent` of the affected item's monthly fee, rounded to the fen; all
credits of one item in one month together at most `monthly_cap_percent` of that fee (a credit that
would pass the cap is cut to what is left of it; none once it is reached). The affected item: the
contract item leasing the ticket's GPU (or a GPU of its server) when the ticket opened, else the
item of its rack or server, else the contract's first monthly item.

Availability (`promised_availability`): a month its tickets' recorded down hours leave an item below
the promise proposes a credit of the shortfall (propose_for_availability_in), within the same cap."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from models import (Contract, ContractItem, Downtime, GpuAsset, GpuLease, SlaBreach, SlaCredit, SlaCreditRule, Statement,
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
AVAILABILITY = "availability"    # the metric of a credit a month's availability proposes (no breach)
METRIC_WORDS = {"ack": ("响应", "acknowledge"), "onsite": ("到场", "arrive on site"), "resolve": ("解决", "resolve"),
                AVAILABILITY: ("可用性", "availability")}


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
        # a credit without a breach is a month's availability (propose_for_availability_in)
        out.setdefault(item_id, []).append((number, metric or AVAILABILITY, amount, reason))
    return out


# --- availability ---------------------------------------------------------------------------------

def _ticket_downtime(s: Session, p: B.Period) -> dict[str, list[tuple[dt.datetime, dt.datetime]]]:
    """ticket number -> its down spans inside the month (the downtime rows record_ticket_downtime
    writes: "T-2026-000123: …")."""
    out: dict[str, list] = {}
    for reason, start, end in s.execute(select(Downtime.reason, Downtime.start, Downtime.end).where(
            Downtime.reason.like("T-%:%"), Downtime.start < p.end,
            (Downtime.end.is_(None)) | (Downtime.end > p.start))):
        lo, hi = max(start, p.start), min(end or p.end, p.end)
        if hi > lo:
            out.setdefault(reason.split(":", 1)[0], []).append((lo, hi))
    return out


def _union_seconds(spans) -> int:
    total, reach = 0, None
    for lo, hi in sorted(spans):
        if reach is not None and lo < reach:
            lo = reach
        if hi > lo:
            total += int((hi - lo).total_seconds())
            reach = hi
    return total


def propose_for_availability_in(uow: UnitOfWork, period) -> list[int]:
    """The credits a month's availability proposes, once per affected item and month: for each
    contract whose rule promises an availability, the down hours its tickets recorded in the month,
    per affected item (affected_item: the time any of its tickets' objects was down, overlaps counted
    once, as the monthly SLA report counts them); an item available less than promised is credited
    the shortfall, (promised − achieved) percentage points of its monthly fee, the achieved share
    rounded to 0.001 %, within the monthly cap it shares with the breach credits."""
    s = uow.session
    p = B.Period.parse(period)
    promised = dict(s.execute(select(SlaCreditRule.contract_id, SlaCreditRule.promised_availability)
                              .where(SlaCreditRule.promised_availability.is_not(None))).all())
    down = _ticket_downtime(s, p) if promised else {}
    tickets = list(s.execute(select(Ticket).where(Ticket.number.in_(sorted(down)),
                                                  Ticket.contract_id.in_(sorted(promised)))
                             .order_by(Ticket.id)).scalars()) if down else []
    per_item: dict[int, tuple[ContractItem, list[Ticket]]] = {}
    for t in tickets:
        item = affected_item(s, t)
        if item is not None and monthly_fee(item):
            per_item.setdefault(item.id, (item, []))[1].append(t)
    month_s = int((p.end - p.start).total_seconds())
    made = []
    for item, its in per_item.values():
        achieved = (Decimal(100) * (month_s - _union_seconds([x for t in its for x in down[t.number]])) / month_s
                    ).quantize(Decimal("0.001"))
        cid = _propose_availability(uow, item, its, p, promised[its[0].contract_id], achieved,
                                    max(its, key=lambda t: _union_seconds(down[t.number])))
        if cid:
            made.append(cid)
    return made


def _propose_availability(uow: UnitOfWork, item: ContractItem, its: list[Ticket], p: B.Period, promised: Decimal,
                          achieved: Decimal, longest: Ticket) -> int | None:
    s = uow.session
    marker = f"availability {p.label}"
    if achieved >= promised or s.execute(select(SlaCredit.id).where(
            SlaCredit.contract_item_id == item.id, SlaCredit.breach_id.is_(None),
            SlaCredit.reason.like(f"{marker}%"))).first():
        return None
    fee = monthly_fee(item)
    rule = s.execute(select(SlaCreditRule).where(SlaCreditRule.contract_id == item.contract_id)).scalar()
    period = _credit_period(s, item, p)
    used = s.execute(select(func.coalesce(func.sum(SlaCredit.amount), 0)).where(
        SlaCredit.contract_item_id == item.id, SlaCredit.period == period,
        SlaCredit.state != CreditState.REJECTED)).scalar() or Decimal(0)
    shortfall = promised - achieved
    amount = min(B.fen(fee * shortfall / 100), B.fen(fee * rule.monthly_cap_percent / 100) - Decimal(used))
    if amount <= 0:
        return None
    numbers = ", ".join(t.number for t in its)
    reason = (f"{marker}: {achieved}% < promised {promised}% ({numbers}); {shortfall}% of "
              f"{format_amount(B.fen(fee))}")
    c = SlaCredit(contract_item_id=item.id, ticket_id=longest.id, breach_id=None, period=period, percent=shortfall,
                  amount=amount, reason=reason[:255], state=CreditState.PROPOSED, proposed_by=uow.actor.login,
                  proposed_at=dt.datetime.now(UTC), updated_by=uow.actor.login)
    s.add(c)
    s.flush()
    uow.audit("sla_credit.propose", "sla_credit", c.id, longest.number,
              after={"contract_item_id": item.id, "ticket_id": longest.id, "period": period, "percent": shortfall,
                     "amount": amount, "state": c.state, "reason": c.reason, "availability": achieved})
    return c.id


def propose_for_availability(db: Database, actor: Actor, period) -> list[int]:
    """propose_for_availability_in for one month (`ticket check` and the desk's sweep do it for the
    month just ended)."""
    require(actor, "work_tickets")
    with UnitOfWork(db, actor) as uow:
        made = propose_for_availability_in(uow, period)
        uow.commit()
    return made

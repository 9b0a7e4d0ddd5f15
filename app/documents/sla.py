"""The monthly SLA report of a customer: gathers its data for reports/sla.py (`report sla CUSTOMER
--period YYYY-MM`). Key: "CUSTOMER@YYYY-MM" (the customer by id, credit code or name)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from models import Contract, ContractItem, Customer, Downtime, SlaBreach, SlaCredit, SlaCreditRule, Subsidiary, Ticket
from models.choices import CreditState, SlaMetric, TicketKind, TicketState
from reports.sla import SlaCreditRow, SlaReportDoc, SlaTargetRow, SlaTicketRow

from app.domain.clock import local_text
from app.domain.errors import ValidationError
from app.domain.rating import Period
from app.store.db import Database

UTC = dt.timezone.utc


def _parse_key(key) -> tuple[str, Period]:
    text = str(key or "")
    who, _, period = text.rpartition("@")
    if not who:
        raise ValidationError({"key": "give the customer and the month as CUSTOMER@YYYY-MM"})
    try:
        return who, Period.parse(period)
    except ValueError as exc:
        raise ValidationError({"period": str(exc)}) from None


def _merged_hours(spans: list[tuple[dt.datetime, dt.datetime]]) -> Decimal:
    total, end = 0.0, None
    for lo, hi in sorted(spans):
        if end is not None and lo < end:
            lo = end
        if hi > lo:
            total += (hi - lo).total_seconds()
            end = hi if end is None or hi > end else end
    return (Decimal(total) / 3600).quantize(Decimal("0.01"))


def sla_report_doc(db: Database, key, *, language: str | None = None, now: dt.datetime | None = None) -> SlaReportDoc:
    from app.documents.common import _customer_party, _subsidiary_party
    from app.services.operations.sla import load_rules, sla_states
    from app.services.receivables import find_customer

    lang = language or "zh"
    who, p = _parse_key(key)
    now = now or dt.datetime.now(UTC)
    with db.session() as s:
        cust = find_customer(s, who)
        end = min(p.end, now)
        tickets = list(s.execute(select(Ticket).where(Ticket.customer_id == cust.id, Ticket.opened_at >= p.start,
                                                      Ticket.opened_at < p.end).order_by(Ticket.opened_at)).scalars())
        states = sla_states(s, tickets, end)
        contract = s.execute(select(Contract).where(Contract.customer_id == cust.id)
                             .order_by(Contract.status != "active", Contract.id)).scalars().first()
        sub = s.get(Subsidiary, contract.subsidiary_id) if contract else s.execute(select(Subsidiary)).scalars().first()
        rules = load_rules(s, [contract.id] if contract else [])

        def cell(metric, c):
            if c is None:
                return "—"
            return f"{c.elapsed_minutes}/{c.target_minutes}" + (" ×" if c.state == "breached" else " ✓")
        rows, counts = [], {m: [0, 0] for m in ("ack", "onsite", "resolve")}
        for t in tickets:
            cs = states[t.id].clocks
            for m, c in cs.items():
                counts[m][0] += 1
                counts[m][1] += c.state != "breached"
            rows.append(SlaTicketRow(t.number, t.priority, TicketKind.label(t.kind, lang), t.title,
                                     local_text(t.opened_at)[5:16], TicketState.label(t.state, lang),
                                     cell("ack", cs.get("ack")), cell("onsite", cs.get("onsite")),
                                     cell("resolve", cs.get("resolve"))))
        promised = {}
        for m in ("ack", "onsite", "resolve"):
            parts = []
            for prio in ("P1", "P2", "P3", "P4"):
                got = rules.target(contract.id if contract else None, prio)
                if got and got[0].of(m):
                    parts.append(f"{prio} {got[0].of(m)} min")
            promised[m] = " · ".join(parts) or "—"
        targets = tuple(SlaTargetRow(SlaMetric.label(m, lang), counts[m][0], counts[m][1], promised[m])
                        for m in ("ack", "onsite", "resolve"))
        ids = [t.id for t in tickets]
        numbers = {t.id: t.number for t in tickets}
        breaches = tuple((numbers[b.ticket_id], SlaMetric.label(b.metric, lang), local_text(b.due_at)[:16])
                         for b in s.execute(select(SlaBreach).where(SlaBreach.ticket_id.in_(ids))
                                            .order_by(SlaBreach.due_at)).scalars()) if ids else ()
        credits = tuple(
            SlaCreditRow(tn or "—", desc, CreditState.label(c.state, lang), c.amount)
            for c, desc, tn in s.execute(
                select(SlaCredit, ContractItem.description, Ticket.number)
                .join(ContractItem, ContractItem.id == SlaCredit.contract_item_id)
                .join(Contract, Contract.id == ContractItem.contract_id)
                .outerjoin(Ticket, Ticket.id == SlaCredit.ticket_id)
                .where(Contract.customer_id == cust.id, SlaCredit.period == p.label,
                       SlaCredit.state != CreditState.REJECTED).order_by(SlaCredit.id)).all())
        spans = []
        for number in numbers.values():
            for d in s.execute(select(Downtime).where(Downtime.reason.like(f"{number}:%"))).scalars():
                lo, hi = max(d.start, p.start), min(d.end or end, end)
                if hi > lo:
                    spans.append((lo, hi))
        down = _merged_hours(spans)
        month_h = Decimal((end - p.start).total_seconds()) / 3600 if end > p.start else Decimal(0)
        availability = (f"{(Decimal(100) * (month_h - down) / month_h).quantize(Decimal('0.001'))} %"
                        if month_h else "—")
        rule = s.execute(select(SlaCreditRule).where(SlaCreditRule.contract_id == contract.id)).scalar() \
            if contract else None
        return SlaReportDoc(
            number=f"SLA-{cust.id}-{p.label}", language=lang, period=p.label,
            provider=_subsidiary_party(sub, lang), customer=_customer_party(s, s.get(Customer, cust.id), lang),
            tickets=tuple(rows), targets=targets, breaches=breaches, credits=credits, availability=availability,
            promised_availability=f"{rule.promised_availability} %" if rule and rule.promised_availability else "—",
            down_hours=str(down))

"""The operations desk (issue 24): tickets and their timeline, SLA calendars and targets, breaches,
SLA credits, on-call shifts and notifications. The SLA clock is computed, by app/domain/sla.py, from the
ticket's events (its states and priorities), the calendar and the targets; what the sweep last computed
of an open ticket is kept beside it (ticket_sla_state), for the dashboard's cards, and used only while
the inputs it was computed from are the ticket's and the rules' own."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import (Boolean, CheckConstraint, ForeignKey, Index, Integer, LargeBinary, Numeric, String,
                        Text, UniqueConstraint)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, Money, Versioned, utcnow
from .choices import (CalendarMode, ContactChannel, CreditState, HandsUrgency, NoteVisibility, RemoteTask,
                      SlaMetric, TicketKind, TicketObjectType, TicketPriority, TicketState)


class SlaCalendar(IdMixin, Versioned, Base):
    """7×24, or business hours per weekday; a business calendar follows China's working days
    (holiday_day) when `follows_holidays`."""

    __tablename__ = "sla_calendar"
    name: Mapped[str] = mapped_column(String(64), unique=True)
    mode: Mapped[str] = mapped_column(String(16), default=CalendarMode.ALWAYS)
    # business hours: "mon 09:00-18:00; tue 09:00-18:00; …" (app/domain/sla.parse_hours)
    hours: Mapped[str | None] = mapped_column(String(255))
    follows_holidays: Mapped[bool] = mapped_column(Boolean, default=True)
    __table_args__ = (CheckConstraint(CalendarMode.check_sql("mode"), name="mode"),)


class HolidayDay(Base):
    """A day of the State Council's schedule: a day off (法定节假日) or a make-up working day (调休)."""

    __tablename__ = "holiday_day"
    day: Mapped[dt.date] = mapped_column(primary_key=True)
    off: Mapped[bool] = mapped_column(Boolean)
    name: Mapped[str] = mapped_column(String(32))
    source: Mapped[str | None] = mapped_column(String(255))


class SlaTarget(IdMixin, Versioned, Base):
    """Minutes to acknowledge, arrive on site (到场) and resolve, per priority. A row with a contract
    overrides the default of the contract's service level (rows without a contract)."""

    __tablename__ = "sla_target"
    contract_id: Mapped[int | None] = mapped_column(ForeignKey("contract.id"), index=True)
    service_level: Mapped[str | None] = mapped_column(String(16))
    priority: Mapped[str] = mapped_column(String(2))
    calendar_id: Mapped[int] = mapped_column(ForeignKey("sla_calendar.id"))
    ack_minutes: Mapped[int] = mapped_column(Integer)
    onsite_minutes: Mapped[int | None] = mapped_column(Integer)
    resolve_minutes: Mapped[int] = mapped_column(Integer)
    __table_args__ = (
        UniqueConstraint("contract_id", "service_level", "priority", name="uq_sla_target_scope"),
        CheckConstraint(TicketPriority.check_sql("priority"), name="priority"),
        CheckConstraint("(contract_id IS NULL) <> (service_level IS NULL)", name="scope"),
        CheckConstraint("ack_minutes > 0 AND resolve_minutes > 0 AND (onsite_minutes IS NULL OR onsite_minutes > 0)",
                        name="positive"),
    )


class SlaCreditRule(IdMixin, Versioned, Base):
    """Per breach a percentage of the affected item's monthly fee, capped per month; availability
    below the promised percentage credits the same fee proportionally to the shortfall."""

    __tablename__ = "sla_credit_rule"
    contract_id: Mapped[int] = mapped_column(ForeignKey("contract.id"), unique=True)
    breach_percent: Mapped[Decimal] = mapped_column(Numeric(5, 2))
    monthly_cap_percent: Mapped[Decimal] = mapped_column(Numeric(5, 2))
    promised_availability: Mapped[Decimal | None] = mapped_column(Numeric(6, 3))  # e.g. 99.950
    __table_args__ = (
        CheckConstraint("breach_percent >= 0 AND breach_percent <= 100", name="breach_percent"),
        CheckConstraint("monthly_cap_percent >= 0 AND monthly_cap_percent <= 100", name="cap"),
    )


class Ticket(IdMixin, Versioned, Base):
    __tablename__ = "ticket"
    number: Mapped[str | None] = mapped_column(String(16), unique=True)   # T-2026-000123
    kind: Mapped[str] = mapped_column(String(16), default=TicketKind.INCIDENT)
    state: Mapped[str] = mapped_column(String(20), default=TicketState.NEW)   # indexed by ix_ticket_queue
    priority: Mapped[str] = mapped_column(String(2), default=TicketPriority.P3)
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str | None] = mapped_column(Text)
    customer_id: Mapped[int | None] = mapped_column(ForeignKey("customer.id"), index=True)
    contact_id: Mapped[int | None] = mapped_column(ForeignKey("contact.id"))
    channel: Mapped[str | None] = mapped_column(String(16))
    contract_id: Mapped[int | None] = mapped_column(ForeignKey("contract.id"), index=True)
    site_id: Mapped[int | None] = mapped_column(ForeignKey("site.id"), index=True)
    assignee_id: Mapped[int | None] = mapped_column(ForeignKey("app_user.id"), index=True)
    # remote hands
    task: Mapped[str | None] = mapped_column(String(16))
    urgency: Mapped[str | None] = mapped_column(String(16))
    requested_for: Mapped[dt.datetime | None]
    # inbound shipment
    carrier: Mapped[str | None] = mapped_column(String(64))
    tracking_no: Mapped[str | None] = mapped_column(String(64))
    received_by: Mapped[str | None] = mapped_column(String(64))
    stored_where: Mapped[str | None] = mapped_column(String(128))
    delivered_rack_id: Mapped[int | None] = mapped_column(ForeignKey("rack.id"))
    opened_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
    opened_by: Mapped[str | None] = mapped_column(String(64))
    resolved_at: Mapped[dt.datetime | None]
    closed_at: Mapped[dt.datetime | None]
    escalation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # 1 secondary, 2 site manager
    __table_args__ = (
        CheckConstraint(TicketKind.check_sql("kind"), name="kind"),
        CheckConstraint(TicketState.check_sql("state"), name="state"),
        CheckConstraint(TicketPriority.check_sql("priority"), name="priority"),
        CheckConstraint(f"channel IS NULL OR {ContactChannel.check_sql('channel')}", name="channel"),
        CheckConstraint(f"task IS NULL OR {RemoteTask.check_sql('task')}", name="task"),
        CheckConstraint(f"urgency IS NULL OR {HandsUrgency.check_sql('urgency')}", name="urgency"),
        # the queue's order of the open tickets, answered from the index alone (0039)
        Index("ix_ticket_queue", "state", "priority", "opened_at", "id"),
    )


class TicketObject(IdMixin, Base):
    """What a ticket concerns: any of rack, U range or cage lease, device, GPU, cross-connect, feed, circuit."""

    __tablename__ = "ticket_object"
    ticket_id: Mapped[int] = mapped_column(ForeignKey("ticket.id", ondelete="CASCADE"), index=True)
    object_type: Mapped[str] = mapped_column(String(16))
    object_id: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String(128))
    __table_args__ = (
        UniqueConstraint("ticket_id", "object_type", "object_id", name="uq_ticket_object"),
        CheckConstraint(TicketObjectType.check_sql("object_type"), name="object_type"),
        Index("ix_ticket_object_target", "object_type", "object_id"),
    )


class TicketEvent(IdMixin, Base):
    """The timeline: each state move, priority change, note, assignment, attachment, escalation.
    The SLA clock is computed from the state and priority events (never from a stored counter)."""

    __tablename__ = "ticket_event"
    ticket_id: Mapped[int] = mapped_column(ForeignKey("ticket.id", ondelete="CASCADE"), index=True)
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    actor: Mapped[str | None] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))  # open, state, priority, note, assign, attach, escalate, sla
    from_value: Mapped[str | None] = mapped_column(String(64))
    to_value: Mapped[str | None] = mapped_column(String(64))
    note: Mapped[str | None] = mapped_column(Text)
    visibility: Mapped[str] = mapped_column(String(16), default=NoteVisibility.INTERNAL)
    __table_args__ = (
        CheckConstraint(NoteVisibility.check_sql("visibility"), name="visibility"),
        # the SLA clocks' read of the state and priority events, answered from the index alone (0038)
        Index("ix_ticket_event_clock", "ticket_id", "kind", "at", "id", "from_value", "to_value"),
    )


class TicketAttachment(IdMixin, Base):
    __tablename__ = "ticket_attachment"
    ticket_id: Mapped[int] = mapped_column(ForeignKey("ticket.id", ondelete="CASCADE"), index=True)
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str | None] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    data: Mapped[bytes] = mapped_column(LargeBinary, deferred=True)
    added_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    added_by: Mapped[str | None] = mapped_column(String(64))


class SlaBreach(IdMixin, Base):
    """A target missed, recorded by the sweep (app/services/operations/sla.check_sla) when it happens."""

    __tablename__ = "sla_breach"
    ticket_id: Mapped[int] = mapped_column(ForeignKey("ticket.id", ondelete="CASCADE"), index=True)
    metric: Mapped[str] = mapped_column(String(16))
    priority: Mapped[str] = mapped_column(String(2))
    due_at: Mapped[dt.datetime]
    recorded_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    __table_args__ = (
        UniqueConstraint("ticket_id", "metric", name="uq_sla_breach_ticket_metric"),
        CheckConstraint(SlaMetric.check_sql("metric"), name="metric"),
    )


class SlaRulesGeneration(Base):
    """One row whose number the database moves on every write that can change an SLA clock other than
    the ticket's own (triggers of migration 0041: China's days, calendars, targets, coverage, planned
    maintenance and its impact, the settings, a contract's subsidiary or customer, a customer's region):
    a ticket_sla_state computed under another number is not used."""

    __tablename__ = "sla_rules_generation"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    n: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class TicketSlaState(Base):
    """What the sweep (app/services/operations/sla.check_sla) computed of an open ticket's clocks, with
    the inputs it computed them from: used (app/services/operations/queue.desk_counts) only while the
    ticket's priority, state, contract and last state or priority event are these, the rules'
    generation is this one and `valid_until` (the next planned maintenance of its contract; the
    computing instant while one runs) has not come; otherwise the clocks are computed again.
    Derived, not audited (app/audit/reconcile.NOT_BUSINESS)."""

    __tablename__ = "ticket_sla_state"
    ticket_id: Mapped[int] = mapped_column(ForeignKey("ticket.id", ondelete="CASCADE"), primary_key=True)
    generation: Mapped[int] = mapped_column(Integer)
    last_event_id: Mapped[int] = mapped_column(Integer)         # 0: no state or priority event yet
    priority: Mapped[str] = mapped_column(String(2))
    state: Mapped[str] = mapped_column(String(20))
    contract_id: Mapped[int | None] = mapped_column(Integer)
    next_due: Mapped[dt.datetime | None]                       # of the clock that runs out first
    breached: Mapped[bool] = mapped_column(Boolean)            # some clock had run out
    valid_until: Mapped[dt.datetime | None]
    computed_at: Mapped[dt.datetime]


class SlaCredit(IdMixin, Versioned, Base):
    """A service credit proposed by a breach (or a month's availability), approved by an
    administrator other than the proposer, billed as a `sla_credit` line of its period."""

    __tablename__ = "sla_credit"
    contract_item_id: Mapped[int] = mapped_column(ForeignKey("contract_item.id"), index=True)
    ticket_id: Mapped[int | None] = mapped_column(ForeignKey("ticket.id"), index=True)
    breach_id: Mapped[int | None] = mapped_column(ForeignKey("sla_breach.id"), unique=True)
    period: Mapped[str] = mapped_column(String(7), index=True)  # the statement month it goes on
    percent: Mapped[Decimal] = mapped_column(Numeric(7, 3))
    amount: Mapped[Decimal] = mapped_column(Money())            # positive: what the customer is credited
    reason: Mapped[str] = mapped_column(String(255))
    state: Mapped[str] = mapped_column(String(16), default=CreditState.PROPOSED, index=True)
    proposed_by: Mapped[str | None] = mapped_column(String(64))
    proposed_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    decided_by: Mapped[str | None] = mapped_column(String(64))
    decided_at: Mapped[dt.datetime | None]
    __table_args__ = (
        CheckConstraint(CreditState.check_sql("state"), name="state"),
        CheckConstraint("amount >= 0", name="amount"),
    )


class OncallShift(IdMixin, Versioned, Base):
    """Who is on call for a site (or a region) in the week starting `week_start` (a Monday, Shanghai)."""

    __tablename__ = "oncall_shift"
    site_id: Mapped[int | None] = mapped_column(ForeignKey("site.id"), index=True)
    region_code: Mapped[str | None] = mapped_column(ForeignKey("region.code"))
    week_start: Mapped[dt.date] = mapped_column(index=True)
    primary_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"))
    secondary_id: Mapped[int | None] = mapped_column(ForeignKey("app_user.id"))
    manager_id: Mapped[int | None] = mapped_column(ForeignKey("app_user.id"))   # the site manager
    phone: Mapped[str | None] = mapped_column(String(32))
    handover_note: Mapped[str | None] = mapped_column(Text)
    __table_args__ = (
        UniqueConstraint("site_id", "region_code", "week_start", name="uq_oncall_scope_week"),
        CheckConstraint("site_id IS NOT NULL OR region_code IS NOT NULL", name="scope"),
    )


class Notification(IdMixin, Base):
    """Who was told what, when and why (the console shows it to its recipient; a Notifier may also
    send it elsewhere: app/services/operations/oncall.NOTIFIERS)."""

    __tablename__ = "notification"
    user_id: Mapped[int] = mapped_column(ForeignKey("app_user.id"), index=True)
    ticket_id: Mapped[int | None] = mapped_column(ForeignKey("ticket.id", ondelete="CASCADE"), index=True)
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    reason: Mapped[str] = mapped_column(String(32))
    message: Mapped[str] = mapped_column(String(500))
    channel: Mapped[str] = mapped_column(String(16), default="console")
    seen_at: Mapped[dt.datetime | None]

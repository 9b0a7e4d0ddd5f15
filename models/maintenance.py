"""The operations desk's maintenance windows (with the impact worked out from the power chain and
the leases) and site access (authorised contacts, visit requests, visitors checked in and out).
The rules live in app/services/operations/maintenance.py and visits.py."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, CheckConstraint, Column, ForeignKey, Integer, String, Table, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, Versioned, utcnow
from .choices import IdType, ImpactLevel, MaintenanceState, MaintenanceTarget, VisitState


class MaintenanceWindow(IdMixin, Versioned, Base):
    """Planned (or emergency) work on one object of a site: a feed, a panel, the panels behind one
    UPS, a PDU, a rack, a device, a cross-connect, or a room's cooling."""
    __tablename__ = "maintenance_window"
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id"), index=True)
    title: Mapped[str] = mapped_column(String(255))
    description: Mapped[str | None] = mapped_column(Text)
    target_kind: Mapped[str] = mapped_column(String(16))
    power_feed_id: Mapped[int | None] = mapped_column(ForeignKey("power_feed.id"), index=True)
    power_panel_id: Mapped[int | None] = mapped_column(ForeignKey("power_panel.id"), index=True)
    ups: Mapped[str | None] = mapped_column(String(64))  # the UPS named on the site's panels
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id"), index=True)  # a PDU or a device
    rack_id: Mapped[int | None] = mapped_column(ForeignKey("rack.id"), index=True)
    cross_connect_id: Mapped[int | None] = mapped_column(ForeignKey("cross_connect.id"), index=True)
    room_id: Mapped[int | None] = mapped_column(ForeignKey("room.id"), index=True)  # a room's cooling
    planned_start: Mapped[dt.datetime] = mapped_column(index=True)
    planned_end: Mapped[dt.datetime]
    state: Mapped[str] = mapped_column(String(16), default=MaintenanceState.TENTATIVE, index=True)
    emergency: Mapped[bool] = mapped_column(Boolean, default=False)
    emergency_reason: Mapped[str | None] = mapped_column(Text)
    noticed_at: Mapped[dt.datetime | None]  # when the customers were given notice (at confirm)
    actual_start: Mapped[dt.datetime | None]
    actual_end: Mapped[dt.datetime | None]
    rescheduled_to_id: Mapped[int | None] = mapped_column(ForeignKey("maintenance_window.id"))
    contact: Mapped[str | None] = mapped_column(String(128))  # whom customers call (name, phone)
    __table_args__ = (
        CheckConstraint(MaintenanceTarget.check_sql("target_kind"), name="target_kind"),
        CheckConstraint(MaintenanceState.check_sql("state"), name="state"),
        CheckConstraint("planned_end > planned_start", name="window"),
        CheckConstraint("NOT emergency OR emergency_reason IS NOT NULL", name="emergency_reason"),
    )


class MaintenanceImpact(IdMixin, Base):
    """Who is affected by a window and how: one row per customer and object, worked out from the
    power chain, devices, leases, cages and cross-connects (never typed), kept as of the last
    computation (planning, confirming, rescheduling)."""
    __tablename__ = "maintenance_impact"
    maintenance_id: Mapped[int] = mapped_column(ForeignKey("maintenance_window.id"), index=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    object_type: Mapped[str] = mapped_column(String(16))  # rack, device, cross_connect
    object_id: Mapped[int] = mapped_column(Integer)
    object_label: Mapped[str] = mapped_column(String(128))
    impact: Mapped[str] = mapped_column(String(24))
    contract_id: Mapped[int | None] = mapped_column(ForeignKey("contract.id"), index=True)
    why: Mapped[str | None] = mapped_column(String(255))
    __table_args__ = (CheckConstraint(ImpactLevel.check_sql("impact"), name="impact"),)


class SiteAccess(IdMixin, Versioned, Base):
    """A customer's contact authorised to enter a site (the customer's leased space there), or one cage."""
    __tablename__ = "site_access"
    contact_id: Mapped[int] = mapped_column(ForeignKey("contact.id"), index=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id"), index=True)
    cage_id: Mapped[int | None] = mapped_column(ForeignKey("cage.id"), index=True)  # NULL: all its space at the site
    valid_from: Mapped[dt.date]
    valid_to: Mapped[dt.date | None]
    revoked_at: Mapped[dt.datetime | None]
    note: Mapped[str | None] = mapped_column(String(255))
    __table_args__ = (CheckConstraint("valid_to IS NULL OR valid_to >= valid_from", name="dates"),)


visit_rack = Table(
    "visit_rack", Base.metadata,
    Column("visit_id", ForeignKey("visit.id"), primary_key=True),
    Column("rack_id", ForeignKey("rack.id"), primary_key=True, index=True),
)


class Visit(IdMixin, Versioned, Base):
    """A visit request: a customer's people to its racks or cage in a window, escorted or not."""
    __tablename__ = "visit"
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id"), index=True)
    contact_id: Mapped[int] = mapped_column(ForeignKey("contact.id"), index=True)  # who answers for it
    cage_id: Mapped[int | None] = mapped_column(ForeignKey("cage.id"), index=True)
    purpose: Mapped[str] = mapped_column(String(255))
    window_start: Mapped[dt.datetime] = mapped_column(index=True)
    window_end: Mapped[dt.datetime]
    escort_needed: Mapped[bool] = mapped_column(Boolean, default=False)
    state: Mapped[str] = mapped_column(String(16), default=VisitState.REQUESTED, index=True)
    requested_by: Mapped[str | None] = mapped_column(String(64))
    requested_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    approved_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (
        CheckConstraint(VisitState.check_sql("state"), name="state"),
        CheckConstraint("window_end > window_start", name="window"),
    )


class Visitor(IdMixin, Versioned, Base):
    """One person of a visit, identified by real name and ID; checked in with a badge and out."""
    __tablename__ = "visitor"
    visit_id: Mapped[int] = mapped_column(ForeignKey("visit.id"), index=True)
    contact_id: Mapped[int | None] = mapped_column(ForeignKey("contact.id"))  # when the visitor is a contact
    name: Mapped[str] = mapped_column(String(64))
    id_type: Mapped[str] = mapped_column(String(16), default=IdType.RESIDENT)
    id_number: Mapped[str] = mapped_column(String(32))
    company: Mapped[str | None] = mapped_column(String(128))
    badge: Mapped[str | None] = mapped_column(String(32))
    checked_in_at: Mapped[dt.datetime | None] = mapped_column(index=True)
    checked_in_by: Mapped[str | None] = mapped_column(String(64))
    checked_out_at: Mapped[dt.datetime | None]
    checked_out_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (
        CheckConstraint(IdType.check_sql("id_type"), name="id_type"),
        CheckConstraint("checked_out_at IS NULL OR (checked_in_at IS NOT NULL AND checked_out_at >= checked_in_at)",
                        name="checked_out"),
    )

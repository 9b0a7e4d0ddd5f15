"""The power chain: panels, feeds (circuits), PDUs fed by feeds, supplies plugged into outlets,
and per-circuit meter readings. Field names and choices follow NetBox's dcim power models
(PowerPanel: site, location, name; PowerFeed: power_panel, rack, name, status, type, supply,
phase, voltage, amperage, max_utilization). The rules live in app/services/power.py."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Integer, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, Versioned
from .choices import PowerFeedStatus, PowerFeedType, PowerPhase, PowerSide, PowerSupply


class PowerPanel(IdMixin, Versioned, Base):
    """A distribution panel (列头柜 / RPP) of a site, optionally in a room, with the UPS behind it."""
    __tablename__ = "power_panel"
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id"), index=True)
    room_id: Mapped[int | None] = mapped_column(ForeignKey("room.id"), index=True)  # NetBox's location
    name: Mapped[str] = mapped_column(String(64))
    voltage: Mapped[int] = mapped_column(Integer, default=220)
    phase: Mapped[str] = mapped_column(String(16), default=PowerPhase.SINGLE)
    amperage: Mapped[int] = mapped_column(Integer, default=250)  # the panel's main breaker
    ups: Mapped[str | None] = mapped_column(String(64))  # the UPS (or source) behind it
    comments: Mapped[str | None] = mapped_column(Text)
    __table_args__ = (
        UniqueConstraint("site_id", "name", name="uq_power_panel_site_name"),
        CheckConstraint(PowerPhase.check_sql("phase"), name="phase"),
        CheckConstraint("voltage > 0 AND amperage > 0", name="ratings"),
    )


class PowerFeed(IdMixin, Versioned, Base):
    """One circuit from a panel's breaker to a rack: its amperage is the breaker rating."""
    __tablename__ = "power_feed"
    power_panel_id: Mapped[int] = mapped_column(ForeignKey("power_panel.id"), index=True)
    rack_id: Mapped[int | None] = mapped_column(ForeignKey("rack.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    side: Mapped[str] = mapped_column(String(1), default=PowerSide.A)
    status: Mapped[str] = mapped_column(String(16), default=PowerFeedStatus.ACTIVE)
    type: Mapped[str] = mapped_column(String(16), default=PowerFeedType.PRIMARY)
    supply: Mapped[str] = mapped_column(String(8), default=PowerSupply.AC)
    phase: Mapped[str] = mapped_column(String(16), default=PowerPhase.SINGLE)
    voltage: Mapped[int] = mapped_column(Integer, default=220)
    amperage: Mapped[int] = mapped_column(Integer, default=32)
    max_utilization: Mapped[int] = mapped_column(Integer, default=80)  # percent, as in NetBox
    # The contract item that sells this circuit (kind power); NULL: not sold.
    contract_item_id: Mapped[int | None] = mapped_column(ForeignKey("contract_item.id"), index=True)
    comments: Mapped[str | None] = mapped_column(Text)
    __table_args__ = (
        UniqueConstraint("power_panel_id", "name", name="uq_power_feed_power_panel_id"),
        CheckConstraint(PowerSide.check_sql("side"), name="side"),
        CheckConstraint(PowerFeedStatus.check_sql("status"), name="status"),
        CheckConstraint(PowerFeedType.check_sql("type"), name="type"),
        CheckConstraint(PowerSupply.check_sql("supply"), name="supply"),
        CheckConstraint(PowerPhase.check_sql("phase"), name="phase"),
        CheckConstraint("voltage > 0 AND amperage > 0", name="ratings"),
        CheckConstraint("max_utilization BETWEEN 1 AND 100", name="max_utilization"),
    )


class PduFeed(IdMixin, Versioned, Base):
    """A PDU (a device whose type has role pdu) and the feed its inlet is plugged into."""
    __tablename__ = "pdu_feed"
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id"), unique=True)
    power_feed_id: Mapped[int] = mapped_column(ForeignKey("power_feed.id"), index=True)
    outlets: Mapped[int] = mapped_column(Integer, default=24)
    __table_args__ = (CheckConstraint("outlets BETWEEN 1 AND 96", name="outlets"),)


class PowerConnection(IdMixin, Versioned, Base):
    """A device's power supply (port, e.g. PSU1) plugged into an outlet of a PDU."""
    __tablename__ = "power_connection"
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id"), index=True)
    port: Mapped[str] = mapped_column(String(32))
    pdu_id: Mapped[int] = mapped_column(ForeignKey("pdu_feed.id"), index=True)
    outlet: Mapped[int] = mapped_column(Integer)
    __table_args__ = (
        UniqueConstraint("device_id", "port", name="uq_power_connection_device_id"),
        UniqueConstraint("pdu_id", "outlet", name="uq_power_connection_pdu_id"),
        CheckConstraint("outlet >= 1", name="outlet"),
    )


class CircuitReading(IdMixin, Base):
    """A cumulative kWh reading of one circuit's meter (as the rack meters' meter_reading)."""
    __tablename__ = "circuit_reading"
    power_feed_id: Mapped[int] = mapped_column(ForeignKey("power_feed.id"))
    read_at: Mapped[dt.datetime]
    kwh_total: Mapped[Decimal] = mapped_column(Numeric(14, 3))
    __table_args__ = (UniqueConstraint("power_feed_id", "read_at", name="uq_circuit_reading_power_feed_id"),)

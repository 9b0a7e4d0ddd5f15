"""Cables between device ports, and cross-connects sold to customers through the meet-me room."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, Versioned
from .choices import CableEnd, CableStatus, CableType, LengthUnit, XconnectMedium, XconnectPeer, XconnectState


class Cable(IdMixin, Versioned, Base):
    """A physical cable between two device ports, as NetBox records it (side A, side B).

    Ports are not modelled as rows: a side is a device, what the port is (an interface, a
    front or rear port of a patch panel) and the port's name. A port takes one cable.
    """
    __tablename__ = "cable"
    side_a_device_id: Mapped[int] = mapped_column(ForeignKey("device.id"), index=True)
    side_a_type: Mapped[str] = mapped_column(String(32), default=CableEnd.INTERFACE)
    side_a_name: Mapped[str] = mapped_column(String(64))
    side_b_device_id: Mapped[int] = mapped_column(ForeignKey("device.id"), index=True)
    side_b_type: Mapped[str] = mapped_column(String(32), default=CableEnd.INTERFACE)
    side_b_name: Mapped[str] = mapped_column(String(64))
    type: Mapped[str | None] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default=CableStatus.CONNECTED)
    label: Mapped[str | None] = mapped_column(String(64), unique=True)
    color: Mapped[str | None] = mapped_column(String(6))  # hex RGB without '#', as NetBox
    length: Mapped[Decimal | None] = mapped_column(Numeric(8, 2))
    length_unit: Mapped[str | None] = mapped_column(String(2))
    __table_args__ = (
        UniqueConstraint("side_a_device_id", "side_a_type", "side_a_name", name="uq_cable_side_a"),
        UniqueConstraint("side_b_device_id", "side_b_type", "side_b_name", name="uq_cable_side_b"),
        CheckConstraint(CableEnd.check_sql("side_a_type"), name="side_a_type"),
        CheckConstraint(CableEnd.check_sql("side_b_type"), name="side_b_type"),
        CheckConstraint("type IS NULL OR " + CableType.check_sql("type"), name="type"),
        CheckConstraint(CableStatus.check_sql("status"), name="status"),
        CheckConstraint("length_unit IS NULL OR " + LengthUnit.check_sql("length_unit"), name="length_unit"),
        CheckConstraint("length IS NULL OR (length > 0 AND length_unit IS NOT NULL)", name="length"),
    )


class CrossConnect(IdMixin, Versioned, Base):
    """A customer's port (rack, panel, port) linked through the meet-me room (MMR) to a carrier,
    a cloud on-ramp or another customer. States ordered → installed → active → disconnected
    (XconnectState.TRANSITIONS), each with its date; billed through its contract item from the
    installed date to the disconnected date (app/services/xconnects.py)."""
    __tablename__ = "cross_connect"
    reference: Mapped[str] = mapped_column(String(32), unique=True)  # XC-000123
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    rack_id: Mapped[int] = mapped_column(ForeignKey("rack.id"), index=True)
    panel: Mapped[str] = mapped_column(String(64))
    port: Mapped[str] = mapped_column(String(32))
    mmr_panel: Mapped[str | None] = mapped_column(String(64))  # the meet-me room's ODF / patch panel
    mmr_port: Mapped[str | None] = mapped_column(String(32))
    peer_kind: Mapped[str] = mapped_column(String(16))
    peer_name: Mapped[str | None] = mapped_column(String(128))  # the carrier or cloud (another customer: its name)
    peer_customer_id: Mapped[int | None] = mapped_column(ForeignKey("customer.id"), index=True)
    peer_port: Mapped[str | None] = mapped_column(String(64))  # the Z end's demarcation (panel/port)
    medium: Mapped[str] = mapped_column(String(16))
    state: Mapped[str] = mapped_column(String(16), default=XconnectState.ORDERED, index=True)
    circuit_id: Mapped[str | None] = mapped_column(String(64), index=True)  # the carrier's circuit id
    ordered_date: Mapped[dt.date]
    installed_date: Mapped[dt.date | None]
    active_date: Mapped[dt.date | None]
    disconnected_date: Mapped[dt.date | None]
    work_note: Mapped[str | None] = mapped_column(Text)
    contract_item_id: Mapped[int | None] = mapped_column(ForeignKey("contract_item.id"), index=True)
    __table_args__ = (
        CheckConstraint(XconnectPeer.check_sql("peer_kind"), name="peer_kind"),
        CheckConstraint(XconnectMedium.check_sql("medium"), name="medium"),
        CheckConstraint(XconnectState.check_sql("state"), name="state"),
        CheckConstraint("peer_kind <> 'customer' OR peer_customer_id IS NOT NULL", name="peer_customer"),
        CheckConstraint("peer_kind = 'customer' OR peer_name IS NOT NULL", name="peer_name"),
        CheckConstraint("installed_date IS NULL OR installed_date >= ordered_date", name="installed_after_order"),
        CheckConstraint("active_date IS NULL OR (installed_date IS NOT NULL AND active_date >= installed_date)",
                        name="active_after_install"),
        CheckConstraint("disconnected_date IS NULL OR disconnected_date >= ordered_date", name="disconnected_dates"),
    )

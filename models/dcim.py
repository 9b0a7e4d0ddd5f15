"""Racks, reservations, device types and devices."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, Integer, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, IdMixin, Versioned, pg_trigram_index
from .choices import DeviceRole, DeviceStatus, Face, RackStatus, ReservationStatus
from .org import Room


class Rack(IdMixin, Versioned, Base):
    __tablename__ = "rack"
    room_id: Mapped[int] = mapped_column(ForeignKey("room.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    u_height: Mapped[int] = mapped_column(Integer, default=42)
    power_capacity_kw: Mapped[Decimal] = mapped_column(Numeric(8, 2), default=Decimal("8"))
    # The feed's hard limit; typical draw above capacity needs an override, above this never.
    breaker_limit_kw: Mapped[Decimal | None] = mapped_column(Numeric(8, 2))
    status: Mapped[str] = mapped_column(String(16), default=RackStatus.AVAILABLE, index=True)
    asset_tag: Mapped[str | None] = mapped_column(String(64), unique=True)
    customer_id: Mapped[int | None] = mapped_column(ForeignKey("customer.id"), index=True)
    grid_row: Mapped[int | None] = mapped_column(Integer)
    grid_col: Mapped[int | None] = mapped_column(Integer)
    cage_id: Mapped[int | None] = mapped_column(ForeignKey("cage.id"), index=True)
    room: Mapped[Room] = relationship(lazy="joined")
    __table_args__ = (
        UniqueConstraint("room_id", "name", name="uq_rack_room_name"),
        CheckConstraint("u_height BETWEEN 1 AND 60", name="u_height"),
        CheckConstraint("power_capacity_kw >= 0", name="power_nonneg"),
        CheckConstraint(RackStatus.check_sql("status"), name="status"),
    )


class Cage(IdMixin, Versioned, Base):
    """A named set of racks in one room, leased as one unit (racks join it by `Rack.cage_id`)."""
    __tablename__ = "cage"
    room_id: Mapped[int] = mapped_column(ForeignKey("room.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    note: Mapped[str | None] = mapped_column(String(255))
    __table_args__ = (UniqueConstraint("room_id", "name", name="uq_cage_room_name"),)


class SpaceLease(IdMixin, Versioned, Base):
    """Units of one rack leased to one customer for a period (end inclusive; NULL = open).

    A whole rack is U1..u_height on both faces (face NULL); a cage lease is one row per rack of
    the cage with `cage_id` set. Rows come from contract items at activation, or from imports.
    """
    __tablename__ = "space_lease"
    rack_id: Mapped[int] = mapped_column(ForeignKey("rack.id"), index=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    face: Mapped[str | None] = mapped_column(String(8))  # NULL: both faces
    u_from: Mapped[int] = mapped_column(Integer)
    u_to: Mapped[int] = mapped_column(Integer)
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date | None]
    cage_id: Mapped[int | None] = mapped_column(ForeignKey("cage.id"), index=True)
    contract_item_id: Mapped[int | None] = mapped_column(ForeignKey("contract_item.id"), index=True)
    note: Mapped[str | None] = mapped_column(String(255))
    __table_args__ = (
        CheckConstraint("u_from >= 1 AND u_to >= u_from", name="units"),
        CheckConstraint("end_date IS NULL OR end_date >= start_date", name="dates"),
        CheckConstraint("face IS NULL OR " + Face.check_sql("face"), name="face"),
    )


class RackReservation(IdMixin, Versioned, Base):
    __tablename__ = "rack_reservation"
    rack_id: Mapped[int] = mapped_column(ForeignKey("rack.id"), index=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    face: Mapped[str] = mapped_column(String(8), default=Face.FRONT)
    u_from: Mapped[int] = mapped_column(Integer)
    u_to: Mapped[int] = mapped_column(Integer)
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date | None]
    status: Mapped[str] = mapped_column(String(16), default=ReservationStatus.ACTIVE)
    note: Mapped[str | None] = mapped_column(String(255))
    __table_args__ = (
        CheckConstraint("u_from >= 1 AND u_to >= u_from", name="units"),
        CheckConstraint("end_date IS NULL OR end_date >= start_date", name="dates"),
        CheckConstraint(Face.check_sql("face"), name="face"),
        CheckConstraint(ReservationStatus.check_sql("status"), name="status"),
    )


class DeviceType(IdMixin, Versioned, Base):
    __tablename__ = "device_type"
    manufacturer: Mapped[str] = mapped_column(String(64))
    model: Mapped[str] = mapped_column(String(128))
    slug: Mapped[str] = mapped_column(String(128), unique=True)
    part_number: Mapped[str | None] = mapped_column(String(64))
    u_height: Mapped[Decimal] = mapped_column(Numeric(4, 1), default=Decimal(1))
    is_full_depth: Mapped[bool] = mapped_column(Boolean, default=True)
    airflow: Mapped[str | None] = mapped_column(String(16))
    weight_kg: Mapped[Decimal | None] = mapped_column(Numeric(8, 2))
    max_power_w: Mapped[int | None] = mapped_column(Integer)
    typical_power_w: Mapped[int | None] = mapped_column(Integer)
    gpu_slots: Mapped[int] = mapped_column(Integer, default=0)
    gpu_model_id: Mapped[int | None] = mapped_column(ForeignKey("gpu_model.id"))
    role: Mapped[str] = mapped_column(String(16), default=DeviceRole.SERVER)
    power_flag: Mapped[str | None] = mapped_column(String(255))
    comments: Mapped[str | None] = mapped_column(Text)
    __table_args__ = (
        CheckConstraint("u_height >= 0 AND u_height * 2 = CAST(u_height * 2 AS INTEGER)", name="u_height_half"),
        CheckConstraint("gpu_slots >= 0", name="gpu_slots"),
        CheckConstraint(DeviceRole.check_sql("role"), name="role"),
        # NetBox's dcim_devicetype_unique_manufacturer_model (migration 0026)
        UniqueConstraint("manufacturer", "model", name="uq_device_type_manufacturer_model"),
    )

    @property
    def label(self) -> str:
        return f"{self.manufacturer} {self.model}"


class Device(IdMixin, Versioned, Base):
    __tablename__ = "device"
    name: Mapped[str] = mapped_column(String(128), index=True)
    serial: Mapped[str | None] = mapped_column(String(64), index=True)
    asset_tag: Mapped[str | None] = mapped_column(String(64), unique=True)
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_type.id"), index=True)
    owner_customer_id: Mapped[int | None] = mapped_column(ForeignKey("customer.id"), index=True)
    rack_id: Mapped[int | None] = mapped_column(ForeignKey("rack.id"), index=True)
    position: Mapped[Decimal | None] = mapped_column(Numeric(4, 1))
    face: Mapped[str | None] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(16), default=DeviceStatus.ACTIVE, index=True)
    notes: Mapped[str | None] = mapped_column(Text)
    device_type: Mapped[DeviceType] = relationship(lazy="joined")
    __table_args__ = (
        CheckConstraint("position IS NULL OR position >= 1", name="position"),
        CheckConstraint("face IS NULL OR " + Face.check_sql("face"), name="face"),
        CheckConstraint(DeviceStatus.check_sql("status"), name="status"),
        # Performance (migration 0003): contains-filters and search on PostgreSQL.
        Index("ix_device_name_trgm", "name", postgresql_using="gin", postgresql_ops={"name": "gin_trgm_ops"}),
        # and on serials and asset tags (migration 0004): the device filter and the global search
        pg_trigram_index("ix_device_serial_trgm", "serial"),
        pg_trigram_index("ix_device_asset_tag_trgm", "asset_tag"),
    )

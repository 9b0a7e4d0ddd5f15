"""Regions, subsidiaries, sites, coverage and rooms."""
from __future__ import annotations

from decimal import Decimal

from sqlalchemy import CheckConstraint, ForeignKey, Integer, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, IdMixin, Versioned
from .choices import Cooling, ServiceLevel, SiteStatus


class Region(Versioned, Base):
    """GB/T 2260 division: level 1 province, 2 prefecture city, 3 district/county."""

    __tablename__ = "region"
    code: Mapped[str] = mapped_column(String(6), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    level: Mapped[int] = mapped_column(Integer)
    parent_code: Mapped[str | None] = mapped_column(ForeignKey("region.code"), index=True)
    __table_args__ = (CheckConstraint("level IN (1, 2, 3)", name="level"),)


class Subsidiary(IdMixin, Versioned, Base):
    __tablename__ = "subsidiary"
    code: Mapped[str] = mapped_column(String(8), unique=True)
    name: Mapped[str] = mapped_column(String(128))
    name_en: Mapped[str | None] = mapped_column(String(128))
    credit_code: Mapped[str] = mapped_column(String(18), unique=True)
    address: Mapped[str | None] = mapped_column(String(255))
    address_en: Mapped[str | None] = mapped_column(String(255))  # English documents; empty: `address`
    phone: Mapped[str | None] = mapped_column(String(32))
    bank_name: Mapped[str | None] = mapped_column(String(128))
    bank_name_en: Mapped[str | None] = mapped_column(String(128))  # English documents; empty: `bank_name`
    bank_account: Mapped[str | None] = mapped_column(String(64))
    region_code: Mapped[str | None] = mapped_column(ForeignKey("region.code"))


class Site(IdMixin, Versioned, Base):
    __tablename__ = "site"
    code: Mapped[str] = mapped_column(String(16), unique=True)
    name: Mapped[str] = mapped_column(String(128))
    slug: Mapped[str | None] = mapped_column(String(100), unique=True)  # NetBox's slug (migration 0026)
    subsidiary_id: Mapped[int] = mapped_column(ForeignKey("subsidiary.id"), index=True)
    region_code: Mapped[str] = mapped_column(ForeignKey("region.code"), index=True)
    address: Mapped[str | None] = mapped_column(String(255))
    latitude: Mapped[Decimal | None] = mapped_column(Numeric(9, 6))
    longitude: Mapped[Decimal | None] = mapped_column(Numeric(9, 6))
    status: Mapped[str] = mapped_column(String(16), default=SiteStatus.ACTIVE)
    cooling: Mapped[str] = mapped_column(String(8), default=Cooling.AIR)
    power_capacity_kw: Mapped[Decimal] = mapped_column(Numeric(10, 2), default=Decimal(0))
    subsidiary: Mapped[Subsidiary] = relationship(lazy="joined")
    __table_args__ = (
        CheckConstraint(SiteStatus.check_sql("status"), name="status"),
        CheckConstraint(Cooling.check_sql("cooling"), name="cooling"),
        CheckConstraint("power_capacity_kw >= 0", name="power_nonneg"),
    )


class Coverage(IdMixin, Versioned, Base):
    __tablename__ = "coverage"
    subsidiary_id: Mapped[int] = mapped_column(ForeignKey("subsidiary.id"), index=True)
    site_id: Mapped[int | None] = mapped_column(ForeignKey("site.id"), index=True)
    region_code: Mapped[str] = mapped_column(ForeignKey("region.code"), index=True)
    service_level: Mapped[str] = mapped_column(String(16), default=ServiceLevel.ONSITE)
    response_hours: Mapped[int] = mapped_column(Integer, default=4)
    __table_args__ = (
        UniqueConstraint("subsidiary_id", "region_code", "site_id", name="uq_coverage_scope"),
        CheckConstraint(ServiceLevel.check_sql("service_level"), name="service_level"),
        CheckConstraint("response_hours > 0", name="response_positive"),
    )


class Room(IdMixin, Versioned, Base):
    __tablename__ = "room"
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    cooling: Mapped[str] = mapped_column(String(8), default=Cooling.AIR)
    power_capacity_kw: Mapped[Decimal] = mapped_column(Numeric(10, 2), default=Decimal(0))
    cooling_capacity_kw: Mapped[Decimal] = mapped_column(Numeric(10, 2), default=Decimal(0))
    grid_rows: Mapped[int] = mapped_column(Integer, default=10)
    grid_cols: Mapped[int] = mapped_column(Integer, default=20)
    notes: Mapped[str | None] = mapped_column(Text)
    site: Mapped[Site] = relationship(lazy="joined")
    __table_args__ = (
        UniqueConstraint("site_id", "name", name="uq_room_site_name"),
        CheckConstraint(Cooling.check_sql("cooling"), name="cooling"),
    )

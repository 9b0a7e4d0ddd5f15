"""Statements, their lines, numbering counters, meter readings, leases and downtime."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import (CheckConstraint, ForeignKey, Index, Integer, Numeric, String, Text, UniqueConstraint, event, func,
                        select, type_coerce, update)
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship

from .base import Base, IdMixin, Money, UTCDateTime, Versioned, utcnow
from .gpu import GpuAsset
from .choices import RATE_CATEGORIES, StatementKind, StatementStatus


class TaxRate(IdMixin, Base):
    __tablename__ = "tax_rate"
    category: Mapped[str] = mapped_column(String(20))
    rate: Mapped[Decimal] = mapped_column(Numeric(5, 4))
    valid_from: Mapped[dt.date]
    __table_args__ = (
        UniqueConstraint("category", "valid_from", name="uq_tax_rate_category_from"),
        CheckConstraint(f"category IN ({', '.join(repr(v) for v in RATE_CATEGORIES)})", name="category"),
    )


class Statement(IdMixin, Versioned, Base):
    __tablename__ = "statement"
    number: Mapped[str | None] = mapped_column(String(32), unique=True)
    kind: Mapped[str] = mapped_column(String(16), default=StatementKind.STATEMENT)
    subsidiary_id: Mapped[int] = mapped_column(ForeignKey("subsidiary.id"), index=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    period: Mapped[str] = mapped_column(String(7), index=True)  # YYYY-MM
    status: Mapped[str] = mapped_column(String(16), default=StatementStatus.DRAFT, index=True)
    subtotal: Mapped[Decimal] = mapped_column(Money(), default=Decimal(0))
    tax: Mapped[Decimal] = mapped_column(Money(), default=Decimal(0))
    total: Mapped[Decimal] = mapped_column(Money(), default=Decimal(0))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    issued_at: Mapped[dt.datetime | None]
    due_date: Mapped[dt.date | None]  # set when issued, from the contracts' payment terms
    original_id: Mapped[int | None] = mapped_column(ForeignKey("statement.id"))
    reason: Mapped[str | None] = mapped_column(Text)
    fapiao_no: Mapped[str | None] = mapped_column(String(64))
    # A statement that bills corrected revisions of lines credited on another one refers to it.
    rebills_id: Mapped[int | None] = mapped_column(ForeignKey("statement.id"))
    lines: Mapped[list["StatementLine"]] = relationship(
        back_populates="statement", cascade="all, delete-orphan", order_by="StatementLine.id")
    __table_args__ = (
        CheckConstraint(StatementKind.check_sql("kind"), name="kind"),
        CheckConstraint(StatementStatus.check_sql("status"), name="status"),
    )


class StatementLine(IdMixin, Base):
    __tablename__ = "statement_line"
    statement_id: Mapped[int] = mapped_column(ForeignKey("statement.id"), index=True)
    contract_item_id: Mapped[int | None] = mapped_column(ForeignKey("contract_item.id"))
    charge: Mapped[str] = mapped_column(String(16))  # fee, usage, overage, power, credit
    period: Mapped[str] = mapped_column(String(7))
    description: Mapped[str] = mapped_column(String(255))
    # quantity × unit_price = amount to the fen; a part month's quantity needs the decimals
    quantity: Mapped[Decimal] = mapped_column(Numeric(26, 12))
    unit: Mapped[str] = mapped_column(String(16))
    unit_price: Mapped[Decimal] = mapped_column(Numeric(14, 4))
    amount: Mapped[Decimal] = mapped_column(Money())
    tax_rate: Mapped[Decimal] = mapped_column(Numeric(5, 4))
    tax: Mapped[Decimal] = mapped_column(Money())
    note: Mapped[str | None] = mapped_column(Text)
    # description and note are in the billed contract's language; the run writes the line in the
    # other language too (English for a Chinese contract, Chinese for an English one; NULL where it
    # reads the same, and on lines billed before the migration line_languages). A document in the
    # other language prints `<field>_other`, else `<field>` (services.billing.line_text).
    description_other: Mapped[str | None] = mapped_column(String(255))
    note_other: Mapped[str | None] = mapped_column(Text)
    # 1 for the first billing of an item × charge × period; a credited line's key is billed again
    # as the next revision. A credit-note line carries the revision of the line it credits.
    revision: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    statement: Mapped[Statement] = relationship(back_populates="lines")
    __table_args__ = (
        # A run creates only what is missing: one line per item, charge, period and revision.
        UniqueConstraint("contract_item_id", "charge", "period", "revision", name="uq_statement_line_charge"),
    )


class DocumentCounter(Base):
    """Gapless per-subsidiary numbering; the row is locked by the UPDATE that takes a number."""

    __tablename__ = "document_counter"
    subsidiary_id: Mapped[int] = mapped_column(ForeignKey("subsidiary.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    scope: Mapped[str] = mapped_column(String(8), primary_key=True)  # year or year-month
    last_value: Mapped[int] = mapped_column(Integer, default=0)


class MeterReading(IdMixin, Base):
    __tablename__ = "meter_reading"
    rack_id: Mapped[int] = mapped_column(ForeignKey("rack.id"))
    read_at: Mapped[dt.datetime]
    kwh_total: Mapped[Decimal] = mapped_column(Numeric(14, 3))
    __table_args__ = (UniqueConstraint("rack_id", "read_at", name="uq_meter_reading_rack_at"),)


class GpuLease(IdMixin, Base):
    """One GPU leased under one contract item from start until end (open while end is NULL)."""

    __tablename__ = "gpu_lease"
    gpu_id: Mapped[int] = mapped_column(ForeignKey("gpu_asset.id"), index=True)
    contract_item_id: Mapped[int] = mapped_column(ForeignKey("contract_item.id"), index=True)
    start: Mapped[dt.datetime]
    end: Mapped[dt.datetime | None]
    __table_args__ = (CheckConstraint('"end" IS NULL OR "end" >= start', name="interval"),
                      Index("ix_gpu_lease_gpu_end", "gpu_id", "end"))  # the capacity search (migration 0036)


# gpu_asset.busy_until of a GPU with an open lease: after every window a search can ask for
LEASE_OPEN = dt.datetime(9999, 12, 31, tzinfo=dt.timezone.utc)


def busy_until_sql(gpu_id_col):
    """The latest end of the leases of the GPU `gpu_id_col` (LEASE_OPEN while one is open; NULL: none)."""
    return (select(func.max(func.coalesce(GpuLease.end, type_coerce(LEASE_OPEN, UTCDateTime()))))
            .where(GpuLease.gpu_id == gpu_id_col).scalar_subquery())


def refresh_busy_until(connection, gpu_ids) -> None:
    """Set gpu_asset.busy_until of these GPUs (every GPU when `gpu_ids` is None) from their leases."""
    t = GpuAsset.__table__
    stmt = update(t).values(busy_until=busy_until_sql(t.c.id))
    if gpu_ids is not None:
        ids = sorted(set(gpu_ids))
        for i in range(0, len(ids), 500):
            connection.execute(stmt.where(t.c.id.in_(ids[i:i + 500])))
        return
    connection.execute(stmt)


@event.listens_for(Session, "after_flush")
def follow_leases(session: Session, _context) -> None:
    """A GPU's busy_until follows its leases in the same transaction, whoever wrote them through a
    session (activation, its end, a swap, the migration of old contracts): one home, no writer
    can forget it. Bulk inserts outside a session call refresh_busy_until themselves."""
    ids = {o.gpu_id for o in (*session.new, *session.dirty, *session.deleted) if isinstance(o, GpuLease)}
    if ids:
        refresh_busy_until(session.connection(), ids)


class Downtime(IdMixin, Base):
    """A failed GPU or server is not billed while it was down."""

    __tablename__ = "downtime"
    gpu_id: Mapped[int | None] = mapped_column(ForeignKey("gpu_asset.id"), index=True)
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id"), index=True)
    start: Mapped[dt.datetime]
    end: Mapped[dt.datetime | None]
    reason: Mapped[str] = mapped_column(String(255))
    __table_args__ = (
        CheckConstraint("gpu_id IS NOT NULL OR device_id IS NOT NULL", name="target"),
        CheckConstraint('"end" IS NULL OR "end" >= start', name="interval"),
    )

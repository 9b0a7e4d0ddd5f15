"""Selling capacity: the price list, holds on free nodes, and quotes (报价单).

The rules live in app/services/capacity/: the search (which nodes are free for a window), the
hold's expiry, the quote's figures and its conversion into a draft contract.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import CheckConstraint, Column, ForeignKey, Integer, Numeric, String, Table, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, IdMixin, Versioned, utcnow
from .choices import HoldStatus, PriceProduct, PriceTerm, QuoteStatus, TaxCategory


class PriceListEntry(IdMixin, Versioned, Base):
    """One price: a GPU model (or a colocation add-on) × term × subsidiary (NULL: every
    subsidiary), valid from a day until a day (NULL: until replaced).

    GPU prices are per GPU: hourly per GPU-hour, monthly per GPU-month, yearly per GPU-year, hybrid a
    commitment per GPU-month with `included_hours` per GPU and `hourly_rate` beyond them. Add-ons are
    monthly: a rack, a U, a circuit, a cross-connect (plus `setup_price` once each)."""

    __tablename__ = "price_list"
    product: Mapped[str] = mapped_column(String(16), default=PriceProduct.GPU)
    gpu_model_id: Mapped[int | None] = mapped_column(ForeignKey("gpu_model.id"), index=True)
    subsidiary_id: Mapped[int | None] = mapped_column(ForeignKey("subsidiary.id"), index=True)
    term: Mapped[str] = mapped_column(String(16))
    unit_price: Mapped[Decimal] = mapped_column(Numeric(14, 4))
    included_hours: Mapped[Decimal | None] = mapped_column(Numeric(12, 2))
    hourly_rate: Mapped[Decimal | None] = mapped_column(Numeric(12, 4))
    setup_price: Mapped[Decimal | None] = mapped_column(Numeric(14, 4))
    valid_from: Mapped[dt.date]
    valid_to: Mapped[dt.date | None]
    note: Mapped[str | None] = mapped_column(String(255))
    __table_args__ = (
        CheckConstraint(PriceProduct.check_sql("product"), name="product"),
        CheckConstraint(PriceTerm.check_sql("term"), name="term"),
        CheckConstraint("unit_price >= 0", name="unit_price"),
        CheckConstraint("valid_to IS NULL OR valid_to >= valid_from", name="validity"),
        CheckConstraint("(product = 'gpu') = (gpu_model_id IS NOT NULL)", name="gpu_model"),
    )


capacity_hold_node = Table(
    "capacity_hold_node",
    Base.metadata,
    Column("hold_id", ForeignKey("capacity_hold.id"), primary_key=True),
    Column("node_id", ForeignKey("gpu_node.id"), primary_key=True, index=True),
)


class CapacityHold(IdMixin, Versioned, Base):
    """Nodes held for a customer over a window until `expires_at`: no other search offers them.
    Released by a person, expired by the sweep, or converted: moved to the contract made from it."""

    __tablename__ = "capacity_hold"
    number: Mapped[str] = mapped_column(String(32), unique=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    subsidiary_id: Mapped[int] = mapped_column(ForeignKey("subsidiary.id"))
    gpu_model_id: Mapped[int | None] = mapped_column(ForeignKey("gpu_model.id"))
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date | None]  # NULL: open-ended
    expires_at: Mapped[dt.datetime] = mapped_column(index=True)
    status: Mapped[str] = mapped_column(String(16), default=HoldStatus.ACTIVE, index=True)
    contract_id: Mapped[int | None] = mapped_column(ForeignKey("contract.id"), index=True)
    note: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[dt.datetime | None]
    ended_by: Mapped[str | None] = mapped_column(String(64))
    __table_args__ = (
        CheckConstraint(HoldStatus.check_sql("status"), name="status"),
        CheckConstraint("end_date IS NULL OR end_date >= start_date", name="dates"),
    )


class Quote(IdMixin, Versioned, Base):
    """A 报价单: GPU capacity (the held nodes) and colocation add-ons, priced for one term, with the
    other terms beside it, valid until a day; accepting it makes a draft contract."""

    __tablename__ = "quote"
    number: Mapped[str] = mapped_column(String(32), unique=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    subsidiary_id: Mapped[int] = mapped_column(ForeignKey("subsidiary.id"))
    hold_id: Mapped[int | None] = mapped_column(ForeignKey("capacity_hold.id"), index=True)
    title: Mapped[str | None] = mapped_column(String(255))
    term: Mapped[str] = mapped_column(String(16))
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date]
    valid_until: Mapped[dt.date]
    language: Mapped[str] = mapped_column(String(2), default="zh")
    status: Mapped[str] = mapped_column(String(16), default=QuoteStatus.OPEN, index=True)
    contract_id: Mapped[int | None] = mapped_column(ForeignKey("contract.id"), index=True)
    created_by: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    lines: Mapped[list["QuoteLine"]] = relationship(back_populates="quote", cascade="all, delete-orphan",
                                                     order_by="QuoteLine.id")
    __table_args__ = (
        CheckConstraint(QuoteStatus.check_sql("status"), name="status"),
        CheckConstraint(PriceTerm.check_sql("term"), name="term"),
        CheckConstraint("end_date >= start_date", name="dates"),
    )


class QuoteLine(IdMixin, Base):
    """One line of a quote: GPUs of a model (the hold's nodes' GPUs at acceptance) or an add-on."""

    __tablename__ = "quote_line"
    quote_id: Mapped[int] = mapped_column(ForeignKey("quote.id"), index=True)
    product: Mapped[str] = mapped_column(String(16))
    description: Mapped[str] = mapped_column(String(255))
    description_en: Mapped[str | None] = mapped_column(String(255))
    gpu_model_id: Mapped[int | None] = mapped_column(ForeignKey("gpu_model.id"))
    quantity: Mapped[Decimal] = mapped_column(Numeric(12, 3))
    unit_price: Mapped[Decimal] = mapped_column(Numeric(14, 4))
    price_unit: Mapped[str] = mapped_column(String(16))
    included_hours: Mapped[Decimal | None] = mapped_column(Numeric(12, 2))
    hourly_rate: Mapped[Decimal | None] = mapped_column(Numeric(12, 4))
    setup_price: Mapped[Decimal | None] = mapped_column(Numeric(14, 4))
    rack_id: Mapped[int | None] = mapped_column(ForeignKey("rack.id"))
    u_from: Mapped[int | None] = mapped_column(Integer)
    u_to: Mapped[int | None] = mapped_column(Integer)
    tax_category: Mapped[str] = mapped_column(String(20))
    quote: Mapped[Quote] = relationship(back_populates="lines")
    __table_args__ = (
        CheckConstraint(PriceProduct.check_sql("product"), name="product"),
        CheckConstraint(TaxCategory.check_sql("tax_category"), name="tax_category"),
        CheckConstraint("quantity > 0", name="quantity"),
    )

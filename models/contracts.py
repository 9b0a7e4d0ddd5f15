"""Contracts and their items (the data; the rules live in app/services)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import Boolean, CheckConstraint, Column, ForeignKey, Integer, Numeric, String, Table, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, IdMixin, Versioned
from .choices import ContractStatus, ItemKind, PriceUnit, TaxCategory

contract_item_gpu = Table(
    "contract_item_gpu",
    Base.metadata,
    Column("item_id", ForeignKey("contract_item.id"), primary_key=True),
    Column("gpu_id", ForeignKey("gpu_asset.id"), primary_key=True, index=True),
)


class Contract(IdMixin, Versioned, Base):
    __tablename__ = "contract"
    number: Mapped[str] = mapped_column(String(32), unique=True)
    subsidiary_id: Mapped[int] = mapped_column(ForeignKey("subsidiary.id"), index=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customer.id"), index=True)
    title: Mapped[str | None] = mapped_column(String(255))
    status: Mapped[str] = mapped_column(String(20), default=ContractStatus.DRAFT, index=True)
    start_date: Mapped[dt.date]
    end_date: Mapped[dt.date] = mapped_column(index=True)
    renewal_of_id: Mapped[int | None] = mapped_column(ForeignKey("contract.id"))
    amends_id: Mapped[int | None] = mapped_column(ForeignKey("contract.id"))
    revision: Mapped[int] = mapped_column(Integer, default=1)
    effective_date: Mapped[dt.date | None]
    service_level: Mapped[str | None] = mapped_column(Text)
    terms: Mapped[str | None] = mapped_column(Text)
    language: Mapped[str] = mapped_column(String(2), default="zh")
    # Four eyes: who drafted and who last submitted it may not approve it (unless the setting is off).
    drafted_by: Mapped[str | None] = mapped_column(String(64))
    submitted_by: Mapped[str | None] = mapped_column(String(64))
    approved_by: Mapped[str | None] = mapped_column(String(64))
    approved_four_eyes: Mapped[bool | None] = mapped_column(Boolean)  # False: approved with four eyes off
    # Payment terms: a statement is due this many days after it is issued (月结 30 天: 30; prepaid: 0)
    payment_term_days: Mapped[int] = mapped_column(Integer, default=30, server_default="30")
    payment_terms: Mapped[str | None] = mapped_column(String(64))  # the wording, e.g. 月结 30 天
    items: Mapped[list["ContractItem"]] = relationship(
        back_populates="contract", cascade="all, delete-orphan", order_by="ContractItem.id")
    __table_args__ = (
        CheckConstraint(ContractStatus.check_sql("status"), name="status"),
        CheckConstraint("end_date >= start_date", name="dates"),
    )


class ContractItem(IdMixin, Versioned, Base):
    __tablename__ = "contract_item"
    contract_id: Mapped[int] = mapped_column(ForeignKey("contract.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    description: Mapped[str] = mapped_column(String(255))  # in the contract's language
    # English documents of a Chinese contract print this; empty: a name from the kind and object
    description_en: Mapped[str | None] = mapped_column(String(255))
    rack_id: Mapped[int | None] = mapped_column(ForeignKey("rack.id"), index=True)
    u_from: Mapped[int | None] = mapped_column(Integer)
    u_to: Mapped[int | None] = mapped_column(Integer)
    cage_id: Mapped[int | None] = mapped_column(ForeignKey("cage.id"), index=True)
    face: Mapped[str | None] = mapped_column(String(8))  # of a U range; NULL: both faces
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id"), index=True)
    gpu_model_id: Mapped[int | None] = mapped_column(ForeignKey("gpu_model.id"))
    quantity: Mapped[Decimal] = mapped_column(Numeric(12, 3), default=Decimal(1))
    unit_price: Mapped[Decimal] = mapped_column(Numeric(14, 4))
    price_unit: Mapped[str] = mapped_column(String(16))
    tax_category: Mapped[str] = mapped_column(String(20), default=TaxCategory.IDC)
    service_start: Mapped[dt.date | None]
    service_end: Mapped[dt.date | None]
    power_allowance_kw: Mapped[Decimal | None] = mapped_column(Numeric(8, 2))
    kwh_price: Mapped[Decimal | None] = mapped_column(Numeric(10, 4))
    included_hours: Mapped[Decimal | None] = mapped_column(Numeric(12, 2))
    hourly_rate: Mapped[Decimal | None] = mapped_column(Numeric(12, 4))
    mbps: Mapped[int | None] = mapped_column(Integer)
    # A cross-connect item: the one-off installation price of each cross-connect (unit_price: monthly)
    setup_price: Mapped[Decimal | None] = mapped_column(Numeric(14, 4))
    # The handover: when the customer got the service (an instant; billed from its Shanghai date),
    # who recorded it and the evidence. NULL: not handed over, nothing is billed.
    handover_at: Mapped[dt.datetime | None]
    handover_by: Mapped[str | None] = mapped_column(String(64))
    handover_note: Mapped[str | None] = mapped_column(Text)
    contract: Mapped[Contract] = relationship(back_populates="items")
    __table_args__ = (
        CheckConstraint(ItemKind.check_sql("kind"), name="kind"),
        CheckConstraint(PriceUnit.check_sql("price_unit"), name="price_unit"),
        CheckConstraint(TaxCategory.check_sql("tax_category"), name="tax_category"),
        CheckConstraint("quantity >= 0", name="quantity"),
    )

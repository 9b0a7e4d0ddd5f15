"""GPU catalogue, GPU assets and their lifecycle history."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, Integer, Numeric, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base, IdMixin, Money, Versioned, utcnow
from .choices import FormFactor, GpuState


class GpuModel(IdMixin, Versioned, Base):
    __tablename__ = "gpu_model"
    name: Mapped[str] = mapped_column(String(64), unique=True)
    vendor: Mapped[str] = mapped_column(String(32))
    memory_gb: Mapped[int] = mapped_column(Integer)
    form_factor: Mapped[str] = mapped_column(String(8))
    interconnect: Mapped[str | None] = mapped_column(String(64))  # the scale-up interconnect (NVLink, HCCS, PCIe)
    # issue 25: the datasheet (resources/gpu_models.json cites each model's source)
    domain_size: Mapped[int | None] = mapped_column(Integer)  # GPUs in one scale-up domain (8; 72 for NVL72)
    fp8_tflops: Mapped[Decimal | None] = mapped_column(Numeric(8, 1))  # dense, no sparsity
    bf16_tflops: Mapped[Decimal | None] = mapped_column(Numeric(8, 1))  # dense, no sparsity
    tdp_w: Mapped[int | None] = mapped_column(Integer)
    datasheet_url: Mapped[str | None] = mapped_column(String(255))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    __table_args__ = (CheckConstraint(FormFactor.check_sql("form_factor"), name="form_factor"),)


class GpuAsset(IdMixin, Versioned, Base):
    __tablename__ = "gpu_asset"
    serial: Mapped[str] = mapped_column(String(64), unique=True)
    gpu_model_id: Mapped[int] = mapped_column(ForeignKey("gpu_model.id"), index=True)
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id"), index=True)
    slot: Mapped[int | None] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(16), default=GpuState.ORDERED, index=True)
    customer_id: Mapped[int | None] = mapped_column(ForeignKey("customer.id"), index=True)
    purchase_date: Mapped[dt.date | None]
    purchase_cost: Mapped[Decimal | None] = mapped_column(Money())
    warranty_end: Mapped[dt.date | None] = mapped_column(index=True)
    depreciation_months: Mapped[int] = mapped_column(Integer, default=36)
    # The latest end of the GPU's leases (LEASE_OPEN while one is open), NULL when it never had one:
    # kept by the database session from gpu_lease on every flush (models/billing.follow_leases), so
    # the capacity search drops a busy GPU from its own index row (migration 0040, issue 25)
    busy_until: Mapped[dt.datetime | None]
    gpu_model: Mapped[GpuModel] = relationship(lazy="joined")
    __table_args__ = (
        UniqueConstraint("device_id", "slot", name="uq_gpu_asset_device_slot"),
        CheckConstraint(GpuState.check_sql("state"), name="state"),
        CheckConstraint("(device_id IS NULL) = (slot IS NULL)", name="slot_with_device"),
        CheckConstraint("slot IS NULL OR slot >= 1", name="slot_positive"),
        CheckConstraint("depreciation_months > 0", name="depreciation"),
        # Performance (migration 0003): the dashboard's fleet count; contains-filters on PostgreSQL.
        Index("ix_gpu_asset_model_state", "gpu_model_id", "state"),
        # the capacity search (0036; busy_until 0040): a server's GPUs, their model, state and leases
        Index("ix_gpu_asset_device_fit", "device_id", "gpu_model_id", "state", "busy_until"),
        Index("ix_gpu_asset_serial_trgm", "serial", postgresql_using="gin", postgresql_ops={"serial": "gin_trgm_ops"}),
        # Keyset pages of the GPU list sorted by these (migration 0037_sort_indexes, issue 26)
        Index("ix_gpu_asset_slot_id", "slot", "id"),
        Index("ix_gpu_asset_purchase_date_id", "purchase_date", "id"),
        Index("ix_gpu_asset_purchase_cost_id", "purchase_cost", "id"),
    )


class GpuHistory(IdMixin, Base):
    __tablename__ = "gpu_history"
    gpu_id: Mapped[int] = mapped_column(ForeignKey("gpu_asset.id"), index=True)
    from_state: Mapped[str | None] = mapped_column(String(16))
    to_state: Mapped[str] = mapped_column(String(16))
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    actor_login: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(255))

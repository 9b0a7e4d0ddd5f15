"""GPU catalogue, GPU assets and their lifecycle history."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import (Boolean, CheckConstraint, ForeignKey, Index, Integer, Numeric, String, UniqueConstraint, delete,
                        event, func, insert, select)
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship
from sqlalchemy.orm.attributes import instance_state

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
    # active_history: a move's old server is known even when the attribute was not loaded (device_gpu_count)
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id"), index=True, active_history=True)
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


class DeviceGpuCount(Base):
    """How many GPUs of each model a server holds, kept from gpu_asset in the same transaction
    (follow_gpu_places): the cluster list and its utilisation chart count a cluster's GPUs from its
    nodes' rows here, not from every GPU (migration 0042, issue 26: on the large data each of those
    statements read 391,613 index entries, 80 of its 130-165 ms). Derived, not audited."""

    __tablename__ = "device_gpu_count"
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), primary_key=True)
    gpu_model_id: Mapped[int] = mapped_column(ForeignKey("gpu_model.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer)


def refresh_device_gpus(connection, device_ids) -> None:
    """Count again the GPUs of these servers (every server when `device_ids` is None) into device_gpu_count."""
    t, g = DeviceGpuCount.__table__, GpuAsset.__table__
    counted = (select(g.c.device_id, g.c.gpu_model_id, func.count()).where(g.c.device_id.is_not(None))
               .group_by(g.c.device_id, g.c.gpu_model_id))
    into = ["device_id", "gpu_model_id", "n"]
    if device_ids is None:
        connection.execute(delete(t))
        connection.execute(insert(t).from_select(into, counted))
        return
    ids = sorted({d for d in device_ids if d is not None})
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        connection.execute(delete(t).where(t.c.device_id.in_(chunk)))
        connection.execute(insert(t).from_select(into, counted.where(g.c.device_id.in_(chunk))))


PLACE_FIELDS = ("device_id", "gpu_model_id")   # what device_gpu_count follows


def places_changed(added_or_gone, changed) -> set[int]:
    """The servers whose GPU counts these GpuAsset objects move: a new or deleted GPU's server
    (`added_or_gone`), the old and new server of one whose server or model changed (`changed`: pending
    changes, read from SQLAlchemy's record of the values changed attributes had)."""
    ids = {o.device_id for o in added_or_gone}
    for o in changed:
        before = instance_state(o).committed_state
        if any(f in before for f in PLACE_FIELDS):
            ids.add(o.device_id)
            old = before.get("device_id")
            if isinstance(old, int):
                ids.add(old)
    ids.discard(None)
    return ids


@event.listens_for(Session, "after_flush")
def follow_gpu_places(session: Session, _context) -> None:
    """device_gpu_count follows the GPUs in the same transaction, whoever moves them through a session;
    writers of many rows outside the session (app/services/bulk.py, the large loader) call
    refresh_device_gpus themselves."""
    def gpus(objects):
        return [o for o in objects if isinstance(o, GpuAsset)]
    ids = places_changed(gpus(session.new) + gpus(session.deleted), gpus(session.dirty))
    if ids:
        refresh_device_gpus(session.connection(), ids)


class GpuHistory(IdMixin, Base):
    __tablename__ = "gpu_history"
    gpu_id: Mapped[int] = mapped_column(ForeignKey("gpu_asset.id"), index=True)
    from_state: Mapped[str | None] = mapped_column(String(16))
    to_state: Mapped[str] = mapped_column(String(16))
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    actor_login: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(255))

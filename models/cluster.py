"""GPU clusters (issue 25): a cluster at a site, its scale-up domains, its scale-out fabric's
switches, its nodes (GPU servers) with their service state, history, burn-in results, health
events, and the swaps of a leased node to a replacement recorded on the contract item.

A node's GPUs are the gpu_asset rows whose device_id is the node's device_id (no copy here).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import Boolean, CheckConstraint, ForeignKey, Index, Integer, Numeric, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, IdMixin, Versioned, utcnow
from .choices import Fabric, HealthVendor, NodeState, ScaleUpKind, SwitchTier


class GpuCluster(IdMixin, Versioned, Base):
    __tablename__ = "gpu_cluster"
    name: Mapped[str] = mapped_column(String(64), unique=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id"), index=True)
    fabric: Mapped[str] = mapped_column(String(16), default=Fabric.NONE)
    rails: Mapped[int | None] = mapped_column(Integer)  # rail-optimised when set: one rail per GPU of a node
    storage_network: Mapped[str | None] = mapped_column(String(128))
    management_network: Mapped[str | None] = mapped_column(String(128))
    note: Mapped[str | None] = mapped_column(Text)
    __table_args__ = (
        CheckConstraint(Fabric.check_sql("fabric"), name="fabric"),
        CheckConstraint("rails IS NULL OR rails >= 1", name="rails"),
    )


class ScaleUpDomain(IdMixin, Versioned, Base):
    """An NVLink/NVSwitch domain inside a server, a rack-scale one (NVL72), or Ascend's HCCS."""
    __tablename__ = "scaleup_domain"
    cluster_id: Mapped[int] = mapped_column(ForeignKey("gpu_cluster.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    size: Mapped[int] = mapped_column(Integer)  # GPUs in the domain
    __table_args__ = (
        UniqueConstraint("cluster_id", "name", name="uq_scaleup_domain_cluster_name"),
        CheckConstraint(ScaleUpKind.check_sql("kind"), name="kind"),
        CheckConstraint("size >= 1", name="size"),
    )


class GpuNode(IdMixin, Versioned, Base):
    __tablename__ = "gpu_node"
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id"), unique=True)  # a server is one node
    cluster_id: Mapped[int] = mapped_column(ForeignKey("gpu_cluster.id"), index=True)
    domain_id: Mapped[int | None] = mapped_column(ForeignKey("scaleup_domain.id"), index=True)
    state: Mapped[str] = mapped_column(String(16), default=NodeState.ONBOARDING, index=True)
    maintenance: Mapped[bool] = mapped_column(Boolean, default=False)
    state_reason: Mapped[str | None] = mapped_column(String(255))
    state_by: Mapped[str | None] = mapped_column(String(64))  # login
    state_at: Mapped[dt.datetime | None] = mapped_column(default=utcnow)
    __table_args__ = (CheckConstraint(NodeState.check_sql("state"), name="state"),)


class FabricSwitch(IdMixin, Versioned, Base):
    __tablename__ = "fabric_switch"
    cluster_id: Mapped[int] = mapped_column(ForeignKey("gpu_cluster.id"), index=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id"), unique=True)
    tier: Mapped[str] = mapped_column(String(8))
    rail: Mapped[int | None] = mapped_column(Integer)  # a leaf's rail on a rail-optimised fabric
    __table_args__ = (
        CheckConstraint(SwitchTier.check_sql("tier"), name="tier"),
        CheckConstraint("rail IS NULL OR rail >= 1", name="rail"),
    )


class GpuNodeHistory(IdMixin, Base):
    __tablename__ = "gpu_node_history"
    node_id: Mapped[int] = mapped_column(ForeignKey("gpu_node.id"), index=True)
    from_state: Mapped[str | None] = mapped_column(String(16))
    to_state: Mapped[str] = mapped_column(String(16))
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    actor_login: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(255))


class HealthEvent(IdMixin, Base):
    """An NVIDIA XID or an Ascend fault code seen on a node (one of its GPUs when known)."""
    __tablename__ = "health_event"
    node_id: Mapped[int] = mapped_column(ForeignKey("gpu_node.id"))
    gpu_id: Mapped[int | None] = mapped_column(ForeignKey("gpu_asset.id"), index=True)
    at: Mapped[dt.datetime] = mapped_column(index=True)
    vendor: Mapped[str] = mapped_column(String(8))
    code: Mapped[str] = mapped_column(String(32))
    action: Mapped[str] = mapped_column(String(32))  # from the catalogue (app/domain/health.py)
    note: Mapped[str | None] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(128))  # the imported file's name, or the person
    __table_args__ = (
        CheckConstraint(HealthVendor.check_sql("vendor"), name="vendor"),
        Index("ix_health_event_node_at", "node_id", "at"),
    )


class NodeBurnIn(IdMixin, Base):
    """A burn-in result the node produced (DCGM diagnostic level 1–4, NCCL all-reduce bus bandwidth)."""
    __tablename__ = "node_burn_in"
    node_id: Mapped[int] = mapped_column(ForeignKey("gpu_node.id"), index=True)
    at: Mapped[dt.datetime]
    dcgm_level: Mapped[int] = mapped_column(Integer)
    passed: Mapped[bool] = mapped_column(Boolean)
    duration_s: Mapped[int] = mapped_column(Integer)
    nccl_busbw_gbps: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    expected_busbw_gbps: Mapped[Decimal | None] = mapped_column(Numeric(10, 2))
    source: Mapped[str | None] = mapped_column(String(128))
    __table_args__ = (
        CheckConstraint("dcgm_level BETWEEN 1 AND 4", name="dcgm_level"),
        CheckConstraint("duration_s >= 0", name="duration"),
    )


class NodeSwap(IdMixin, Base):
    """A leased node replaced by another in the same fabric, on its contract item: which serials
    served which hours (the GPU leases end and start at `at`; this row is what the statement prints)."""
    __tablename__ = "node_swap"
    contract_item_id: Mapped[int] = mapped_column(ForeignKey("contract_item.id"), index=True)
    from_node_id: Mapped[int] = mapped_column(ForeignKey("gpu_node.id"), index=True)
    to_node_id: Mapped[int] = mapped_column(ForeignKey("gpu_node.id"), index=True)
    at: Mapped[dt.datetime]
    from_serials: Mapped[str] = mapped_column(Text)  # comma-separated GPU serials that served until `at`
    to_serials: Mapped[str] = mapped_column(Text)  # … and those that serve from `at`
    actor_login: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(255))
    __table_args__ = (CheckConstraint("from_node_id <> to_node_id", name="two_nodes"),)

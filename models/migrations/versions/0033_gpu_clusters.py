"""GPU clusters as products: clusters, scale-up domains, fabric switches, nodes and their state,
history, burn-in results, health events and node swaps; GPU models gain datasheet figures

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-01

New tables (models/cluster.py): gpu_cluster, scaleup_domain, gpu_node, fabric_switch,
gpu_node_history, health_event, node_burn_in, node_swap. gpu_model gains domain_size, fp8_tflops,
bf16_tflops, tdp_w, datasheet_url (nullable; the demo and `gpu-models import` fill them).

Data: every existing GPU server (a device whose type has GPU slots, or which holds a GPU) in a rack
becomes a node of one cluster "<site code> unassigned" per site (fabric none), its state from its
GPUs: one leased → allocated; GPUs, none leased → available; no GPU installed yet → onboarding.
Each node gets its first history row. A server in no rack has no site and stays a plain device
(`cluster add-node` makes it a node). No existing row changes; the downgrade drops the new tables
and columns only. Rows written by a migration are not audited (app/reconcile.py).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0033'
down_revision: Union[str, Sequence[str], None] = '0032'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

FABRICS = ("infiniband_hdr", "infiniband_ndr", "infiniband_xdr", "roce", "none")
NODE_STATES = ("onboarding", "burn_in", "available", "allocated", "draining", "triage", "rma", "retired")
GPU_MODEL_COLUMNS = ("domain_size", "fp8_tflops", "bf16_tflops", "tdp_w", "datasheet_url")


def _in(column: str, values) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


def _versioned():
    return [sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("updated_at", sa.DateTime(), nullable=True),
            sa.Column("updated_by", sa.String(length=64), nullable=True)]


def _id():
    return sa.Column("id", sa.Integer(), nullable=False)


def _fk(table: str, column: str, target: str):
    return sa.ForeignKeyConstraint([column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"))


def upgrade() -> None:
    with op.batch_alter_table("gpu_model") as batch:
        batch.add_column(sa.Column("domain_size", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("fp8_tflops", sa.Numeric(8, 1), nullable=True))
        batch.add_column(sa.Column("bf16_tflops", sa.Numeric(8, 1), nullable=True))
        batch.add_column(sa.Column("tdp_w", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("datasheet_url", sa.String(length=255), nullable=True))

    op.create_table(
        "gpu_cluster", _id(),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("fabric", sa.String(length=16), nullable=False),
        sa.Column("rails", sa.Integer(), nullable=True),
        sa.Column("storage_network", sa.String(length=128), nullable=True),
        sa.Column("management_network", sa.String(length=128), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        *_versioned(),
        sa.CheckConstraint(_in("fabric", FABRICS), name=op.f("ck_gpu_cluster_fabric")),
        sa.CheckConstraint("rails IS NULL OR rails >= 1", name=op.f("ck_gpu_cluster_rails")),
        _fk("gpu_cluster", "site_id", "site"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gpu_cluster")),
        sa.UniqueConstraint("name", name=op.f("uq_gpu_cluster_name")),
    )
    op.create_index(op.f("ix_gpu_cluster_site_id"), "gpu_cluster", ["site_id"], unique=False)

    op.create_table(
        "scaleup_domain", _id(),
        sa.Column("cluster_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        *_versioned(),
        sa.CheckConstraint(_in("kind", ("nvlink", "nvl72", "hccs")), name=op.f("ck_scaleup_domain_kind")),
        sa.CheckConstraint("size >= 1", name=op.f("ck_scaleup_domain_size")),
        _fk("scaleup_domain", "cluster_id", "gpu_cluster"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scaleup_domain")),
        sa.UniqueConstraint("cluster_id", "name", name="uq_scaleup_domain_cluster_name"),
    )
    op.create_index(op.f("ix_scaleup_domain_cluster_id"), "scaleup_domain", ["cluster_id"], unique=False)

    op.create_table(
        "gpu_node", _id(),
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("cluster_id", sa.Integer(), nullable=False),
        sa.Column("domain_id", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("maintenance", sa.Boolean(), nullable=False),
        sa.Column("state_reason", sa.String(length=255), nullable=True),
        sa.Column("state_by", sa.String(length=64), nullable=True),
        sa.Column("state_at", sa.DateTime(), nullable=True),
        *_versioned(),
        sa.CheckConstraint(_in("state", NODE_STATES), name=op.f("ck_gpu_node_state")),
        _fk("gpu_node", "device_id", "device"),
        _fk("gpu_node", "cluster_id", "gpu_cluster"),
        _fk("gpu_node", "domain_id", "scaleup_domain"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gpu_node")),
        sa.UniqueConstraint("device_id", name=op.f("uq_gpu_node_device_id")),
    )
    for col in ("cluster_id", "domain_id", "state"):
        op.create_index(op.f(f"ix_gpu_node_{col}"), "gpu_node", [col], unique=False)

    op.create_table(
        "fabric_switch", _id(),
        sa.Column("cluster_id", sa.Integer(), nullable=False),
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("tier", sa.String(length=8), nullable=False),
        sa.Column("rail", sa.Integer(), nullable=True),
        *_versioned(),
        sa.CheckConstraint(_in("tier", ("leaf", "spine")), name=op.f("ck_fabric_switch_tier")),
        sa.CheckConstraint("rail IS NULL OR rail >= 1", name=op.f("ck_fabric_switch_rail")),
        _fk("fabric_switch", "cluster_id", "gpu_cluster"),
        _fk("fabric_switch", "device_id", "device"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fabric_switch")),
        sa.UniqueConstraint("device_id", name=op.f("uq_fabric_switch_device_id")),
    )
    op.create_index(op.f("ix_fabric_switch_cluster_id"), "fabric_switch", ["cluster_id"], unique=False)

    op.create_table(
        "gpu_node_history", _id(),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("from_state", sa.String(length=16), nullable=True),
        sa.Column("to_state", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("actor_login", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.String(length=255), nullable=False),
        _fk("gpu_node_history", "node_id", "gpu_node"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_gpu_node_history")),
    )
    op.create_index(op.f("ix_gpu_node_history_node_id"), "gpu_node_history", ["node_id"], unique=False)

    op.create_table(
        "health_event", _id(),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("gpu_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("vendor", sa.String(length=8), nullable=False),
        sa.Column("code", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("source", sa.String(length=128), nullable=False),
        sa.CheckConstraint(_in("vendor", ("nvidia", "ascend")), name=op.f("ck_health_event_vendor")),
        _fk("health_event", "node_id", "gpu_node"),
        _fk("health_event", "gpu_id", "gpu_asset"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_health_event")),
    )
    op.create_index(op.f("ix_health_event_gpu_id"), "health_event", ["gpu_id"], unique=False)
    op.create_index(op.f("ix_health_event_at"), "health_event", ["at"], unique=False)
    op.create_index("ix_health_event_node_at", "health_event", ["node_id", "at"], unique=False)

    op.create_table(
        "node_burn_in", _id(),
        sa.Column("node_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("dcgm_level", sa.Integer(), nullable=False),
        sa.Column("passed", sa.Boolean(), nullable=False),
        sa.Column("duration_s", sa.Integer(), nullable=False),
        sa.Column("nccl_busbw_gbps", sa.Numeric(10, 2), nullable=True),
        sa.Column("expected_busbw_gbps", sa.Numeric(10, 2), nullable=True),
        sa.Column("source", sa.String(length=128), nullable=True),
        sa.CheckConstraint("dcgm_level BETWEEN 1 AND 4", name=op.f("ck_node_burn_in_dcgm_level")),
        sa.CheckConstraint("duration_s >= 0", name=op.f("ck_node_burn_in_duration")),
        _fk("node_burn_in", "node_id", "gpu_node"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_node_burn_in")),
    )
    op.create_index(op.f("ix_node_burn_in_node_id"), "node_burn_in", ["node_id"], unique=False)

    op.create_table(
        "node_swap", _id(),
        sa.Column("contract_item_id", sa.Integer(), nullable=False),
        sa.Column("from_node_id", sa.Integer(), nullable=False),
        sa.Column("to_node_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("from_serials", sa.Text(), nullable=False),
        sa.Column("to_serials", sa.Text(), nullable=False),
        sa.Column("actor_login", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.String(length=255), nullable=False),
        sa.CheckConstraint("from_node_id <> to_node_id", name=op.f("ck_node_swap_two_nodes")),
        _fk("node_swap", "contract_item_id", "contract_item"),
        _fk("node_swap", "from_node_id", "gpu_node"),
        _fk("node_swap", "to_node_id", "gpu_node"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_node_swap")),
    )
    for col in ("contract_item_id", "from_node_id", "to_node_id"):
        op.create_index(op.f(f"ix_node_swap_{col}"), "node_swap", [col], unique=False)

    _datasheet_figures()
    _nodes_from_gpu_servers()


DATASHEET = "resources/gpu/gpu_models.json"


def _datasheet_figures() -> None:
    """The catalogue's models (seeded by 0001) get their datasheet figures, where none are set."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / DATASHEET
    if not path.exists():  # a frozen build without the file: the columns stay empty, nothing else depends on them
        return
    bind = op.get_bind()
    for m in json.loads(path.read_text(encoding="utf-8"))["models"]:
        bind.execute(sa.text(
            "UPDATE gpu_model SET domain_size = :d, fp8_tflops = :f8, bf16_tflops = :b16, tdp_w = :t, "
            "datasheet_url = :u WHERE name = :n AND datasheet_url IS NULL"),
            dict(d=m["domain_size"], f8=m["fp8_tflops"], b16=m["bf16_tflops"], t=m["tdp_w"], u=m["source"],
                 n=m["name"]))


def _nodes_from_gpu_servers() -> None:
    """Today's GPU servers become nodes of one "<site code> unassigned" cluster per site."""
    import datetime as dt

    bind = op.get_bind()
    servers = bind.execute(sa.text(
        "SELECT d.id AS device_id, s.id AS site_id, s.code AS site_code,"
        " (SELECT COUNT(*) FROM gpu_asset g WHERE g.device_id = d.id) AS gpus,"
        " (SELECT COUNT(*) FROM gpu_asset g WHERE g.device_id = d.id AND g.state = 'leased') AS leased"
        " FROM device d JOIN device_type t ON t.id = d.device_type_id"
        " JOIN rack r ON r.id = d.rack_id JOIN room m ON m.id = r.room_id JOIN site s ON s.id = m.site_id"
        " WHERE t.gpu_slots > 0 OR EXISTS (SELECT 1 FROM gpu_asset g WHERE g.device_id = d.id)"
        " ORDER BY s.id, d.id")).all()
    if not servers:
        return
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    cluster_t = sa.table("gpu_cluster", sa.column("name"), sa.column("site_id"), sa.column("fabric"),
                         sa.column("note"), sa.column("version"), sa.column("updated_at"), sa.column("updated_by"))
    sites = {}
    for row in servers:
        sites.setdefault(row.site_id, row.site_code)
    for site_id, code in sites.items():
        bind.execute(cluster_t.insert().values(
            name=f"{code} unassigned", site_id=site_id, fabric="none", version=1, updated_at=now,
            updated_by="migration 0033",
            note="GPU servers of the site before clusters existed (migration 0033); move them to their cluster."))
    cluster_of = {r.site_id: r.id for r in bind.execute(sa.text("SELECT id, site_id FROM gpu_cluster"))}
    node_t = sa.table("gpu_node", sa.column("device_id"), sa.column("cluster_id"), sa.column("state"),
                      sa.column("maintenance"), sa.column("state_reason"), sa.column("state_by"),
                      sa.column("state_at"), sa.column("version"), sa.column("updated_at"), sa.column("updated_by"))
    reason = "made a node by migration 0033 (its GPUs' states)"
    rows = [dict(device_id=r.device_id, cluster_id=cluster_of[r.site_id],
                 state="allocated" if r.leased else ("available" if r.gpus else "onboarding"),
                 maintenance=False, state_reason=reason, state_by="migration", state_at=now,
                 version=1, updated_at=now, updated_by="migration 0033") for r in servers]
    op.bulk_insert(node_t, rows)
    bind.execute(sa.text(
        "INSERT INTO gpu_node_history (node_id, from_state, to_state, at, actor_login, reason)"
        " SELECT id, NULL, state, state_at, 'migration', state_reason FROM gpu_node"))


def downgrade() -> None:
    for col in ("contract_item_id", "from_node_id", "to_node_id"):
        op.drop_index(op.f(f"ix_node_swap_{col}"), table_name="node_swap")
    op.drop_table("node_swap")
    op.drop_index(op.f("ix_node_burn_in_node_id"), table_name="node_burn_in")
    op.drop_table("node_burn_in")
    op.drop_index("ix_health_event_node_at", table_name="health_event")
    op.drop_index(op.f("ix_health_event_at"), table_name="health_event")
    op.drop_index(op.f("ix_health_event_gpu_id"), table_name="health_event")
    op.drop_table("health_event")
    op.drop_index(op.f("ix_gpu_node_history_node_id"), table_name="gpu_node_history")
    op.drop_table("gpu_node_history")
    op.drop_index(op.f("ix_fabric_switch_cluster_id"), table_name="fabric_switch")
    op.drop_table("fabric_switch")
    for col in ("cluster_id", "domain_id", "state"):
        op.drop_index(op.f(f"ix_gpu_node_{col}"), table_name="gpu_node")
    op.drop_table("gpu_node")
    op.drop_index(op.f("ix_scaleup_domain_cluster_id"), table_name="scaleup_domain")
    op.drop_table("scaleup_domain")
    op.drop_index(op.f("ix_gpu_cluster_site_id"), table_name="gpu_cluster")
    op.drop_table("gpu_cluster")
    with op.batch_alter_table("gpu_model") as batch:
        for col in reversed(GPU_MODEL_COLUMNS):
            batch.drop_column(col)

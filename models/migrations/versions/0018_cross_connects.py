"""cables and cross-connects; contract items sell cross-connects

Revision ID: 0018
Revises: 0015
Create Date: 2026-11-30

`cable` is a cable between two device ports (NetBox's side A / side B); `cross_connect` links a
customer's port through the meet-me room to a carrier, a cloud on-ramp or another customer, with
its lifecycle dates. A contract item of kind `xconnect` sells them: `setup_price` (new, nullable)
is the installation price of each, its unit price the monthly fee. No existing data changes.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0018'
down_revision: Union[str, Sequence[str], None] = '0017'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

KINDS = ("rack", "hosting", "gpu", "bandwidth", "maintenance", "one_off", "discount", "power")  # as 0017 left them


def _kinds(values) -> str:
    return f"kind IN ({', '.join(repr(v) for v in values)})"


def _versioned():
    return [sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("updated_at", sa.DateTime(), nullable=True),
            sa.Column("updated_by", sa.String(length=64), nullable=True)]


def upgrade() -> None:
    op.add_column("contract_item", sa.Column("setup_price", sa.Numeric(14, 4), nullable=True))
    with op.batch_alter_table("contract_item") as batch:
        batch.drop_constraint(op.f("ck_contract_item_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_contract_item_kind"), _kinds(KINDS + ("xconnect",)))
    op.create_table(
        "cable",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("side_a_device_id", sa.Integer(), nullable=False),
        sa.Column("side_a_type", sa.String(length=32), nullable=False),
        sa.Column("side_a_name", sa.String(length=64), nullable=False),
        sa.Column("side_b_device_id", sa.Integer(), nullable=False),
        sa.Column("side_b_type", sa.String(length=32), nullable=False),
        sa.Column("side_b_name", sa.String(length=64), nullable=False),
        sa.Column("type", sa.String(length=16), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=64), nullable=True),
        sa.Column("color", sa.String(length=6), nullable=True),
        sa.Column("length", sa.Numeric(8, 2), nullable=True),
        sa.Column("length_unit", sa.String(length=2), nullable=True),
        *_versioned(),
        sa.CheckConstraint("side_a_type IN ('dcim.interface', 'dcim.frontport', 'dcim.rearport')",
                           name=op.f("ck_cable_side_a_type")),
        sa.CheckConstraint("side_b_type IN ('dcim.interface', 'dcim.frontport', 'dcim.rearport')",
                           name=op.f("ck_cable_side_b_type")),
        sa.CheckConstraint("type IS NULL OR type IN ('cat5e', 'cat6', 'cat6a', 'mmf-om3', 'mmf-om4', 'smf-os2', "
                           "'dac-passive', 'aoc')", name=op.f("ck_cable_type")),
        sa.CheckConstraint("status IN ('connected', 'planned', 'decommissioning')", name=op.f("ck_cable_status")),
        sa.CheckConstraint("length_unit IS NULL OR length_unit IN ('m', 'cm', 'ft', 'in')",
                           name=op.f("ck_cable_length_unit")),
        sa.CheckConstraint("length IS NULL OR (length > 0 AND length_unit IS NOT NULL)", name=op.f("ck_cable_length")),
        sa.ForeignKeyConstraint(["side_a_device_id"], ["device.id"], name=op.f("fk_cable_side_a_device_id_device")),
        sa.ForeignKeyConstraint(["side_b_device_id"], ["device.id"], name=op.f("fk_cable_side_b_device_id_device")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cable")),
        sa.UniqueConstraint("label", name=op.f("uq_cable_label")),
        sa.UniqueConstraint("side_a_device_id", "side_a_type", "side_a_name", name="uq_cable_side_a"),
        sa.UniqueConstraint("side_b_device_id", "side_b_type", "side_b_name", name="uq_cable_side_b"),
    )
    op.create_index(op.f("ix_cable_side_a_device_id"), "cable", ["side_a_device_id"], unique=False)
    op.create_index(op.f("ix_cable_side_b_device_id"), "cable", ["side_b_device_id"], unique=False)
    op.create_table(
        "cross_connect",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reference", sa.String(length=32), nullable=False),
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("rack_id", sa.Integer(), nullable=False),
        sa.Column("panel", sa.String(length=64), nullable=False),
        sa.Column("port", sa.String(length=32), nullable=False),
        sa.Column("mmr_panel", sa.String(length=64), nullable=True),
        sa.Column("mmr_port", sa.String(length=32), nullable=True),
        sa.Column("peer_kind", sa.String(length=16), nullable=False),
        sa.Column("peer_name", sa.String(length=128), nullable=True),
        sa.Column("peer_customer_id", sa.Integer(), nullable=True),
        sa.Column("peer_port", sa.String(length=64), nullable=True),
        sa.Column("medium", sa.String(length=16), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("circuit_id", sa.String(length=64), nullable=True),
        sa.Column("ordered_date", sa.Date(), nullable=False),
        sa.Column("installed_date", sa.Date(), nullable=True),
        sa.Column("active_date", sa.Date(), nullable=True),
        sa.Column("disconnected_date", sa.Date(), nullable=True),
        sa.Column("work_note", sa.Text(), nullable=True),
        sa.Column("contract_item_id", sa.Integer(), nullable=True),
        *_versioned(),
        sa.CheckConstraint("peer_kind IN ('carrier', 'cloud', 'customer')", name=op.f("ck_cross_connect_peer_kind")),
        sa.CheckConstraint("medium IN ('smf', 'mmf', 'copper')", name=op.f("ck_cross_connect_medium")),
        sa.CheckConstraint("state IN ('ordered', 'installed', 'active', 'disconnected')",
                           name=op.f("ck_cross_connect_state")),
        sa.CheckConstraint("peer_kind <> 'customer' OR peer_customer_id IS NOT NULL",
                           name=op.f("ck_cross_connect_peer_customer")),
        sa.CheckConstraint("peer_kind = 'customer' OR peer_name IS NOT NULL", name=op.f("ck_cross_connect_peer_name")),
        sa.CheckConstraint("installed_date IS NULL OR installed_date >= ordered_date",
                           name=op.f("ck_cross_connect_installed_after_order")),
        sa.CheckConstraint("active_date IS NULL OR (installed_date IS NOT NULL AND active_date >= installed_date)",
                           name=op.f("ck_cross_connect_active_after_install")),
        sa.CheckConstraint("disconnected_date IS NULL OR disconnected_date >= ordered_date",
                           name=op.f("ck_cross_connect_disconnected_dates")),
        sa.ForeignKeyConstraint(["customer_id"], ["customer.id"], name=op.f("fk_cross_connect_customer_id_customer")),
        sa.ForeignKeyConstraint(["peer_customer_id"], ["customer.id"],
                                name=op.f("fk_cross_connect_peer_customer_id_customer")),
        sa.ForeignKeyConstraint(["rack_id"], ["rack.id"], name=op.f("fk_cross_connect_rack_id_rack")),
        sa.ForeignKeyConstraint(["contract_item_id"], ["contract_item.id"],
                                name=op.f("fk_cross_connect_contract_item_id_contract_item")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cross_connect")),
        sa.UniqueConstraint("reference", name=op.f("uq_cross_connect_reference")),
    )
    for col in ("customer_id", "rack_id", "peer_customer_id", "state", "circuit_id", "contract_item_id"):
        op.create_index(op.f(f"ix_cross_connect_{col}"), "cross_connect", [col], unique=False)


def downgrade() -> None:
    for col in ("customer_id", "rack_id", "peer_customer_id", "state", "circuit_id", "contract_item_id"):
        op.drop_index(op.f(f"ix_cross_connect_{col}"), table_name="cross_connect")
    op.drop_table("cross_connect")
    op.drop_index(op.f("ix_cable_side_b_device_id"), table_name="cable")
    op.drop_index(op.f("ix_cable_side_a_device_id"), table_name="cable")
    op.drop_table("cable")
    # Items that sold cross-connects become one-off charges (their statement lines stay as billed).
    op.execute("UPDATE contract_item SET kind = 'one_off' WHERE kind = 'xconnect'")
    with op.batch_alter_table("contract_item") as batch:
        batch.drop_constraint(op.f("ck_contract_item_kind"), type_="check")
        batch.create_check_constraint(op.f("ck_contract_item_kind"), _kinds(KINDS))
        batch.drop_column("setup_price")

"""leasable space: U-range leases and cages

Revision ID: 0012
Revises: 0008
Create Date: 2026-11-30

A rack is leased whole or in parts: `space_lease` holds one customer's units of one rack for a
period (face NULL = both faces). A `cage` is a named set of racks in a room (`rack.cage_id`)
leased as one unit. A contract item names its space: rack (+ U range and face) or cage.

Data: every rack leased whole today (status leased with a customer) gets a whole-rack lease
row, dated from the live contract item that holds it when there is one, else from today, open.
"""
import datetime as dt
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0012'
down_revision: Union[str, Sequence[str], None] = '0008'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _versioned():
    return [sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("updated_at", sa.DateTime(), nullable=True),
            sa.Column("updated_by", sa.String(length=64), nullable=True)]


def upgrade() -> None:
    op.create_table(
        "cage",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("note", sa.String(length=255), nullable=True),
        *_versioned(),
        sa.ForeignKeyConstraint(["room_id"], ["room.id"], name=op.f("fk_cage_room_id_room")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cage")),
        sa.UniqueConstraint("room_id", "name", name="uq_cage_room_name"),
    )
    op.create_index(op.f("ix_cage_room_id"), "cage", ["room_id"], unique=False)
    # On SQLite a plain ADD COLUMN with an inline REFERENCES: a batch copy of rack or
    # contract_item would drop tables that other rows reference, which SQLite refuses on a
    # populated database (foreign keys are on).
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE rack ADD COLUMN cage_id INTEGER CONSTRAINT fk_rack_cage_id_cage REFERENCES cage (id)")
        op.execute("ALTER TABLE contract_item ADD COLUMN cage_id INTEGER "
                   "CONSTRAINT fk_contract_item_cage_id_cage REFERENCES cage (id)")
    else:
        op.add_column("rack", sa.Column("cage_id", sa.Integer(), nullable=True))
        op.create_foreign_key(op.f("fk_rack_cage_id_cage"), "rack", "cage", ["cage_id"], ["id"])
        op.add_column("contract_item", sa.Column("cage_id", sa.Integer(), nullable=True))
        op.create_foreign_key(op.f("fk_contract_item_cage_id_cage"), "contract_item", "cage", ["cage_id"], ["id"])
    op.add_column("contract_item", sa.Column("face", sa.String(length=8), nullable=True))
    op.create_index(op.f("ix_rack_cage_id"), "rack", ["cage_id"], unique=False)
    op.create_index(op.f("ix_contract_item_cage_id"), "contract_item", ["cage_id"], unique=False)
    op.create_table(
        "space_lease",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("rack_id", sa.Integer(), nullable=False),
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("face", sa.String(length=8), nullable=True),
        sa.Column("u_from", sa.Integer(), nullable=False),
        sa.Column("u_to", sa.Integer(), nullable=False),
        sa.Column("start_date", sa.Date(), nullable=False),
        sa.Column("end_date", sa.Date(), nullable=True),
        sa.Column("cage_id", sa.Integer(), nullable=True),
        sa.Column("contract_item_id", sa.Integer(), nullable=True),
        sa.Column("note", sa.String(length=255), nullable=True),
        *_versioned(),
        sa.CheckConstraint("u_from >= 1 AND u_to >= u_from", name=op.f("ck_space_lease_units")),
        sa.CheckConstraint("end_date IS NULL OR end_date >= start_date", name=op.f("ck_space_lease_dates")),
        sa.CheckConstraint("face IS NULL OR face IN ('front', 'rear')", name=op.f("ck_space_lease_face")),
        sa.ForeignKeyConstraint(["rack_id"], ["rack.id"], name=op.f("fk_space_lease_rack_id_rack")),
        sa.ForeignKeyConstraint(["customer_id"], ["customer.id"], name=op.f("fk_space_lease_customer_id_customer")),
        sa.ForeignKeyConstraint(["cage_id"], ["cage.id"], name=op.f("fk_space_lease_cage_id_cage")),
        sa.ForeignKeyConstraint(["contract_item_id"], ["contract_item.id"],
                                name=op.f("fk_space_lease_contract_item_id_contract_item")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_space_lease")),
    )
    for col in ("rack_id", "customer_id", "cage_id", "contract_item_id"):
        op.create_index(op.f(f"ix_space_lease_{col}"), "space_lease", [col], unique=False)
    _whole_racks_stay_leased()


def _whole_racks_stay_leased() -> None:
    conn = op.get_bind()
    today = dt.datetime.now(dt.timezone.utc).date()
    racks = conn.execute(sa.text(
        "SELECT id, customer_id, u_height FROM rack WHERE status = 'leased' AND customer_id IS NOT NULL")).all()
    for rack_id, customer_id, height in racks:
        held = conn.execute(sa.text(
            "SELECT i.id, COALESCE(i.service_start, c.start_date), COALESCE(i.service_end, c.end_date) "
            "FROM contract_item i JOIN contract c ON c.id = i.contract_id "
            "WHERE i.rack_id = :r AND i.kind = 'rack' AND c.customer_id = :cu "
            "AND c.status IN ('active', 'suspended') ORDER BY c.start_date DESC, i.id"),
            {"r": rack_id, "cu": customer_id}).first()
        item_id, start, end = held if held else (None, today, None)
        conn.execute(sa.text(
            "INSERT INTO space_lease (rack_id, customer_id, face, u_from, u_to, start_date, end_date, "
            "contract_item_id, note, version, updated_by) VALUES (:r, :cu, NULL, 1, :h, :s, :e, :i, :n, 1, "
            "'migration 0012')"),
            {"r": rack_id, "cu": customer_id, "h": height, "s": start, "e": end, "i": item_id,
             "n": "leased whole before U-range leases existed"})


def downgrade() -> None:
    for col in ("rack_id", "customer_id", "cage_id", "contract_item_id"):
        op.drop_index(op.f(f"ix_space_lease_{col}"), table_name="space_lease")
    op.drop_table("space_lease")
    op.drop_index(op.f("ix_contract_item_cage_id"), table_name="contract_item")
    op.drop_index(op.f("ix_rack_cage_id"), table_name="rack")
    sqlite = op.get_bind().dialect.name == "sqlite"  # there the batch copy leaves the inline reference out
    with op.batch_alter_table("contract_item") as batch:
        if not sqlite:
            batch.drop_constraint("fk_contract_item_cage_id_cage", type_="foreignkey")
        batch.drop_column("face")
        batch.drop_column("cage_id")
    with op.batch_alter_table("rack") as batch:
        if not sqlite:
            batch.drop_constraint("fk_rack_cage_id_cage", type_="foreignkey")
        batch.drop_column("cage_id")
    op.drop_index(op.f("ix_cage_room_id"), table_name="cage")
    op.drop_table("cage")

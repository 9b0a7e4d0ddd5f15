"""finance: invoicing profiles, fapiao records, tax classifications, deposits, overdue decisions

Revision ID: 0019
Revises: 0015
Create Date: 2026-11-30

A customer's invoicing profile (开票信息); the fapiao issued on the tax platform, recorded against
statements (blue) or credit notes (red, linked to the blue one); the tax classification each kind
of charge is invoiced under (seeded, editable); deposits and prepayments as entries that sum to
their balance; and the decisions taken on suspension proposals for overdue customers.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0019'
down_revision: Union[str, Sequence[str], None] = '0018'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

FAPIAO_TYPES = "fapiao_type IN ('digital_special', 'digital_normal', 'paper')"
ITEM_KINDS = ("item_kind IN ('rack', 'hosting', 'gpu', 'bandwidth', 'maintenance', 'one_off', 'discount', 'power', "
              "'xconnect')")  # as 0017 and 0018 left the item kinds
# (item kind, 商品和服务税收分类编码, 简称, 项目名称): defaults, to be confirmed by the finance desk
CLASSIFICATIONS = (
    ("rack", "3040203050000000000", "信息技术服务", "机柜租赁服务"),
    ("hosting", "3040203050000000000", "信息技术服务", "服务器托管服务"),
    ("gpu", "3040203050000000000", "信息技术服务", "算力服务"),
    ("bandwidth", "3030200000000000000", "增值电信服务", "带宽服务"),
    ("maintenance", "3040203030000000000", "信息技术服务", "运维服务"),
    ("one_off", "3040203030000000000", "信息技术服务", "技术服务"),
    ("discount", "3040203050000000000", "信息技术服务", "折扣"),
    ("power", "3040203050000000000", "信息技术服务", "机房电力服务"),
    ("xconnect", "3040203050000000000", "信息技术服务", "交叉连接服务"),
)


def _created(table: str) -> list:
    return [sa.Column("created_at", sa.DateTime(), nullable=False),
            sa.Column("created_by", sa.String(length=64), nullable=True)]


def upgrade() -> None:
    op.create_table(
        "invoicing_profile",
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=255), nullable=False),
        sa.Column("tax_id", sa.String(length=20), nullable=False),
        sa.Column("address_phone", sa.String(length=255), nullable=True),
        sa.Column("bank_account", sa.String(length=255), nullable=True),
        sa.Column("fapiao_type", sa.String(length=20), nullable=False),
        sa.Column("email", sa.String(length=255), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("updated_by", sa.String(length=64), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.CheckConstraint(FAPIAO_TYPES, name=op.f("ck_invoicing_profile_fapiao_type")),
        sa.ForeignKeyConstraint(["customer_id"], ["customer.id"], name=op.f("fk_invoicing_profile_customer_id_customer")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invoicing_profile")),
        sa.UniqueConstraint("customer_id", name=op.f("uq_invoicing_profile_customer_id")),
    )
    tc = op.create_table(
        "tax_classification",
        sa.Column("item_kind", sa.String(length=16), nullable=False),
        sa.Column("code", sa.String(length=19), nullable=False),
        sa.Column("short_name", sa.String(length=32), nullable=False),
        sa.Column("item_name", sa.String(length=64), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("updated_by", sa.String(length=64), nullable=True),
        sa.CheckConstraint(ITEM_KINDS, name=op.f("ck_tax_classification_item_kind")),
        sa.PrimaryKeyConstraint("item_kind", name=op.f("pk_tax_classification")),
    )
    import datetime as dt
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    op.bulk_insert(tc, [{"item_kind": k, "code": c, "short_name": s, "item_name": n, "updated_at": now,
                         "updated_by": None} for k, c, s, n in CLASSIFICATIONS])
    op.create_table(
        "fapiao",
        sa.Column("statement_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("number", sa.String(length=32), nullable=False),
        sa.Column("issued_on", sa.Date(), nullable=False),
        sa.Column("fapiao_type", sa.String(length=20), nullable=False),
        sa.Column("amount", sa.Numeric(precision=14, scale=2), nullable=False),
        sa.Column("tax", sa.Numeric(precision=14, scale=2), nullable=False),
        sa.Column("original_id", sa.Integer(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        *_created("fapiao"),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.CheckConstraint(FAPIAO_TYPES, name=op.f("ck_fapiao_fapiao_type")),
        sa.CheckConstraint("kind IN ('blue', 'red')", name=op.f("ck_fapiao_kind")),
        sa.CheckConstraint("(kind = 'blue' AND amount > 0 AND tax >= 0 AND original_id IS NULL) OR "
                           "(kind = 'red' AND amount < 0 AND tax <= 0 AND original_id IS NOT NULL)",
                           name=op.f("ck_fapiao_sign")),
        sa.ForeignKeyConstraint(["statement_id"], ["statement.id"], name=op.f("fk_fapiao_statement_id_statement")),
        sa.ForeignKeyConstraint(["original_id"], ["fapiao.id"], name=op.f("fk_fapiao_original_id_fapiao")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fapiao")),
        sa.UniqueConstraint("number", name=op.f("uq_fapiao_number")),
    )
    op.create_index(op.f("ix_fapiao_statement_id"), "fapiao", ["statement_id"])
    op.create_index(op.f("ix_fapiao_original_id"), "fapiao", ["original_id"])
    op.create_table(
        "deposit_entry",
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("contract_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("entry", sa.String(length=8), nullable=False),
        sa.Column("on_date", sa.Date(), nullable=False),
        sa.Column("amount", sa.Numeric(precision=14, scale=2), nullable=False),
        sa.Column("statement_id", sa.Integer(), nullable=True),
        sa.Column("ref", sa.String(length=64), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        *_created("deposit_entry"),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.CheckConstraint("kind IN ('deposit', 'prepayment')", name=op.f("ck_deposit_entry_kind")),
        sa.CheckConstraint("(entry = 'receipt' AND amount > 0 AND statement_id IS NULL) OR "
                           "(entry = 'apply' AND amount < 0 AND statement_id IS NOT NULL) OR "
                           "(entry = 'refund' AND amount < 0 AND statement_id IS NULL)",
                           name=op.f("ck_deposit_entry_sign")),
        sa.ForeignKeyConstraint(["customer_id"], ["customer.id"], name=op.f("fk_deposit_entry_customer_id_customer")),
        sa.ForeignKeyConstraint(["contract_id"], ["contract.id"], name=op.f("fk_deposit_entry_contract_id_contract")),
        sa.ForeignKeyConstraint(["statement_id"], ["statement.id"],
                                name=op.f("fk_deposit_entry_statement_id_statement")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deposit_entry")),
    )
    op.create_index(op.f("ix_deposit_entry_customer_id"), "deposit_entry", ["customer_id"])
    op.create_index(op.f("ix_deposit_entry_contract_id"), "deposit_entry", ["contract_id"])
    op.create_index("ix_deposit_entry_statement_id", "deposit_entry", ["statement_id"])
    op.create_table(
        "overdue_decision",
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("decision", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("overdue_amount", sa.Numeric(precision=14, scale=2), nullable=False),
        sa.Column("overdue_days", sa.Integer(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=False),
        sa.Column("decided_by", sa.String(length=64), nullable=True),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.CheckConstraint("decision IN ('suspend', 'keep')", name=op.f("ck_overdue_decision_decision")),
        sa.ForeignKeyConstraint(["customer_id"], ["customer.id"],
                                name=op.f("fk_overdue_decision_customer_id_customer")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_overdue_decision")),
        sa.UniqueConstraint("customer_id", "decided_at", name="uq_overdue_decision_customer_at"),
    )
    op.create_index(op.f("ix_overdue_decision_customer_id"), "overdue_decision", ["customer_id"])


def downgrade() -> None:
    op.drop_table("overdue_decision")
    op.drop_table("deposit_entry")
    op.drop_table("fapiao")
    op.drop_table("tax_classification")
    op.drop_table("invoicing_profile")

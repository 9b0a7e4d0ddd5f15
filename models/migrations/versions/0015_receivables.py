"""receivables: payment terms per contract, a due date per statement, payments and allocations

Revision ID: 0015
Revises: 0012
Create Date: 2026-11-30

A contract has payment terms (days after issue, default 30, and their wording); a statement gets
its due date when issued (statements issued before this revision keep NULL: the aging counts them
as due 30 days after issue). `payment` holds bank receipts and the counter-entries reversing them;
`payment_allocation` the parts of a payment settled against statements. Neither is ever edited.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0015'
down_revision: Union[str, Sequence[str], None] = '0012'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # plain ADD/DROP COLUMN (no table copy: statement has triggers on SQLite)
    op.add_column("contract", sa.Column("payment_term_days", sa.Integer(), server_default="30", nullable=False))
    op.add_column("contract", sa.Column("payment_terms", sa.String(length=64), nullable=True))
    op.add_column("statement", sa.Column("due_date", sa.Date(), nullable=True))
    op.create_table(
        "payment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("customer_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("received_on", sa.Date(), nullable=False),
        sa.Column("amount", sa.Numeric(precision=14, scale=2), nullable=False),
        sa.Column("payer", sa.String(length=255), nullable=True),
        sa.Column("bank_ref", sa.String(length=64), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("reverses_id", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=True),
        sa.CheckConstraint("kind IN ('receipt', 'reversal')", name=op.f("ck_payment_kind")),
        sa.CheckConstraint("(kind = 'receipt' AND amount > 0 AND reverses_id IS NULL) OR "
                           "(kind = 'reversal' AND amount < 0 AND reverses_id IS NOT NULL)",
                           name=op.f("ck_payment_sign")),
        sa.ForeignKeyConstraint(["customer_id"], ["customer.id"], name=op.f("fk_payment_customer_id_customer")),
        sa.ForeignKeyConstraint(["reverses_id"], ["payment.id"], name=op.f("fk_payment_reverses_id_payment")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment")),
        sa.UniqueConstraint("bank_ref", "kind", name="uq_payment_bank_ref_kind"),
        sa.UniqueConstraint("reverses_id", name=op.f("uq_payment_reverses_id")),
    )
    op.create_index(op.f("ix_payment_customer_id"), "payment", ["customer_id"])
    op.create_index(op.f("ix_payment_received_on"), "payment", ["received_on"])
    op.create_table(
        "payment_allocation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("payment_id", sa.Integer(), nullable=False),
        sa.Column("statement_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Numeric(precision=14, scale=2), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("created_by", sa.String(length=64), nullable=True),
        sa.CheckConstraint("amount <> 0", name=op.f("ck_payment_allocation_nonzero")),
        sa.ForeignKeyConstraint(["payment_id"], ["payment.id"],
                                name=op.f("fk_payment_allocation_payment_id_payment")),
        sa.ForeignKeyConstraint(["statement_id"], ["statement.id"],
                                name=op.f("fk_payment_allocation_statement_id_statement")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_payment_allocation")),
    )
    op.create_index(op.f("ix_payment_allocation_payment_id"), "payment_allocation", ["payment_id"])
    op.create_index("ix_payment_allocation_statement_id", "payment_allocation", ["statement_id"])


def downgrade() -> None:
    op.drop_table("payment_allocation")
    op.drop_table("payment")
    op.drop_column("statement", "due_date")
    op.drop_column("contract", "payment_terms")
    op.drop_column("contract", "payment_term_days")

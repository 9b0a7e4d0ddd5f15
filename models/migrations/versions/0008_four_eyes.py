"""four eyes on contract approval: who drafted, submitted and approved; installation settings

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-30

A contract remembers who drafted it, who submitted it and who approved it (logins), and whether
the approval was made with four eyes off. `app_setting` holds installation-wide settings such as
`contract_four_eyes` (absent = on); they are changed only through an audited use case.
Contracts approved before this revision keep NULLs: who did what then is in the audit trail.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: Union[str, Sequence[str], None] = '0007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "app_setting",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=255), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=True),
        sa.Column("updated_by", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_app_setting")),
    )
    with op.batch_alter_table("contract") as batch:
        batch.add_column(sa.Column("drafted_by", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("submitted_by", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("approved_by", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("approved_four_eyes", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("contract") as batch:
        batch.drop_column("approved_four_eyes")
        batch.drop_column("approved_by")
        batch.drop_column("submitted_by")
        batch.drop_column("drafted_by")
    op.drop_table("app_setting")

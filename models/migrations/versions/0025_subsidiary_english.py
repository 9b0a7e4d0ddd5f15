"""a subsidiary's English address and bank name, printed on English documents

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-01

`subsidiary.address_en` and `subsidiary.bank_name_en`, optional, like `name_en`: an English
document prints them instead of the Chinese address and bank; when empty it prints the Chinese ones
(the registered address is still the legal one).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0025'
down_revision: Union[str, Sequence[str], None] = '0024'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # plain ADD COLUMN on both backends (nullable, no default: no table copy)
    op.add_column("subsidiary", sa.Column("address_en", sa.String(length=255), nullable=True))
    op.add_column("subsidiary", sa.Column("bank_name_en", sa.String(length=128), nullable=True))


def downgrade() -> None:
    op.drop_column("subsidiary", "bank_name_en")
    op.drop_column("subsidiary", "address_en")

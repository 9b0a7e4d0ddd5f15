"""statement lines in both languages; an optional English description of a contract item

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-30

A statement line's description and note are written at billing time in the contract's language
(`description`, `note`, unchanged). The run now writes the same line in the other language too,
`description_other` / `note_other` (English on a Chinese contract's line, Chinese on an English
one's; NULL where it reads the same), so a document prints a line in its own language. Two columns,
not one pair per language: the run's batched INSERT binds two more values a line, not four. Lines
billed before this keep NULL there and print as they were written.

`contract_item.description_en`: the English description of an item of a Chinese contract, printed
on English documents (when empty they use a name made from the item's kind and object).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0024'
down_revision: Union[str, Sequence[str], None] = '0023'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # plain ADD COLUMN (no table copy: statement_line has triggers on SQLite that a copy would drop)
    op.add_column("statement_line", sa.Column("description_other", sa.String(length=255), nullable=True))
    op.add_column("statement_line", sa.Column("note_other", sa.Text(), nullable=True))
    op.add_column("contract_item", sa.Column("description_en", sa.String(length=255), nullable=True))


def downgrade() -> None:
    op.drop_column("contract_item", "description_en")
    for name in ("note_other", "description_other"):
        op.drop_column("statement_line", name)

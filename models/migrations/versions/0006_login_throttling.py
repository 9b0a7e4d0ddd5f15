"""login throttling and the per-database key for unknown login names

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30

app_user gains failed_logins (failed attempts in a row) and locked_until (the lock they
earned; app/auth.py LOGIN_POLICY). app_secret holds per-database secrets, made here from the
operating system's random source: login_hmac_key keys the HMAC that stands in the audit trail
for a login name nobody has (a password typed into the login field must never be stored).
"""
import secrets
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: Union[str, Sequence[str], None] = '0005'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table('app_user', schema=None) as batch_op:
        batch_op.add_column(sa.Column('failed_logins', sa.Integer(), server_default='0', nullable=False))
        batch_op.add_column(sa.Column('locked_until', sa.DateTime(), nullable=True))
    secret = op.create_table('app_secret',
                             sa.Column('name', sa.String(length=32), nullable=False),
                             sa.Column('value', sa.String(length=128), nullable=False),
                             sa.PrimaryKeyConstraint('name', name=op.f('pk_app_secret')))
    op.bulk_insert(secret, [{'name': 'login_hmac_key', 'value': secrets.token_hex(32)}])


def downgrade() -> None:
    op.drop_table('app_secret')
    with op.batch_alter_table('app_user', schema=None) as batch_op:
        batch_op.drop_column('locked_until')
        batch_op.drop_column('failed_logins')

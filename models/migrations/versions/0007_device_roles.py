"""device-type roles for what NetBox's devicetype-library holds

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30

PDUs, UPSs, patch panels, blanks, shelves, routers, firewalls and storage were stored as
server or switch (the only roles besides gpu_server and other). The role check now allows
them (models/choices.py DeviceRole).
"""
from typing import Sequence, Union

from alembic import op

revision: str = '0007'
down_revision: Union[str, Sequence[str], None] = '0006'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

OLD = ('server', 'gpu_server', 'switch', 'other')
NEW = OLD + ('router', 'firewall', 'storage', 'pdu', 'ups', 'patch_panel', 'blank', 'shelf')


def _check(values) -> str:
    return f"role IN ({', '.join(repr(v) for v in values)})"


def upgrade() -> None:
    with op.batch_alter_table('device_type', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_device_type_role'), type_='check')
        batch_op.create_check_constraint(batch_op.f('ck_device_type_role'), _check(NEW))


def downgrade() -> None:
    # Types with a new role go back to the nearest old one.
    op.execute("UPDATE device_type SET role = 'switch' WHERE role IN ('router', 'firewall')")
    op.execute("UPDATE device_type SET role = 'other' WHERE role NOT IN ('server', 'gpu_server', 'switch', 'other')")
    with op.batch_alter_table('device_type', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_device_type_role'), type_='check')
        batch_op.create_check_constraint(batch_op.f('ck_device_type_role'), _check(OLD))

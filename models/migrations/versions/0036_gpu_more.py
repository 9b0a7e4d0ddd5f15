"""the capacity search's indexes: a server's GPUs by model and state, a GPU's leases by end

Revision ID: 0036
Revises: 0034
Create Date: 2026-12-02

The capacity search (app/services/capacity/search.py) asks, per candidate server, whether its GPUs
are all of the models asked and available or leased, and whether a lease of them runs into the
window. `ix_gpu_asset_device_model_state` (device_id, gpu_model_id, state) answers the first from
the index alone, `ix_gpu_lease_gpu_end` (gpu_id, end) the second: on the large data (42,000 nodes)
an open-ended search for any 8-GPU training model went from 2.2 s to 0.2 s with the query's new
shape. Indexes only: no data changes.
"""
from typing import Sequence, Union

from alembic import op


# revision identifiers, used by Alembic.
revision: str = '0036'
down_revision: Union[str, Sequence[str], None] = '0034'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('gpu_asset', schema=None) as batch_op:
        batch_op.create_index('ix_gpu_asset_device_model_state', ['device_id', 'gpu_model_id', 'state'], unique=False)
    with op.batch_alter_table('gpu_lease', schema=None) as batch_op:
        batch_op.create_index('ix_gpu_lease_gpu_end', ['gpu_id', 'end'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('gpu_lease', schema=None) as batch_op:
        batch_op.drop_index('ix_gpu_lease_gpu_end')
    with op.batch_alter_table('gpu_asset', schema=None) as batch_op:
        batch_op.drop_index('ix_gpu_asset_device_model_state')

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

Then the two tables are analysed (both backends). Without it a database analysed before this
revision keeps its old statistics, which have no row for the new indexes, and SQLite's planner
reads each GPU's leases through ix_gpu_lease_gpu_id and the table (for `end`) instead of the
covering ix_gpu_lease_gpu_end: on the large data (390,000 leases) the open-ended search read the
lease rows from disk, 0.8-1.5 s wall instead of 0.2-0.4 s (EXPLAIN QUERY PLAN differs in that step
only). ANALYZE of the two tables takes about 7 s there; PostgreSQL gets fresh statistics the same way.
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
    analyze_tables(('gpu_asset', 'gpu_lease'))


def analyze_tables(tables) -> None:
    """ANALYZE the tables just indexed, so that the planner knows the new indexes (SQLite keeps no
    statistics of an index until it is analysed; PostgreSQL refreshes its column statistics)."""
    for table in tables:
        op.execute(f'ANALYZE "{table}"')


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('gpu_lease', schema=None) as batch_op:
        batch_op.drop_index('ix_gpu_lease_gpu_end')
    with op.batch_alter_table('gpu_asset', schema=None) as batch_op:
        batch_op.drop_index('ix_gpu_asset_device_model_state')

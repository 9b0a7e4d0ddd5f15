"""how many GPUs of each model a server holds: device_gpu_count, kept from gpu_asset

Revision ID: 0042
Revises: 0041
Create Date: 2026-12-07

The Clusters page's list and utilisation chart counted each cluster's GPUs from every GPU in a node:
on the large data (49,000 nodes, 391,613 GPUs in them) an index-only scan of 391,613 entries in each
statement, 80 of its 130-165 ms on PostgreSQL, and the page 474-600 ms at 30 ms RTT (issue 26). The
counts per server and model are kept here by the session on every flush that places, moves or
removes a GPU (models/gpu.follow_gpu_places) and by the writers of many rows (app/services/bulk.py,
the large loader); filled here from gpu_asset.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0042'
down_revision: Union[str, Sequence[str], None] = '0041'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        'device_gpu_count',
        sa.Column('device_id', sa.Integer(), nullable=False),
        sa.Column('gpu_model_id', sa.Integer(), nullable=False),
        sa.Column('n', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_device_gpu_count_device_id_device'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['gpu_model_id'], ['gpu_model.id'],
                                name=op.f('fk_device_gpu_count_gpu_model_id_gpu_model')),
        sa.PrimaryKeyConstraint('device_id', 'gpu_model_id', name=op.f('pk_device_gpu_count')))
    op.execute("INSERT INTO device_gpu_count (device_id, gpu_model_id, n) SELECT device_id, gpu_model_id, count(*) "
               "FROM gpu_asset WHERE device_id IS NOT NULL GROUP BY device_id, gpu_model_id")
    op.execute("ANALYZE device_gpu_count")


def downgrade() -> None:
    op.drop_table('device_gpu_count')

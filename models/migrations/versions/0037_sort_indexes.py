"""sort indexes: every sortable column of the GPU list pages by keyset on an index

Revision ID: 0037
Revises: 0034
Create Date: 2026-12-02

The lists page by keyset on every sortable column, NULLs placed (app/read/lists/paging.py, issue 26):
each window is a range on (column, id). The GPU list's slot, purchase date and cost had no index, so
their first window sorted all 400,000 GPUs (0.9-2.0 s on the large provider); (column, id) serves
the range and its order on both backends. The other sortable columns already have one (serial,
state, warranty end, and the joined model, host and customer through gpu_model_id, device_id and
customer_id with the joined tables' own indexes). Indexes only: no data changes.
"""
from typing import Sequence, Union

from alembic import op

revision: str = '0037'
down_revision: Union[str, Sequence[str], None] = '0036'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

INDEXES = (("ix_gpu_asset_slot_id", "slot"),
           ("ix_gpu_asset_purchase_date_id", "purchase_date"),
           ("ix_gpu_asset_purchase_cost_id", "purchase_cost"))


def upgrade() -> None:
    for name, column in INDEXES:
        op.create_index(name, "gpu_asset", [column, "id"])


def downgrade() -> None:
    for name, _column in INDEXES:
        op.drop_index(name, table_name="gpu_asset")

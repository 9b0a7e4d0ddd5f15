"""performance indexes

Revision ID: 0003
Revises: 0001
Create Date: 2026-11-29

Chosen from EXPLAIN on the large synthetic provider (docs/performance.md):
- audit_event (actor_login, seq) and (action, seq) replace the single-column indexes: the audit
  list sorted by user or action pages by keyset instead of sorting 2,000,000 rows, and the
  filters by actor or action prefix still use them.
- gpu_asset (gpu_model_id, state): the dashboard's fleet-by-model-and-state count becomes an
  index-only scan instead of a visit to every GPU row.
- PostgreSQL: pg_trgm GIN indexes for the contains-filters and the global search on GPU
  serials, device names and customer names (ILIKE '%…%' uses them). SQLite has no trigram
  b-tree; there the same names are plain indexes so that the schema compares equal to the
  models on both backends (a FTS5 trigram table would need the schema comparison to skip its
  shadow tables; see docs/performance.md).
"""
from typing import Sequence, Union

from alembic import op

revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TRIGRAM = (("ix_gpu_asset_serial_trgm", "gpu_asset", "serial"),
           ("ix_device_name_trgm", "device", "name"),
           ("ix_customer_name_trgm", "customer", "name"))


def upgrade() -> None:
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.drop_index('ix_audit_event_actor_login')
        batch_op.drop_index('ix_audit_event_action')
        batch_op.create_index('ix_audit_event_actor_login_seq', ['actor_login', 'seq'], unique=False)
        batch_op.create_index('ix_audit_event_action_seq', ['action', 'seq'], unique=False)
    with op.batch_alter_table('gpu_asset', schema=None) as batch_op:
        batch_op.create_index('ix_gpu_asset_model_state', ['gpu_model_id', 'state'], unique=False)
    if op.get_context().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for name, table, column in TRIGRAM:
            op.execute(f'CREATE INDEX {name} ON "{table}" USING gin ("{column}" gin_trgm_ops)')
    else:
        for name, table, column in TRIGRAM:
            op.execute(f'CREATE INDEX {name} ON "{table}" ("{column}")')
    # Statistics for the new indexes at once: without them SQLite's planner took the unanalysed
    # (gpu_model_id, state) index for the GPU list and sorted all 400,000 rows for every page
    # (456 ms instead of 2 ms), until the next ANALYZE.
    for table in ("gpu_asset", "audit_event", "device", "customer"):
        op.execute(f'ANALYZE "{table}"')


def downgrade() -> None:
    for name, _table, _column in TRIGRAM:
        op.execute(f"DROP INDEX IF EXISTS {name}")
    with op.batch_alter_table('gpu_asset', schema=None) as batch_op:
        batch_op.drop_index('ix_gpu_asset_model_state')
    with op.batch_alter_table('audit_event', schema=None) as batch_op:
        batch_op.drop_index('ix_audit_event_action_seq')
        batch_op.drop_index('ix_audit_event_actor_login_seq')
        batch_op.create_index('ix_audit_event_action', ['action'], unique=False)
        batch_op.create_index('ix_audit_event_actor_login', ['actor_login'], unique=False)

"""trigram indexes for the audit filter and device serials (PostgreSQL only)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29

Measured on the large synthetic provider (docs/performance.md), PostgreSQL:
- the audit list's filter box tests actor, action and object label with ILIKE '%…%'; over
  2,000,000 events every term was a sequential scan (first page and count 1.9-2.8 s each).
  With a pg_trgm GIN index on each of the three columns the OR becomes a BitmapOr: 'lina'
  first page 22 ms, count 6 ms. Terms under three characters still scan.
- device serials and asset tags: the device filter and the global search.
SQLite has no trigram index: nothing is created there (the models mark these indexes as
PostgreSQL-only), and its scans run off the console's GUI thread.
"""
from typing import Sequence, Union

from alembic import op

revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TRIGRAM = (("ix_audit_event_actor_login_trgm", "audit_event", "actor_login"),
           ("ix_audit_event_action_trgm", "audit_event", "action"),
           ("ix_audit_event_object_label_trgm", "audit_event", "object_label"),
           ("ix_device_serial_trgm", "device", "serial"),
           ("ix_device_asset_tag_trgm", "device", "asset_tag"))


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for name, table, column in TRIGRAM:
        op.execute(f'CREATE INDEX IF NOT EXISTS {name} ON "{table}" USING gin ("{column}" gin_trgm_ops)')
    for table in ("audit_event", "device"):
        op.execute(f'ANALYZE "{table}"')


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for name, _table, _column in TRIGRAM:
        op.execute(f"DROP INDEX IF EXISTS {name}")

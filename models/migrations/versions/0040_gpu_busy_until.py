"""a GPU's leases on its own row: gpu_asset.busy_until, in the capacity search's index

Revision ID: 0040
Revises: 0039
Create Date: 2026-12-06

The capacity search (app/services/capacity/search.py) drops every server one of whose GPUs has a
lease running into the window. On the large data (50,000 nodes, 156,000 live leases) that check was
two thirds of an open-ended search on PostgreSQL (≈ 200 of 306 ms): an anti-join of every candidate
server's GPUs against the lease table. busy_until is the latest end of a GPU's leases (9999-12-31
while one is open; NULL when it never had one), kept from gpu_lease by the session on every flush
(models/billing.follow_leases): a GPU whose busy_until is after the window's start may be busy in
it, one before it is free. In the index (device_id, gpu_model_id, state, busy_until) the search
reads it beside the model and state it already reads, from the index alone.

Filled here from gpu_lease for every GPU that has a lease; ix_gpu_asset_device_model_state gives
way to the wider index (same leading columns, so every read of the old one is served).

On PostgreSQL the database's sessions get jit = off (ALTER DATABASE … SET, when the one upgrading
owns the database; otherwise a line says what to run). The server compiles a query to machine code
when its estimated cost passes jit_above_cost; for the console's reads, which return in tens or
hundreds of milliseconds, that compiling is pure wait: 65 ms of the open-ended capacity search's
250 ms on the large data (EXPLAIN ANALYZE: "JIT: Functions: 107 … Total 65.664 ms"), 244 → 194 ms
warm with it off. A setting of the database, not of a connection: it holds through PgBouncer in
transaction mode and costs no round trip.
"""
import datetime as dt
import logging
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0040'
down_revision: Union[str, Sequence[str], None] = '0039'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

OPEN = dt.datetime(9999, 12, 31)   # naive UTC, as UTCDateTime stores it (models/billing.LEASE_OPEN)


def upgrade() -> None:
    op.add_column('gpu_asset', sa.Column('busy_until', sa.DateTime(), nullable=True))
    op.execute(sa.text(
        'UPDATE gpu_asset SET busy_until = (SELECT max(coalesce(l."end", :open)) FROM gpu_lease l '
        'WHERE l.gpu_id = gpu_asset.id) WHERE id IN (SELECT gpu_id FROM gpu_lease)')
        .bindparams(sa.bindparam('open', OPEN, type_=sa.DateTime())))
    op.create_index('ix_gpu_asset_device_fit', 'gpu_asset', ['device_id', 'gpu_model_id', 'state', 'busy_until'])
    op.drop_index('ix_gpu_asset_device_model_state', table_name='gpu_asset')
    op.execute('ANALYZE gpu_asset')
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        set_jit(bind, "off")


def set_jit(bind, value: str | None) -> None:
    """ALTER DATABASE <this one> SET jit (RESET with None) when the current login may: the owner or a superuser."""
    name, may = bind.execute(sa.text(
        "SELECT current_database(), (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) "
        "OR pg_has_role(current_user, d.datdba, 'USAGE') FROM pg_database d WHERE d.datname = current_database()")).one()
    quoted = '"' + name.replace('"', '""') + '"'
    sql = f"ALTER DATABASE {quoted} " + (f"SET jit = {value}" if value else "RESET jit")
    if may:
        op.execute(sql)
    else:
        logging.getLogger("alembic.runtime.migration").warning(
            "0040: not the owner of database %s: to spare the console's reads the JIT compile, its owner may run: %s",
            name, sql)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        set_jit(bind, None)
    op.create_index('ix_gpu_asset_device_model_state', 'gpu_asset', ['device_id', 'gpu_model_id', 'state'])
    op.drop_index('ix_gpu_asset_device_fit', table_name='gpu_asset')
    with op.batch_alter_table('gpu_asset') as batch_op:
        batch_op.drop_column('busy_until')

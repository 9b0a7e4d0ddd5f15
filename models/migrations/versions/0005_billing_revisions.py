"""billing: item handover, line revisions and rebills, quantities that multiply out

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30

- contract_item.handover_at / handover_by / handover_note: an item bills from its handover
  (an instant, taken as its Shanghai date). Items already in service get the start the old
  rules billed them from, so figures already issued stay as they were: a GPU item's first lease
  start (the activation instant, or the planned start if later), else 00:00 Shanghai of its
  planned service start (or the contract's start).
- statement_line.revision, in the unique key (item, charge, period, revision): crediting a
  line frees its key for a corrected revision. statement.rebills_id: the statement a rebill
  corrects.
- statement_line.quantity Numeric(14, 4) → Numeric(26, 12): a part month's quantity carries
  the decimals that make quantity × unit price = amount.
SQLite rebuilds the tables in batch mode, which drops their triggers: they are recreated.

Downgrade: the unique key loses `revision`, so a corrected revision (2, 3 …) of a line keeps its row
with the revision written into its charge ("fee~r2"; an upgrade reads it back); the link from a
rebill to the statement it corrects goes (its lines' notes say "rev. N").
"""
import datetime as dt
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from models.base import UTCDateTime
from models.migrations.triggers import create_triggers, drop_triggers

revision: str = '0005'
down_revision: Union[str, Sequence[str], None] = '0004'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

REVISION_MARK = "~r"  # a downgraded corrected revision's charge: "fee~r2" (charge is String(16))
IN_SERVICE = ("active", "suspended", "expired", "terminated")


def _as_date(value):
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value)[:10])


def _as_utc(value):
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value


def upgrade() -> None:
    drop_triggers()
    with op.batch_alter_table('contract_item', schema=None) as batch_op:
        batch_op.add_column(sa.Column('handover_at', UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('handover_by', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('handover_note', sa.Text(), nullable=True))
    with op.batch_alter_table('statement', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rebills_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_statement_rebills_id_statement', 'statement', ['rebills_id'], ['id'])
    with op.batch_alter_table('statement_line', schema=None) as batch_op:
        batch_op.add_column(sa.Column('revision', sa.Integer(), server_default='1', nullable=False))
        batch_op.alter_column('quantity', existing_type=sa.Numeric(14, 4), type_=sa.Numeric(26, 12),
                              existing_nullable=False)
        batch_op.drop_constraint('uq_statement_line_charge', type_='unique')
        batch_op.create_unique_constraint('uq_statement_line_charge',
                                          ['contract_item_id', 'charge', 'period', 'revision'])
    bind = op.get_bind()
    line = sa.table("statement_line", sa.column("id", sa.Integer), sa.column("charge", sa.String),
                    sa.column("revision", sa.Integer))
    for line_id, charge in bind.execute(sa.select(line.c.id, line.c.charge)
                                        .where(line.c.charge.like(f"%{REVISION_MARK}%"))).all():
        base, _mark, rev = charge.rpartition(REVISION_MARK)  # what a downgrade wrote: back to its revision
        bind.execute(line.update().where(line.c.id == line_id).values(charge=base, revision=int(rev)))
    create_triggers()

    shanghai = dt.timezone(dt.timedelta(hours=8))  # no DST in China since 1991
    rows = bind.execute(sa.text(
        "SELECT ci.id, ci.service_start, c.start_date, "
        "(SELECT MIN(gl.start) FROM gpu_lease gl WHERE gl.contract_item_id = ci.id) "
        "FROM contract_item ci JOIN contract c ON c.id = ci.contract_id "
        "WHERE c.status IN ('active', 'suspended', 'expired', 'terminated')")).all()
    item = sa.table("contract_item", sa.column("id", sa.Integer), sa.column("handover_at", UTCDateTime()),
                    sa.column("handover_by", sa.String), sa.column("handover_note", sa.Text))
    for item_id, service_start, start_date, lease_start in rows:
        if lease_start is not None:
            at = _as_utc(lease_start)
        else:
            day = max(_as_date(service_start or start_date), _as_date(start_date))
            at = dt.datetime.combine(day, dt.time(), shanghai).astimezone(dt.timezone.utc)
        bind.execute(item.update().where(item.c.id == item_id).values(
            handover_at=at, handover_by="system",
            handover_note="taken over from the billing before handovers were recorded (migration 0005)"))


def downgrade() -> None:
    drop_triggers()  # issued lines are frozen by them
    bind = op.get_bind()
    line = sa.table("statement_line", sa.column("id", sa.Integer), sa.column("charge", sa.String),
                    sa.column("revision", sa.Integer))
    for line_id, charge, rev in bind.execute(sa.select(line.c.id, line.c.charge, line.c.revision)
                                             .where(line.c.revision > 1)).all():
        bind.execute(line.update().where(line.c.id == line_id).values(charge=f"{charge}{REVISION_MARK}{rev}"))
    with op.batch_alter_table('statement_line', schema=None) as batch_op:
        batch_op.drop_constraint('uq_statement_line_charge', type_='unique')
        batch_op.create_unique_constraint('uq_statement_line_charge', ['contract_item_id', 'charge', 'period'])
        batch_op.alter_column('quantity', existing_type=sa.Numeric(26, 12), type_=sa.Numeric(14, 4),
                              existing_nullable=False)
        batch_op.drop_column('revision')
    with op.batch_alter_table('statement', schema=None) as batch_op:
        batch_op.drop_constraint('fk_statement_rebills_id_statement', type_='foreignkey')
        batch_op.drop_column('rebills_id')
    with op.batch_alter_table('contract_item', schema=None) as batch_op:
        batch_op.drop_column('handover_note')
        batch_op.drop_column('handover_by')
        batch_op.drop_column('handover_at')
    create_triggers()

"""what the sweep computed of an open ticket's SLA clocks, and a number the rules' writes move

Revision ID: 0041
Revises: 0040
Create Date: 2026-12-07

The dashboard's desk cards (breached, breaching within the hour) need the clocks of every open
ticket: on the large data 10,000 histories computed in Python, ≈ 1 s of the console's CPU before the
main window is ready (issue 26). The sweep (app/services/operations/sla.check_sla, the console's
timer) computes those clocks anyway; ticket_sla_state keeps what it found with the inputs it found
it from, and the cards compute again only the tickets whose inputs moved since.

sla_rules_generation holds one number that the triggers below move on every write that can change a
clock other than the ticket's own: China's days, calendars, targets, coverage, planned maintenance
and its impact, the settings (the notice hours), a contract's subsidiary or customer, a customer's
region. In the database, so that no writer (a service, a bulk load, psql) can change a rule and leave
a state looking current. On PostgreSQL the function runs as its owner (SECURITY DEFINER): the
writers of those tables need no right on sla_rules_generation.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0041'
down_revision: Union[str, Sequence[str], None] = '0040'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

# (table, the UPDATE columns that matter, or None for any; whether its DELETE and INSERT matter)
MOVERS = (
    ("holiday_day", None), ("sla_calendar", None), ("sla_target", None), ("coverage", None),
    ("maintenance_window", None), ("maintenance_impact", None), ("app_setting", None),
    ("contract", ("subsidiary_id", "customer_id")), ("customer", ("region_code",)),
)
FUNCTION = "idc_sla_rules_moved()"


def _events(columns) -> list[tuple[str, str]]:
    """(name suffix, trigger event) of one table: every write, or a change of the named columns and a
    delete (a new contract or customer changes no ticket's rules)."""
    if columns is None:
        return [("ins", "INSERT"), ("upd", "UPDATE"), ("del", "DELETE")]
    return [("upd", f"UPDATE OF {', '.join(columns)}"), ("del", "DELETE")]


def upgrade() -> None:
    op.create_table(
        'sla_rules_generation',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('n', sa.Integer(), server_default='0', nullable=False),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_sla_rules_generation')))
    op.execute("INSERT INTO sla_rules_generation (id, n) VALUES (1, 0)")
    op.create_table(
        'ticket_sla_state',
        sa.Column('ticket_id', sa.Integer(), nullable=False),
        sa.Column('generation', sa.Integer(), nullable=False),
        sa.Column('last_event_id', sa.Integer(), nullable=False),
        sa.Column('priority', sa.String(length=2), nullable=False),
        sa.Column('state', sa.String(length=20), nullable=False),
        sa.Column('contract_id', sa.Integer(), nullable=True),
        sa.Column('next_due', sa.DateTime(), nullable=True),
        sa.Column('breached', sa.Boolean(), nullable=False),
        sa.Column('valid_until', sa.DateTime(), nullable=True),
        sa.Column('computed_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['ticket_id'], ['ticket.id'], name=op.f('fk_ticket_sla_state_ticket_id_ticket'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('ticket_id', name=op.f('pk_ticket_sla_state')))
    bump = "UPDATE sla_rules_generation SET n = n + 1 WHERE id = 1"
    if op.get_context().dialect.name == "sqlite":
        for table, columns in MOVERS:
            for suffix, event in _events(columns):
                op.execute(f"CREATE TRIGGER {table}_sla_moved_{suffix} AFTER {event} ON {table} "
                           f"BEGIN {bump}; END")
        return
    op.execute(f"""CREATE FUNCTION {FUNCTION} RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
        SET search_path = public AS $$ BEGIN {bump}; RETURN NULL; END $$""")
    op.execute(f"REVOKE ALL ON FUNCTION {FUNCTION} FROM PUBLIC")
    for table, columns in MOVERS:
        events = " OR ".join([event for _suffix, event in _events(columns)] + ["TRUNCATE"])
        op.execute(f"CREATE TRIGGER {table}_sla_moved AFTER {events} ON {table} "
                   f"FOR EACH STATEMENT EXECUTE FUNCTION {FUNCTION}")


def downgrade() -> None:
    if op.get_context().dialect.name == "sqlite":
        for table, columns in MOVERS:
            for suffix, _event in _events(columns):
                op.execute(f"DROP TRIGGER IF EXISTS {table}_sla_moved_{suffix}")
    else:
        for table, _columns in MOVERS:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_sla_moved ON {table}")
        op.execute(f"DROP FUNCTION IF EXISTS {FUNCTION}")
    op.drop_table('ticket_sla_state')
    op.drop_table('sla_rules_generation')

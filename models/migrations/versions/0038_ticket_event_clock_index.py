"""ticket event clock index: the SLA clocks read their history from an index alone

Revision ID: 0038
Revises: 0037
Create Date: 2026-12-02

The SLA state of the open tickets (app/services/operations/sla.sla_states) reads every open ticket's
state and priority events, ordered, 500 tickets a query. Through the ticket_id index each of those
≈22,000 rows (10,000 open tickets of the large provider, among 2.2 M events with 1 M notes) was a
lookup in the table: 186 ms on SQLite. An index on (ticket_id, kind, at, id, from_value, to_value)
holds every column the read needs, so it is answered from the index alone: 30 ms. Index only: no
data changes.
"""
from typing import Sequence, Union

from alembic import op

revision: str = '0038'
down_revision: Union[str, Sequence[str], None] = '0037'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

COLUMNS = ["ticket_id", "kind", "at", "id", "from_value", "to_value"]


def upgrade() -> None:
    op.create_index("ix_ticket_event_clock", "ticket_event", COLUMNS)


def downgrade() -> None:
    op.drop_index("ix_ticket_event_clock", table_name="ticket_event")

"""audit object history: an index on (object_type, object_id, seq)

Revision ID: 0022
Revises: 0015
Create Date: 2026-11-30

Every record's History tab reads its audit events, newest first, a page at a time
(app.audit_query.object_history); without this index that read scans the whole trail
(2,000,000 events in the scale data).
"""
from typing import Sequence, Union

from alembic import op

revision: str = '0022'
down_revision: Union[str, Sequence[str], None] = '0019'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index("ix_audit_event_object_type_object_id_seq", "audit_event", ["object_type", "object_id", "seq"])


def downgrade() -> None:
    op.drop_index("ix_audit_event_object_type_object_id_seq", table_name="audit_event")

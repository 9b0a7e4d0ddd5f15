"""the operations desk: tickets, their timeline and attachments, SLA calendars, China's working days,
SLA targets and breaches, SLA credits, on-call shifts and notifications (issue 24)

Revision ID: 0031
Revises: 0029
Create Date: 2026-12-01

New tables only; nothing existing changes. Loaded here:
- holiday_day from resources/holidays_cn/<year>.json (2025–2027, NateScarlet/holiday-cn, MIT; the
  State Council notices the files name in `papers`; 2027's notice was not yet published when copied,
  so that file is empty: an administrator adds the year by `import holidays`).
- two calendars: "7×24" and "工作日 09:00-18:00" (Monday–Friday, following the working days).
- the default SLA targets per coverage service level (coverage.service_level: onsite, remote,
  partner) and priority: what a contract without its own targets promises.
Rows written here are not audited (app/audit/reconcile.py: rows written by a migration).
"""
import json
from pathlib import Path
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa

revision: str = '0031'
down_revision: Union[str, Sequence[str], None] = '0029'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

HOLIDAYS_DIR = Path(__file__).resolve().parents[3] / "resources" / "holidays_cn"
YEARS = (2025, 2026, 2027)
BUSINESS_HOURS = "mon 09:00-18:00; tue 09:00-18:00; wed 09:00-18:00; thu 09:00-18:00; fri 09:00-18:00"
# (service level, priority, calendar: 1 = 7×24, 2 = business hours, ack, on site, resolve) in minutes
DEFAULT_TARGETS = (
    ("onsite", "P1", 1, 15, 30, 240), ("onsite", "P2", 1, 30, 120, 480),
    ("onsite", "P3", 2, 120, None, 1440), ("onsite", "P4", 2, 480, None, 4320),
    ("remote", "P1", 1, 15, 120, 240), ("remote", "P2", 1, 30, 240, 720),
    ("remote", "P3", 2, 240, None, 2880), ("remote", "P4", 2, 480, None, 4320),
    ("partner", "P1", 1, 30, 240, 480), ("partner", "P2", 1, 60, 480, 1440),
    ("partner", "P3", 2, 480, None, 4320), ("partner", "P4", 2, 960, None, 7200),
)


def holiday_rows(folder: Path = HOLIDAYS_DIR, years=YEARS) -> list[dict]:
    import datetime as dt

    rows = []
    for year in years:
        data = json.loads((folder / f"{year}.json").read_text(encoding="utf-8"))
        source = ("; ".join(data.get("papers") or ()) or f"holiday-cn {year}.json")[:255]
        for d in data.get("days", ()):
            rows.append({"day": dt.date.fromisoformat(d["date"]), "off": bool(d["isOffDay"]),
                         "name": d["name"][:32], "source": source})
    return rows


def upgrade() -> None:
    op.create_table('holiday_day',
    sa.Column('day', sa.Date(), nullable=False),
    sa.Column('off', sa.Boolean(), nullable=False),
    sa.Column('name', sa.String(length=32), nullable=False),
    sa.Column('source', sa.String(length=255), nullable=True),
    sa.PrimaryKeyConstraint('day', name=op.f('pk_holiday_day'))
    )
    op.create_table('sla_calendar',
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('mode', sa.String(length=16), nullable=False),
    sa.Column('hours', sa.String(length=255), nullable=True),
    sa.Column('follows_holidays', sa.Boolean(), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("mode IN ('7x24', 'business')", name=op.f('ck_sla_calendar_mode')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sla_calendar')),
    sa.UniqueConstraint('name', name=op.f('uq_sla_calendar_name'))
    )
    op.create_table('oncall_shift',
    sa.Column('site_id', sa.Integer(), nullable=True),
    sa.Column('region_code', sa.String(length=6), nullable=True),
    sa.Column('week_start', sa.Date(), nullable=False),
    sa.Column('primary_id', sa.Integer(), nullable=False),
    sa.Column('secondary_id', sa.Integer(), nullable=True),
    sa.Column('manager_id', sa.Integer(), nullable=True),
    sa.Column('phone', sa.String(length=32), nullable=True),
    sa.Column('handover_note', sa.Text(), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint('site_id IS NOT NULL OR region_code IS NOT NULL', name=op.f('ck_oncall_shift_scope')),
    sa.ForeignKeyConstraint(['manager_id'], ['app_user.id'], name=op.f('fk_oncall_shift_manager_id_app_user')),
    sa.ForeignKeyConstraint(['primary_id'], ['app_user.id'], name=op.f('fk_oncall_shift_primary_id_app_user')),
    sa.ForeignKeyConstraint(['region_code'], ['region.code'], name=op.f('fk_oncall_shift_region_code_region')),
    sa.ForeignKeyConstraint(['secondary_id'], ['app_user.id'], name=op.f('fk_oncall_shift_secondary_id_app_user')),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_oncall_shift_site_id_site')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_oncall_shift')),
    sa.UniqueConstraint('site_id', 'region_code', 'week_start', name='uq_oncall_scope_week')
    )
    with op.batch_alter_table('oncall_shift', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_oncall_shift_site_id'), ['site_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_oncall_shift_week_start'), ['week_start'], unique=False)

    op.create_table('sla_credit_rule',
    sa.Column('contract_id', sa.Integer(), nullable=False),
    sa.Column('breach_percent', sa.Numeric(precision=5, scale=2), nullable=False),
    sa.Column('monthly_cap_percent', sa.Numeric(precision=5, scale=2), nullable=False),
    sa.Column('promised_availability', sa.Numeric(precision=6, scale=3), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint('breach_percent >= 0 AND breach_percent <= 100', name=op.f('ck_sla_credit_rule_breach_percent')),
    sa.CheckConstraint('monthly_cap_percent >= 0 AND monthly_cap_percent <= 100', name=op.f('ck_sla_credit_rule_cap')),
    sa.ForeignKeyConstraint(['contract_id'], ['contract.id'], name=op.f('fk_sla_credit_rule_contract_id_contract')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sla_credit_rule')),
    sa.UniqueConstraint('contract_id', name=op.f('uq_sla_credit_rule_contract_id'))
    )
    op.create_table('sla_target',
    sa.Column('contract_id', sa.Integer(), nullable=True),
    sa.Column('service_level', sa.String(length=16), nullable=True),
    sa.Column('priority', sa.String(length=2), nullable=False),
    sa.Column('calendar_id', sa.Integer(), nullable=False),
    sa.Column('ack_minutes', sa.Integer(), nullable=False),
    sa.Column('onsite_minutes', sa.Integer(), nullable=True),
    sa.Column('resolve_minutes', sa.Integer(), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("priority IN ('P1', 'P2', 'P3', 'P4')", name=op.f('ck_sla_target_priority')),
    sa.CheckConstraint('(contract_id IS NULL) <> (service_level IS NULL)', name=op.f('ck_sla_target_scope')),
    sa.CheckConstraint('ack_minutes > 0 AND resolve_minutes > 0 AND (onsite_minutes IS NULL OR onsite_minutes > 0)', name=op.f('ck_sla_target_positive')),
    sa.ForeignKeyConstraint(['calendar_id'], ['sla_calendar.id'], name=op.f('fk_sla_target_calendar_id_sla_calendar')),
    sa.ForeignKeyConstraint(['contract_id'], ['contract.id'], name=op.f('fk_sla_target_contract_id_contract')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sla_target')),
    sa.UniqueConstraint('contract_id', 'service_level', 'priority', name='uq_sla_target_scope')
    )
    with op.batch_alter_table('sla_target', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sla_target_contract_id'), ['contract_id'], unique=False)

    op.create_table('ticket',
    sa.Column('number', sa.String(length=16), nullable=True),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('state', sa.String(length=20), nullable=False),
    sa.Column('priority', sa.String(length=2), nullable=False),
    sa.Column('title', sa.String(length=255), nullable=False),
    sa.Column('description', sa.Text(), nullable=True),
    sa.Column('customer_id', sa.Integer(), nullable=True),
    sa.Column('contact_id', sa.Integer(), nullable=True),
    sa.Column('channel', sa.String(length=16), nullable=True),
    sa.Column('contract_id', sa.Integer(), nullable=True),
    sa.Column('site_id', sa.Integer(), nullable=True),
    sa.Column('assignee_id', sa.Integer(), nullable=True),
    sa.Column('task', sa.String(length=16), nullable=True),
    sa.Column('urgency', sa.String(length=16), nullable=True),
    sa.Column('requested_for', sa.DateTime(), nullable=True),
    sa.Column('carrier', sa.String(length=64), nullable=True),
    sa.Column('tracking_no', sa.String(length=64), nullable=True),
    sa.Column('received_by', sa.String(length=64), nullable=True),
    sa.Column('stored_where', sa.String(length=128), nullable=True),
    sa.Column('delivered_rack_id', sa.Integer(), nullable=True),
    sa.Column('opened_at', sa.DateTime(), nullable=False),
    sa.Column('opened_by', sa.String(length=64), nullable=True),
    sa.Column('resolved_at', sa.DateTime(), nullable=True),
    sa.Column('closed_at', sa.DateTime(), nullable=True),
    sa.Column('escalation', sa.Integer(), server_default='0', nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("channel IS NULL OR channel IN ('phone', 'email', 'in_person')", name=op.f('ck_ticket_channel')),
    sa.CheckConstraint("kind IN ('incident', 'remote_hands', 'service_request', 'shipment', 'site_visit')", name=op.f('ck_ticket_kind')),
    sa.CheckConstraint("priority IN ('P1', 'P2', 'P3', 'P4')", name=op.f('ck_ticket_priority')),
    sa.CheckConstraint("state IN ('new', 'acknowledged', 'on_site', 'in_progress', 'waiting_customer', 'waiting_vendor', 'resolved', 'closed')", name=op.f('ck_ticket_state')),
    sa.CheckConstraint("task IS NULL OR task IN ('install', 'remove', 'reboot', 'cable', 'inspect', 'unpack', 'escort', 'other')", name=op.f('ck_ticket_task')),
    sa.CheckConstraint("urgency IS NULL OR urgency IN ('standard', 'expedited', 'scheduled')", name=op.f('ck_ticket_urgency')),
    sa.ForeignKeyConstraint(['assignee_id'], ['app_user.id'], name=op.f('fk_ticket_assignee_id_app_user')),
    sa.ForeignKeyConstraint(['contact_id'], ['contact.id'], name=op.f('fk_ticket_contact_id_contact')),
    sa.ForeignKeyConstraint(['contract_id'], ['contract.id'], name=op.f('fk_ticket_contract_id_contract')),
    sa.ForeignKeyConstraint(['customer_id'], ['customer.id'], name=op.f('fk_ticket_customer_id_customer')),
    sa.ForeignKeyConstraint(['delivered_rack_id'], ['rack.id'], name=op.f('fk_ticket_delivered_rack_id_rack')),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_ticket_site_id_site')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ticket')),
    sa.UniqueConstraint('number', name=op.f('uq_ticket_number'))
    )
    with op.batch_alter_table('ticket', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ticket_assignee_id'), ['assignee_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ticket_contract_id'), ['contract_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ticket_customer_id'), ['customer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ticket_opened_at'), ['opened_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_ticket_site_id'), ['site_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ticket_state'), ['state'], unique=False)

    op.create_table('notification',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('ticket_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('reason', sa.String(length=32), nullable=False),
    sa.Column('message', sa.String(length=500), nullable=False),
    sa.Column('channel', sa.String(length=16), nullable=False),
    sa.Column('seen_at', sa.DateTime(), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['ticket_id'], ['ticket.id'], name=op.f('fk_notification_ticket_id_ticket'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['app_user.id'], name=op.f('fk_notification_user_id_app_user')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_notification'))
    )
    with op.batch_alter_table('notification', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notification_ticket_id'), ['ticket_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_notification_user_id'), ['user_id'], unique=False)

    op.create_table('sla_breach',
    sa.Column('ticket_id', sa.Integer(), nullable=False),
    sa.Column('metric', sa.String(length=16), nullable=False),
    sa.Column('priority', sa.String(length=2), nullable=False),
    sa.Column('due_at', sa.DateTime(), nullable=False),
    sa.Column('recorded_at', sa.DateTime(), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.CheckConstraint("metric IN ('ack', 'onsite', 'resolve')", name=op.f('ck_sla_breach_metric')),
    sa.ForeignKeyConstraint(['ticket_id'], ['ticket.id'], name=op.f('fk_sla_breach_ticket_id_ticket'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sla_breach')),
    sa.UniqueConstraint('ticket_id', 'metric', name='uq_sla_breach_ticket_metric')
    )
    with op.batch_alter_table('sla_breach', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sla_breach_ticket_id'), ['ticket_id'], unique=False)

    op.create_table('ticket_attachment',
    sa.Column('ticket_id', sa.Integer(), nullable=False),
    sa.Column('filename', sa.String(length=255), nullable=False),
    sa.Column('content_type', sa.String(length=64), nullable=True),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('sha256', sa.String(length=64), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('added_at', sa.DateTime(), nullable=False),
    sa.Column('added_by', sa.String(length=64), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['ticket_id'], ['ticket.id'], name=op.f('fk_ticket_attachment_ticket_id_ticket'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ticket_attachment'))
    )
    with op.batch_alter_table('ticket_attachment', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ticket_attachment_ticket_id'), ['ticket_id'], unique=False)

    op.create_table('ticket_event',
    sa.Column('ticket_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('actor', sa.String(length=64), nullable=True),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('from_value', sa.String(length=64), nullable=True),
    sa.Column('to_value', sa.String(length=64), nullable=True),
    sa.Column('note', sa.Text(), nullable=True),
    sa.Column('visibility', sa.String(length=16), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.CheckConstraint("visibility IN ('internal', 'customer')", name=op.f('ck_ticket_event_visibility')),
    sa.ForeignKeyConstraint(['ticket_id'], ['ticket.id'], name=op.f('fk_ticket_event_ticket_id_ticket'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ticket_event'))
    )
    with op.batch_alter_table('ticket_event', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ticket_event_ticket_id'), ['ticket_id'], unique=False)

    op.create_table('ticket_object',
    sa.Column('ticket_id', sa.Integer(), nullable=False),
    sa.Column('object_type', sa.String(length=16), nullable=False),
    sa.Column('object_id', sa.Integer(), nullable=False),
    sa.Column('label', sa.String(length=128), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.CheckConstraint("object_type IN ('rack', 'space_lease', 'device', 'gpu', 'cross_connect', 'power_feed', 'circuit')", name=op.f('ck_ticket_object_object_type')),
    sa.ForeignKeyConstraint(['ticket_id'], ['ticket.id'], name=op.f('fk_ticket_object_ticket_id_ticket'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_ticket_object')),
    sa.UniqueConstraint('ticket_id', 'object_type', 'object_id', name='uq_ticket_object')
    )
    with op.batch_alter_table('ticket_object', schema=None) as batch_op:
        batch_op.create_index('ix_ticket_object_target', ['object_type', 'object_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_ticket_object_ticket_id'), ['ticket_id'], unique=False)

    op.create_table('sla_credit',
    sa.Column('contract_item_id', sa.Integer(), nullable=False),
    sa.Column('ticket_id', sa.Integer(), nullable=True),
    sa.Column('breach_id', sa.Integer(), nullable=True),
    sa.Column('period', sa.String(length=7), nullable=False),
    sa.Column('percent', sa.Numeric(precision=7, scale=3), nullable=False),
    sa.Column('amount', sa.Numeric(precision=14, scale=2), nullable=False),
    sa.Column('reason', sa.String(length=255), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('proposed_by', sa.String(length=64), nullable=True),
    sa.Column('proposed_at', sa.DateTime(), nullable=False),
    sa.Column('decided_by', sa.String(length=64), nullable=True),
    sa.Column('decided_at', sa.DateTime(), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("state IN ('proposed', 'approved', 'rejected')", name=op.f('ck_sla_credit_state')),
    sa.CheckConstraint('amount >= 0', name=op.f('ck_sla_credit_amount')),
    sa.ForeignKeyConstraint(['breach_id'], ['sla_breach.id'], name=op.f('fk_sla_credit_breach_id_sla_breach')),
    sa.ForeignKeyConstraint(['contract_item_id'], ['contract_item.id'], name=op.f('fk_sla_credit_contract_item_id_contract_item')),
    sa.ForeignKeyConstraint(['ticket_id'], ['ticket.id'], name=op.f('fk_sla_credit_ticket_id_ticket')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_sla_credit')),
    sa.UniqueConstraint('breach_id', name=op.f('uq_sla_credit_breach_id'))
    )
    with op.batch_alter_table('sla_credit', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sla_credit_contract_item_id'), ['contract_item_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_sla_credit_period'), ['period'], unique=False)
        batch_op.create_index(batch_op.f('ix_sla_credit_state'), ['state'], unique=False)
        batch_op.create_index(batch_op.f('ix_sla_credit_ticket_id'), ['ticket_id'], unique=False)


    holiday = sa.table("holiday_day", sa.column("day", sa.Date), sa.column("off", sa.Boolean),
                       sa.column("name", sa.String), sa.column("source", sa.String))
    op.bulk_insert(holiday, holiday_rows())
    cal = sa.table("sla_calendar", sa.column("id", sa.Integer), sa.column("name", sa.String),
                   sa.column("mode", sa.String), sa.column("hours", sa.String),
                   sa.column("follows_holidays", sa.Boolean), sa.column("version", sa.Integer))
    op.bulk_insert(cal, [
        {"id": 1, "name": "7×24", "mode": "7x24", "hours": None, "follows_holidays": False, "version": 1},
        {"id": 2, "name": "工作日 09:00-18:00", "mode": "business", "hours": BUSINESS_HOURS,
         "follows_holidays": True, "version": 1}])
    if op.get_bind().dialect.name == "postgresql":
        op.execute("SELECT setval(pg_get_serial_sequence('sla_calendar', 'id'), 2)")
    target = sa.table("sla_target", sa.column("service_level", sa.String), sa.column("priority", sa.String),
                      sa.column("calendar_id", sa.Integer), sa.column("ack_minutes", sa.Integer),
                      sa.column("onsite_minutes", sa.Integer), sa.column("resolve_minutes", sa.Integer),
                      sa.column("version", sa.Integer))
    op.bulk_insert(target, [{"service_level": lv, "priority": p, "calendar_id": c, "ack_minutes": a,
                             "onsite_minutes": o, "resolve_minutes": r, "version": 1}
                            for lv, p, c, a, o, r in DEFAULT_TARGETS])


def downgrade() -> None:
    with op.batch_alter_table('sla_credit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sla_credit_ticket_id'))
        batch_op.drop_index(batch_op.f('ix_sla_credit_state'))
        batch_op.drop_index(batch_op.f('ix_sla_credit_period'))
        batch_op.drop_index(batch_op.f('ix_sla_credit_contract_item_id'))

    op.drop_table('sla_credit')
    with op.batch_alter_table('ticket_object', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ticket_object_ticket_id'))
        batch_op.drop_index('ix_ticket_object_target')

    op.drop_table('ticket_object')
    with op.batch_alter_table('ticket_event', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ticket_event_ticket_id'))

    op.drop_table('ticket_event')
    with op.batch_alter_table('ticket_attachment', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ticket_attachment_ticket_id'))

    op.drop_table('ticket_attachment')
    with op.batch_alter_table('sla_breach', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sla_breach_ticket_id'))

    op.drop_table('sla_breach')
    with op.batch_alter_table('notification', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notification_user_id'))
        batch_op.drop_index(batch_op.f('ix_notification_ticket_id'))

    op.drop_table('notification')
    with op.batch_alter_table('ticket', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ticket_state'))
        batch_op.drop_index(batch_op.f('ix_ticket_site_id'))
        batch_op.drop_index(batch_op.f('ix_ticket_opened_at'))
        batch_op.drop_index(batch_op.f('ix_ticket_customer_id'))
        batch_op.drop_index(batch_op.f('ix_ticket_contract_id'))
        batch_op.drop_index(batch_op.f('ix_ticket_assignee_id'))

    op.drop_table('ticket')
    with op.batch_alter_table('sla_target', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sla_target_contract_id'))

    op.drop_table('sla_target')
    op.drop_table('sla_credit_rule')
    with op.batch_alter_table('oncall_shift', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_oncall_shift_week_start'))
        batch_op.drop_index(batch_op.f('ix_oncall_shift_site_id'))

    op.drop_table('oncall_shift')
    op.drop_table('sla_calendar')
    op.drop_table('holiday_day')

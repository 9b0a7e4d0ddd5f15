"""maintenance windows and site access (issue 24, the operations desk)

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-01

New tables only (no existing row changes): maintenance_window (planned or emergency work on a feed,
panel, UPS, PDU, rack, device, cross-connect or a room's cooling), maintenance_impact (who is
affected and how, worked out by app/services/operations/maintenance.py), site_access (a customer's
contact authorised for a site or a cage), visit, visit_rack and visitor (requests, check-in/out).
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0032'
down_revision: Union[str, Sequence[str], None] = '0031'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('site_access',
    sa.Column('contact_id', sa.Integer(), nullable=False),
    sa.Column('customer_id', sa.Integer(), nullable=False),
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('cage_id', sa.Integer(), nullable=True),
    sa.Column('valid_from', sa.Date(), nullable=False),
    sa.Column('valid_to', sa.Date(), nullable=True),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.Column('note', sa.String(length=255), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint('valid_to IS NULL OR valid_to >= valid_from', name=op.f('ck_site_access_dates')),
    sa.ForeignKeyConstraint(['cage_id'], ['cage.id'], name=op.f('fk_site_access_cage_id_cage')),
    sa.ForeignKeyConstraint(['contact_id'], ['contact.id'], name=op.f('fk_site_access_contact_id_contact')),
    sa.ForeignKeyConstraint(['customer_id'], ['customer.id'], name=op.f('fk_site_access_customer_id_customer')),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_site_access_site_id_site')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_site_access'))
    )
    with op.batch_alter_table('site_access', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_site_access_cage_id'), ['cage_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_site_access_contact_id'), ['contact_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_site_access_customer_id'), ['customer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_site_access_site_id'), ['site_id'], unique=False)

    op.create_table('visit',
    sa.Column('customer_id', sa.Integer(), nullable=False),
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('contact_id', sa.Integer(), nullable=False),
    sa.Column('cage_id', sa.Integer(), nullable=True),
    sa.Column('purpose', sa.String(length=255), nullable=False),
    sa.Column('window_start', sa.DateTime(), nullable=False),
    sa.Column('window_end', sa.DateTime(), nullable=False),
    sa.Column('escort_needed', sa.Boolean(), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('requested_by', sa.String(length=64), nullable=True),
    sa.Column('requested_at', sa.DateTime(), nullable=False),
    sa.Column('approved_by', sa.String(length=64), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("state IN ('requested', 'approved', 'rejected', 'cancelled', 'closed')", name=op.f('ck_visit_state')),
    sa.CheckConstraint('window_end > window_start', name=op.f('ck_visit_window')),
    sa.ForeignKeyConstraint(['cage_id'], ['cage.id'], name=op.f('fk_visit_cage_id_cage')),
    sa.ForeignKeyConstraint(['contact_id'], ['contact.id'], name=op.f('fk_visit_contact_id_contact')),
    sa.ForeignKeyConstraint(['customer_id'], ['customer.id'], name=op.f('fk_visit_customer_id_customer')),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_visit_site_id_site')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_visit'))
    )
    with op.batch_alter_table('visit', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_visit_cage_id'), ['cage_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_visit_contact_id'), ['contact_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_visit_customer_id'), ['customer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_visit_site_id'), ['site_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_visit_state'), ['state'], unique=False)
        batch_op.create_index(batch_op.f('ix_visit_window_start'), ['window_start'], unique=False)

    op.create_table('visit_rack',
    sa.Column('visit_id', sa.Integer(), nullable=False),
    sa.Column('rack_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['rack_id'], ['rack.id'], name=op.f('fk_visit_rack_rack_id_rack')),
    sa.ForeignKeyConstraint(['visit_id'], ['visit.id'], name=op.f('fk_visit_rack_visit_id_visit')),
    sa.PrimaryKeyConstraint('visit_id', 'rack_id', name=op.f('pk_visit_rack'))
    )
    with op.batch_alter_table('visit_rack', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_visit_rack_rack_id'), ['rack_id'], unique=False)

    op.create_table('visitor',
    sa.Column('visit_id', sa.Integer(), nullable=False),
    sa.Column('contact_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('id_type', sa.String(length=16), nullable=False),
    sa.Column('id_number', sa.String(length=32), nullable=False),
    sa.Column('company', sa.String(length=128), nullable=True),
    sa.Column('badge', sa.String(length=32), nullable=True),
    sa.Column('checked_in_at', sa.DateTime(), nullable=True),
    sa.Column('checked_in_by', sa.String(length=64), nullable=True),
    sa.Column('checked_out_at', sa.DateTime(), nullable=True),
    sa.Column('checked_out_by', sa.String(length=64), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("id_type IN ('resident_id', 'passport', 'hk_macao_permit', 'taiwan_permit', 'other')", name=op.f('ck_visitor_id_type')),
    sa.CheckConstraint('checked_out_at IS NULL OR (checked_in_at IS NOT NULL AND checked_out_at >= checked_in_at)', name=op.f('ck_visitor_checked_out')),
    sa.ForeignKeyConstraint(['contact_id'], ['contact.id'], name=op.f('fk_visitor_contact_id_contact')),
    sa.ForeignKeyConstraint(['visit_id'], ['visit.id'], name=op.f('fk_visitor_visit_id_visit')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_visitor'))
    )
    with op.batch_alter_table('visitor', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_visitor_checked_in_at'), ['checked_in_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_visitor_visit_id'), ['visit_id'], unique=False)

    op.create_table('maintenance_window',
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=255), nullable=False),
    sa.Column('description', sa.Text(), nullable=True),
    sa.Column('target_kind', sa.String(length=16), nullable=False),
    sa.Column('power_feed_id', sa.Integer(), nullable=True),
    sa.Column('power_panel_id', sa.Integer(), nullable=True),
    sa.Column('ups', sa.String(length=64), nullable=True),
    sa.Column('device_id', sa.Integer(), nullable=True),
    sa.Column('rack_id', sa.Integer(), nullable=True),
    sa.Column('cross_connect_id', sa.Integer(), nullable=True),
    sa.Column('room_id', sa.Integer(), nullable=True),
    sa.Column('planned_start', sa.DateTime(), nullable=False),
    sa.Column('planned_end', sa.DateTime(), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('emergency', sa.Boolean(), nullable=False),
    sa.Column('emergency_reason', sa.Text(), nullable=True),
    sa.Column('noticed_at', sa.DateTime(), nullable=True),
    sa.Column('actual_start', sa.DateTime(), nullable=True),
    sa.Column('actual_end', sa.DateTime(), nullable=True),
    sa.Column('rescheduled_to_id', sa.Integer(), nullable=True),
    sa.Column('contact', sa.String(length=128), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("state IN ('tentative', 'confirmed', 'in_progress', 'completed', 'cancelled', 'rescheduled')", name=op.f('ck_maintenance_window_state')),
    sa.CheckConstraint("target_kind IN ('feed', 'panel', 'ups', 'pdu', 'rack', 'device', 'xconnect', 'cooling')", name=op.f('ck_maintenance_window_target_kind')),
    sa.CheckConstraint('NOT emergency OR emergency_reason IS NOT NULL', name=op.f('ck_maintenance_window_emergency_reason')),
    sa.CheckConstraint('planned_end > planned_start', name=op.f('ck_maintenance_window_window')),
    sa.ForeignKeyConstraint(['cross_connect_id'], ['cross_connect.id'], name=op.f('fk_maintenance_window_cross_connect_id_cross_connect')),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_maintenance_window_device_id_device')),
    sa.ForeignKeyConstraint(['power_feed_id'], ['power_feed.id'], name=op.f('fk_maintenance_window_power_feed_id_power_feed')),
    sa.ForeignKeyConstraint(['power_panel_id'], ['power_panel.id'], name=op.f('fk_maintenance_window_power_panel_id_power_panel')),
    sa.ForeignKeyConstraint(['rack_id'], ['rack.id'], name=op.f('fk_maintenance_window_rack_id_rack')),
    sa.ForeignKeyConstraint(['rescheduled_to_id'], ['maintenance_window.id'], name=op.f('fk_maintenance_window_rescheduled_to_id_maintenance_window')),
    sa.ForeignKeyConstraint(['room_id'], ['room.id'], name=op.f('fk_maintenance_window_room_id_room')),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_maintenance_window_site_id_site')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_maintenance_window'))
    )
    with op.batch_alter_table('maintenance_window', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_maintenance_window_cross_connect_id'), ['cross_connect_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_window_device_id'), ['device_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_window_planned_start'), ['planned_start'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_window_power_feed_id'), ['power_feed_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_window_power_panel_id'), ['power_panel_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_window_rack_id'), ['rack_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_window_room_id'), ['room_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_window_site_id'), ['site_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_window_state'), ['state'], unique=False)

    op.create_table('maintenance_impact',
    sa.Column('maintenance_id', sa.Integer(), nullable=False),
    sa.Column('customer_id', sa.Integer(), nullable=False),
    sa.Column('object_type', sa.String(length=16), nullable=False),
    sa.Column('object_id', sa.Integer(), nullable=False),
    sa.Column('object_label', sa.String(length=128), nullable=False),
    sa.Column('impact', sa.String(length=24), nullable=False),
    sa.Column('contract_id', sa.Integer(), nullable=True),
    sa.Column('why', sa.String(length=255), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.CheckConstraint("impact IN ('no_impact', 'reduced_redundancy', 'degraded', 'outage')", name=op.f('ck_maintenance_impact_impact')),
    sa.ForeignKeyConstraint(['contract_id'], ['contract.id'], name=op.f('fk_maintenance_impact_contract_id_contract')),
    sa.ForeignKeyConstraint(['customer_id'], ['customer.id'], name=op.f('fk_maintenance_impact_customer_id_customer')),
    sa.ForeignKeyConstraint(['maintenance_id'], ['maintenance_window.id'], name=op.f('fk_maintenance_impact_maintenance_id_maintenance_window')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_maintenance_impact'))
    )
    with op.batch_alter_table('maintenance_impact', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_maintenance_impact_contract_id'), ['contract_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_impact_customer_id'), ['customer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_maintenance_impact_maintenance_id'), ['maintenance_id'], unique=False)



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('maintenance_impact', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_maintenance_impact_maintenance_id'))
        batch_op.drop_index(batch_op.f('ix_maintenance_impact_customer_id'))
        batch_op.drop_index(batch_op.f('ix_maintenance_impact_contract_id'))

    op.drop_table('maintenance_impact')
    with op.batch_alter_table('maintenance_window', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_maintenance_window_state'))
        batch_op.drop_index(batch_op.f('ix_maintenance_window_site_id'))
        batch_op.drop_index(batch_op.f('ix_maintenance_window_room_id'))
        batch_op.drop_index(batch_op.f('ix_maintenance_window_rack_id'))
        batch_op.drop_index(batch_op.f('ix_maintenance_window_power_panel_id'))
        batch_op.drop_index(batch_op.f('ix_maintenance_window_power_feed_id'))
        batch_op.drop_index(batch_op.f('ix_maintenance_window_planned_start'))
        batch_op.drop_index(batch_op.f('ix_maintenance_window_device_id'))
        batch_op.drop_index(batch_op.f('ix_maintenance_window_cross_connect_id'))

    op.drop_table('maintenance_window')
    with op.batch_alter_table('visitor', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_visitor_visit_id'))
        batch_op.drop_index(batch_op.f('ix_visitor_checked_in_at'))

    op.drop_table('visitor')
    with op.batch_alter_table('visit_rack', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_visit_rack_rack_id'))

    op.drop_table('visit_rack')
    with op.batch_alter_table('visit', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_visit_window_start'))
        batch_op.drop_index(batch_op.f('ix_visit_state'))
        batch_op.drop_index(batch_op.f('ix_visit_site_id'))
        batch_op.drop_index(batch_op.f('ix_visit_customer_id'))
        batch_op.drop_index(batch_op.f('ix_visit_contact_id'))
        batch_op.drop_index(batch_op.f('ix_visit_cage_id'))

    op.drop_table('visit')
    with op.batch_alter_table('site_access', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_site_access_site_id'))
        batch_op.drop_index(batch_op.f('ix_site_access_customer_id'))
        batch_op.drop_index(batch_op.f('ix_site_access_contact_id'))
        batch_op.drop_index(batch_op.f('ix_site_access_cage_id'))

    op.drop_table('site_access')

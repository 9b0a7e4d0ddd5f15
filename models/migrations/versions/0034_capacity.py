"""selling capacity: the price list, holds on free nodes, quotes and their lines

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-01

`price_list` prices a GPU model (or a colocation add-on) per term and subsidiary with validity
dates; `capacity_hold` (+ `capacity_hold_node`) holds nodes for a customer over a window until it
expires; `quote` (+ `quote_line`) is a 报价单 made from a hold, accepted into a draft contract
(models/capacity.py, app/services/capacity/). New tables only: no existing data changes.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0034'
down_revision: Union[str, Sequence[str], None] = '0033'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('price_list',
    sa.Column('product', sa.String(length=16), nullable=False),
    sa.Column('gpu_model_id', sa.Integer(), nullable=True),
    sa.Column('subsidiary_id', sa.Integer(), nullable=True),
    sa.Column('term', sa.String(length=16), nullable=False),
    sa.Column('unit_price', sa.Numeric(precision=14, scale=4), nullable=False),
    sa.Column('included_hours', sa.Numeric(precision=12, scale=2), nullable=True),
    sa.Column('hourly_rate', sa.Numeric(precision=12, scale=4), nullable=True),
    sa.Column('setup_price', sa.Numeric(precision=14, scale=4), nullable=True),
    sa.Column('valid_from', sa.Date(), nullable=False),
    sa.Column('valid_to', sa.Date(), nullable=True),
    sa.Column('note', sa.String(length=255), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("(product = 'gpu') = (gpu_model_id IS NOT NULL)", name=op.f('ck_price_list_gpu_model')),
    sa.CheckConstraint("product IN ('gpu', 'rack', 'u_range', 'circuit', 'xconnect')", name=op.f('ck_price_list_product')),
    sa.CheckConstraint("term IN ('hourly', 'monthly', 'yearly', 'hybrid')", name=op.f('ck_price_list_term')),
    sa.CheckConstraint('unit_price >= 0', name=op.f('ck_price_list_unit_price')),
    sa.CheckConstraint('valid_to IS NULL OR valid_to >= valid_from', name=op.f('ck_price_list_validity')),
    sa.ForeignKeyConstraint(['gpu_model_id'], ['gpu_model.id'], name=op.f('fk_price_list_gpu_model_id_gpu_model')),
    sa.ForeignKeyConstraint(['subsidiary_id'], ['subsidiary.id'], name=op.f('fk_price_list_subsidiary_id_subsidiary')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_price_list'))
    )
    with op.batch_alter_table('price_list', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_price_list_gpu_model_id'), ['gpu_model_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_price_list_subsidiary_id'), ['subsidiary_id'], unique=False)

    op.create_table('capacity_hold',
    sa.Column('number', sa.String(length=32), nullable=False),
    sa.Column('customer_id', sa.Integer(), nullable=False),
    sa.Column('subsidiary_id', sa.Integer(), nullable=False),
    sa.Column('gpu_model_id', sa.Integer(), nullable=True),
    sa.Column('start_date', sa.Date(), nullable=False),
    sa.Column('end_date', sa.Date(), nullable=True),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('contract_id', sa.Integer(), nullable=True),
    sa.Column('note', sa.Text(), nullable=True),
    sa.Column('created_by', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.Column('ended_by', sa.String(length=64), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("status IN ('active', 'released', 'expired', 'converted')", name=op.f('ck_capacity_hold_status')),
    sa.CheckConstraint('end_date IS NULL OR end_date >= start_date', name=op.f('ck_capacity_hold_dates')),
    sa.ForeignKeyConstraint(['contract_id'], ['contract.id'], name=op.f('fk_capacity_hold_contract_id_contract')),
    sa.ForeignKeyConstraint(['customer_id'], ['customer.id'], name=op.f('fk_capacity_hold_customer_id_customer')),
    sa.ForeignKeyConstraint(['gpu_model_id'], ['gpu_model.id'], name=op.f('fk_capacity_hold_gpu_model_id_gpu_model')),
    sa.ForeignKeyConstraint(['subsidiary_id'], ['subsidiary.id'], name=op.f('fk_capacity_hold_subsidiary_id_subsidiary')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_capacity_hold')),
    sa.UniqueConstraint('number', name=op.f('uq_capacity_hold_number'))
    )
    with op.batch_alter_table('capacity_hold', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_capacity_hold_contract_id'), ['contract_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_capacity_hold_customer_id'), ['customer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_capacity_hold_expires_at'), ['expires_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_capacity_hold_status'), ['status'], unique=False)

    op.create_table('quote',
    sa.Column('number', sa.String(length=32), nullable=False),
    sa.Column('customer_id', sa.Integer(), nullable=False),
    sa.Column('subsidiary_id', sa.Integer(), nullable=False),
    sa.Column('hold_id', sa.Integer(), nullable=True),
    sa.Column('title', sa.String(length=255), nullable=True),
    sa.Column('term', sa.String(length=16), nullable=False),
    sa.Column('start_date', sa.Date(), nullable=False),
    sa.Column('end_date', sa.Date(), nullable=False),
    sa.Column('valid_until', sa.Date(), nullable=False),
    sa.Column('language', sa.String(length=2), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('contract_id', sa.Integer(), nullable=True),
    sa.Column('created_by', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("status IN ('open', 'accepted', 'withdrawn')", name=op.f('ck_quote_status')),
    sa.CheckConstraint("term IN ('hourly', 'monthly', 'yearly', 'hybrid')", name=op.f('ck_quote_term')),
    sa.CheckConstraint('end_date >= start_date', name=op.f('ck_quote_dates')),
    sa.ForeignKeyConstraint(['contract_id'], ['contract.id'], name=op.f('fk_quote_contract_id_contract')),
    sa.ForeignKeyConstraint(['customer_id'], ['customer.id'], name=op.f('fk_quote_customer_id_customer')),
    sa.ForeignKeyConstraint(['hold_id'], ['capacity_hold.id'], name=op.f('fk_quote_hold_id_capacity_hold')),
    sa.ForeignKeyConstraint(['subsidiary_id'], ['subsidiary.id'], name=op.f('fk_quote_subsidiary_id_subsidiary')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_quote')),
    sa.UniqueConstraint('number', name=op.f('uq_quote_number'))
    )
    with op.batch_alter_table('quote', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_quote_contract_id'), ['contract_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_quote_customer_id'), ['customer_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_quote_hold_id'), ['hold_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_quote_status'), ['status'], unique=False)

    op.create_table('quote_line',
    sa.Column('quote_id', sa.Integer(), nullable=False),
    sa.Column('product', sa.String(length=16), nullable=False),
    sa.Column('description', sa.String(length=255), nullable=False),
    sa.Column('description_en', sa.String(length=255), nullable=True),
    sa.Column('gpu_model_id', sa.Integer(), nullable=True),
    sa.Column('quantity', sa.Numeric(precision=12, scale=3), nullable=False),
    sa.Column('unit_price', sa.Numeric(precision=14, scale=4), nullable=False),
    sa.Column('price_unit', sa.String(length=16), nullable=False),
    sa.Column('included_hours', sa.Numeric(precision=12, scale=2), nullable=True),
    sa.Column('hourly_rate', sa.Numeric(precision=12, scale=4), nullable=True),
    sa.Column('setup_price', sa.Numeric(precision=14, scale=4), nullable=True),
    sa.Column('rack_id', sa.Integer(), nullable=True),
    sa.Column('u_from', sa.Integer(), nullable=True),
    sa.Column('u_to', sa.Integer(), nullable=True),
    sa.Column('tax_category', sa.String(length=20), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.CheckConstraint("product IN ('gpu', 'rack', 'u_range', 'circuit', 'xconnect')", name=op.f('ck_quote_line_product')),
    sa.CheckConstraint("tax_category IN ('idc', 'telecom', 'equipment_lease')", name=op.f('ck_quote_line_tax_category')),
    sa.CheckConstraint('quantity > 0', name=op.f('ck_quote_line_quantity')),
    sa.ForeignKeyConstraint(['gpu_model_id'], ['gpu_model.id'], name=op.f('fk_quote_line_gpu_model_id_gpu_model')),
    sa.ForeignKeyConstraint(['quote_id'], ['quote.id'], name=op.f('fk_quote_line_quote_id_quote')),
    sa.ForeignKeyConstraint(['rack_id'], ['rack.id'], name=op.f('fk_quote_line_rack_id_rack')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_quote_line'))
    )
    with op.batch_alter_table('quote_line', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_quote_line_quote_id'), ['quote_id'], unique=False)

    op.create_table('capacity_hold_node',
    sa.Column('hold_id', sa.Integer(), nullable=False),
    sa.Column('node_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['hold_id'], ['capacity_hold.id'], name=op.f('fk_capacity_hold_node_hold_id_capacity_hold')),
    sa.ForeignKeyConstraint(['node_id'], ['gpu_node.id'], name=op.f('fk_capacity_hold_node_node_id_gpu_node')),
    sa.PrimaryKeyConstraint('hold_id', 'node_id', name=op.f('pk_capacity_hold_node'))
    )
    with op.batch_alter_table('capacity_hold_node', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_capacity_hold_node_node_id'), ['node_id'], unique=False)



def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('capacity_hold_node', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_capacity_hold_node_node_id'))
    op.drop_table('capacity_hold_node')
    with op.batch_alter_table('quote_line', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_quote_line_quote_id'))
    op.drop_table('quote_line')
    with op.batch_alter_table('quote', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_quote_status'))
        batch_op.drop_index(batch_op.f('ix_quote_hold_id'))
        batch_op.drop_index(batch_op.f('ix_quote_customer_id'))
        batch_op.drop_index(batch_op.f('ix_quote_contract_id'))
    op.drop_table('quote')
    with op.batch_alter_table('capacity_hold', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_capacity_hold_status'))
        batch_op.drop_index(batch_op.f('ix_capacity_hold_expires_at'))
        batch_op.drop_index(batch_op.f('ix_capacity_hold_customer_id'))
        batch_op.drop_index(batch_op.f('ix_capacity_hold_contract_id'))
    op.drop_table('capacity_hold')
    with op.batch_alter_table('price_list', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_price_list_subsidiary_id'))
        batch_op.drop_index(batch_op.f('ix_price_list_gpu_model_id'))
    op.drop_table('price_list')

"""power chain: panels, feeds (circuits), PDUs, supplies on outlets, circuit meters

Revision ID: 0017
Revises: 0015
Create Date: 2026-11-30

NetBox's power model (dcim PowerPanel, PowerFeed) with an A/B side per feed, PDUs fed by a
feed, a device's supplies plugged into PDU outlets and per-circuit meter readings. Contract
items gain the kind `power` (circuits sold by a fee per circuit and/or metered energy).

Data: the per-rack power figures become one feed per rack, so nothing is lost: a "legacy"
panel per room (220 V single phase) and per rack a feed on side A whose breaker (amperage) is
the rack's breaker limit, else the capacity at 80 % of the breaker, rounded up to whole amperes.
The rack's own columns stay as they were.
"""
import datetime as dt
import math
from decimal import Decimal
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0017'
down_revision: Union[str, Sequence[str], None] = '0016'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

KINDS = ('rack', 'hosting', 'gpu', 'bandwidth', 'maintenance', 'one_off', 'discount')
LEGACY_VOLTAGE = 220


def _kinds(values) -> str:
    return f"kind IN ({', '.join(repr(v) for v in values)})"


def upgrade() -> None:
    op.create_table('power_panel',
    sa.Column('site_id', sa.Integer(), nullable=False),
    sa.Column('room_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('voltage', sa.Integer(), nullable=False),
    sa.Column('phase', sa.String(length=16), nullable=False),
    sa.Column('amperage', sa.Integer(), nullable=False),
    sa.Column('ups', sa.String(length=64), nullable=True),
    sa.Column('comments', sa.Text(), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("phase IN ('single-phase', 'three-phase')", name=op.f('ck_power_panel_phase')),
    sa.CheckConstraint('voltage > 0 AND amperage > 0', name=op.f('ck_power_panel_ratings')),
    sa.ForeignKeyConstraint(['room_id'], ['room.id'], name=op.f('fk_power_panel_room_id_room')),
    sa.ForeignKeyConstraint(['site_id'], ['site.id'], name=op.f('fk_power_panel_site_id_site')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_power_panel')),
    sa.UniqueConstraint('site_id', 'name', name='uq_power_panel_site_name')
    )
    with op.batch_alter_table('power_panel', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_power_panel_room_id'), ['room_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_power_panel_site_id'), ['site_id'], unique=False)

    op.create_table('power_feed',
    sa.Column('power_panel_id', sa.Integer(), nullable=False),
    sa.Column('rack_id', sa.Integer(), nullable=True),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('side', sa.String(length=1), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('type', sa.String(length=16), nullable=False),
    sa.Column('supply', sa.String(length=8), nullable=False),
    sa.Column('phase', sa.String(length=16), nullable=False),
    sa.Column('voltage', sa.Integer(), nullable=False),
    sa.Column('amperage', sa.Integer(), nullable=False),
    sa.Column('max_utilization', sa.Integer(), nullable=False),
    sa.Column('contract_item_id', sa.Integer(), nullable=True),
    sa.Column('comments', sa.Text(), nullable=True),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint("phase IN ('single-phase', 'three-phase')", name=op.f('ck_power_feed_phase')),
    sa.CheckConstraint("side IN ('A', 'B')", name=op.f('ck_power_feed_side')),
    sa.CheckConstraint("status IN ('offline', 'active', 'planned', 'failed')", name=op.f('ck_power_feed_status')),
    sa.CheckConstraint("supply IN ('ac', 'dc')", name=op.f('ck_power_feed_supply')),
    sa.CheckConstraint("type IN ('primary', 'redundant')", name=op.f('ck_power_feed_type')),
    sa.CheckConstraint('max_utilization BETWEEN 1 AND 100', name=op.f('ck_power_feed_max_utilization')),
    sa.CheckConstraint('voltage > 0 AND amperage > 0', name=op.f('ck_power_feed_ratings')),
    sa.ForeignKeyConstraint(['contract_item_id'], ['contract_item.id'], name=op.f('fk_power_feed_contract_item_id_contract_item')),
    sa.ForeignKeyConstraint(['power_panel_id'], ['power_panel.id'], name=op.f('fk_power_feed_power_panel_id_power_panel')),
    sa.ForeignKeyConstraint(['rack_id'], ['rack.id'], name=op.f('fk_power_feed_rack_id_rack')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_power_feed')),
    sa.UniqueConstraint('power_panel_id', 'name', name='uq_power_feed_power_panel_id')
    )
    with op.batch_alter_table('power_feed', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_power_feed_contract_item_id'), ['contract_item_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_power_feed_power_panel_id'), ['power_panel_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_power_feed_rack_id'), ['rack_id'], unique=False)

    op.create_table('circuit_reading',
    sa.Column('power_feed_id', sa.Integer(), nullable=False),
    sa.Column('read_at', sa.DateTime(), nullable=False),
    sa.Column('kwh_total', sa.Numeric(precision=14, scale=3), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['power_feed_id'], ['power_feed.id'], name=op.f('fk_circuit_reading_power_feed_id_power_feed')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_circuit_reading')),
    sa.UniqueConstraint('power_feed_id', 'read_at', name='uq_circuit_reading_power_feed_id')
    )
    op.create_table('pdu_feed',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('power_feed_id', sa.Integer(), nullable=False),
    sa.Column('outlets', sa.Integer(), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint('outlets BETWEEN 1 AND 96', name=op.f('ck_pdu_feed_outlets')),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_pdu_feed_device_id_device')),
    sa.ForeignKeyConstraint(['power_feed_id'], ['power_feed.id'], name=op.f('fk_pdu_feed_power_feed_id_power_feed')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pdu_feed')),
    sa.UniqueConstraint('device_id', name=op.f('uq_pdu_feed_device_id'))
    )
    with op.batch_alter_table('pdu_feed', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_pdu_feed_power_feed_id'), ['power_feed_id'], unique=False)

    op.create_table('power_connection',
    sa.Column('device_id', sa.Integer(), nullable=False),
    sa.Column('port', sa.String(length=32), nullable=False),
    sa.Column('pdu_id', sa.Integer(), nullable=False),
    sa.Column('outlet', sa.Integer(), nullable=False),
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('updated_by', sa.String(length=64), nullable=True),
    sa.CheckConstraint('outlet >= 1', name=op.f('ck_power_connection_outlet')),
    sa.ForeignKeyConstraint(['device_id'], ['device.id'], name=op.f('fk_power_connection_device_id_device')),
    sa.ForeignKeyConstraint(['pdu_id'], ['pdu_feed.id'], name=op.f('fk_power_connection_pdu_id_pdu_feed')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_power_connection')),
    sa.UniqueConstraint('device_id', 'port', name='uq_power_connection_device_id'),
    sa.UniqueConstraint('pdu_id', 'outlet', name='uq_power_connection_pdu_id')
    )
    with op.batch_alter_table('power_connection', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_power_connection_device_id'), ['device_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_power_connection_pdu_id'), ['pdu_id'], unique=False)

    with op.batch_alter_table('contract_item', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_contract_item_kind'), type_='check')
        batch_op.create_check_constraint(batch_op.f('ck_contract_item_kind'), _kinds(KINDS + ('power',)))
    _one_feed_per_rack()


def legacy_amperage(capacity_kw, breaker_kw) -> int | None:
    """Whole amperes of the breaker a rack's figures stand for (None: the rack has no power figure)."""
    kw = Decimal(str(breaker_kw)) if breaker_kw is not None else Decimal(str(capacity_kw or 0)) / Decimal("0.8")
    if kw <= 0:
        return None
    return max(1, math.ceil(kw * 1000 / LEGACY_VOLTAGE))


def _one_feed_per_rack() -> None:
    conn = op.get_bind()
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    rooms = conn.execute(sa.text(
        "SELECT DISTINCT room.id, room.site_id, room.name FROM room JOIN rack ON rack.room_id = room.id "
        "ORDER BY room.id")).all()
    for room_id, site_id, room_name in rooms:
        racks = conn.execute(sa.text(
            "SELECT id, name, power_capacity_kw, breaker_limit_kw FROM rack WHERE room_id = :r ORDER BY name"),
            {"r": room_id}).all()
        feeds = [(rid, name, legacy_amperage(cap, brk)) for rid, name, cap, brk in racks]
        feeds = [f for f in feeds if f[2] is not None]
        if not feeds:
            continue
        panel_name = f"{room_name[:50]} legacy"
        conn.execute(sa.text(
            "INSERT INTO power_panel (site_id, room_id, name, voltage, phase, amperage, ups, comments, version, "
            "updated_at, updated_by) VALUES (:s, :r, :n, :v, 'single-phase', :a, NULL, :c, 1, :t, 'migration 0017')"),
            {"s": site_id, "r": room_id, "n": panel_name, "v": LEGACY_VOLTAGE,
             "a": max(250, sum(a for *_x, a in feeds)), "t": now,
             "c": "the racks' power figures before the power chain was modelled"})
        panel_id = conn.execute(sa.text("SELECT id FROM power_panel WHERE site_id = :s AND name = :n"),
                                {"s": site_id, "n": panel_name}).scalar_one()
        for rack_id, rack_name, amps in feeds:
            conn.execute(sa.text(
                "INSERT INTO power_feed (power_panel_id, rack_id, name, side, status, type, supply, phase, voltage, "
                "amperage, max_utilization, contract_item_id, comments, version, updated_at, updated_by) VALUES "
                "(:p, :r, :n, 'A', 'active', 'primary', 'ac', 'single-phase', :v, :a, 80, NULL, :c, 1, :t, "
                "'migration 0017')"),
                {"p": panel_id, "r": rack_id, "n": rack_name, "v": LEGACY_VOLTAGE, "a": amps, "t": now,
                 "c": "one feed per rack from its power figures"})


def downgrade() -> None:
    # Items selling circuits go back to hosting (the nearest kind that is priced by month or kWh).
    op.execute("UPDATE contract_item SET kind = 'hosting' WHERE kind = 'power'")
    with op.batch_alter_table('contract_item', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('ck_contract_item_kind'), type_='check')
        batch_op.create_check_constraint(batch_op.f('ck_contract_item_kind'), _kinds(KINDS))
    with op.batch_alter_table('power_connection', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_power_connection_pdu_id'))
        batch_op.drop_index(batch_op.f('ix_power_connection_device_id'))

    op.drop_table('power_connection')
    with op.batch_alter_table('pdu_feed', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pdu_feed_power_feed_id'))

    op.drop_table('pdu_feed')
    op.drop_table('circuit_reading')
    with op.batch_alter_table('power_feed', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_power_feed_rack_id'))
        batch_op.drop_index(batch_op.f('ix_power_feed_power_panel_id'))
        batch_op.drop_index(batch_op.f('ix_power_feed_contract_item_id'))

    op.drop_table('power_feed')
    with op.batch_alter_table('power_panel', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_power_panel_site_id'))
        batch_op.drop_index(batch_op.f('ix_power_panel_room_id'))

    op.drop_table('power_panel')

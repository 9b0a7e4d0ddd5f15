"""A ticket opened from a power feed sold to a customer (a circuit on an active contract's power
item) comes prefilled with that customer and contract; an unsold feed names no customer (both
backends)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from models import ContractItem, Rack
from models.choices import ItemKind, PriceUnit, TicketObjectType

from app.services import contracts as C
from app.services import power as P
from app.services.operations.tickets import prefill_for
from tests.billing.test_billing_world import make_world, signed


def test_a_ticket_from_a_sold_feed_prefills_its_customer_and_contract(db, admin, manager):
    w = make_world(db, n_racks=2)
    with db.session() as s:
        rack = s.get(Rack, w.rack_ids[0])
        site_id, room_id = rack.room.site_id, rack.room_id
    panel = P.create_panel(db, admin, dict(site_id=site_id, room_id=room_id, name="PP-A", ups="UPS-1"))
    feed = P.create_feed(db, admin, dict(power_panel_id=panel, rack_id=w.rack_ids[0], name="A-01-A", side="A",
                                         amperage=16))
    before = prefill_for(db, TicketObjectType.FEED, feed)
    assert (before.customer_id, before.contract_id, before.site_id) == (None, None, site_id)   # not sold: nobody's
    today = dt.date.today()
    item = C.ItemSpec(kind=ItemKind.POWER, description="16 A / 230 V 电力回路", unit_price=Decimal("800"),
                      price_unit=PriceUnit.MONTH, quantity=Decimal(1), rack_id=w.rack_ids[0])
    c = signed(db, manager, admin, w, [item], today - dt.timedelta(days=30), today + dt.timedelta(days=335))
    with db.session() as s:
        item_id = s.execute(select(ContractItem.id).where(ContractItem.contract_id == c.id,
                                                          ContractItem.kind == ItemKind.POWER)).scalar_one()
    assert P.sell_circuits(db, manager, item_id, [feed]) == 1
    for kind in (TicketObjectType.FEED, TicketObjectType.CIRCUIT):
        pre = prefill_for(db, kind, feed)
        assert (pre.customer_id, pre.contract_id, pre.site_id) == (w.customer_id, c.id, site_id)
        assert pre.object_id == feed and pre.label == "A-01-A"

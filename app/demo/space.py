"""Demo: leasable space. A rack shared by two customers by U ranges (with a third's reservation
on part of the free units) and a cage of four racks leased as one contract item, all in the
Shanghai high-density room, signed by the Shanghai subsidiary that operates the site."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from app.demo.contracts import _add_months, _month_start, _sign
from app.domain.actor import Actor
from app.domain.errors import AuthenticationFailed
from app.services import contracts as C
from app.services.dcim import place_device, reserve_units
from app.services.space import create_cage
from app.services.users import login
from app.store.db import Database
from models import Contract, Customer, DeviceType, Rack, Room, Site
from models.choices import DeviceStatus, ItemKind, PriceUnit

D = Decimal
SITE, ROOM = "SH-ZJ1", "3F 智算机房"
SHARED_RACK = "A05"
CAGE_RACKS = ("B01", "B02", "B03", "B04")


def load_demo_space(db: Database, admin: Actor, today: dt.date) -> int:
    """Returns the number of contracts signed (0 when the demo's room or free customers are missing)."""
    try:
        manager = login(db, "lina", "demo1234")
    except AuthenticationFailed:  # users made before the demo keep their own passwords
        manager = admin
    with db.session() as s:
        room = s.execute(select(Room).join(Site, Site.id == Room.site_id)
                         .where(Site.code == SITE, Room.name == ROOM)).scalar_one_or_none()
        if room is None:
            return 0
        sub_id, room_id = room.site.subsidiary_id, room.id
        racks = {r.name: r.id for r in s.execute(select(Rack).where(Rack.room_id == room_id)).scalars()}
        with_contracts = select(Contract.customer_id)
        free = s.execute(select(Customer.id).where(Customer.id.not_in(with_contracts))
                         .order_by(Customer.id).limit(4)).scalars().all()
        server = s.execute(select(DeviceType.id).where(DeviceType.slug == "dell-poweredge-r760")).scalar_one()
    if len(free) < 4 or SHARED_RACK not in racks or any(n not in racks for n in CAGE_RACKS):
        return 0
    a, b, c, d = free
    start = _month_start(today, 3)
    end = _add_months(start, 12) - dt.timedelta(days=1)

    def contract(customer: int, items: list[C.ItemSpec], title: str) -> None:
        info = C.create_contract(db, manager, subsidiary_id=sub_id, customer_id=customer, start_date=start,
                                 end_date=end, items=items, title=title,
                                 service_level="7×24 现场运维，故障 2 小时内响应，99.95% 电力可用性",
                                 terms="按月结算，账单出具后 15 日内付款。")
        _sign(db, manager, admin, info, start)

    def units(u_from: int, u_to: int, price: str) -> C.ItemSpec:
        return C.ItemSpec(kind=ItemKind.RACK, description=f"机柜 {SHARED_RACK} U{u_from}–U{u_to} 租赁（1/3 柜）",
                          description_en=f"Rack {SHARED_RACK} U{u_from}–U{u_to} lease (a third of the rack)",
                          unit_price=D(price), price_unit=PriceUnit.MONTH, rack_id=racks[SHARED_RACK],
                          u_from=u_from, u_to=u_to)

    contract(a, [units(1, 14, "2600")], f"机柜租赁合同 {SITE} {SHARED_RACK} U1–U14")
    contract(b, [units(15, 28, "2600")], f"机柜租赁合同 {SITE} {SHARED_RACK} U15–U28")
    cage = create_cage(db, admin, room_id, "Cage-SH1", [racks[n] for n in CAGE_RACKS],
                       note="独立围笼，门禁单独授权")
    contract(d, [C.ItemSpec(kind=ItemKind.RACK, description="笼位 Cage-SH1 整笼租赁（4 柜，含 24 kW 电力）",
                            description_en="Cage-SH1 whole-cage lease (4 racks, 24 kW of power included)",
                            unit_price=D("25600"), price_unit=PriceUnit.MONTH, cage_id=cage)],
             f"笼位租赁合同 {SITE} Cage-SH1")
    reserve_units(db, admin, racks[SHARED_RACK], c, "front", 35, 38, today, _add_months(today, 2),
                  note="意向客户，待签约")
    # Each customer's servers in its own space.
    for n, (owner, pos) in enumerate(((a, 2), (a, 6), (b, 16), (b, 20), (d, 1), (d, 4))):
        rack = racks[SHARED_RACK] if owner != d else racks[CAGE_RACKS[n % 2]]
        place_device(db, admin, dict(name=f"cust{owner:02d}-colo-{n + 1:02d}", device_type_id=server,
                                     owner_customer_id=owner, rack_id=rack, position=pos, face="front",
                                     status=DeviceStatus.ACTIVE))
    return 3

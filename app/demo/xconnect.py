"""Demo: cross-connects from the shared rack and the cage of app/demo/space.py through the
meet-me room: to a carrier (active, with its circuit id), to a cloud on-ramp (installed, awaiting
the cloud side), customer to customer (ordered), and one disconnected."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from app.demo.space import ROOM, SHARED_RACK, SITE
from app.domain.actor import Actor
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Rack, Room, Site, SpaceLease
from models.choices import XconnectMedium, XconnectPeer, XconnectState


def load_demo_xconnects(db: Database, admin: Actor, today: dt.date) -> int:
    """Returns the number of cross-connects made (0 without the demo's shared rack and cage)."""
    from app.services.xconnects import move_in, order_in

    with db.session() as s:
        room = s.execute(select(Room.id).join(Site, Site.id == Room.site_id)
                         .where(Site.code == SITE, Room.name == ROOM)).scalar_one_or_none()
        if room is None:
            return 0
        shared = s.execute(select(Rack.id).where(Rack.room_id == room, Rack.name == SHARED_RACK)).scalar_one()
        split = s.execute(select(SpaceLease.customer_id, SpaceLease.start_date).where(SpaceLease.rack_id == shared)
                          .order_by(SpaceLease.u_from)).all()
        caged = s.execute(select(SpaceLease.customer_id, SpaceLease.rack_id, SpaceLease.start_date)
                          .where(SpaceLease.cage_id.is_not(None)).order_by(SpaceLease.rack_id)).first()
    if len(split) < 2 or caged is None:
        return 0
    (a, start), (b, _s) = split[0], split[1]
    d, cage_rack, _s = caged

    def day(n: int) -> dt.date:
        return min(start + dt.timedelta(days=n), today)

    made = [
        (dict(customer_id=a, rack_id=shared, panel="PP-A05-01", port="1", mmr_panel="MMR-ODF-01", mmr_port="1",
              peer_kind=XconnectPeer.CARRIER, peer_name="中国电信上海分公司", peer_port="CT-ODF-3/12",
              medium=XconnectMedium.SMF, ordered_date=day(3), work_note="10G 专线上联，LC-LC 单模跳纤"),
         [(XconnectState.INSTALLED, day(10), "工单 XC-2026-0412 完成跳纤", None),
          (XconnectState.ACTIVE, day(12), "电信侧测试通过", "SHCT-10G-2026-0457")]),
        (dict(customer_id=b, rack_id=shared, panel="PP-A05-02", port="1", mmr_panel="MMR-ODF-01", mmr_port="2",
              peer_kind=XconnectPeer.CLOUD, peer_name="阿里云高速通道（上海）", medium=XconnectMedium.SMF,
              ordered_date=day(20)),
         [(XconnectState.INSTALLED, day(28), "等待云侧开通", None)]),
        (dict(customer_id=d, rack_id=cage_rack, panel="PP-B01-01", port="4", mmr_panel="MMR-ODF-02", mmr_port="7",
              peer_kind=XconnectPeer.CUSTOMER, peer_customer_id=a, peer_port="PP-A05-01/2", medium=XconnectMedium.MMF,
              ordered_date=day(40), work_note="两客户间直连，双方已签字确认"), []),
        (dict(customer_id=a, rack_id=shared, panel="PP-A05-01", port="3", mmr_panel="MMR-ODF-01", mmr_port="3",
              peer_kind=XconnectPeer.CARRIER, peer_name="中国联通上海分公司", medium=XconnectMedium.COPPER,
              ordered_date=day(5)),
         [(XconnectState.INSTALLED, day(9), None, "SHCU-1G-2026-0088"), (XconnectState.ACTIVE, day(9), None, None),
          (XconnectState.DISCONNECTED, day(45), "客户改用电信线路，已拆除跳线", None)]),
    ]
    with UnitOfWork(db, admin) as uow:
        for values, moves in made:
            xc = order_in(uow, values)
            for state, on, note, circuit in moves:
                move_in(uow, xc, state, on, note=note, circuit_id=circuit)
        uow.commit()
    return len(made)

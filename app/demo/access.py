"""Demo: the operations desk. The Guangzhou room's A/B row gets a planned maintenance of its A-side
panel PP-A (confirmed with notice, next week), which reaches two leased racks of the same room
now fed from that panel: A01 on both sides (PP-A and PP-B: reduced redundancy for its customer)
and A03 on the A side only (single-fed: an outage for its customer). Site access (authorised
contacts, visits: one on site now, one overstayed) is added by `load_demo_visits`."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from models import PowerPanel, Rack, Room, Site, SpaceLease
from models.choices import MaintenanceTarget

from app.domain.actor import Actor
from app.domain.clock import TZ, local_today
from app.services.operations.maintenance import confirm_maintenance, plan_maintenance
from app.services.power import create_feed
from app.store.db import Database

SITE, ROOM = "GZ-HP1", "A 机房"
DUAL_FED, SINGLE_FED = "A01", "A03"  # leased racks of the room, fed from the A/B row's panels


def load_demo_maintenance(db: Database, admin: Actor, today: dt.date | None = None) -> int | None:
    """Returns the maintenance window's id (None when the A/B row is missing)."""
    today = today or local_today()
    with db.session() as s:
        room = s.execute(select(Room).join(Site, Site.id == Room.site_id)
                         .where(Site.code == SITE, Room.name == ROOM)).scalar_one_or_none()
        if room is None:
            return None
        panels = {p.name: p.id for p in s.execute(select(PowerPanel).where(PowerPanel.room_id == room.id)).scalars()}
        racks = {r.name: r.id for r in s.execute(select(Rack).where(Rack.room_id == room.id)).scalars()}
        leased = set(s.execute(select(SpaceLease.rack_id)).scalars())
    if not {"PP-A", "PP-B"} <= set(panels) or not {DUAL_FED, SINGLE_FED} <= set(racks) \
            or not {racks[DUAL_FED], racks[SINGLE_FED]} <= leased:
        return None
    for rack, sides in ((DUAL_FED, "AB"), (SINGLE_FED, "A")):
        for side in sides:
            create_feed(db, admin, dict(power_panel_id=panels[f"PP-{side}"], rack_id=racks[rack], name=f"{rack}-{side}",
                                        side=side, type="primary" if side == "A" else "redundant", voltage=220,
                                        amperage=32, phase="single-phase"))
    day = max(today, local_today()) + dt.timedelta(days=5)  # confirmable now: beyond the 72 h notice
    start = dt.datetime(day.year, day.month, day.day, 1, 0, tzinfo=TZ).astimezone(dt.timezone.utc)
    wid = plan_maintenance(
        db, admin, target_kind=MaintenanceTarget.PANEL, target=panels["PP-A"], planned_start=start,
        planned_end=start + dt.timedelta(hours=4), title="A 路列头柜 PP-A 断路器年度检修 / PP-A breaker annual service",
        description="A 路（PP-A，UPS-A 之后）停电检修，B 路照常供电。/ The A side (PP-A, behind UPS-A) is switched off; "
                    "the B side carries on.",
        contact="运维值班 王磊 020-8226 5500")
    confirm_maintenance(db, admin, wid)
    return wid


def demo_id_number(area: str, birthday: str, seq: int) -> str:
    """A resident ID number of the right shape (GB 11643 check character) for demo people."""
    body = f"{area}{birthday}{seq:03d}"
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body + "10X98765432"[sum(int(c) * w for c, w in zip(body, weights)) % 11]


def load_demo_visits(db: Database, admin: Actor, operator: Actor | None = None) -> int:
    """Authorised contacts of the Shanghai cage and shared rack, and three visits: yesterday's
    (in and out), one on site now in the cage, one that overstayed its window at the shared rack.
    Returns the number of visits (0 when the demo's space is missing)."""
    from models import Cage, Contact
    from app.services.operations import visits as V

    operator = operator or admin
    with db.session() as s:
        cage = s.execute(select(Cage).where(Cage.name == "Cage-SH1")).scalar_one_or_none()
        if cage is None:
            return 0
        site_id = s.get(Room, cage.room_id).site_id
        cage_customer = s.execute(select(SpaceLease.customer_id).where(SpaceLease.cage_id == cage.id)).scalars().first()
        shared = s.execute(select(Rack).where(Rack.room_id == cage.room_id, Rack.name == "A05")).scalar_one_or_none()
        rack_customers = s.execute(select(SpaceLease.customer_id).where(SpaceLease.rack_id == shared.id)
                                   .order_by(SpaceLease.u_from)).scalars().all() if shared else []
        contacts = {c.customer_id: c.id for c in s.execute(select(Contact).order_by(Contact.id.desc())).scalars()}
    if cage_customer is None or not rack_customers or cage_customer not in contacts or rack_customers[0] not in contacts:
        return 0
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    today = now.astimezone(TZ).date()
    since = today - dt.timedelta(days=90)
    V.authorise_contact(db, admin, contacts[cage_customer], site_id, cage_id=cage.id, valid_from=since,
                        note="笼位门禁授权（年度）")
    V.authorise_contact(db, admin, contacts[rack_customers[0]], site_id, valid_from=since, note="机柜 A05 现场运维")
    hour = dt.timedelta(hours=1)
    # yesterday: the cage customer's engineer came and left
    y = V.request_visit(db, admin, customer_id=cage_customer, contact_id=contacts[cage_customer], cage_id=cage.id,
                        purpose="更换 2 块硬盘 / replace two disks", window_start=now - 26 * hour,
                        window_end=now - 22 * hour,
                        visitors=[V.VisitorIn("周杰", demo_id_number("310115", "19880312", 17), company="客户自有运维",
                                              contact_id=contacts[cage_customer])])
    # now: in the cage with an escorted vendor engineer
    n = V.request_visit(db, admin, customer_id=cage_customer, contact_id=contacts[cage_customer], cage_id=cage.id,
                        purpose="新服务器上架 / rack two new servers", window_start=now - 2 * hour,
                        window_end=now + 3 * hour, escort_needed=True,
                        visitors=[V.VisitorIn("周杰", demo_id_number("310115", "19880312", 17), company="客户自有运维",
                                              contact_id=contacts[cage_customer]),
                                  V.VisitorIn("孙浩", demo_id_number("440305", "19910520", 33), company="戴尔（中国）服务工程师")])
    # overstayed: at the shared rack, window ended two hours ago, still inside
    o = V.request_visit(db, admin, customer_id=rack_customers[0], contact_id=contacts[rack_customers[0]],
                        rack_ids=[shared.id], purpose="网络割接 / network cut-over", window_start=now - 6 * hour,
                        window_end=now - 2 * hour,
                        visitors=[V.VisitorIn("钱伟", demo_id_number("350102", "19850101", 21), company="客户网络部",
                                              contact_id=contacts[rack_customers[0]])])
    for vid in (y, n, o):
        V.approve_visit(db, admin, vid)
    people = {vid: [r.visitor_id for r in V.list_visits(db, admin) if r.visit_id == vid] for vid in (y, n, o)}
    V.check_in(db, operator, people[y][0], "SH-017", at=now - 26 * hour + dt.timedelta(minutes=10))
    V.check_out(db, operator, people[y][0], at=now - 23 * hour)
    for k, pid in enumerate(people[n]):
        V.check_in(db, operator, pid, f"SH-02{k + 1}", at=now - hour)
    V.check_in(db, operator, people[o][0], "SH-031", at=now - 5 * hour)
    return 3

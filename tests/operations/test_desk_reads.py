"""The Operations page's maintenance and visitors tabs read their rows once, in a fixed number of
statements whatever the number of windows (issue 26): the windows' list names what each works on as
the window itself does, and the guard desk's one read gives what on_site_now and visitors_of_day give."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from models import CrossConnect, Device, MaintenanceWindow, PowerFeed, PowerPanel, Rack, Room, Site

from app.domain.clock import local_today
from app.services.operations import maintenance as M
from app.services.operations import visits as V
from app.services.users import login
from tests.support.statements import statements_sent

UTC = dt.timezone.utc


def _plan_one_of_each_kind(db, admin) -> dict[int, str]:
    """Emergency windows (no notice period) on a feed, a rack, a device, a cross-connect, a room's
    cooling and a UPS: window id -> the label expected, read here from the rows themselves."""
    with db.session() as s:
        feed, panel = s.execute(select(PowerFeed, PowerPanel).join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)
                                .order_by(PowerFeed.id)).first()
        rack, room = s.execute(select(Rack, Room).join(Room, Room.id == Rack.room_id).order_by(Rack.id)).first()
        device = s.execute(select(Device).where(Device.rack_id.is_not(None)).order_by(Device.id)).scalars().first()
        xc = s.execute(select(CrossConnect).where(CrossConnect.rack_id.is_not(None))).scalars().first()
        ups = s.execute(select(PowerPanel).where(PowerPanel.ups.is_not(None))).scalars().first()
        wanted = [("feed", feed.id, None, f"{panel.name}/{feed.name}"), ("rack", rack.id, None, f"{room.name}/{rack.name}"),
                  ("device", device.id, None, device.name), ("cooling", room.id, None, room.name),
                  ("ups", ups.ups, ups.site_id, ups.ups)]
        if xc is not None:
            wanted.append(("xconnect", xc.id, None, xc.reference))
    start = dt.datetime.now(UTC).replace(microsecond=0) + dt.timedelta(days=2)
    out = {}
    for kind, target, site_id, label in wanted:
        wid = M.plan_maintenance(db, admin, target_kind=kind, target=target, site_id=site_id, planned_start=start,
                                 planned_end=start + dt.timedelta(hours=2), title=f"work on a {kind}",
                                 emergency=True, emergency_reason="a failing part")
        out[wid] = label
    return out


def test_the_windows_list_is_a_fixed_number_of_statements_and_names_each_target(demo_db):
    admin = login(demo_db, "admin", "demo1234")
    with statements_sent(demo_db) as before:
        one = M.list_windows(demo_db)
    planned = _plan_one_of_each_kind(demo_db, admin)
    with statements_sent(demo_db) as after:
        rows = M.list_windows(demo_db)
    assert len(rows) == len(one) + len(planned) >= 6
    assert len(after) == len(before) <= 3        # windows (with the notice setting), their impacts, the targets
    by_id = {r.id: r for r in rows}
    assert {wid: by_id[wid].target for wid in planned} == planned
    for r in rows:                                # the list says what the window alone says
        assert M.window(demo_db, r.id) == r
        impacts = M.impact_of(demo_db, r.id)
        assert r.customers == len({i.customer_id for i in impacts})
        assert r.worst == (impacts[0].impact if impacts else None)   # worst first
    with demo_db.session() as s:
        site = {w.id: s.get(Site, w.site_id).code for w in [s.get(MaintenanceWindow, wid) for wid in planned]}
    assert {wid: by_id[wid].site for wid in planned} == site


def test_the_maintenance_tab_view_is_one_read_of_windows_and_the_chosen_impact(demo_db):
    with statements_sent(demo_db) as sent:
        view = M.maintenance_view(demo_db)
    assert view.windows == M.list_windows(demo_db) and view.chosen == view.windows[0].id
    assert view.impacts == M.impact_of(demo_db, view.chosen) and len(view.impacts) == 2
    assert len(sent) <= 4
    assert M.maintenance_view(demo_db, keep=-1).chosen == view.windows[0].id


def test_the_guard_desk_is_on_site_now_and_the_day_in_one_read(demo_db):
    op = login(demo_db, "wanglei", "demo1234")
    now = dt.datetime.now(UTC)
    sites = [None] + [sid for sid, _c, _n in V.sites(demo_db)]
    for site in sites:
        with statements_sent(demo_db) as sent:
            desk = V.guard_desk(demo_db, op, local_today(), site_id=site, now=now, with_sites=True)
        assert len(sent) <= 3                     # the visitors, their spaces, the sites
        assert desk.here == V.on_site_now(demo_db, op, site_id=site, now=now)
        assert desk.day == V.visitors_of_day(demo_db, op, local_today(), site_id=site, now=now)
        assert desk.sites == V.sites(demo_db)
    assert V.guard_desk(demo_db, op, local_today(), now=now).here          # the demo has visitors on site

"""Power chain commands: `power panels`, `power feeds`, `power check RACK|--room|--site`,
`power panel-add`, `power feed-add`, `power pdu`, `power connect`, `power sell`, `power readings FILE`.

Panels, feeds and PDUs also come from `import power-panels|power-feeds|pdus`."""
from __future__ import annotations


def register(sub) -> None:
    pw = sub.add_parser("power", help="power chain: panels, feeds (circuits), PDUs, the 80 %% rule and N redundancy")
    ps = pw.add_subparsers(dest="power_command", required=True, metavar="ACTION")
    p = ps.add_parser("panels", help="list the power panels")
    p.add_argument("--site", help="a site code")
    p.set_defaults(handler=panels)
    p = ps.add_parser("feeds", help="list the feeds (circuits)")
    p.add_argument("--site")
    p.add_argument("--rack", help="SITE/ROOM/NAME, asset tag or id")
    p.set_defaults(handler=feeds)
    p = ps.add_parser("check", help="the 80 %% rule and the N-redundancy check of a rack, a room or a site")
    p.add_argument("rack", nargs="?", help="SITE/ROOM/NAME, asset tag or id")
    p.add_argument("--site", help="every rack of a site, by room")
    p.set_defaults(handler=check)
    p = ps.add_parser("panel-add", help="add a power panel (audited)")
    p.add_argument("site")
    p.add_argument("name")
    p.add_argument("--room")
    p.add_argument("--voltage", type=int, default=220)
    p.add_argument("--phase", default="single-phase", choices=["single-phase", "three-phase"])
    p.add_argument("--amperage", type=int, default=250)
    p.add_argument("--ups")
    p.set_defaults(handler=panel_add)
    p = ps.add_parser("feed-add", help="add a feed from a panel to a rack (audited)")
    p.add_argument("panel", help="SITE/PANEL")
    p.add_argument("name")
    p.add_argument("--rack")
    p.add_argument("--side", choices=["A", "B"])
    p.add_argument("--type", choices=["primary", "redundant"], default="primary")
    p.add_argument("--voltage", type=int)
    p.add_argument("--amperage", type=int, default=32)
    p.add_argument("--phase", choices=["single-phase", "three-phase"])
    p.add_argument("--max-utilization", type=int, default=80)
    p.set_defaults(handler=feed_add)
    p = ps.add_parser("pdu", help="plug a PDU (a device of role PDU) into a feed")
    p.add_argument("device", help="the PDU: name, asset tag or id")
    p.add_argument("feed", help="SITE/PANEL/FEED, PANEL/FEED or id")
    p.add_argument("--outlets", type=int, default=24)
    p.set_defaults(handler=pdu)
    p = ps.add_parser("connect", help="plug a device's power supply into a PDU outlet")
    p.add_argument("device")
    p.add_argument("port", help="the supply, e.g. PSU1")
    p.add_argument("pdu")
    p.add_argument("outlet", type=int)
    p.set_defaults(handler=connect)
    p = ps.add_parser("sell", help="name the circuits a contract item of kind power sells")
    p.add_argument("item_id", type=int)
    p.add_argument("feeds", nargs="+", metavar="FEED")
    p.set_defaults(handler=sell)
    p = ps.add_parser("readings", help="import circuit meter readings from CSV (circuit,read_at,kwh_total[,reset])")
    p.add_argument("file")
    p.set_defaults(handler=readings)


def panels(ctx, args) -> int:
    from app.read.power import list_panels

    site_id = _site_id(ctx, args.site)
    for p in list_panels(ctx.db, site_id):
        print(f"{p.site}\t{p.room or '-'}\t{p.name}\t{p.voltage} V {p.phase} {p.amperage} A\tUPS {p.ups or '-'}\t"
              f"{p.feeds} feed(s)")
    return 0


def feeds(ctx, args) -> int:
    from app.read.power import list_feeds
    from app.services.racknames import find_rack

    rack_id = find_rack(ctx.db, args.rack) if args.rack else None
    for f in list_feeds(ctx.db, site_id=_site_id(ctx, args.site), rack_id=rack_id):
        print(f"{f.site}/{f.panel}/{f.name}\t{f.side}\t{f.rack or '-'}\t{f.status}\t{f.type}\t{f.supply}\t"
              f"{f.phase}\t{f.voltage} V\t{f.amperage} A\t{f.max_utilization} %\t{f.sold_to or ''}")
    return 0


def _site_id(ctx, code: str | None) -> int | None:
    if not code:
        return None
    from sqlalchemy import select

    from app.domain.errors import NotFound
    from models import Site
    with ctx.db.session() as s:
        sid = s.execute(select(Site.id).where(Site.code == code)).scalar_one_or_none()
    if sid is None:
        raise NotFound(f"there is no site {code}")
    return sid


def _print_rack(rp) -> None:
    from models.choices import RedundancyState

    print(f"{rp.rack}: {rp.load_w / 1000:.2f} kW; {RedundancyState.label(rp.redundancy)}")
    for f in rp.feeds:
        mark = "  OVER" if f.over else ""
        print(f"  {f.side} {f.label} {f.status} {f.amperage} A: {f.load_w / 1000:.2f} kW ({f.pct} %), "
              f"limit {f.limit_w / 1000:.2f} kW ({f.limit_pct} %), on failover {f.failover_w / 1000:.2f} kW{mark}")
    for problem in rp.problems:
        print(f"  ! {problem}")


def check(ctx, args) -> int:
    from app.read.power import rack_power_of, site_power
    from app.services.racknames import find_rack

    if args.rack:
        rp = rack_power_of(ctx.db, find_rack(ctx.db, args.rack))
        _print_rack(rp)
        return 0 if rp.ok else 1
    if not args.site:
        from app.domain.errors import ValidationError
        raise ValidationError({"rack": "name a rack, or a site with --site"})
    bad = 0
    from models.choices import RedundancyState
    for room in site_power(ctx.db, _site_id(ctx, args.site)):
        print(f"{room.room}: {len(room.racks)} rack(s), {room.load_w / 1000:.2f} kW; redundant "
              f"{room.count(RedundancyState.OK)}, failing {room.count(RedundancyState.FAIL)}, one side only "
              f"{room.count(RedundancyState.SINGLE)}, no feeds {room.count(RedundancyState.NONE)}; "
              f"feeds over the limit {room.feeds_over}")
        for rp in room.racks:
            if not rp.ok:
                bad += 1
                _print_rack(rp)
    return 0 if not bad else 1


def panel_add(ctx, args) -> int:
    from sqlalchemy import select

    from app.services.power import create_panel
    from models import Room
    site_id = _site_id(ctx, args.site)
    room_id = None
    if args.room:
        with ctx.db.session() as s:
            room_id = s.execute(select(Room.id).where(Room.site_id == site_id, Room.name == args.room)).scalar_one_or_none()
    pid = create_panel(ctx.db, ctx.actor(), dict(site_id=site_id, room_id=room_id, name=args.name,
                                                 voltage=args.voltage, phase=args.phase, amperage=args.amperage,
                                                 ups=args.ups))
    print(f"panel {args.name} (id {pid})")
    return 0


def feed_add(ctx, args) -> int:
    from app.services.racknames import find_rack
    from app.services.power import create_feed, find_panel_in

    site, _, name = args.panel.rpartition("/")
    with ctx.db.session() as s:
        panel_id = find_panel_in(s, site or None, name).id
    fid = create_feed(ctx.db, ctx.actor(), dict(
        power_panel_id=panel_id, rack_id=find_rack(ctx.db, args.rack) if args.rack else None, name=args.name,
        side=args.side, type=args.type, voltage=args.voltage, amperage=args.amperage, phase=args.phase,
        max_utilization=args.max_utilization))
    print(f"feed {args.name} (id {fid})")
    return _verdict(ctx, find_rack(ctx.db, args.rack) if args.rack else None)


def _verdict(ctx, rack_id) -> int:
    """After a write to the power chain: what `power check` says of the rack, and its exit code (the
    write is kept: the chain is recorded as it is, but a rack left failing is said, exit 1)."""
    from app.read.power import power_verdict

    problems = power_verdict(ctx.db, [rack_id])
    for p in problems:
        print(f"  ! {p}")
    if problems:
        print("recorded, but the rack fails the power check (idc-console power check RACK)")
    return 1 if problems else 0


def pdu(ctx, args) -> int:
    from app.services.power import attach_pdu, find_device_in, find_feed_in
    from models import Device

    with ctx.db.session() as s:
        device_id, feed_id = find_device_in(s, args.device).id, find_feed_in(s, args.feed).id
        rack_id = s.get(Device, device_id).rack_id
    attach_pdu(ctx.db, ctx.actor(), device_id, feed_id, args.outlets)
    print(f"PDU {args.device} is fed by {args.feed}")
    return _verdict(ctx, rack_id)


def connect(ctx, args) -> int:
    from app.services.power import connect_supply, find_device_in
    from models import Device

    with ctx.db.session() as s:
        device_id, pdu_id = find_device_in(s, args.device).id, find_device_in(s, args.pdu).id
        rack_id = s.get(Device, device_id).rack_id
    connect_supply(ctx.db, ctx.actor(), device_id, args.port, pdu_id, args.outlet)
    print(f"{args.device} {args.port} → {args.pdu} outlet {args.outlet}")
    return _verdict(ctx, rack_id)


def sell(ctx, args) -> int:
    from app.services.power import find_feed_in, sell_circuits

    with ctx.db.session() as s:
        ids = [find_feed_in(s, f).id for f in args.feeds]
    n = sell_circuits(ctx.db, ctx.actor(), args.item_id, ids)
    print(f"item {args.item_id} sells {n} circuit(s)")
    return 0


def readings(ctx, args) -> int:
    from app.services.power import import_circuit_readings

    r = import_circuit_readings(ctx.db, ctx.actor(), args.file)
    print(f"imported {r.imported} circuit reading(s) for {r.circuits} circuit(s); {r.unchanged} already stored")
    return 0

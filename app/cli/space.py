"""Leasable space commands: `space cage create`, `space lease`, `space end`, `space show RACK`.

Leases come from contracts (activation), `import leases`, or `space lease` for one outside a contract
(an existing colocation book); `export leases` lists them.
"""
from __future__ import annotations

import datetime as dt

from app.cli.main import date_arg


def register(sub) -> None:
    space = sub.add_parser("space", help="leasable space: cages, ending a lease, a rack's leased and free units")
    ss = space.add_subparsers(dest="space_command", required=True, metavar="ACTION")
    cage = ss.add_parser("cage", help="cages: named sets of racks of one room, leased as one unit")
    cs = cage.add_subparsers(dest="cage_command", required=True, metavar="ACTION")
    cc = cs.add_parser("create", help="create a cage from racks of one room")
    cc.add_argument("name")
    cc.add_argument("racks", nargs="+", metavar="RACK", help="racks as SITE/ROOM/NAME, asset tag or id")
    cc.add_argument("--note")
    cc.set_defaults(handler=cage_create)
    lease = ss.add_parser("lease", help="lease a rack's units (the whole rack without --units) or a cage to a "
                                        "customer outside a contract; refused like a contract's activation")
    lease.add_argument("customer", help="the customer's name, credit code or id")
    where = lease.add_mutually_exclusive_group(required=True)
    where.add_argument("--rack", help="SITE/ROOM/NAME, asset tag or id")
    where.add_argument("--cage", help="the cage's name or id")
    lease.add_argument("--units", metavar="FROM-TO", help="a unit range, e.g. 1-14 (default: the whole rack)")
    lease.add_argument("--face", choices=["front", "rear"], help="one face only (default: both)")
    lease.add_argument("--from", dest="start", required=True, type=date_arg, metavar="YYYY-MM-DD")
    lease.add_argument("--to", dest="end", type=date_arg, metavar="YYYY-MM-DD", help="last day (default: open end)")
    lease.add_argument("--note")
    lease.add_argument("--reason")
    lease.set_defaults(handler=space_lease)
    end = ss.add_parser("end", help="end a lease on a day (inclusive); the units are free from the next day")
    end.add_argument("lease_id", type=int)
    end.add_argument("--last-day", required=True, type=date_arg, metavar="YYYY-MM-DD")
    end.add_argument("--reason", required=True)
    end.set_defaults(handler=lease_end)
    show = ss.add_parser("show", help="a rack's leases today and its leased, reserved, used and free units")
    show.add_argument("rack", help="SITE/ROOM/NAME, asset tag or id")
    show.set_defaults(handler=space_show)


def cage_create(ctx, args) -> int:
    from app.services.racknames import find_rack
    from app.services.space import create_cage
    from models import Rack

    rack_ids = [find_rack(ctx.db, r) for r in args.racks]
    with ctx.db.session() as s:
        room_id = s.get(Rack, rack_ids[0]).room_id
    cage_id = create_cage(ctx.db, ctx.actor(), room_id, args.name, rack_ids, note=args.note)
    print(f"cage {args.name} (id {cage_id}) holds {len(rack_ids)} rack(s)")
    return 0


def space_lease(ctx, args) -> int:
    from app.domain.errors import ValidationError
    from app.services.racknames import find_rack
    from app.services.receivables import find_customer
    from app.services.space import find_cage_in, lease_space

    u_from = u_to = None
    if args.units:
        try:
            u_from, u_to = (int(x) for x in args.units.split("-"))
        except ValueError:
            raise ValidationError({"units": f"{args.units!r}: give a unit range FROM-TO, e.g. 1-14"}) from None
    with ctx.db.session() as s:
        customer_id = find_customer(s, args.customer).id
        cage_id = find_cage_in(s, args.cage) if args.cage else None
    rack_id = find_rack(ctx.db, args.rack) if args.rack else None
    ids = lease_space(ctx.db, ctx.actor(), customer_id=customer_id, rack_id=rack_id, u_from=u_from, u_to=u_to,
                      face=args.face, cage_id=cage_id, start_date=dt.date.fromisoformat(args.start),
                      end_date=dt.date.fromisoformat(args.end) if args.end else None, note=args.note,
                      reason=args.reason)
    print(f"lease(s) {', '.join(str(i) for i in ids)} from {args.start} to {args.end or 'open end'}")
    return 0


def lease_end(ctx, args) -> int:
    from app.services.space import end_space_lease

    end_space_lease(ctx.db, ctx.actor(), args.lease_id, dt.date.fromisoformat(args.last_day), args.reason)
    print(f"lease {args.lease_id} ends on {args.last_day}")
    return 0


def space_show(ctx, args) -> int:
    from app.domain.clock import local_today
    from app.read.space import leases_on, rack_space
    from app.services.racknames import find_rack

    rack_id = find_rack(ctx.db, args.rack)
    today = local_today()
    with ctx.db.session() as s:
        sp = rack_space(s, [rack_id], today)[rack_id]
        leases = leases_on(s, today, [rack_id])
    for lease in leases:
        face = lease.face or "both faces"
        cage = f", cage {lease.cage}" if lease.cage else ""
        print(f"lease {lease.id}: U{lease.u_from}–U{lease.u_to} ({face}) {lease.customer}, "
              f"{lease.start_date} to {lease.end_date or 'open end'}{cage}")
    print(f"{sp.u_height}U: leased {sp.leased_u}, reserved {sp.reserved_u}, used {sp.used_u}, free {sp.free_u}")
    return 0

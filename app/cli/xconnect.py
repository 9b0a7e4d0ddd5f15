"""Cross-connect commands: `xconnect add`, `xconnect move`, `xconnect list`, `xconnect show`.

Bulk data goes through `import|export cross-connects` and `import|export cables`; the LOA is
`report loa XCONNECT -o FILE`. The rules live in app/services/xconnects.py.
"""
from __future__ import annotations

import datetime as dt

from app.cli.main import date_arg
from models.choices import XconnectMedium, XconnectPeer, XconnectState


def register(sub) -> None:
    xc = sub.add_parser("xconnect", help="cross-connects: order, move along ordered → installed → active → "
                                         "disconnected, list")
    xs = xc.add_subparsers(dest="xconnect_command", required=True, metavar="ACTION")
    add = xs.add_parser("add", help="order a cross-connect from a customer's port through the meet-me room")
    add.add_argument("--customer", required=True, help="the customer: credit code, name or id")
    add.add_argument("--rack", required=True, help="the customer's rack: SITE/ROOM/NAME, asset tag or id")
    add.add_argument("--panel", required=True, help="the customer's patch panel in that rack")
    add.add_argument("--port", required=True, help="the port on that panel")
    add.add_argument("--to", dest="peer_kind", required=True, choices=XconnectPeer.values(),
                     help="what is at the far end")
    add.add_argument("--peer", help="the carrier or cloud on-ramp (for --to customer: the other customer)")
    add.add_argument("--peer-port", help="the far end's panel/port")
    add.add_argument("--medium", required=True, choices=XconnectMedium.values())
    add.add_argument("--mmr", metavar="PANEL/PORT", help="the meet-me room's panel and port")
    add.add_argument("--circuit", help="the carrier's circuit id")
    add.add_argument("--contract", help="the contract whose cross-connect item sells it (number)")
    add.add_argument("--item", type=int, help="the position of that item in the contract (1-based)")
    add.add_argument("--ordered", type=date_arg, metavar="YYYY-MM-DD", help="order date (default today)")
    add.add_argument("--note", help="work note")
    add.set_defaults(handler=xconnect_add)
    mv = xs.add_parser("move", help="move a cross-connect to its next state, with the day it happened")
    mv.add_argument("xconnect", help="reference XC-…, circuit id or id")
    mv.add_argument("state", choices=XconnectState.values())
    mv.add_argument("--on", type=date_arg, metavar="YYYY-MM-DD", help="the day (default today)")
    mv.add_argument("--note", help="work note (ticket, who patched it)")
    mv.add_argument("--circuit", help="the carrier's circuit id, when it is given")
    mv.set_defaults(handler=xconnect_move)
    ls = xs.add_parser("list", help="cross-connects with their state, ends and dates")
    ls.add_argument("--state", choices=XconnectState.values())
    ls.add_argument("--customer", help="a customer at either end")
    ls.set_defaults(handler=xconnect_list)
    sh = xs.add_parser("show", help="one cross-connect in full, with the moves it allows")
    sh.add_argument("xconnect", help="reference XC-…, circuit id or id")
    sh.set_defaults(handler=xconnect_show)


def _customer_id(ctx, key: str) -> int:
    from app.services.receivables import find_customer
    with ctx.db.session() as s:
        return find_customer(s, key).id


def _item_id(ctx, number: str | None, position: int | None) -> int | None:
    if not number:
        return None
    from app.domain.errors import ValidationError
    from app.services.contracts import find_contract
    with ctx.db.session() as s:
        c = find_contract(s, number)
        ids = [it.id for it in c.items]
        if position is None or not 1 <= position <= len(ids):
            raise ValidationError({"item": f"contract {c.number} has items 1 to {len(ids)}: give --item"})
        return ids[position - 1]


def xconnect_add(ctx, args) -> int:
    from app.services.racknames import find_rack
    from app.services.xconnects import get_cross_connect, order_cross_connect

    customer = _customer_id(ctx, args.customer)
    peer_customer = _customer_id(ctx, args.peer) if args.peer_kind == XconnectPeer.CUSTOMER and args.peer else None
    mmr_panel, _, mmr_port = (args.mmr or "").rpartition("/")
    xc = order_cross_connect(
        ctx.db, ctx.actor(), customer_id=customer, rack_id=find_rack(ctx.db, args.rack), panel=args.panel,
        port=args.port, peer_kind=args.peer_kind, peer_name=None if peer_customer else args.peer,
        peer_customer_id=peer_customer, peer_port=args.peer_port, medium=args.medium,
        mmr_panel=mmr_panel or None, mmr_port=mmr_port or None, circuit_id=args.circuit,
        contract_item_id=_item_id(ctx, args.contract, args.item),
        ordered_date=dt.date.fromisoformat(args.ordered) if args.ordered else None, work_note=args.note)
    row = get_cross_connect(ctx.db, xc)
    print(f"cross-connect {row.reference} ordered: {row.a_end} → {row.peer_name} ({row.peer_kind}), {row.medium}")
    return 0


def xconnect_move(ctx, args) -> int:
    from app.services.xconnects import get_cross_connect, move_cross_connect

    move_cross_connect(ctx.db, ctx.actor(), args.xconnect, args.state,
                       on=dt.date.fromisoformat(args.on) if args.on else None, note=args.note,
                       circuit_id=args.circuit)
    row = get_cross_connect(ctx.db, args.xconnect if not args.circuit else args.circuit)
    print(f"cross-connect {row.reference} is {row.state}")
    return 0


def _line(r) -> str:
    dates = " ".join(f"{k} {v}" for k, v in (("ordered", r.ordered_date), ("installed", r.installed_date),
                                              ("active", r.active_date), ("disconnected", r.disconnected_date)) if v)
    return (f"{r.reference}  {r.state:<12} {r.customer}  {r.a_end} → {r.peer_name} ({r.peer_kind})  {r.medium}"
            f"  circuit {r.circuit_id or '—'}  {dates}" + (f"  {r.contract}" if r.contract else ""))


def xconnect_list(ctx, args) -> int:
    from app.services.xconnects import list_cross_connects

    customer = _customer_id(ctx, args.customer) if args.customer else None
    rows = list_cross_connects(ctx.db, state=args.state, customer_id=customer)
    for r in rows:
        print(_line(r))
    print(f"{len(rows)} cross-connect(s)")
    return 0


def xconnect_show(ctx, args) -> int:
    from app.services.xconnects import get_cross_connect

    r = get_cross_connect(ctx.db, args.xconnect)
    print(_line(r))
    if r.mmr_panel or r.mmr_port:
        print(f"meet-me room: {r.mmr_panel or ''}/{r.mmr_port or ''}")
    if r.work_note:
        print(r.work_note)
    print(f"allowed moves: {', '.join(r.moves) or 'none (disconnected is final)'}")
    return 0

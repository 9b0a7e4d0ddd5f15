"""Maintenance commands: `maintenance plan|confirm|start|complete|cancel|reschedule|list|impact|notice`.

Times are typed in Asia/Shanghai ("2026-12-07 01:00"). The rules live in
app/services/operations/maintenance.py; the notice PDF in reports/maintenance_notice.py.
"""
from __future__ import annotations

import argparse
import datetime as dt

from models.choices import ImpactLevel, MaintenanceState, MaintenanceTarget

from app.cli.main import output_arg


def local_datetime_arg(text: str) -> dt.datetime:
    """'YYYY-MM-DD HH:MM' in Asia/Shanghai -> an aware UTC instant."""
    from app.domain.clock import TZ

    try:
        value = dt.datetime.fromisoformat(text.strip().replace("T", " "))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time: write 'YYYY-MM-DD HH:MM' (Asia/Shanghai)") from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=TZ)
    return value.astimezone(dt.timezone.utc)


def register(sub) -> None:
    mw = sub.add_parser("maintenance", help="maintenance windows: plan, confirm (notice), start, complete, cancel, "
                                            "reschedule; who is affected; the notice PDF per customer")
    ms = mw.add_subparsers(dest="maintenance_command", required=True, metavar="ACTION")
    plan = ms.add_parser("plan", help="plan a tentative window on one object; the impact is worked out at once")
    plan.add_argument("kind", choices=MaintenanceTarget.values(), help="what is worked on")
    plan.add_argument("target", help="feed SITE/PANEL/FEED, panel name, UPS name, PDU or device name, rack "
                                     "SITE/ROOM/NAME, cross-connect XC-…, or the room (id) for cooling")
    plan.add_argument("--site", help="the site's code (for a panel or UPS name)")
    plan.add_argument("--start", required=True, type=local_datetime_arg, metavar="'YYYY-MM-DD HH:MM'")
    plan.add_argument("--end", required=True, type=local_datetime_arg, metavar="'YYYY-MM-DD HH:MM'")
    plan.add_argument("--title", required=True)
    plan.add_argument("--description")
    plan.add_argument("--contact", help="whom customers call (name and phone)")
    plan.add_argument("--emergency", metavar="REASON", help="emergency work, and why it cannot wait")
    plan.set_defaults(handler=maintenance_plan)
    for name, helptext in (("confirm", "confirm: the affected customers get notice now (the notice period is "
                                       "checked)"),
                           ("start", "the work has started"), ("complete", "the work is done")):
        p = ms.add_parser(name, help=helptext)
        p.add_argument("window", help="MW-000123 or its id")
        if name != "confirm":
            p.add_argument("--at", type=local_datetime_arg, metavar="'YYYY-MM-DD HH:MM'", help="when (default now)")
        p.set_defaults(handler=maintenance_move, move=name)
    cancel = ms.add_parser("cancel", help="cancel a window (say why)")
    cancel.add_argument("window")
    cancel.add_argument("--reason", required=True)
    cancel.set_defaults(handler=maintenance_move, move="cancel")
    rs = ms.add_parser("reschedule", help="move a window: a new tentative window takes the new times")
    rs.add_argument("window")
    rs.add_argument("--start", required=True, type=local_datetime_arg)
    rs.add_argument("--end", required=True, type=local_datetime_arg)
    rs.add_argument("--reason", required=True)
    rs.set_defaults(handler=maintenance_reschedule)
    ls = ms.add_parser("list", help="windows (default: this week and later, open ones)")
    ls.add_argument("--all", action="store_true", help="every window, closed ones too")
    ls.set_defaults(handler=maintenance_list)
    imp = ms.add_parser("impact", help="who a window affects and how, per customer and object")
    imp.add_argument("window")
    imp.add_argument("--now", action="store_true", help="worked out afresh from the chain and leases (not stored)")
    imp.set_defaults(handler=maintenance_impact)
    nt = ms.add_parser("notice", help="the maintenance notice (维护通知) PDF for one affected customer")
    nt.add_argument("window")
    nt.add_argument("--customer", required=True, help="credit code, name or id")
    nt.add_argument("--lang", choices=("zh", "en"), default="zh")
    nt.add_argument("-o", "--output", required=True, type=output_arg)
    nt.set_defaults(handler=maintenance_notice)


def _window_id(ctx, key: str) -> int:
    from app.services.operations.maintenance import find_window_in

    with ctx.db.session() as s:
        return find_window_in(s, key).id


def _target(ctx, kind: str, key: str, site: str | None) -> tuple[object, int | None]:
    from sqlalchemy import select

    from models import CrossConnect, Site
    from app.domain.errors import NotFound
    from app.services.racknames import find_rack
    from app.services.power import find_device_in, find_feed_in, find_panel_in

    with ctx.db.session() as s:
        site_id = None
        if site:
            site_id = s.execute(select(Site.id).where(Site.code == site.strip())).scalar_one_or_none()
            if site_id is None:
                raise NotFound(f"there is no site {site}")
        if kind == MaintenanceTarget.FEED:
            return find_feed_in(s, key).id, site_id
        if kind == MaintenanceTarget.PANEL:
            return find_panel_in(s, site, key).id, site_id
        if kind == MaintenanceTarget.UPS:
            return key, site_id
        if kind in (MaintenanceTarget.PDU, MaintenanceTarget.DEVICE):
            return find_device_in(s, key).id, site_id
        if kind == MaintenanceTarget.XCONNECT:
            xc = s.execute(select(CrossConnect.id).where(CrossConnect.reference == key.strip().upper())).scalar_one_or_none()
            if xc is None:
                raise NotFound(f"there is no cross-connect {key}")
            return xc, site_id
        if kind == MaintenanceTarget.COOLING:
            return int(key), site_id
    return find_rack(ctx.db, key), site_id


def maintenance_plan(ctx, args) -> int:
    from app.services.operations.maintenance import impact_of, plan_maintenance, reference

    target, site_id = _target(ctx, args.kind, args.target, args.site)
    wid = plan_maintenance(ctx.db, ctx.actor(), target_kind=args.kind, target=target, planned_start=args.start,
                           planned_end=args.end, title=args.title, description=args.description, site_id=site_id,
                           emergency=bool(args.emergency), emergency_reason=args.emergency, contact=args.contact)
    rows = impact_of(ctx.db, wid)
    print(f"{reference(wid)} planned (tentative): {len({r.customer_id for r in rows})} customer(s) affected")
    _print_impact(rows)
    return 0


def maintenance_move(ctx, args) -> int:
    from app.services.operations import maintenance as M

    wid, actor = _window_id(ctx, args.window), ctx.actor()
    if args.move == "confirm":
        rows = M.confirm_maintenance(ctx.db, actor, wid)
        print(f"{M.reference(wid)} confirmed; notice given to {len({r.customer_id for r in rows})} customer(s): "
              f"print each one's notice with `maintenance notice {M.reference(wid)} --customer …`")
        return 0
    if args.move == "start":
        M.start_maintenance(ctx.db, actor, wid, at=args.at)
    elif args.move == "complete":
        M.complete_maintenance(ctx.db, actor, wid, at=args.at)
    else:
        M.cancel_maintenance(ctx.db, actor, wid, args.reason)
    print(f"{M.reference(wid)} is {MaintenanceState.label(M.window(ctx.db, wid).state).lower()}")
    return 0


def maintenance_reschedule(ctx, args) -> int:
    from app.services.operations.maintenance import reference, reschedule_maintenance

    wid = _window_id(ctx, args.window)
    new = reschedule_maintenance(ctx.db, ctx.actor(), wid, args.start, args.end, args.reason)
    print(f"{reference(wid)} rescheduled as {reference(new)} (tentative: confirm it to give fresh notice)")
    return 0


def _line(r) -> str:
    from app.domain.clock import local_text

    flags = " EMERGENCY" if r.emergency else ("" if r.in_time or r.noticed_at is None else " LATE NOTICE")
    worst = ImpactLevel.label(r.worst) if r.worst else "no customer"
    return (f"{r.reference}  {r.state:<11} {r.site}  {local_text(r.planned_start)[:16]} – "
            f"{local_text(r.planned_end)[:16]}  {r.target_kind} {r.target}  {r.title}  "
            f"[{r.customers} customer(s), worst: {worst}]{flags}")


def maintenance_list(ctx, args) -> int:
    from app.domain.clock import local_midnight, local_today
    from app.services.operations.maintenance import list_windows

    ctx.reader()
    week = local_today() - dt.timedelta(days=local_today().weekday())
    rows = list_windows(ctx.db) if args.all else list_windows(ctx.db, local_midnight(week), open_only=True)
    for r in rows:
        print(_line(r))
    print(f"{len(rows)} window(s)")
    return 0


def _print_impact(rows) -> None:
    for i in rows:
        print(f"  {ImpactLevel.label(i.impact):<19} {i.customer}  {i.object_type} {i.object_label}"
              f"  {i.contract or 'no contract'}  ({i.why})")


def maintenance_impact(ctx, args) -> int:
    from app.services.operations.maintenance import impact_now, impact_of, window

    ctx.reader()
    wid = _window_id(ctx, args.window)
    print(_line(window(ctx.db, wid)))
    rows = impact_now(ctx.db, wid) if args.now else impact_of(ctx.db, wid)
    _print_impact(rows)
    print(f"{len({r.customer_id for r in rows})} customer(s), {len(rows)} object(s)")
    return 0


def maintenance_notice(ctx, args) -> int:
    from app.documents.printing import print_notice
    from app.services.receivables import find_customer

    wid = _window_id(ctx, args.window)
    with ctx.db.session() as s:
        customer = find_customer(s, args.customer).id
    result = print_notice(ctx.db, ctx.reader(), wid, customer, args.output, args.lang)
    print(f"wrote {result.path} ({result.pages} page(s))")
    return 0

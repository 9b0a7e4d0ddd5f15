"""Site access commands: `visit authorise|revoke|access|request|approve|reject|cancel|check-in|check-out|
list|on-site|who-was-in|daily-list`.

Times are typed in Asia/Shanghai. ID numbers print masked unless the user may see them (the guard
desk). The rules live in app/services/operations/visits.py.
"""
from __future__ import annotations

from models.choices import IdType, VisitState

from app.cli.main import date_arg, output_arg
from app.cli.maintenance import local_datetime_arg


def register(sub) -> None:
    vi = sub.add_parser("visit", help="site access: authorise contacts, request and approve visits, check visitors "
                                      "in and out, who was in which cage when, the daily visitor list")
    vs = vi.add_subparsers(dest="visit_command", required=True, metavar="ACTION")
    au = vs.add_parser("authorise", help="authorise a customer's contact for a site (or one cage)")
    au.add_argument("--customer", required=True, help="credit code, name or id")
    au.add_argument("--contact", required=True, help="the contact's name or id")
    au.add_argument("--site", required=True, help="site code")
    au.add_argument("--cage", help="only this cage (ROOM/NAME or NAME)")
    au.add_argument("--from", dest="valid_from", type=date_arg, metavar="YYYY-MM-DD", help="default today")
    au.add_argument("--to", dest="valid_to", type=date_arg, metavar="YYYY-MM-DD", help="default open")
    au.add_argument("--note")
    au.set_defaults(handler=visit_authorise)
    rv = vs.add_parser("revoke", help="end an authorisation")
    rv.add_argument("access", type=int, help="the authorisation's id (visit access)")
    rv.add_argument("--reason", required=True)
    rv.set_defaults(handler=visit_revoke)
    ac = vs.add_parser("access", help="authorised contacts")
    ac.add_argument("--customer")
    ac.set_defaults(handler=visit_access)
    rq = vs.add_parser("request", help="request a visit to the customer's own racks or cage")
    rq.add_argument("--customer", required=True)
    rq.add_argument("--contact", required=True, help="the authorised contact who answers for the visit")
    rq.add_argument("--cage", help="the cage (ROOM/NAME or NAME)")
    rq.add_argument("--rack", action="append", default=[], help="a rack SITE/ROOM/NAME (repeat for several)")
    rq.add_argument("--start", required=True, type=local_datetime_arg, metavar="'YYYY-MM-DD HH:MM'")
    rq.add_argument("--end", required=True, type=local_datetime_arg, metavar="'YYYY-MM-DD HH:MM'")
    rq.add_argument("--purpose", required=True)
    rq.add_argument("--escort", action="store_true", help="an escort is needed (visitors who are not authorised)")
    rq.add_argument("--visitor", action="append", required=True, metavar="NAME,ID_NUMBER[,COMPANY[,ID_TYPE]]",
                    help=f"a visitor (repeat for several); ID types: {', '.join(IdType.values())}; a visitor whose "
                         "name is an authorised contact of the customer is matched to it")
    rq.set_defaults(handler=visit_request)
    for name, helptext in (("approve", "approve a requested visit"), ("reject", "refuse a requested visit"),
                           ("cancel", "cancel a visit")):
        p = vs.add_parser(name, help=helptext)
        p.add_argument("visit", help="VR-000123 or its id")
        if name != "approve":
            p.add_argument("--reason", required=True)
        p.set_defaults(handler=visit_move, move=name)
    ci = vs.add_parser("check-in", help="let a visitor in with a badge")
    ci.add_argument("visit", help="VR-000123 or its id")
    ci.add_argument("--name", required=True, help="the visitor's name")
    ci.add_argument("--badge", required=True)
    ci.add_argument("--at", type=local_datetime_arg, metavar="'YYYY-MM-DD HH:MM'", help="default now")
    ci.set_defaults(handler=visit_check_in)
    co = vs.add_parser("check-out", help="let a visitor out (the badge back)")
    co.add_argument("visit")
    co.add_argument("--name", required=True)
    co.add_argument("--at", type=local_datetime_arg, metavar="'YYYY-MM-DD HH:MM'", help="default now")
    co.set_defaults(handler=visit_check_out)
    ls = vs.add_parser("list", help="visits and their visitors")
    ls.add_argument("--state", choices=VisitState.values())
    ls.add_argument("--customer")
    ls.set_defaults(handler=visit_list)
    on = vs.add_parser("on-site", help="visitors on site now, overstays first")
    on.add_argument("--site")
    on.set_defaults(handler=visit_on_site)
    wh = vs.add_parser("who-was-in", help="who was inside on a day (a cage, a rack or a site)")
    wh.add_argument("day", type=date_arg, metavar="YYYY-MM-DD")
    wh.add_argument("--site")
    wh.add_argument("--cage")
    wh.add_argument("--rack")
    wh.set_defaults(handler=visit_who_was_in)
    dl = vs.add_parser("daily-list", help="the guard desk's daily visitor list PDF for a site")
    dl.add_argument("--site", required=True)
    dl.add_argument("--day", type=date_arg, metavar="YYYY-MM-DD", help="default today")
    dl.add_argument("--lang", choices=("zh", "en"), default="zh")
    dl.add_argument("-o", "--output", required=True, type=output_arg)
    dl.set_defaults(handler=visit_daily_list)


def _site_id(ctx, code: str | None) -> int | None:
    from app.cli.power import _site_id as site_of

    return site_of(ctx, code) if code else None


def _customer(ctx, key: str) -> int:
    from app.services.receivables import find_customer

    with ctx.db.session() as s:
        return find_customer(s, key).id


def _contact(ctx, customer_id: int, key: str) -> int:
    from sqlalchemy import select

    from models import Contact
    from app.domain.errors import NotFound

    with ctx.db.session() as s:
        q = select(Contact.id).where(Contact.customer_id == customer_id)
        q = q.where(Contact.id == int(key)) if key.isdigit() else q.where(Contact.name == key.strip())
        found = s.execute(q).scalars().all()
    if len(found) != 1:
        raise NotFound(f"the customer has no single contact {key!r}")
    return found[0]


def _cage(ctx, key: str | None) -> int | None:
    from app.services.space import find_cage_in

    if not key:
        return None
    with ctx.db.session() as s:
        return find_cage_in(s, key)


def _visit_id(key: str) -> int:
    from app.domain.errors import ValidationError

    text = key.strip().upper().removeprefix("VR-")
    if not text.isdigit():
        raise ValidationError({"visit": "name the visit as VR-000123 or its id"})
    return int(text)


def _visitor_id(ctx, visit: str, name: str) -> int:
    from sqlalchemy import select

    from models import Visitor
    from app.domain.errors import NotFound

    with ctx.db.session() as s:
        found = s.execute(select(Visitor.id).where(Visitor.visit_id == _visit_id(visit),
                                                   Visitor.name == name.strip())).scalars().all()
    if len(found) != 1:
        raise NotFound(f"visit {visit} has no visitor named {name!r}")
    return found[0]


def visit_authorise(ctx, args) -> int:
    from app.services.operations.visits import authorise_contact

    customer = _customer(ctx, args.customer)
    aid = authorise_contact(ctx.db, ctx.actor(), _contact(ctx, customer, args.contact), _site_id(ctx, args.site),
                            cage_id=_cage(ctx, args.cage), valid_from=args.valid_from, valid_to=args.valid_to,
                            note=args.note)
    print(f"authorisation {aid} granted")
    return 0


def visit_revoke(ctx, args) -> int:
    from app.services.operations.visits import revoke_access

    revoke_access(ctx.db, ctx.actor(), args.access, args.reason)
    print(f"authorisation {args.access} revoked")
    return 0


def visit_access(ctx, args) -> int:
    from app.services.operations.visits import list_access

    ctx.reader()
    rows = list_access(ctx.db, customer_id=_customer(ctx, args.customer) if args.customer else None)
    for a in rows:
        print(f"{a.id:>5}  {a.customer}  {a.contact}  {a.site}{'/' + a.cage if a.cage else ''}  "
              f"{a.valid_from} – {a.valid_to or 'open'}" + ("  REVOKED" if a.revoked else ""))
    print(f"{len(rows)} authorisation(s)")
    return 0


def visit_request(ctx, args) -> int:
    from sqlalchemy import select

    from models import Contact
    from app.domain.errors import ValidationError
    from app.services.racknames import find_rack
    from app.services.operations.visits import VisitorIn, reference, request_visit

    customer = _customer(ctx, args.customer)
    with ctx.db.session() as s:
        contacts = {c.name: c.id for c in s.execute(select(Contact).where(Contact.customer_id == customer)).scalars()}
    people = []
    for text in args.visitor:
        bits = [b.strip() for b in text.split(",")]
        if len(bits) < 2:
            raise ValidationError({"visitor": f"{text!r}: write NAME,ID_NUMBER[,COMPANY[,ID_TYPE]]"})
        people.append(VisitorIn(bits[0], bits[1], company=bits[2] if len(bits) > 2 else None,
                                id_type=bits[3] if len(bits) > 3 else IdType.RESIDENT, contact_id=contacts.get(bits[0])))
    vid = request_visit(ctx.db, ctx.actor(), customer_id=customer, contact_id=_contact(ctx, customer, args.contact),
                        visitors=people, purpose=args.purpose, window_start=args.start, window_end=args.end,
                        escort_needed=args.escort, cage_id=_cage(ctx, args.cage),
                        rack_ids=[find_rack(ctx.db, r) for r in args.rack])
    print(f"visit {reference(vid)} requested ({len(people)} visitor(s)); an administrator approves it")
    return 0


def visit_move(ctx, args) -> int:
    from app.services.operations import visits as V

    vid, actor = _visit_id(args.visit), ctx.actor()
    if args.move == "approve":
        V.approve_visit(ctx.db, actor, vid)
    elif args.move == "reject":
        V.reject_visit(ctx.db, actor, vid, args.reason)
    else:
        V.cancel_visit(ctx.db, actor, vid, args.reason)
    print(f"visit {V.reference(vid)}: {args.move}d" if args.move != "cancel" else f"visit {V.reference(vid)} cancelled")
    return 0


def visit_check_in(ctx, args) -> int:
    from app.services.operations.visits import check_in

    check_in(ctx.db, ctx.actor(), _visitor_id(ctx, args.visit, args.name), args.badge, at=args.at)
    print(f"{args.name} checked in with badge {args.badge}")
    return 0


def visit_check_out(ctx, args) -> int:
    from app.services.operations.visits import check_out

    over = check_out(ctx.db, ctx.actor(), _visitor_id(ctx, args.visit, args.name), at=args.at)
    print(f"{args.name} checked out" + (" — OVERSTAYED the visit's window" if over else ""))
    return 0


def _line(r) -> str:
    from app.domain.clock import local_text

    t = lambda v: local_text(v)[5:16] if v else "—"  # noqa: E731
    over = f"  OVERSTAY {r.overstay_min} min" if r.overstay_min else ""
    return (f"{r.reference}  {r.state:<9} {r.site} {r.space}  {r.customer}  {r.name} ({r.id_number}"
            f"{', ' + r.company if r.company else ''})  {t(r.window_start)}–{t(r.window_end)}"
            f"{'  escort' if r.escort_needed else ''}  badge {r.badge or '—'}  in {t(r.checked_in_at)} "
            f"out {t(r.checked_out_at)}{over}")


def _print(rows, what: str) -> int:
    for r in rows:
        print(_line(r))
    print(f"{len(rows)} {what}")
    return 0


def visit_list(ctx, args) -> int:
    from app.services.operations.visits import list_visits

    actor = ctx.reader()
    customer = _customer(ctx, args.customer) if args.customer else None
    return _print(list_visits(ctx.db, actor, state=args.state, customer_id=customer), "visitor(s)")


def visit_on_site(ctx, args) -> int:
    from app.services.operations.visits import on_site_now

    actor = ctx.reader()
    return _print(on_site_now(ctx.db, actor, site_id=_site_id(ctx, args.site)), "visitor(s) on site")


def visit_who_was_in(ctx, args) -> int:
    from app.services.racknames import find_rack
    from app.services.operations.visits import who_was_in

    actor = ctx.reader()
    rows = who_was_in(ctx.db, actor, args.day, site_id=_site_id(ctx, args.site), cage_id=_cage(ctx, args.cage),
                      rack_id=find_rack(ctx.db, args.rack) if args.rack else None)
    return _print(rows, f"visitor(s) inside on {args.day}")


def visit_daily_list(ctx, args) -> int:
    from app.domain.clock import local_today
    from app.documents.printing import print_visitor_list

    actor = ctx.reader()
    result = print_visitor_list(ctx.db, actor, _site_id(ctx, args.site), args.day or local_today(), args.output,
                                args.lang)
    print(f"wrote {result.path} ({result.pages} page(s))")
    return 0

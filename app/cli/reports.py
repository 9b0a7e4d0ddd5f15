"""`report …`: the PDF documents from the command line (app.documents builds, reports/ renders).

Every report is recorded in the audit trail as a ``print`` event by the acting user (--user) or,
without one, by the local reader.
"""
from __future__ import annotations

from pathlib import Path

from app.cli.main import date_arg, month_bounds, output_arg, period_arg
from app.domain.errors import ValidationError


def _common(p) -> None:
    p.add_argument("-o", "--output", required=True, type=output_arg, help="PDF file to write")
    p.add_argument("--lang", dest="doc_lang", choices=["zh", "en"],
                   help="document language (statements and contracts default to the contract's language, "
                        "the other reports to zh)")
    p.add_argument("--font", help="TrueType font with CJK glyphs to embed (default: $IDC_PDF_FONT, else a "
                                  "system font)")


def register(sub) -> None:
    report = sub.add_parser("report", help="PDF documents: statements, contracts, audit, racks, capacity, fleet")
    rs = report.add_subparsers(dest="report_command", required=True, metavar="DOCUMENT")

    st = rs.add_parser("statement", help="a statement or credit note by number")
    st.add_argument("number", help="e.g. GZ-202611-000123 or GZ-CN-202612-000001 (a draft: its id)")
    _common(st)
    st.set_defaults(handler=report_statement)

    ct = rs.add_parser("contract", help="a contract with its schedule and annexes (rack elevations, GPUs, devices)")
    ct.add_argument("number", help="e.g. GZ-2026-0007")
    _common(ct)
    ct.set_defaults(handler=report_contract)

    au = rs.add_parser("audit", help="audit report: summary, events, chain verification and checkpoint "
                                      "(default: the current month)")
    au.add_argument("--period", type=period_arg, metavar="YYYY-MM|last|this",
                    help="a whole month instead of --from/--to")
    au.add_argument("--from", dest="date_from", type=date_arg,
                    help="YYYY-MM-DD (Asia/Shanghai); default the first day of --to's month or of this month")
    au.add_argument("--to", dest="date_to", type=date_arg,
                    help="YYYY-MM-DD inclusive; default the last day of --from's month")
    au.add_argument("--actor", help="only this login")
    au.add_argument("--action", help="only this action, or a prefix ending in '.' (e.g. gpu.)")
    _common(au)
    au.set_defaults(handler=report_audit)

    rk = rs.add_parser("rack", help="rack elevation sheet")
    rk.add_argument("name", help="SITE/ROOM/RACK, an asset tag, a rack name unique across sites, or an id")
    _common(rk)
    rk.set_defaults(handler=report_rack)

    cp = rs.add_parser("capacity", help="capacity of one site: racks, units, power, GPUs by state")
    cp.add_argument("site", help="site code, e.g. FZ-MW1")
    _common(cp)
    cp.set_defaults(handler=report_capacity)

    fl = rs.add_parser("fleet", help="GPU fleet: by model and state, book value, revenue over 12 months")
    _common(fl)
    fl.set_defaults(handler=report_fleet)

    lo = rs.add_parser("loa", help="Letter of Authorization (LOA/CFA) of a cross-connect, for its carrier")
    lo.add_argument("xconnect", help="the cross-connect: reference XC-…, circuit id or id")
    _common(lo)
    lo.set_defaults(handler=report_loa)

    sl = rs.add_parser("sla", help="monthly SLA report of a customer: tickets, targets achieved, availability, "
                                   "breaches and credits")
    sl.add_argument("customer", help="the customer: credit code, name or id")
    sl.add_argument("--period", required=True, metavar="YYYY-MM", help="the month")
    _common(sl)
    sl.set_defaults(handler=report_sla)


def _lang(ctx, args) -> str | None:
    # `report … --lang en` or the global `idc-console --lang en report …`
    return args.doc_lang or getattr(ctx.args, "lang", None)


def _print(ctx, args, kind: str, key) -> int:
    from app.documents import print_document

    actor = ctx.reader()
    done = print_document(ctx.db, actor, kind, key, Path(args.output), language=_lang(ctx, args),
                          font_path=args.font)
    r = done.result
    print(f"wrote {r.path} ({r.pages} page{'s' if r.pages != 1 else ''}; {done.what}); data SHA-256 {r.sha256}")
    if done.omitted_pages:
        print(f"{done.rows:,} events would take about {done.omitted_pages:,} pages: the PDF has the summary only; "
              "the CSV export is complete (idc-console audit export)")
    if done.checkpoint:
        print(f"checkpoint {done.checkpoint}  (check later: idc-console audit verify --expect-head {done.checkpoint})")
    return 0


def report_statement(ctx, args) -> int:
    return _print(ctx, args, "statement", args.number)


def report_contract(ctx, args) -> int:
    return _print(ctx, args, "contract", args.number)


def report_audit(ctx, args) -> int:
    from app.audit.query import AuditFilter, parse_date
    from app.cli.main import parse_period

    if args.period and (args.date_from or args.date_to):
        raise ValidationError({"period": "give --period or --from/--to, not both"})
    if args.period or not (args.date_from or args.date_to):
        args.date_from, args.date_to = month_bounds(args.period or parse_period("this"))
    elif not args.date_from:
        args.date_from = month_bounds(args.date_to[:7])[0]
    elif not args.date_to:
        args.date_to = month_bounds(args.date_from[:7])[1]
    flt = AuditFilter(parse_date(args.date_from, "from"), parse_date(args.date_to, "to"), args.actor or None,
                      args.action or None)
    if flt.date_to < flt.date_from:
        raise ValidationError({"to": "the period ends before it starts"})
    return _print(ctx, args, "audit", flt)


def report_rack(ctx, args) -> int:
    return _print(ctx, args, "rack", args.name)


def report_capacity(ctx, args) -> int:
    return _print(ctx, args, "capacity", args.site)


def report_fleet(ctx, args) -> int:
    return _print(ctx, args, "fleet", None)


def report_loa(ctx, args) -> int:
    return _print(ctx, args, "loa", args.xconnect)


def report_sla(ctx, args) -> int:
    return _print(ctx, args, "sla", f"{args.customer}@{args.period}")

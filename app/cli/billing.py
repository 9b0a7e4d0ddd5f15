"""Billing and contract commands: `billing …`, `contracts due`, `statements export`."""
from __future__ import annotations

import sys
from pathlib import Path

from app.cli.main import days_arg, period_arg
from app.domain.errors import ValidationError


def register(sub) -> None:
    _register_billing(sub)
    _register_contracts(sub)
    _register_statements(sub)


def _register_billing(sub) -> None:
    billing = sub.add_parser("billing", help="monthly billing, issuing, credit notes, meter readings")
    bs = billing.add_subparsers(dest="billing_command", required=True, metavar="ACTION")
    r = bs.add_parser("run", help="bill a month: create the statement lines that are missing")
    r.add_argument("--period", required=True, type=period_arg, metavar="YYYY-MM|last|this")
    r.add_argument("--dry-run", action="store_true",
                   help="show what would be billed, write nothing (the open month: provisional, up to now)")
    r.add_argument("--issue", action="store_true", help="then issue every draft statement of the month")
    r.add_argument("--lines", action="store_true", help="print every line")
    r.set_defaults(handler=billing_run)
    i = bs.add_parser("issue", help="issue the draft statements of a month (takes their numbers)")
    i.add_argument("--period", required=True, type=period_arg, metavar="YYYY-MM|last|this")
    i.set_defaults(handler=billing_issue)
    c = bs.add_parser("credit", help="issue a credit note reversing an issued statement")
    c.add_argument("number")
    c.add_argument("--reason", required=True)
    c.add_argument("--line", type=int, action="append", dest="lines", metavar="LINE_ID",
                   help="credit only this line (repeatable); default all lines")
    c.add_argument("--amount", metavar="X",
                   help="a partial credit of X yuan against the one line named by --line (the charge stands)")
    c.add_argument("--waive", action="store_true",
                   help="waive the lines: credited in full and never billed again (an SLA waiver, a bad debt); "
                        "without it a line credited in full is billed again by the next run or rebill")
    c.set_defaults(handler=billing_credit)
    rb = bs.add_parser("rebill", help="bill again the credited lines of an issued statement, on a new statement")
    rb.add_argument("number")
    rb.add_argument("--issue", action="store_true", help="issue the new statement")
    rb.set_defaults(handler=billing_rebill)
    m = bs.add_parser("meter-import", help="import rack meter readings from CSV (rack,read_at,kwh_total)")
    m.add_argument("file")
    m.set_defaults(handler=billing_meter_import)
    f = bs.add_parser("fapiao", help="record the fapiao number of an issued statement")
    f.add_argument("number")
    f.add_argument("fapiao_no")
    f.set_defaults(handler=billing_fapiao)
    sh = bs.add_parser("show", help="show a statement or credit note with its lines")
    sh.add_argument("number")
    sh.set_defaults(handler=billing_show)
    dd = bs.add_parser("delete-draft", help="throw away a draft statement (the next run bills its lines afresh)")
    dd.add_argument("statement", metavar="ID", help="the draft's id (drafts have no number yet)")
    dd.add_argument("--reason", required=True)
    dd.set_defaults(handler=billing_delete_draft)
    _register_downtime(bs)


def _register_downtime(bs) -> None:
    dt_ = bs.add_parser("downtime", help="record or end a GPU's or a server's downtime (not billed)")
    dts = dt_.add_subparsers(dest="downtime_command", required=True, metavar="ACTION")
    dr = dts.add_parser("record", help="a GPU or a whole server was (or is) down")
    which = dr.add_mutually_exclusive_group(required=True)
    which.add_argument("--gpu", type=int, metavar="GPU_ID")
    which.add_argument("--device", type=int, metavar="DEVICE_ID", help="a server: all its GPUs")
    dr.add_argument("--start", required=True, metavar="TIME", help="e.g. 2026-09-01T01:00 (Asia/Shanghai)")
    dr.add_argument("--end", metavar="TIME", help="omit while it is still down")
    dr.add_argument("--reason", required=True, help="what failed")
    dr.set_defaults(handler=billing_downtime_record)
    de = dts.add_parser("end", help="the downtime ended")
    de.add_argument("downtime", type=int, metavar="ID")
    de.add_argument("--at", required=True, metavar="TIME", help="e.g. 2026-09-02T07:00 (Asia/Shanghai)")
    de.set_defaults(handler=billing_downtime_end)


def _register_contracts(sub) -> None:
    contracts = sub.add_parser("contracts", help="contracts")
    cs = contracts.add_subparsers(dest="contracts_command", required=True, metavar="ACTION")
    d = cs.add_parser("due", help="contracts in force ending within N days (alerts at 180/90/60/30)")
    d.add_argument("--within", type=days_arg, default=180, metavar="N")
    d.set_defaults(handler=contracts_due)
    h = cs.add_parser("handover", help="record or correct the handover of a contract item (from when it bills); "
                                       "without --item, list the items and their handovers")
    h.add_argument("contract", metavar="CONTRACT", help="contract number")
    h.add_argument("--item", type=int, metavar="N", help="the item's position in the contract (1, 2, …)")
    h.add_argument("--at", metavar="TIME", help="when it was handed over, e.g. 2026-09-01T01:00 (Asia/Shanghai)")
    h.add_argument("--note", help="the evidence: signed handover form, ticket, who received it")
    h.set_defaults(handler=contracts_handover)
    t = cs.add_parser("terms", help="change a contract's payment terms (days after a statement is issued, and "
                                    "their printed wording)")
    t.add_argument("contract", metavar="CONTRACT", help="contract number")
    t.add_argument("days", type=int, metavar="DAYS", help="0 (prepaid) to 365 days after issue")
    t.add_argument("--wording", help="as printed on the statement, e.g. 月结 30 天")
    t.set_defaults(handler=contracts_terms)


def _register_statements(sub) -> None:
    statements = sub.add_parser("statements", help="statements and credit notes")
    ss = statements.add_subparsers(dest="statements_command", required=True, metavar="ACTION")
    sl = ss.add_parser("list", help="list statements and credit notes")
    sl.add_argument("--period", type=period_arg, metavar="YYYY-MM|last|this")
    sl.add_argument("--status", choices=["draft", "issued", "void"])
    sl.set_defaults(handler=statements_list)
    e = ss.add_parser("export", help="export statements to CSV or XLSX")
    e.add_argument("--format", choices=["csv", "xlsx"], default="csv")
    e.add_argument("-o", "--output", required=True)
    e.set_defaults(handler=statements_export)


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{done}/{total} contracts", end="" if done < total else "\n", file=sys.stderr)


def _print_statement(st, lines: bool) -> None:
    from app.domain.money import format_amount as amt
    from app.domain.money import format_price, format_quantity

    head = st.number or f"(draft #{st.id})" if st.id else "(new)"
    print(f"  {head:<22} {st.customer_name}  {st.period}  subtotal {amt(st.subtotal):>12}  tax {amt(st.tax):>10}"
          f"  total {amt(st.total):>12}  {st.total_in_words}"
          + (f"  (rebills {st.rebills_number or f'#{st.rebills_id}'})" if st.rebills_id else ""))
    if lines:
        for ln in st.lines:
            print(f"      #{ln.id or '-':<6} {ln.charge:<8} {ln.description}"
                  + (f"  [rev. {ln.revision}]" if ln.revision > 1 else ""))
            print(f"               {format_quantity(ln.quantity)} {ln.unit} × {format_price(ln.unit_price)} = "
                  f"{amt(ln.amount)}  tax {ln.tax_rate * 100:.0f}% {amt(ln.tax)}"
                  + (f"   [{ln.note}]" if ln.note else ""))


def billing_run(ctx, args) -> int:
    from app.services.billing import run_billing

    actor = ctx.reader() if args.dry_run and not ctx.args.user else ctx.actor()
    summary = run_billing(ctx.db, actor, args.period, dry_run=args.dry_run, issue=args.issue, progress=_progress)
    print(summary.describe())
    for st in summary.statements:
        _print_statement(st, args.lines or args.dry_run)
    for w in summary.warnings:
        print(f"warning: {w}")
    return 0


def billing_issue(ctx, args) -> int:
    from app.domain.money import format_amount
    from app.services.billing import issue_statements, pending_drafts

    result = issue_statements(ctx.db, ctx.actor(), period=args.period, progress=_progress)
    if not result.issued:
        print(f"nothing to issue for {args.period}")
    for _id, number, total in result.issued:
        print(f"issued {number}  total {format_amount(total)}")
    for why in result.skipped:
        print(f"skipped: {why}")
    print(f"{pending_drafts(ctx.db, args.period)} draft statement(s) of {args.period} pending issue")
    return 0


def billing_credit(ctx, args) -> int:
    from app.domain.money import format_amount
    from app.services.billing import credit_statement

    cn = credit_statement(ctx.db, ctx.actor(), args.number, args.reason, line_ids=args.lines, amount=args.amount,
                          waive=args.waive)
    print(f"issued credit note {cn.number} for {cn.original_number}: total {format_amount(cn.total)} "
          f"({cn.total_in_words})")
    if args.waive:
        print("the lines are waived: no run bills them again")
    elif args.amount is None:
        print(f"the credited lines may be billed again: billing rebill {cn.original_number} (or the next run)")
    return 0


def billing_rebill(ctx, args) -> int:
    from app.services.billing import rebill_statement

    summary = rebill_statement(ctx.db, ctx.actor(), args.number, issue=args.issue)
    print(summary.describe())
    for st in summary.statements:
        _print_statement(st, True)
    return 0


def billing_meter_import(ctx, args) -> int:
    from app.services.billing import import_meter_readings

    path = Path(args.file)
    if not path.is_file():
        raise ValidationError({"file": f"{path} does not exist"})
    result = import_meter_readings(ctx.db, ctx.actor(), path)
    print(f"imported {result.imported} meter reading(s) for {result.racks} rack(s); "
          f"{result.unchanged} already present")
    return 0


def billing_fapiao(ctx, args) -> int:
    from app.services.billing import record_fapiao

    st = record_fapiao(ctx.db, ctx.actor(), args.number, args.fapiao_no)
    print(f"{st.number}: fapiao {st.fapiao_no}")
    return 0


def billing_delete_draft(ctx, args) -> int:
    from app.services.billing import delete_draft

    delete_draft(ctx.db, ctx.actor(), args.statement, args.reason)
    print(f"draft {args.statement} deleted")
    return 0


def billing_downtime_record(ctx, args) -> int:
    from app.services.billing import record_downtime

    end = _handover_time(args.end, "end") if args.end else None
    did = record_downtime(ctx.db, ctx.actor(), start=_handover_time(args.start, "start"), end=end,
                          reason=args.reason, gpu_id=args.gpu, device_id=args.device)
    print(f"downtime #{did} recorded" + ("" if end else " (open: end it with `billing downtime end`)"))
    return 0


def billing_downtime_end(ctx, args) -> int:
    from app.services.billing import end_downtime

    end_downtime(ctx.db, ctx.actor(), args.downtime, _handover_time(args.at))
    print(f"downtime #{args.downtime} ended")
    return 0


def billing_show(ctx, args) -> int:
    from app.services.billing import get_statement

    ctx.reader()
    st = get_statement(ctx.db, args.number)
    print(f"{st.kind} {st.number or '(draft)'} [{st.status}] {st.subsidiary_code} → {st.customer_name}, {st.period}"
          + (f", credits {st.original_number}: {st.reason}" if st.original_number else "")
          + (f", fapiao {st.fapiao_no}" if st.fapiao_no else ""))
    _print_statement(st, True)
    if st.credit_notes:
        print(f"  credit notes: {', '.join(st.credit_notes)}")
    return 0


def contracts_due(ctx, args) -> int:
    from app.services.contracts import contracts_due as due
    from app.services.contracts.handover import awaiting_handover

    ctx.reader()
    rows = due(ctx.db, args.within)
    if not rows:
        print(f"no contract in force ends within {args.within} days")
    for r in rows:
        print(f"{r.number:<18} {r.customer_name}  ends {r.end_date} in {r.days_left:>3} days  "
              + (f"[{r.alert}-day alert]" if r.alert else "") + ("  renewal drafted" if r.renewed else ""))
    waiting = awaiting_handover(ctx.db)
    if waiting:
        print("awaiting handover (billing nothing until recorded: contracts handover CONTRACT --item N --at … --note …):")
        for a in waiting:
            print(f"{a.contract_number:<18} item {a.position}  {a.description}  {a.customer_name}  "
                  f"planned {a.planned_start}")
    return 0


def _handover_time(text: str, field: str = "at"):
    import datetime as dt

    from app.domain.rating import TZ

    try:
        t = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValidationError({field: f"{text!r} is not a date and time such as 2026-09-01T01:00"}) from None
    return (t.replace(tzinfo=TZ) if t.tzinfo is None else t).astimezone(dt.timezone.utc)


def contracts_terms(ctx, args) -> int:
    from app.services.receivables import set_payment_terms

    set_payment_terms(ctx.db, ctx.actor(), args.contract, args.days, args.wording)
    print(f"{args.contract}: statements are due {args.days} day(s) after issue"
          + (f" ({args.wording})" if args.wording else ""))
    return 0


def contracts_handover(ctx, args) -> int:
    from app.domain.rating import TZ
    from app.services.contracts.handover import handovers, record_handover

    def show(h):
        when = h.handover_at.astimezone(TZ).strftime("%Y-%m-%d %H:%M") if h.handover_at else "awaiting handover"
        print(f"{h.contract_number} item {h.position}  {h.description}  handover {when}"
              + (f" by {h.handover_by}" if h.handover_by else "")
              + (f", billed from {h.billed_from}" if h.billed_from else "")
              + (f"  [{h.note}]" if h.note else ""))
    if args.item is None and args.at is None:
        ctx.reader()
        for h in handovers(ctx.db, args.contract):
            show(h)
        return 0
    missing = {k: "required with --item" for k in ("item", "at", "note") if not getattr(args, k)}
    if missing:
        raise ValidationError(missing)
    h = record_handover(ctx.db, ctx.actor(), args.contract, args.item, _handover_time(args.at), args.note)
    print(("corrected: " if h.corrected else "recorded: ")
          + (f"{h.drafts_cleared} draft line(s) removed, billed again by the next run; " if h.drafts_cleared else ""),
          end="")
    show(h)
    return 0


def statements_list(ctx, args) -> int:
    from app.domain.money import format_amount
    from app.services.billing import list_statements

    ctx.reader()
    for st in list_statements(ctx.db, period=args.period, status=args.status):
        print(f"{st.number or f'draft #{st.id}'}  {st.kind}  {st.period}  {st.status}  {st.subsidiary_code}  {st.customer_name}  {format_amount(st.total)}")
    return 0


def statements_export(ctx, args) -> int:
    from app.importexport import run_export  # the generic export records the export in the audit trail

    result = run_export(ctx.db, ctx.reader(), "statements", Path(args.output), args.format)
    print(result.summary() if hasattr(result, "summary") else result)
    return 0

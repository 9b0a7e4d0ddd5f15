"""Billing and contract commands: `billing …`, `contracts due`, `statements export`."""
from __future__ import annotations

import sys
from pathlib import Path

from .cli import days_arg, period_arg
from .errors import ValidationError


def register(sub) -> None:
    billing = sub.add_parser("billing", help="monthly billing, issuing, credit notes, meter readings")
    bs = billing.add_subparsers(dest="billing_command", required=True, metavar="ACTION")
    r = bs.add_parser("run", help="bill a month: create the statement lines that are missing")
    r.add_argument("--period", required=True, type=period_arg, metavar="YYYY-MM|last|this")
    r.add_argument("--dry-run", action="store_true", help="show what would be billed, write nothing")
    r.add_argument("--issue", action="store_true", help="issue the statements this run drafted")
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
    c.set_defaults(handler=billing_credit)
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

    contracts = sub.add_parser("contracts", help="contracts")
    cs = contracts.add_subparsers(dest="contracts_command", required=True, metavar="ACTION")
    d = cs.add_parser("due", help="contracts in force ending within N days (alerts at 180/90/60/30)")
    d.add_argument("--within", type=days_arg, default=180, metavar="N")
    d.set_defaults(handler=contracts_due)

    statements = sub.add_parser("statements", help="statements and credit notes")
    ss = statements.add_subparsers(dest="statements_command", required=True, metavar="ACTION")
    e = ss.add_parser("export", help="export statements to CSV or XLSX")
    e.add_argument("--format", choices=["csv", "xlsx"], default="csv")
    e.add_argument("-o", "--output", required=True)
    e.set_defaults(handler=statements_export)


def export_statements_rows(db):
    """(headers, rows) of every statement; the generic `export statements` uses it too."""
    from .services.billing import export_statements_rows as rows

    return rows(db)


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{done}/{total} contracts", end="" if done < total else "\n", file=sys.stderr)


def _num(d) -> str:
    text = format(d.normalize(), "f")
    return text


def _print_statement(st, lines: bool) -> None:
    head = st.number or f"(draft #{st.id})" if st.id else "(new)"
    print(f"  {head:<22} {st.customer_name}  {st.period}  subtotal {st.subtotal:>12,.2f}  tax {st.tax:>10,.2f}"
          f"  total {st.total:>12,.2f}  {st.total_in_words}")
    if lines:
        for ln in st.lines:
            print(f"      {ln.charge:<8} {ln.description}")
            print(f"               {_num(ln.quantity)} {ln.unit} × {_num(ln.unit_price)} = {ln.amount:,.2f}"
                  f"  tax {ln.tax_rate:.0%} {ln.tax:,.2f}" + (f"   [{ln.note}]" if ln.note else ""))


def billing_run(ctx, args) -> int:
    from .services.billing import run_billing

    actor = ctx.reader() if args.dry_run and not ctx.args.user else ctx.actor()
    summary = run_billing(ctx.db, actor, args.period, dry_run=args.dry_run, issue=args.issue, progress=_progress)
    print(summary.describe())
    for st in summary.statements:
        _print_statement(st, args.lines or args.dry_run)
    for w in summary.warnings:
        print(f"warning: {w}")
    return 0


def billing_issue(ctx, args) -> int:
    from .services.billing import issue_statements

    result = issue_statements(ctx.db, ctx.actor(), period=args.period, progress=_progress)
    if not result.issued:
        print(f"nothing to issue for {args.period}")
    for _id, number, total in result.issued:
        print(f"issued {number}  total {total:,.2f}")
    for why in result.skipped:
        print(f"skipped: {why}")
    return 0


def billing_credit(ctx, args) -> int:
    from .services.billing import credit_statement

    cn = credit_statement(ctx.db, ctx.actor(), args.number, args.reason, line_ids=args.lines)
    print(f"issued credit note {cn.number} for {cn.original_number}: total {cn.total:,.2f} ({cn.total_in_words})")
    return 0


def billing_meter_import(ctx, args) -> int:
    from .services.billing import import_meter_readings

    path = Path(args.file)
    if not path.is_file():
        raise ValidationError({"file": f"{path} does not exist"})
    result = import_meter_readings(ctx.db, ctx.actor(), path)
    print(f"imported {result.imported} meter reading(s) for {result.racks} rack(s); "
          f"{result.unchanged} already present")
    return 0


def billing_fapiao(ctx, args) -> int:
    from .services.billing import record_fapiao

    st = record_fapiao(ctx.db, ctx.actor(), args.number, args.fapiao_no)
    print(f"{st.number}: fapiao {st.fapiao_no}")
    return 0


def billing_show(ctx, args) -> int:
    from .services.billing import get_statement

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
    from .services.contracts import contracts_due as due

    ctx.reader()
    rows = due(ctx.db, args.within)
    if not rows:
        print(f"no contract in force ends within {args.within} days")
        return 0
    for r in rows:
        print(f"{r.number:<18} {r.customer_name}  ends {r.end_date} in {r.days_left:>3} days  "
              + (f"[{r.alert}-day alert]" if r.alert else "") + ("  renewal drafted" if r.renewed else ""))
    return 0


def statements_export(ctx, args) -> int:
    actor = ctx.reader()
    try:  # the generic export records the export in the audit trail
        from .importexport import run_export
    except ImportError:
        run_export = None
    if run_export is not None:
        result = run_export(ctx.db, actor, "statements", Path(args.output), args.format)
        print(result.summary() if hasattr(result, "summary") else result)
        return 0
    from .tabular import write_table

    headers, rows = export_statements_rows(ctx.db)
    n = write_table(Path(args.output), args.format, headers, rows)
    print(f"exported {n} statement(s) to {args.output}")
    return 0

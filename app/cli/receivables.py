"""Fapiao, deposits, the monthly receivables summary and overdue decisions on the command line:

`fapiao add|red|list|status|profile|tax-code`, `deposits add|apply|refund|list`,
`report receivables --period YYYY-MM -o FILE`, `payments decide CUSTOMER suspend|keep --reason …`,
and the kinds `export fapiao|fapiao-lines|deposits|invoicing-profiles` and
`import invoicing-profiles` (added to `export`/`import` of app.cli.core). Registered by app.cli.finance.
"""
from __future__ import annotations

import argparse

from app.cli.main import date_arg, output_arg

EXPORT_KINDS = ("fapiao", "fapiao-lines", "deposits", "invoicing-profiles")
IMPORT_KINDS = ("invoicing-profiles",)


def register(sub) -> None:
    _register_fapiao(sub)
    _register_deposits(sub)
    _register_payments_decide(sub)
    _register_report(sub)
    _extend(sub, "export", EXPORT_KINDS, export_more)
    _extend(sub, "import", IMPORT_KINDS, import_more)


def _register_fapiao(sub) -> None:
    f = sub.add_parser("fapiao", help="fapiao records: add, red-letter, list, statement status, invoicing profiles")
    fs = f.add_subparsers(dest="fapiao_command", required=True, metavar="ACTION")
    a = fs.add_parser("add", help="record a fapiao issued for a statement (several per statement)")
    a.add_argument("statement", metavar="STATEMENT", help="statement number")
    a.add_argument("--number", required=True, metavar="N", help="the fapiao number (数电: 20 digits)")
    a.add_argument("--date", required=True, type=date_arg, metavar="YYYY-MM-DD")
    a.add_argument("--amount", required=True, metavar="X", help="金额, without tax")
    a.add_argument("--tax", required=True, metavar="T", help="税额")
    a.add_argument("--type", dest="fapiao_type", metavar="TYPE",
                   help="digital_special (数电专票), digital_normal (数电普票) or paper; default: the customer's profile")
    a.add_argument("--note")
    a.set_defaults(handler=fapiao_add)
    r = fs.add_parser("red", help="record a red-letter fapiao against the credit note it reverses")
    r.add_argument("credit_note", metavar="CREDIT_NOTE", help="credit note number")
    r.add_argument("--number", required=True, metavar="N", help="the red-letter fapiao's number")
    r.add_argument("--original", required=True, metavar="FAPIAO", help="the number of the fapiao it reverses")
    r.add_argument("--date", type=date_arg, metavar="YYYY-MM-DD", help="default: today")
    r.add_argument("--amount", metavar="X", help="default: the credit note's amount (as far as the original has it)")
    r.add_argument("--tax", metavar="T")
    r.add_argument("--note")
    r.set_defaults(handler=fapiao_red)
    ls = fs.add_parser("list", help="fapiao recorded (of a statement or a customer)")
    ls.add_argument("--statement")
    ls.add_argument("--customer", metavar="CODE_OR_NAME")
    ls.set_defaults(handler=fapiao_list)
    st = fs.add_parser("status", help="a statement's fapiao status: 未开票 / 部分开票 / 已开票")
    st.add_argument("statement", metavar="STATEMENT")
    st.set_defaults(handler=fapiao_status)
    p = fs.add_parser("profile", help="show or set a customer's invoicing profile (开票信息)")
    p.add_argument("customer", metavar="CODE_OR_NAME")
    for opt, hlp in (("--title", "名称 (the buyer's name on the fapiao)"), ("--tax-id", "纳税人识别号"),
                     ("--address-phone", "地址、电话"), ("--bank-account", "开户行及账号"),
                     ("--type", "digital_special, digital_normal or paper"), ("--email", "收票邮箱")):
        p.add_argument(opt, help=hlp)
    p.set_defaults(handler=fapiao_profile)
    c = fs.add_parser("tax-code", help="list or set the tax code (税收分类编码) of a kind of line at a VAT rate")
    c.add_argument("kind", nargs="?", help="rack, hosting, gpu, bandwidth, maintenance, one_off, power, xconnect, "
                                           "electricity (metered energy)")
    c.add_argument("--rate", help="the VAT rate it applies at, e.g. 0.06 or 0.13 (required to set)")
    c.add_argument("--code", help="商品和服务税收分类编码 (19 digits)")
    c.add_argument("--short-name", help="简称, e.g. 信息系统服务")
    c.add_argument("--name", help="项目名称 after it, e.g. 机柜租赁服务")
    c.add_argument("--source", help="where the code was taken from or confirmed (kept with it)")
    c.set_defaults(handler=fapiao_tax_code)


def _register_deposits(sub) -> None:
    d = sub.add_parser("deposits", help="deposits (押金) and prepayments (预付款): receive, apply, refund, list")
    ds = d.add_subparsers(dest="deposits_command", required=True, metavar="ACTION")
    a = ds.add_parser("add", help="record a deposit or prepayment received")
    a.add_argument("--customer", required=True, metavar="CODE_OR_NAME")
    a.add_argument("--amount", required=True, metavar="X")
    a.add_argument("--kind", default="deposit", help="deposit (default) or prepayment")
    a.add_argument("--contract", metavar="NUMBER", help="the contract it is held for")
    a.add_argument("--date", type=date_arg, metavar="YYYY-MM-DD", help="default: today")
    a.add_argument("--ref", metavar="R", help="bank reference")
    a.add_argument("--note")
    a.set_defaults(handler=deposits_add)
    ap = ds.add_parser("apply", help="apply a deposit or prepayment to an issued statement")
    ap.add_argument("statement", metavar="STATEMENT")
    ap.add_argument("--kind", default="deposit")
    ap.add_argument("--amount", metavar="X", help="default: as much as both allow")
    ap.add_argument("--contract", metavar="NUMBER")
    ap.add_argument("--date", type=date_arg, metavar="YYYY-MM-DD")
    ap.set_defaults(handler=deposits_apply)
    rf = ds.add_parser("refund", help="refund a deposit (its contract ended) or a prepayment")
    rf.add_argument("--customer", required=True, metavar="CODE_OR_NAME")
    rf.add_argument("--kind", default="deposit")
    rf.add_argument("--amount", metavar="X", help="default: the whole balance")
    rf.add_argument("--contract", metavar="NUMBER")
    rf.add_argument("--date", type=date_arg, metavar="YYYY-MM-DD")
    rf.add_argument("--ref", metavar="R")
    rf.add_argument("--reason", required=True)
    rf.set_defaults(handler=deposits_refund)
    li = ds.add_parser("list", help="balances per customer, contract and kind")
    li.add_argument("--customer", metavar="CODE_OR_NAME")
    li.set_defaults(handler=deposits_list)


def _register_payments_decide(sub) -> None:
    pay = sub.choices.get("payments")
    if pay is not None:
        ps = next(x for x in pay._actions if isinstance(x, argparse._SubParsersAction))
        de = ps.add_parser("decide", help="decide on an overdue customer's suspension proposal (audited)")
        de.add_argument("customer", metavar="CODE_OR_NAME")
        de.add_argument("decision", choices=["suspend", "keep"])
        de.add_argument("--reason", required=True)
        de.set_defaults(handler=payments_decide)
        for name, parser in ps.choices.items():  # `payments overdue`: the setting is the default
            if name == "overdue":
                for act in parser._actions:
                    if act.dest == "days":
                        act.default, act.help = None, "default: the setting overdue_suspension_days"
                parser.set_defaults(handler=payments_overdue)


def _register_report(sub) -> None:
    report = sub.choices.get("report")
    if report is not None:
        rs = next(x for x in report._actions if isinstance(x, argparse._SubParsersAction))
        rv = rs.add_parser("receivables", help="monthly receivables summary per subsidiary (.pdf or .xlsx)")
        rv.add_argument("--period", required=True, metavar="YYYY-MM")
        rv.add_argument("-o", "--output", required=True, type=output_arg)
        rv.add_argument("--lang", dest="doc_lang", choices=["zh", "en"])
        rv.set_defaults(handler=report_receivables)


def _extend(sub, command: str, kinds: tuple[str, ...], handler) -> None:
    """Add kinds to `export`/`import` KIND; the original handler still serves the others."""
    p = sub.choices.get(command)
    if p is None:
        return
    kind = next(a for a in p._actions if a.dest == "kind")
    kind.choices = tuple(kind.choices) + kinds
    original = p.get_default("handler")
    p.set_defaults(handler=lambda ctx, args: handler(ctx, args) if args.kind in kinds else original(ctx, args))
    if command == "export":
        p.add_argument("--period", metavar="YYYY-MM", help="fapiao-lines: the billing period")


# --------------------------------------------------------------------------- fapiao
def fapiao_add(ctx, args) -> int:
    from app.services.receivables.fapiao import add_fapiao, statement_fapiao_status
    from models.choices import FapiaoStatus

    info = add_fapiao(ctx.db, ctx.actor(), args.statement, args.number, args.date, args.amount, args.tax,
                      fapiao_type=args.fapiao_type, note=args.note)
    status, _inv, _target = statement_fapiao_status(ctx.db, args.statement)
    print(info.describe())
    print(f"{info.statement}: {FapiaoStatus.label(status, 'zh')} ({status})")
    return 0


def fapiao_red(ctx, args) -> int:
    from app.services.receivables.fapiao import add_red_fapiao

    info = add_red_fapiao(ctx.db, ctx.actor(), args.credit_note, args.number, args.original, issued_on=args.date,
                          amount=args.amount, tax=args.tax, note=args.note)
    print(info.describe())
    return 0


def fapiao_list(ctx, args) -> int:
    from app.domain.money import format_amount as f
    from app.services.receivables.fapiao import list_fapiao

    ctx.open_upgraded()
    rows = list_fapiao(ctx.db, statement=args.statement, customer=args.customer)
    for r in rows:
        print(f"{r.number}\t{r.kind}\t{r.issued_on}\t{r.fapiao_type}\t{r.statement}\t¥{f(r.amount)}\t¥{f(r.tax)}"
              + (f"\treverses {r.original}" if r.original else ""))
    if not rows:
        print("no fapiao recorded")
    return 0


def fapiao_status(ctx, args) -> int:
    from app.domain.money import format_amount as f
    from app.services.receivables.fapiao import statement_fapiao_status
    from models.choices import FapiaoStatus

    ctx.open_upgraded()
    status, invoiced, target = statement_fapiao_status(ctx.db, args.statement)
    print(f"{args.statement}\t{FapiaoStatus.label(status, 'zh')} ({status})\tinvoiced ¥{f(invoiced)} of ¥{f(target)}")
    return 0


def fapiao_profile(ctx, args) -> int:
    from app.services.receivables.fapiao import get_profile, set_profile

    values = {"title": args.title, "tax_id": args.tax_id, "address_phone": args.address_phone,
              "bank_account": args.bank_account, "fapiao_type": args.type, "email": args.email}
    if any(v is not None for v in values.values()):
        actor = ctx.actor()
        current = get_profile(ctx.db, args.customer)
        merged = {k: (v if v is not None else (getattr(current, k) if current else "")) for k, v in values.items()}
        p = set_profile(ctx.db, actor, args.customer, **merged)
    else:
        ctx.open_upgraded()
        p = get_profile(ctx.db, args.customer)
        if p is None:
            print(f"{args.customer} has no invoicing profile")
            return 0
    print(f"{p.customer}\n名称\t{p.title}\n纳税人识别号\t{p.tax_id}\n地址、电话\t{p.address_phone}\n"
          f"开户行及账号\t{p.bank_account}\n发票类型\t{p.fapiao_type}\n收票邮箱\t{p.email}")
    return 0


def fapiao_tax_code(ctx, args) -> int:
    from app.domain.errors import ValidationError
    from app.services.receivables.fapiao.taxcodes import _rate, list_tax_codes, set_tax_code

    if args.kind and (args.code or args.short_name or args.name or args.source):
        if not args.rate:
            raise ValidationError({"rate": "--rate: the VAT rate the code applies at (e.g. 0.13)"})
        try:
            key = (args.kind, _rate(args.rate))
        except ArithmeticError:
            key = None  # set_tax_code says what is wrong with it
        current = {(c.line_kind, c.tax_rate): c for c in list_tax_codes(ctx.db)}.get(key)
        set_tax_code(ctx.db, ctx.actor(), args.kind, args.rate, code=args.code or (current.code if current else ""),
                     short_name=args.short_name or (current.short_name if current else ""),
                     item_name=args.name or (current.item_name if current else ""),
                     source=args.source or (current.source if current else None))
    else:
        ctx.open_upgraded()
    for c in list_tax_codes(ctx.db):
        if not args.kind or c.line_kind == args.kind:
            print(f"{c.line_kind}\t{c.rate_text}\t{c.code}\t{c.project_name}")
    return 0


# --------------------------------------------------------------------------- deposits
def deposits_add(ctx, args) -> int:
    from app.services.receivables.deposits import receive_deposit

    print(receive_deposit(ctx.db, ctx.actor(), args.customer, args.amount, kind=args.kind, on_date=args.date,
                          contract=args.contract, ref=args.ref, note=args.note).describe())
    return 0


def deposits_apply(ctx, args) -> int:
    from app.services.receivables.deposits import apply_deposit

    for e in apply_deposit(ctx.db, ctx.actor(), args.statement, kind=args.kind, amount=args.amount,
                           contract=args.contract, on_date=args.date):
        print(e.describe())
    return 0


def deposits_refund(ctx, args) -> int:
    from app.services.receivables.deposits import refund_deposit

    print(refund_deposit(ctx.db, ctx.actor(), args.customer, kind=args.kind, amount=args.amount,
                         contract=args.contract, on_date=args.date, reason=args.reason, ref=args.ref).describe())
    return 0


def deposits_list(ctx, args) -> int:
    from app.domain.money import format_amount as f
    from app.services.receivables.deposits import balances

    ctx.open_upgraded()
    rows = balances(ctx.db, args.customer)
    for b in rows:
        print(f"{b.customer}\t{b.contract or '-'}\t{b.kind}\treceived ¥{f(b.received)}\tapplied ¥{f(b.applied)}\t"
              f"refunded ¥{f(b.refunded)}\tbalance ¥{f(b.balance)}")
    if not rows:
        print("no deposits or prepayments")
    return 0


# --------------------------------------------------------------------------- overdue, summary
def payments_overdue(ctx, args) -> int:
    from app.domain.money import format_amount
    from app.services.receivables.overdue import proposals

    ctx.open_upgraded()
    rows = proposals(ctx.db, args.days)
    for p in rows:
        last = f"\tdecided {p.decision} by {p.decided_by}: {p.reason}" if p.decision else "\tpropose suspension"
        print(f"{p.customer}\t¥{format_amount(p.amount)}\t{p.days} days{last}")
    if not rows:
        from app.services.receivables.overdue import threshold
        print(f"no customer is overdue more than {args.days if args.days is not None else threshold(ctx.db)} days")
    return 0


def payments_decide(ctx, args) -> int:
    from app.services.receivables.overdue import decide

    p = decide(ctx.db, ctx.actor(), args.customer, args.decision, args.reason)
    print(f"{p.customer}: {p.decision} ({p.days} days overdue); recorded")
    return 0


def report_receivables(ctx, args) -> int:
    from app.domain.money import format_amount
    from app.services.receivables.summary import print_summary

    doc, pages = print_summary(ctx.db, ctx.reader(), args.period, args.output,
                               language=args.doc_lang or getattr(ctx.args, "lang", None))
    totals = doc.totals()
    print(f"wrote {args.output} (receivables {doc.period}, {len(doc.lines)} subsidiaries, closing "
          f"¥{format_amount(totals[-1])}" + (f"; {pages} page(s))" if pages else ")"))
    return 0


# --------------------------------------------------------------------------- import/export kinds
def export_more(ctx, args) -> int:
    from app.importexport.kinds.finance import export_kind

    actor = ctx.actor()
    from app.importexport import output_format

    count = export_kind(ctx.db, actor, args.kind, args.output, args.format or output_format(args.output),
                        period=args.period)
    print(f"exported {count} {args.kind} row(s) to {args.output}")
    return 0


def import_more(ctx, args) -> int:
    from app.importexport.kinds.finance import import_profiles

    actor = ctx.actor()
    result = import_profiles(ctx.db, actor, args.file, dry_run=args.dry_run)
    print(("checked" if args.dry_run else "imported") + f" {result['rows']} invoicing profile(s): "
          f"{result['created']} created, {result['updated']} updated, {result['unchanged']} unchanged")
    return 0

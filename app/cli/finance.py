"""Receivables commands: `payments add|import|allocate|reverse|list`, `report aging`,
`export payments` (`export payments` is routed here by `export`'s kind list)."""
from __future__ import annotations

from app.cli.main import date_arg


def register(sub) -> None:
    pay = sub.add_parser("payments", help="bank receipts: record, import, allocate to statements, reverse")
    ps = pay.add_subparsers(dest="payments_command", required=True, metavar="ACTION")
    a = ps.add_parser("add", help="record a bank receipt; allocated to the customer's statements oldest due first")
    a.add_argument("--customer", required=True, metavar="CODE_OR_NAME", help="credit code or name")
    a.add_argument("--amount", required=True, metavar="X")
    a.add_argument("--date", required=True, type=date_arg, metavar="YYYY-MM-DD", help="the day the money arrived")
    a.add_argument("--ref", required=True, metavar="R", help="the bank reference (流水号)")
    a.add_argument("--method", default="transfer", help="transfer (default), cash, cheque, draft, other")
    a.add_argument("--payer", help="the paying account's name (default: the customer)")
    a.add_argument("--hold", action="store_true", help="do not allocate; keep it as the customer's credit")
    a.set_defaults(handler=payments_add)
    i = ps.add_parser("import", help="import bank receipts from CSV or XLSX (all rows or none)")
    i.add_argument("file")
    i.set_defaults(handler=payments_import)
    al = ps.add_parser("allocate", help="allocate what is left of a payment to a statement")
    al.add_argument("payment", metavar="PAYMENT", help="P12 or the bank reference")
    al.add_argument("statement", metavar="STATEMENT", help="statement number")
    al.add_argument("--amount", metavar="X", help="default: as much as both allow")
    al.set_defaults(handler=payments_allocate)
    r = ps.add_parser("reverse", help="reverse a wrong payment by a counter-entry")
    r.add_argument("payment", metavar="PAYMENT")
    r.add_argument("--reason", required=True)
    r.set_defaults(handler=payments_reverse)
    b = ps.add_parser("balance", help="a customer's billed, received, open and credit amounts")
    b.add_argument("customer", metavar="CODE_OR_NAME")
    b.set_defaults(handler=payments_balance)
    o = ps.add_parser("overdue", help="customers overdue more than N days (suspension proposals)")
    o.add_argument("--days", type=int, default=60, metavar="N")
    o.set_defaults(handler=payments_overdue)
    register_reports(sub)
    from app.cli.receivables import register as register_fapiao_deposits
    register_fapiao_deposits(sub)  # fapiao, deposits, report receivables, payments decide, export kinds


def payments_add(ctx, args) -> int:
    from app.services.receivables import record_payment

    actor = ctx.actor()
    info = record_payment(ctx.db, actor, args.customer, args.amount, args.date, args.ref, method=args.method,
                          payer=args.payer, allocate=not args.hold)
    print(info.describe())
    return 0


def payments_import(ctx, args) -> int:
    from app.domain.money import format_amount
    from app.services.receivables import import_payments

    actor = ctx.actor()
    result = import_payments(ctx.db, actor, args.file)
    print(f"imported {len(result.payments)} receipt(s), ¥{format_amount(result.total)}")
    left = [p for p in result.payments if p.unallocated]
    if left:
        print(f"{len(left)} left (part) unallocated as credit balances")
    return 0


def payments_allocate(ctx, args) -> int:
    from app.services.receivables import allocate_payment

    actor = ctx.actor()
    print(allocate_payment(ctx.db, actor, args.payment, args.statement, args.amount).describe())
    return 0


def payments_reverse(ctx, args) -> int:
    from app.services.receivables import reverse_payment

    actor = ctx.actor()
    info = reverse_payment(ctx.db, actor, args.payment, args.reason)
    print(f"reversed payment P{info.id} {info.bank_ref} (¥{info.amount}); its statements are open again")
    return 0


def payments_balance(ctx, args) -> int:
    from app.domain.money import format_amount as f
    from app.services.receivables import customer_balance

    ctx.open_upgraded()
    b = customer_balance(ctx.db, args.customer)
    print(f"{b.customer}\tbilled ¥{f(b.billed)}\treceived ¥{f(b.received)}\tbalance ¥{f(b.balance)}\t"
          f"open statements ¥{f(b.open_statements)}\tcredit ¥{f(b.credit)}")
    return 0


def payments_overdue(ctx, args) -> int:
    from app.domain.money import format_amount
    from app.services.receivables import overdue_customers

    ctx.open_upgraded()
    rows = overdue_customers(ctx.db, args.days)
    for name, amount, days in rows:
        print(f"{name}\t¥{format_amount(amount)}\t{days} days\tpropose suspension")
    if not rows:
        print(f"no customer is overdue more than {args.days} days")
    return 0


def register_reports(sub) -> None:
    """`report aging` and `report account`, added to the `report` command of app.cli.reports."""
    import argparse

    report = sub.choices.get("report")
    if report is None:
        return
    rs = next(a for a in report._actions if isinstance(a, argparse._SubParsersAction))
    ag = rs.add_parser("aging", help="receivables aging by subsidiary and customer (.pdf or .xlsx by suffix)")
    ag.add_argument("--as-of", type=date_arg, metavar="YYYY-MM-DD", help="default: today (Asia/Shanghai)")
    ag.add_argument("-o", "--output", required=True)
    ag.add_argument("--lang", dest="doc_lang", choices=["zh", "en"])
    ag.set_defaults(handler=report_aging)
    ac = rs.add_parser("account", help="a customer's statement of account (往来对账单) with a confirmation block")
    ac.add_argument("customer", metavar="CUSTOMER", help="credit code or name")
    ac.add_argument("--from", dest="date_from", required=True, type=date_arg, metavar="YYYY-MM-DD")
    ac.add_argument("--to", dest="date_to", required=True, type=date_arg, metavar="YYYY-MM-DD")
    ac.add_argument("-o", "--output", required=True)
    ac.add_argument("--lang", dest="doc_lang", choices=["zh", "en"])
    ac.set_defaults(handler=report_account)


def _lang(ctx, args):
    return args.doc_lang or getattr(ctx.args, "lang", None)


def report_aging(ctx, args) -> int:
    import datetime as dt

    from app.services.receivables import print_receivables_report

    actor = ctx.reader()
    as_of = dt.date.fromisoformat(args.as_of) if args.as_of else None
    _doc, what, pages = print_receivables_report(ctx.db, actor, "aging", args.output, as_of=as_of,
                                                 language=_lang(ctx, args))
    print(f"wrote {args.output} ({what}" + (f"; {pages} page(s))" if pages else ")"))
    return 0


def report_account(ctx, args) -> int:
    import datetime as dt

    from app.services.receivables import print_receivables_report

    actor = ctx.reader()
    _doc, what, pages = print_receivables_report(
        ctx.db, actor, "account", args.output, customer=args.customer,
        date_from=dt.date.fromisoformat(args.date_from), date_to=dt.date.fromisoformat(args.date_to),
        language=_lang(ctx, args))
    print(f"wrote {args.output} ({what}; {pages} page(s))")
    return 0

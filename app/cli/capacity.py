"""Capacity commands: `capacity search`, `hold` (create, list, release, sweep), `quote` (create,
list, show, pdf, accept), `price` (set, list). The rules live in app/services/capacity/; bulk prices
go through `import|export price-list`."""
from __future__ import annotations

import datetime as dt

from models.choices import HoldStatus, PriceProduct, PriceTerm, QuoteStatus

from app.cli.main import date_arg, output_arg
from app.domain.money import format_amount


def register(sub) -> None:
    cap = sub.add_parser("capacity", help="GPU capacity: search free nodes for a window, with every term's price")
    cs = cap.add_subparsers(dest="capacity_command", required=True, metavar="ACTION")
    se = cs.add_parser("search", help="N GPUs or nodes of a model, in one fabric / one domain / anywhere")
    se.add_argument("--model", action="append", help="GPU model name (repeat for several, e.g. H100 and 910B); "
                                                     "omit with --training for any 8-GPU training model")
    se.add_argument("--training", action="store_true", help="any 8-GPU training model (SXM and OAM cards)")
    se.add_argument("--count", type=int, required=True, help="how many GPUs (or nodes with --nodes)")
    se.add_argument("--nodes", action="store_true", help="count whole nodes instead of GPUs")
    scope = se.add_mutually_exclusive_group()
    scope.add_argument("--one-fabric", action="store_true", help="all in one cluster's scale-out fabric")
    scope.add_argument("--one-domain", action="store_true", help="all in one scale-up domain (NVLink, NVL72, HCCS)")
    se.add_argument("--region", help="a region's code or name (its districts included), e.g. 460100 or 海口市")
    se.add_argument("--subsidiary", help="a subsidiary's code")
    se.add_argument("--site", help="a site's code")
    se.add_argument("--from", dest="start", type=date_arg, metavar="YYYY-MM-DD", help="first day (default today)")
    se.add_argument("--months", type=int, help="for this many months (omit with no --to: open-ended)")
    se.add_argument("--to", dest="end", type=date_arg, metavar="YYYY-MM-DD", help="last day (inclusive)")
    se.add_argument("--hold-for", metavar="CUSTOMER", help="hold the best offer for this customer")
    se.set_defaults(handler=capacity_search)

    hold = sub.add_parser("hold", help="holds on offered GPU nodes: list, release, sweep the expired")
    hs = hold.add_subparsers(dest="hold_command", required=True, metavar="ACTION")
    ls = hs.add_parser("list", help="holds (active by default), soonest to expire first")
    ls.add_argument("--status", choices=HoldStatus.values() + ["all"], default=HoldStatus.ACTIVE)
    ls.set_defaults(handler=hold_list)
    rel = hs.add_parser("release", help="give a hold's nodes back before it expires")
    rel.add_argument("hold", help="hold number or id")
    rel.add_argument("--reason", required=True)
    rel.set_defaults(handler=hold_release)
    sw = hs.add_parser("sweep", help="record every hold past its expiry as expired")
    sw.set_defaults(handler=hold_sweep)

    quote = sub.add_parser("quote", help="quotes (报价单): create from a hold, list, show, pdf, accept")
    qs = quote.add_subparsers(dest="quote_command", required=True, metavar="ACTION")
    cr = qs.add_parser("create", help="a quote for a hold's GPUs, with colocation add-ons")
    cr.add_argument("hold", help="hold number or id")
    cr.add_argument("--term", choices=PriceTerm.values(), default=PriceTerm.MONTHLY)
    cr.add_argument("--rack", action="append", default=[], metavar="RACK",
                    help="add a whole rack (SITE/ROOM/NAME, asset tag or id); repeat")
    cr.add_argument("--units", action="append", default=[], metavar="RACK:FROM-TO", help="add a U range; repeat")
    cr.add_argument("--circuits", type=int, help="add this many power circuits")
    cr.add_argument("--xconnects", type=int, help="add this many cross-connects")
    cr.add_argument("--valid-until", type=date_arg, metavar="YYYY-MM-DD", help="default: when the hold expires")
    cr.add_argument("--title")
    cr.add_argument("--language", choices=("zh", "en"), default="zh")
    cr.set_defaults(handler=quote_create)
    ql = qs.add_parser("list", help="quotes, newest first")
    ql.add_argument("--status", choices=QuoteStatus.values())
    ql.set_defaults(handler=quote_list)
    sh = qs.add_parser("show", help="one quote: lines, terms side by side, totals and 大写")
    sh.add_argument("quote", help="quote number or id")
    sh.set_defaults(handler=quote_show)
    pdf = qs.add_parser("pdf", help="the quote as a PDF (报价单 / Quotation)")
    pdf.add_argument("quote", help="quote number or id")
    pdf.add_argument("-o", "--output", type=output_arg, required=True)
    pdf.add_argument("--language", choices=("zh", "en"))
    pdf.set_defaults(handler=quote_pdf)
    acc = qs.add_parser("accept", help="the customer accepted: make the draft contract naming the held nodes")
    acc.add_argument("quote", help="quote number or id")
    acc.set_defaults(handler=quote_accept)

    price = sub.add_parser("price", help="the price list: GPU model × term × subsidiary, and add-ons")
    ps = price.add_subparsers(dest="price_command", required=True, metavar="ACTION")
    st = ps.add_parser("set", help="add a price (an open price of the same kind ends the day before)")
    st.add_argument("--product", choices=PriceProduct.values(), default=PriceProduct.GPU)
    st.add_argument("--model", help="GPU model name (GPU prices)")
    st.add_argument("--term", choices=PriceTerm.values(), required=True)
    st.add_argument("--price", required=True, help="per GPU-hour, GPU-month, GPU-year; hybrid: per GPU-month")
    st.add_argument("--included-hours", help="hybrid: GPU-hours included per GPU-month")
    st.add_argument("--hourly-rate", help="hybrid: the rate beyond them")
    st.add_argument("--setup", help="cross-connects: installation price each")
    st.add_argument("--subsidiary", help="a subsidiary's code (default: every subsidiary)")
    st.add_argument("--from", dest="valid_from", type=date_arg, required=True, metavar="YYYY-MM-DD")
    st.add_argument("--to", dest="valid_to", type=date_arg, metavar="YYYY-MM-DD")
    st.set_defaults(handler=price_set)
    pl = ps.add_parser("list", help="the price list (in force on a day with --on)")
    pl.add_argument("--on", type=date_arg, metavar="YYYY-MM-DD")
    pl.set_defaults(handler=price_list)


def _day(text: str | None) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None


def _customer(ctx, key: str) -> int:
    from app.services.receivables import find_customer

    with ctx.db.session() as s:
        return find_customer(s, key).id


def _subsidiary(ctx, code: str | None) -> int | None:
    if not code:
        return None
    from sqlalchemy import func, select

    from models import Subsidiary
    from app.domain.errors import NotFound

    with ctx.db.session() as s:
        sid = s.execute(select(Subsidiary.id).where(func.lower(Subsidiary.code) == code.lower())).scalar()
    if sid is None:
        raise NotFound(f"there is no subsidiary with the code {code}")
    return sid


def print_terms(terms) -> None:
    for t in terms:
        print(f"    {PriceTerm.label(t.term):<8} {format_amount(t.amount):>16} + VAT {format_amount(t.vat):>14} = "
              f"{format_amount(t.total):>16}  {t.in_words}   (first month {format_amount(t.first_month)}; {t.basis})")


def capacity_search(ctx, args) -> int:
    from app.services.capacity.search import ANYWHERE, ONE_DOMAIN, ONE_FABRIC, CapacityRequest, search_capacity

    req = CapacityRequest(count=args.count, models=tuple(args.model or ()), training8=args.training,
                          unit="node" if args.nodes else "gpu",
                          scope=ONE_FABRIC if args.one_fabric else ONE_DOMAIN if args.one_domain else ANYWHERE,
                          region=args.region, subsidiary=args.subsidiary, site=args.site, start=_day(args.start),
                          months=args.months, end=_day(args.end))
    r = search_capacity(ctx.db, req)
    window = f"{r.start} – {r.end or 'open-ended'}"
    if not r.offers:
        print(r.shortfall)
        return 1
    for n, o in enumerate(r.offers, start=1):
        print(f"offer {n}: {o.gpus} × {o.model} ({o.vendor}) in {o.group} [{o.fabric or 'no fabric'}] at {o.site}, "
              f"{len(o.nodes)} nodes in {o.racks} rack(s), {window}; {o.free_in_group - o.gpus} more free there")
        print("    nodes: " + ", ".join(f"{x.device} ({x.rack})" for x in o.nodes))
        if o.reduced:
            marked = ", ".join(x.device for x in o.nodes if x.reduced)
            print(f"    reduced power redundancy (one side under maintenance {', '.join(o.reduced)}): {marked}")
        if o.degraded:
            marked = ", ".join(x.device for x in o.nodes if x.degraded)
            print(f"    degraded power (one side under maintenance {', '.join(o.degraded)}, the side kept cannot carry "
                  f"the rack's load): {marked}")
        print_terms(o.terms)
    if args.hold_for:
        from app.services.capacity.holds import hold_capacity

        o = r.offers[0]
        h = hold_capacity(ctx.db, ctx.actor(), customer_id=_customer(ctx, args.hold_for), subsidiary_id=o.subsidiary_id,
                          node_ids=list(o.node_ids), start=r.start, end=r.end, gpu_model_id=o.model_id)
        print(f"hold {h.number}: {h.gpus} GPUs on {len(h.node_ids)} nodes for {h.customer} until {h.expires_at:%Y-%m-%d %H:%M} UTC")
    return 0


def _hold_line(h) -> str:
    from app.domain.clock import local_text

    return (f"{h.number}  {h.status:<9} {h.customer}  {h.gpus} × {h.gpu_model or 'GPU'} on {len(h.node_ids)} nodes "
            f"({', '.join(h.clusters)})  {h.start_date} – {h.end_date or 'open'}  expires {local_text(h.expires_at)}")


def hold_list(ctx, args) -> int:
    from app.services.capacity.holds import list_holds

    rows = list_holds(ctx.db, status=None if args.status == "all" else args.status)
    for h in rows:
        print(_hold_line(h))
    print(f"{len(rows)} hold(s)")
    return 0


def hold_release(ctx, args) -> int:
    from app.services.capacity.holds import release_hold

    print(_hold_line(release_hold(ctx.db, ctx.actor(), args.hold, args.reason)))
    return 0


def hold_sweep(ctx, args) -> int:
    from app.services.capacity.holds import expire_holds

    done = expire_holds(ctx.db, ctx.actor())
    print(f"{len(done)} hold(s) expired" + (f": {', '.join(done)}" if done else ""))
    return 0


def quote_create(ctx, args) -> int:
    from app.domain.errors import ValidationError
    from app.services.capacity.quotes import AddOn, create_quote
    from app.services.racknames import find_rack

    add_ons = [AddOn(PriceProduct.RACK, rack_id=find_rack(ctx.db, r)) for r in args.rack]
    for spec in args.units:
        rack, _, rng = spec.rpartition(":")
        lo, _, hi = rng.partition("-")
        if not (rack and lo.isdigit() and hi.isdigit()):
            raise ValidationError({"units": f"{spec!r}: give RACK:FROM-TO, e.g. GZ1/A/A-03:1-10"})
        add_ons.append(AddOn(PriceProduct.U_RANGE, rack_id=find_rack(ctx.db, rack), u_from=int(lo), u_to=int(hi)))
    if args.circuits:
        add_ons.append(AddOn(PriceProduct.CIRCUIT, quantity=args.circuits))
    if args.xconnects:
        add_ons.append(AddOn(PriceProduct.XCONNECT, quantity=args.xconnects))
    q = create_quote(ctx.db, ctx.actor(), hold=args.hold, term=args.term, add_ons=tuple(add_ons),
                     valid_until=_day(args.valid_until), title=args.title, language=args.language)
    _show(q)
    return 0


def _show(q) -> None:
    print(f"quote {q.number} ({q.status}) for {q.customer}: {q.start_date} – {q.end_date}, "
          f"{PriceTerm.label(q.term)}, valid until {q.valid_until}" + (f", hold {q.hold_number}" if q.hold_number else ""))
    for x in q.lines:
        print(f"  {x.description}  {x.quantity} × {x.unit_price} {x.price_unit}")
    print(f"  first month {format_amount(q.first_month.term_value)} + VAT {format_amount(q.first_month.vat)} = "
          f"{format_amount(q.first_month.total)}")
    print(f"  whole period {format_amount(q.totals.term_value)} + VAT {format_amount(q.totals.vat)} = "
          f"{format_amount(q.totals.total)}  {q.totals.in_words}")
    print("  terms side by side (GPUs):")
    print_terms(q.terms)


def quote_list(ctx, args) -> int:
    from app.services.capacity.quotes import list_quotes

    rows = list_quotes(ctx.db, status=args.status)
    for q in rows:
        print(f"{q.number}  {q.status:<9} {q.customer}  {q.gpus} × {q.gpu_model or '—'}  {q.start_date} – {q.end_date}"
              f"  {PriceTerm.label(q.term)}  {format_amount(q.totals.total)}  valid until {q.valid_until}")
    print(f"{len(rows)} quote(s)")
    return 0


def quote_show(ctx, args) -> int:
    from app.services.capacity.quotes import get_quote

    _show(get_quote(ctx.db, args.quote))
    return 0


def quote_pdf(ctx, args) -> int:
    from app.documents.printing import print_document

    printed = print_document(ctx.db, ctx.reader(), "quote", args.quote, args.output, language=args.language)
    print(f"{printed.path}: quote {printed.what}, {printed.pages} page(s)")
    return 0


def quote_accept(ctx, args) -> int:
    from app.services.capacity.quotes import accept_quote

    c = accept_quote(ctx.db, ctx.actor(), args.quote)
    print(f"draft contract {c.number} for {c.customer_name}: {len(c.items)} item(s); submit it for approval")
    return 0


def price_set(ctx, args) -> int:
    from sqlalchemy import func, select

    from models import GpuModel
    from app.domain.errors import NotFound
    from app.services.capacity.prices import set_price

    model_id = None
    if args.model:
        with ctx.db.session() as s:
            model_id = s.execute(select(GpuModel.id).where(func.lower(GpuModel.name) == args.model.lower())).scalar()
        if model_id is None:
            raise NotFound(f"no GPU model named {args.model}")
    pid = set_price(ctx.db, ctx.actor(), product=args.product, gpu_model_id=model_id, term=args.term,
                    unit_price=args.price, included_hours=args.included_hours, hourly_rate=args.hourly_rate,
                    setup_price=args.setup, subsidiary_id=_subsidiary(ctx, args.subsidiary),
                    valid_from=_day(args.valid_from), valid_to=_day(args.valid_to))
    print(f"price #{pid} set")
    return 0


def price_list(ctx, args) -> int:
    from app.services.capacity.prices import list_prices

    rows = list_prices(ctx.db, day=_day(args.on))
    for p in rows:
        extra = f" incl. {p.included_hours} h, {p.hourly_rate} beyond" if p.term == PriceTerm.HYBRID else ""
        print(f"{p.gpu_model or PriceProduct.label(p.product):<22} {PriceTerm.label(p.term):<8} {p.subsidiary or '*':<6} "
              f"{p.unit_price:>12}{extra}  {p.valid_from} – {p.valid_to or 'open'}")
    print(f"{len(rows)} price(s)")
    return 0

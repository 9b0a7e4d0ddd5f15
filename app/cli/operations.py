"""The operations desk's commands: `ticket …` (open, list, show, ack, move, note, attach, priority,
reopen, downtime, check, credits, approve, reject) and `oncall …` (set, now, list). The rules live
in app/services/operations/."""
from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

from models.choices import (ContactChannel, HandsUrgency, NoteVisibility, RemoteTask, TicketKind, TicketObjectType,
                            TicketPriority, TicketState)

from app.cli.main import date_arg


def time_arg(text: str) -> str:
    """'YYYY-MM-DD HH:MM' in Asia/Shanghai (checked when parsed)."""
    try:
        _local(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write the time as 'YYYY-MM-DD HH:MM' (Asia/Shanghai)") from None
    return text


def _local(text: str | None) -> dt.datetime | None:
    from app.domain.clock import TZ
    if not text:
        return None
    return dt.datetime.fromisoformat(text.strip()).replace(tzinfo=TZ)


KINDS = ("tickets", "oncall", "holidays")   # app/importexport/kinds/operations.py, through import|export


def _add_kinds(sub) -> None:
    """`import|export tickets|oncall|holidays`: the generic import and export of app.cli.core serve them."""
    for command in ("import", "export"):
        p = sub.choices.get(command)
        if p is not None:
            kind = next(a for a in p._actions if a.dest == "kind")
            kind.choices = tuple(kind.choices) + KINDS


def register(sub) -> None:
    _add_kinds(sub)
    _register_ticket(sub)
    _register_oncall(sub)


def _register_ticket(sub) -> None:
    tk = sub.add_parser("ticket", help="tickets: open, work along new → acknowledged → on site → … → resolved, "
                                       "SLA sweep and credits")
    ts = tk.add_subparsers(dest="ticket_command", required=True, metavar="ACTION")
    op = ts.add_parser("open", help="open a ticket (an incident by default)")
    op.add_argument("title")
    op.add_argument("--kind", choices=TicketKind.values(), default=TicketKind.INCIDENT)
    op.add_argument("--priority", choices=TicketPriority.values(), default=TicketPriority.P3)
    op.add_argument("--for", dest="obj", metavar="TYPE:ID",
                    help=f"the object it concerns, prefilling customer, contract and site ({', '.join(TicketObjectType.values())})")
    op.add_argument("--customer", help="the customer: credit code, name or id")
    op.add_argument("--contract", help="the contract number")
    op.add_argument("--channel", choices=ContactChannel.values())
    op.add_argument("--task", choices=RemoteTask.values(), help="remote hands: the catalogue's task")
    op.add_argument("--urgency", choices=HandsUrgency.values())
    op.add_argument("--requested", type=time_arg, metavar="'YYYY-MM-DD HH:MM'", help="scheduled: when the customer asked")
    op.add_argument("--description")
    op.add_argument("--at", type=time_arg, metavar="'YYYY-MM-DD HH:MM'", help="when it was reported (default now)")
    op.set_defaults(handler=ticket_open)
    ls = ts.add_parser("list", help="the queue: open tickets by SLA due")
    ls.add_argument("--all", action="store_true", help="also resolved and closed")
    ls.set_defaults(handler=ticket_list)
    sh = ts.add_parser("show", help="one ticket with its SLA clocks and timeline")
    sh.add_argument("ticket", help="number T-2026-000123 or id")
    sh.set_defaults(handler=ticket_show)
    ack = ts.add_parser("ack", help="acknowledge a new ticket")
    ack.add_argument("ticket")
    ack.add_argument("--at", type=time_arg)
    ack.set_defaults(handler=ticket_ack)
    mv = ts.add_parser("move", help="move a ticket to another state")
    mv.add_argument("ticket")
    mv.add_argument("state", choices=TicketState.values())
    mv.add_argument("--note", help="what was done (needed to resolve)")
    mv.add_argument("--at", type=time_arg)
    mv.set_defaults(handler=ticket_move)
    nt = ts.add_parser("note", help="add a note to the timeline")
    nt.add_argument("ticket")
    nt.add_argument("text")
    nt.add_argument("--for-customer", action="store_true", help="the customer may read it")
    nt.set_defaults(handler=ticket_note)
    at = ts.add_parser("attach", help="keep a photo or file with the ticket")
    at.add_argument("ticket")
    at.add_argument("file", type=Path)
    at.set_defaults(handler=ticket_attach)
    pr = ts.add_parser("priority", help="change the priority (the SLA clocks are recomputed)")
    pr.add_argument("ticket")
    pr.add_argument("priority", choices=TicketPriority.values())
    pr.add_argument("--reason", required=True)
    pr.set_defaults(handler=ticket_priority)
    ro = ts.add_parser("reopen", help="reopen a resolved ticket (within the reopen setting's days)")
    ro.add_argument("ticket")
    ro.add_argument("--reason", required=True)
    ro.set_defaults(handler=ticket_reopen)
    dn = ts.add_parser("downtime", help="record the down hours of the ticket's GPUs or servers (not billed)")
    dn.add_argument("ticket")
    dn.add_argument("--start", type=time_arg, required=True)
    dn.add_argument("--end", type=time_arg)
    dn.set_defaults(handler=ticket_downtime)
    ck = ts.add_parser("check", help="the SLA sweep: record breaches, propose credits, escalate")
    ck.set_defaults(handler=ticket_check)
    cr = ts.add_parser("credits", help="SLA credits (proposed, approved, rejected)")
    cr.add_argument("--state", choices=("proposed", "approved", "rejected"))
    cr.set_defaults(handler=ticket_credits)
    ap = ts.add_parser("approve", help="approve a proposed SLA credit (not your own proposal)")
    ap.add_argument("credit", type=int)
    ap.set_defaults(handler=ticket_approve)
    rj = ts.add_parser("reject", help="reject a proposed SLA credit")
    rj.add_argument("credit", type=int)
    rj.add_argument("--reason", required=True)
    rj.set_defaults(handler=ticket_reject)


def _register_oncall(sub) -> None:
    oc = sub.add_parser("oncall", help="the on-call rota: who is on call per site and week")
    os_ = oc.add_subparsers(dest="oncall_command", required=True, metavar="ACTION")
    st = os_.add_parser("set", help="set the shift of a site for the week of a day")
    st.add_argument("--site", required=True, help="site code or id")
    st.add_argument("--week", type=date_arg, required=True, metavar="YYYY-MM-DD", help="any day of the week")
    st.add_argument("--primary", required=True, help="login")
    st.add_argument("--secondary", help="login")
    st.add_argument("--manager", help="the site manager's login")
    st.add_argument("--phone")
    st.add_argument("--note", help="handover note")
    st.set_defaults(handler=oncall_set)
    now = os_.add_parser("now", help="who is on call now")
    now.set_defaults(handler=oncall_now)
    ls2 = os_.add_parser("list", help="every shift, latest week first")
    ls2.set_defaults(handler=oncall_list)


def _fmt(t: dt.datetime | None) -> str:
    from app.domain.clock import local_text
    return local_text(t)[:16] if t else "—"


def _left(seconds: int) -> str:
    sign = "-" if seconds < 0 else ""
    m = abs(seconds) // 60
    return f"{sign}{m // 60}h{m % 60:02d}m"


def ticket_open(ctx, args) -> int:
    from app.services.operations.tickets import open_ticket, prefill_for
    from app.services.contracts import find_contract
    from app.services.receivables import find_customer

    customer = contract = site = None
    objects = []
    if args.obj:
        kind, _, oid = args.obj.partition(":")
        pre = prefill_for(ctx.db, kind, int(oid), at=_local(args.at))
        customer, contract, site = pre.customer_id, pre.contract_id, pre.site_id
        objects = [(kind, int(oid))]
    with ctx.db.session() as s:
        if args.customer:
            customer = find_customer(s, args.customer).id
        if args.contract:
            contract = find_contract(s, args.contract).id
    t = open_ticket(ctx.db, ctx.actor(), title=args.title, kind=args.kind, priority=args.priority,
                    customer_id=customer, contract_id=contract, site_id=site, objects=objects, channel=args.channel,
                    task=args.task, urgency=args.urgency, requested_for=_local(args.requested),
                    description=args.description, at=_local(args.at))
    print(f"ticket {t.number} opened ({args.priority})")
    return 0


def ticket_list(ctx, args) -> int:
    from app.services.operations.queue import queue_rows
    rows = queue_rows(ctx.db, include_closed=args.all)
    for r in rows:
        due = f"due {_fmt(r.due_at)} ({_left(r.remaining_seconds)})" if r.due_at else r.sla_state
        print(f"{r.number}  {r.priority}  {r.state:<16} {due:<32} {r.customer or '—'}  {r.title}")
    print(f"{len(rows)} ticket(s)")
    return 0


def ticket_show(ctx, args) -> int:
    from app.services.operations.sla import ticket_sla
    from app.services.operations.tickets import get_ticket

    t = get_ticket(ctx.db, args.ticket)
    print(f"{t.number}  {t.kind}  {t.priority}  {t.state}  {t.title}")
    print(f"customer {t.customer or '—'}  contract {t.contract or '—'}  assignee {t.assignee or '—'}  "
          f"opened {_fmt(t.opened_at)}" + (f"  escalation level {t.escalation}" if t.escalation else ""))
    for ot, oid, label in t.objects:
        print(f"  concerns {ot} {label} (#{oid})")
    for metric, c in ticket_sla(ctx.db, t.id).clocks.items():
        print(f"  SLA {metric:<8} {c.state:<9} {c.elapsed_minutes}/{c.target_minutes} min, paused {c.paused_minutes} min"
              + (f", due {_fmt(c.due_at)}" if c.due_at else "") + (f", breached {_fmt(c.breached_at)}" if c.breached_at else ""))
    for e in t.events:
        what = f"{e.from_value} → {e.to_value}" if e.kind in ("state", "priority") else (e.to_value or "")
        print(f"  {_fmt(e.at)}  {e.actor or '':<10} {e.kind:<9} {what}  {e.note or ''}")
    print(f"allowed moves: {', '.join(t.moves) or 'none'}")
    return 0


def ticket_ack(ctx, args) -> int:
    from app.services.operations.tickets import acknowledge
    acknowledge(ctx.db, ctx.actor(), args.ticket, at=_local(args.at))
    print(f"{args.ticket} acknowledged")
    return 0


def ticket_move(ctx, args) -> int:
    from app.services.operations.tickets import move_ticket
    move_ticket(ctx.db, ctx.actor(), args.ticket, args.state, note=args.note, at=_local(args.at))
    print(f"{args.ticket} is {args.state}")
    return 0


def ticket_note(ctx, args) -> int:
    from app.services.operations.tickets import add_note
    add_note(ctx.db, ctx.actor(), args.ticket, args.text,
             visibility=NoteVisibility.CUSTOMER if args.for_customer else NoteVisibility.INTERNAL)
    print("note added")
    return 0


def ticket_attach(ctx, args) -> int:
    from app.services.operations.tickets import attach
    attach(ctx.db, ctx.actor(), args.ticket, args.file.name, args.file.read_bytes())
    print(f"{args.file.name} attached")
    return 0


def ticket_priority(ctx, args) -> int:
    from app.services.operations.tickets import change_priority
    change_priority(ctx.db, ctx.actor(), args.ticket, args.priority, args.reason)
    print(f"{args.ticket} is {args.priority}")
    return 0


def ticket_reopen(ctx, args) -> int:
    from app.services.operations.tickets import reopen_ticket
    reopen_ticket(ctx.db, ctx.actor(), args.ticket, args.reason)
    print(f"{args.ticket} reopened")
    return 0


def ticket_downtime(ctx, args) -> int:
    from app.services.operations.tickets import record_ticket_downtime
    ids = record_ticket_downtime(ctx.db, ctx.actor(), args.ticket, start=_local(args.start), end=_local(args.end))
    print(f"downtime recorded: {', '.join(f'#{i}' for i in ids)} (not billed)")
    return 0


def ticket_check(ctx, args) -> int:
    from app.services.operations.sla import check_sla
    r = check_sla(ctx.db, ctx.actor())
    for number, metric, at in r.breaches:
        print(f"breach: {number} {metric} at {_fmt(at)}")
    for number, level in r.escalations:
        print(f"escalated: {number} to level {level}")
    print(f"{len(r.breaches)} breach(es), {len(r.credits)} credit(s) proposed, {len(r.escalations)} escalation(s)")
    return 0


def ticket_credits(ctx, args) -> int:
    from app.domain.money import format_amount
    from app.services.operations.credits import list_credits
    rows = list_credits(ctx.db, state=args.state)
    for r in rows:
        print(f"#{r.id}  {r.state:<9} {r.period}  {format_amount(r.amount):>12}  {r.contract}  {r.ticket or '—'}  "
              f"{r.reason}  (proposed by {r.proposed_by}{', decided by ' + r.decided_by if r.decided_by else ''})")
    print(f"{len(rows)} credit(s)")
    return 0


def ticket_approve(ctx, args) -> int:
    from app.services.operations.credits import approve_credit
    approve_credit(ctx.db, ctx.actor(), args.credit)
    print(f"credit #{args.credit} approved: it goes on its period's statement")
    return 0


def ticket_reject(ctx, args) -> int:
    from app.services.operations.credits import reject_credit
    reject_credit(ctx.db, ctx.actor(), args.credit, args.reason)
    print(f"credit #{args.credit} rejected")
    return 0


def _user_id(ctx, login: str | None) -> int | None:
    if not login:
        return None
    from sqlalchemy import select

    from app.domain.errors import NotFound
    from models import User
    with ctx.db.session() as s:
        uid = s.execute(select(User.id).where(User.login == login)).scalar()
    if uid is None:
        raise NotFound(f"no user with the login {login!r}")
    return uid


def _site_id(ctx, key: str) -> int:
    from sqlalchemy import select

    from app.domain.errors import NotFound
    from models import Site
    with ctx.db.session() as s:
        sid = s.execute(select(Site.id).where((Site.code == key) | (Site.id == (int(key) if key.isdigit() else -1)))).scalar()
    if sid is None:
        raise NotFound(f"no site {key!r}: give its code or id")
    return sid


def oncall_set(ctx, args) -> int:
    from app.services.operations.oncall import set_shift
    set_shift(ctx.db, ctx.actor(), week=dt.date.fromisoformat(args.week), site_id=_site_id(ctx, args.site),
              primary_id=_user_id(ctx, args.primary), secondary_id=_user_id(ctx, args.secondary),
              manager_id=_user_id(ctx, args.manager), phone=args.phone, handover_note=args.note)
    print(f"on call set for the week of {args.week}")
    return 0


def _shift_line(r) -> str:
    return (f"{r.week_start}  {r.site or r.region_code}  primary {r.primary}  secondary {r.secondary or '—'}  "
            f"manager {r.manager or '—'}  {r.phone or ''}  {r.handover_note or ''}")


def oncall_now(ctx, args) -> int:
    from app.services.operations.oncall import on_call_now
    rows = on_call_now(ctx.db)
    for r in rows:
        print(_shift_line(r))
    print(f"{len(rows)} shift(s) this week")
    return 0


def oncall_list(ctx, args) -> int:
    from app.services.operations.oncall import shifts
    rows = shifts(ctx.db)
    for r in rows:
        print(_shift_line(r))
    print(f"{len(rows)} shift(s)")
    return 0

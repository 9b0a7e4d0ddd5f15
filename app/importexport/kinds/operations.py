"""`import|export holidays`, `import|export oncall`, `import|export tickets` (issue 24), for app.importexport.

- holidays: the State Council's schedule, one row a day: `day` (YYYY-MM-DD), `off` (true: a day off;
  false: a make-up working day, 调休), `name` (元旦, 春节 …), `source` (the notice). An administrator
  adds a year this way (NateScarlet/holiday-cn's JSON, flattened to these columns).
- oncall: one row a site and week: `week_start`, `site` (code), `primary`, `secondary`, `manager`
  (logins), `phone`, `handover_note`; a row for an existing site and week replaces its shift.
- tickets: exported with their state; imported as new tickets (opened at `opened_at`, state new):
  moves happen in the console or with `ticket move`, so the SLA history stays true.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import aliased

from models import Customer, HolidayDay, OncallShift, Site, Ticket, User
from models.choices import TicketKind, TicketPriority

from app.domain.clock import TZ

HOLIDAY_COLUMNS = ("day", "off", "name", "source")
HOLIDAY_REQUIRED = ("day", "off", "name")
ONCALL_COLUMNS = ("week_start", "site", "primary", "secondary", "manager", "phone", "handover_note")
ONCALL_REQUIRED = ("week_start", "site", "primary")
ONCALL_FIELD_COLUMN = {"primary_id": "primary", "secondary_id": "secondary", "manager_id": "manager",
                       "site_id": "site"}
TICKET_COLUMNS = ("number", "kind", "priority", "state", "title", "customer", "site", "opened_at", "description")
TICKET_REQUIRED = ("title", "priority", "opened_at")
TICKET_FIELD_COLUMN = {"customer_id": "customer", "site_id": "site", "at": "opened_at"}
_TRUE, _FALSE = {"true", "1", "yes", "y", "休", "off"}, {"false", "0", "no", "n", "班", "work"}


# --- holidays -------------------------------------------------------------------------------------

def resolve_holidays(s, r) -> dict[str, Any]:
    v: dict[str, Any] = {"day": r.date("day")}
    off = (r.get("off") or "").strip().lower()
    if off in _TRUE:
        v["off"] = True
    elif off in _FALSE:
        v["off"] = False
    else:
        r.err("off", "true for a day off, false for a make-up working day (调休)")
    v["name"] = (r.get("name") or "").strip()[:32]
    v["source"] = (r.get("source") or "").strip()[:255] or None
    return v


def write_holidays(uow, r, v: dict) -> str:
    from app.services.operations.sla import set_holiday_in
    return set_holiday_in(uow, v["day"], v["off"], v["name"], v["source"], reason=f"imported from line {r.line}")


def export_holidays_query():
    return select(HolidayDay.day, HolidayDay.off, HolidayDay.name, HolidayDay.source).order_by(HolidayDay.day)


# --- on call --------------------------------------------------------------------------------------

def _login(s, r, col: str, required: bool = False) -> int | None:
    login = (r.get(col) or "").strip()
    if not login:
        if required:
            r.err(col, "a user's login")
        return None
    uid = s.execute(select(User.id).where(User.login == login)).scalar()
    if uid is None:
        r.err(col, f"there is no user {login!r}")
    return uid


def resolve_oncall(s, r) -> dict[str, Any]:
    code = (r.get("site") or "").strip()
    site = s.execute(select(Site.id).where(Site.code == code)).scalar()
    if site is None:
        r.err("site", f"there is no site {code!r} (give its code)")
    return {"week": r.date("week_start"), "site_id": site, "primary_id": _login(s, r, "primary", True),
            "secondary_id": _login(s, r, "secondary"), "manager_id": _login(s, r, "manager"),
            "phone": r.get("phone"), "handover_note": r.get("handover_note")}


def write_oncall(uow, r, v: dict) -> str:
    from app.services.operations.oncall import set_shift_in, week_start
    s = uow.session
    row = s.execute(select(OncallShift).where(OncallShift.site_id == v["site_id"],
                                              OncallShift.week_start == week_start(v["week"]))).scalar()
    same = row is not None and all(getattr(row, k) == (v[k] or None) for k in
                                   ("primary_id", "secondary_id", "manager_id", "phone", "handover_note"))
    if same:
        return "unchanged"
    set_shift_in(uow, **v)
    return "updated" if row is not None else "created"


def export_oncall_query():
    p, sec, m = aliased(User), aliased(User), aliased(User)
    return (select(OncallShift.week_start, Site.code, p.login, sec.login, m.login, OncallShift.phone,
                   OncallShift.handover_note)
            .outerjoin(Site, Site.id == OncallShift.site_id).join(p, p.id == OncallShift.primary_id)
            .outerjoin(sec, sec.id == OncallShift.secondary_id).outerjoin(m, m.id == OncallShift.manager_id)
            .order_by(OncallShift.week_start, Site.code))


# --- tickets --------------------------------------------------------------------------------------

def resolve_tickets(s, r) -> dict[str, Any]:
    v: dict[str, Any] = {"number": (r.get("number") or "").strip() or None, "title": r.get("title")}
    kind = (r.get("kind") or TicketKind.INCIDENT).strip()
    if kind not in TicketKind.values():
        r.err("kind", f"one of {', '.join(TicketKind.values())}")
    prio = (r.get("priority") or "").strip().upper()
    if prio not in TicketPriority.values():
        r.err("priority", "P1, P2, P3 or P4")
    state = (r.get("state") or "new").strip()
    if state != "new" and not v["number"]:
        r.err("state", "an imported ticket opens as new; move it in the console or with `ticket move`")
    v.update(kind=kind, priority=prio, description=r.get("description") or None)
    cust = (r.get("customer") or "").strip()
    v["customer_id"] = None
    if cust:
        v["customer_id"] = s.execute(select(Customer.id).where((Customer.credit_code == cust) |
                                                              (Customer.name == cust))).scalar()
        if v["customer_id"] is None:
            r.err("customer", f"there is no customer {cust!r} (its name or credit code)")
    code = (r.get("site") or "").strip()
    v["site_id"] = s.execute(select(Site.id).where(Site.code == code)).scalar() if code else None
    if code and v["site_id"] is None:
        r.err("site", f"there is no site {code!r}")
    try:
        at = dt.datetime.fromisoformat((r.get("opened_at") or "").strip())
        v["at"] = at if at.tzinfo else at.replace(tzinfo=TZ)
    except ValueError:
        r.err("opened_at", "a time YYYY-MM-DD HH:MM (Asia/Shanghai)")
    return v


def write_tickets(uow, r, v: dict) -> str:
    from app.services.operations.tickets import _now, open_ticket_in
    if v["number"] and uow.session.execute(select(Ticket.id).where(Ticket.number == v["number"])).scalar():
        return "unchanged"   # a ticket is changed by its moves, never by importing it again
    values = dict(title=(v["title"] or "").strip()[:255], kind=v["kind"], priority=v["priority"],
                  customer_id=v["customer_id"], contact_id=None, channel=None, contract_id=None,
                  site_id=v["site_id"], description=v["description"], assignee_id=None, task=None, urgency=None,
                  requested_for=None, carrier=None, tracking_no=None, received_by=None, stored_where=None,
                  delivered_rack_id=None)
    open_ticket_in(uow, values, (), _now(v["at"]))
    return "created"


def export_tickets_query():
    return (select(Ticket.number, Ticket.kind, Ticket.priority, Ticket.state, Ticket.title, Customer.name, Site.code,
                   Ticket.opened_at, Ticket.description)
            .outerjoin(Customer, Customer.id == Ticket.customer_id).outerjoin(Site, Site.id == Ticket.site_id)
            .order_by(Ticket.id))

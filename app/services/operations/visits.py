"""Site access: a customer's contacts authorised per site or cage, visit requests to the
customer's own racks or cage, the guard desk's check-in and check-out with a badge, overstays,
the daily visitor list and "who was in which cage when" for any past day.

- A visit request is refused for space the customer does not lease during the window, and for a
  responsible contact not authorised for that site (or cage) on those days. A visitor who is not an
  authorised contact comes only escorted.
- Administrators authorise contacts and approve visits; account managers request visits for
  their customers; the guard desk (operators) checks visitors in and out.
- ID numbers are real-name records: shown in full only to the roles that check them
  (`see_id_numbers`), masked (3501**********1234) to everyone else and in every export.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from sqlalchemy import and_, or_, select

from models import Cage, Contact, Customer, Rack, Room, Site, SiteAccess, SpaceLease, Visit, Visitor, visit_rack
from models.choices import IdType, Role, VisitState

from app.domain.actor import Actor
from app.domain.auth import can, require
from app.domain.clock import DateError, local_date, local_midnight, local_text, parse_date
from app.domain import messages as m
from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.domain.messages import message_of
from app.services.entities import flush_versioned
from app.store.found import get_or_404
from app.store.db import Database, reading
from app.store.uow import UnitOfWork

UTC = dt.timezone.utc
EARLY = dt.timedelta(hours=1)  # a visitor may be let in this long before the window opens
VISITOR_FIELDS = ("visit_id", "contact_id", "name", "id_type", "company", "badge", "checked_in_at", "checked_in_by",
                  "checked_out_at", "checked_out_by")  # the ID number is audited masked
VISIT_FIELDS = ("customer_id", "site_id", "contact_id", "cage_id", "purpose", "window_start", "window_end",
                "escort_needed", "state", "requested_by", "approved_by")
ACCESS_FIELDS = ("contact_id", "customer_id", "site_id", "cage_id", "valid_from", "valid_to", "revoked_at", "note")
_RESIDENT = re.compile(r"^\d{17}[\dX]$")


def reference(visit_id: int) -> str:
    return f"VR-{visit_id:06d}"


def _now() -> dt.datetime:
    return dt.datetime.now(UTC).replace(microsecond=0)


def mask_id(number: str | None) -> str:
    """3501**********1234: the first four and the last four characters (fewer for short numbers)."""
    n = (number or "").strip()
    if len(n) <= 4:
        return "*" * len(n)
    keep = 4 if len(n) >= 10 else 2
    return n[:keep] + "*" * (len(n) - 2 * keep) + n[-keep:]


def shown_id(actor: Actor | None, number: str | None) -> str:
    return (number or "") if actor is not None and can(actor, "see_id_numbers") else mask_id(number)


def _resident_ok(number: str) -> bool:
    """GB 11643: 17 digits and an ISO 7064 MOD 11-2 check character."""
    if not _RESIDENT.match(number):
        return False
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    total = sum(int(c) * w for c, w in zip(number[:17], weights))
    return "10X98765432"[total % 11] == number[17]


def _date(errors: dict, key: str, value, what: str) -> dt.date | None:
    try:
        return parse_date(value, what=what)
    except DateError as exc:
        errors[key] = message_of(exc)
        return None


# --- authorisations ---------------------------------------------------------------------------------

def authorise_contact(db: Database, actor: Actor, contact_id: int, site_id: int, *, cage_id: int | None = None,
                      valid_from=None, valid_to=None, note: str | None = None) -> int:
    """Let a customer's contact into the customer's space at a site (or only one cage)."""
    require(actor, "authorise_access")
    errors: dict[str, str] = {}
    start = _date(errors, "valid_from", valid_from, "valid from") if valid_from is not None else local_date(_now())
    end = _date(errors, "valid_to", valid_to, "valid to")
    if start and end and end < start:
        errors["valid_to"] = m.VISIT_ACCESS_ENDS_FIRST()
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        contact = get_or_404(s, Contact, contact_id, "contact")
        site = get_or_404(s, Site, site_id, "site")
        if cage_id is not None:
            cage = get_or_404(s, Cage, cage_id, "cage")
            if s.get(Room, cage.room_id).site_id != site.id:
                raise ValidationError({"cage_id": m.VISIT_CAGE_SITE(cage.name, site.code)})
        a = SiteAccess(contact_id=contact.id, customer_id=contact.customer_id, site_id=site.id, cage_id=cage_id,
                       valid_from=start, valid_to=end, note=(note or "").strip()[:255] or None,
                       updated_by=actor.login)
        s.add(a)
        s.flush()
        uow.audit("site_access.create", "site_access", a.id, f"{contact.name} @ {site.code}",
                  after={k: getattr(a, k) for k in ACCESS_FIELDS})
        uow.commit()
        return a.id


def revoke_access(db: Database, actor: Actor, access_id: int, reason: str) -> None:
    require(actor, "authorise_access")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": m.VISIT_REVOKE_REASON()})
    with UnitOfWork(db, actor) as uow:
        a = get_or_404(uow.session, SiteAccess, access_id, "site access")
        if a.revoked_at is not None:
            raise RuleViolation(m.VISIT_REVOKED(local_text(a.revoked_at)))
        a.revoked_at = _now()
        flush_versioned(uow, a, "site access")
        uow.audit("site_access.revoke", "site_access", a.id, None, before={"revoked_at": None},
                  after={"revoked_at": a.revoked_at}, reason=reason.strip())
        uow.commit()


def _authorised(s, contact_id: int, site_id: int, cage_ids: set[int | None], first: dt.date, last: dt.date) -> bool:
    rows = s.execute(select(SiteAccess.cage_id).where(
        SiteAccess.contact_id == contact_id, SiteAccess.site_id == site_id, SiteAccess.revoked_at.is_(None),
        SiteAccess.valid_from <= first, or_(SiteAccess.valid_to.is_(None), SiteAccess.valid_to >= last))).scalars().all()
    if None in rows:
        return True  # the whole site (the customer's space there)
    return bool(rows) and cage_ids <= set(rows)


# --- visit requests ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class VisitorIn:
    name: str
    id_number: str
    id_type: str = IdType.RESIDENT
    company: str | None = None
    contact_id: int | None = None


def _check_visitors(visitors: list[VisitorIn], errors: dict) -> None:
    if not visitors:
        errors["visitors"] = m.VISIT_NO_VISITOR()
    for n, v in enumerate(visitors, start=1):
        if not (v.name and v.name.strip()):
            errors[f"visitors.{n}.name"] = m.VISITOR_NAME(n)
        if v.id_type not in IdType.values():
            errors[f"visitors.{n}.id_type"] = m.VISITOR_ID_TYPE(n, ", ".join(IdType.values()))
        num = (v.id_number or "").strip().upper()
        if not num:
            errors[f"visitors.{n}.id_number"] = m.VISITOR_ID_NUMBER(n)
        elif v.id_type == IdType.RESIDENT and not _resident_ok(num):
            errors[f"visitors.{n}.id_number"] = m.VISITOR_RESIDENT_ID(n)
        elif len(num) > 32:
            errors[f"visitors.{n}.id_number"] = m.VISITOR_ID_LONG(n)


def _leased(s, space, customer_id: int, first: dt.date, last: dt.date) -> bool:
    """Whether the customer leases that space (a cage or rack condition) over all the days."""
    return s.execute(select(SpaceLease.id).where(
        space, SpaceLease.customer_id == customer_id, SpaceLease.start_date <= first,
        or_(SpaceLease.end_date.is_(None), SpaceLease.end_date >= last))).first() is not None


def request_visit(db: Database, actor: Actor, *, customer_id: int, contact_id: int, visitors: list[VisitorIn],
                  purpose: str, window_start: dt.datetime, window_end: dt.datetime, escort_needed: bool = False,
                  cage_id: int | None = None, rack_ids: list[int] | tuple[int, ...] = ()) -> int:
    """A visit of the customer's people to its own racks or cage; refused for space it does not
    lease during the window, or for contacts not authorised there. Returns the visit's id."""
    require(actor, "request_visits")
    errors: dict[str, str] = {}
    if not (purpose and purpose.strip()):
        errors["purpose"] = m.VISIT_PURPOSE()
    if cage_id is None and not rack_ids:
        errors["space"] = m.VISIT_SPACE()
    if not isinstance(window_start, dt.datetime) or window_start.tzinfo is None:
        errors["window_start"] = m.VISIT_START()
    elif not isinstance(window_end, dt.datetime) or window_end.tzinfo is None or window_end <= window_start:
        errors["window_end"] = m.VISIT_END()
    _check_visitors(visitors, errors)
    if errors:
        raise ValidationError(errors)
    first, last = local_date(window_start), local_date(window_end)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        customer = get_or_404(s, Customer, customer_id, "customer")
        if actor.role == Role.ACCOUNT_MANAGER and customer.account_manager_id not in (None, actor.id):
            raise PermissionDenied(m.VISIT_OTHER_AM(customer.name))
        contact = get_or_404(s, Contact, contact_id, "contact")
        if contact.customer_id != customer.id:
            raise ValidationError({"contact_id": m.VISIT_NOT_CONTACT(contact.name, customer.name)})
        racks: list[Rack] = []
        if cage_id is not None:
            cage = get_or_404(s, Cage, cage_id, "cage")
            racks = list(s.execute(select(Rack).where(Rack.cage_id == cage.id)).scalars())
            if not _leased(s, SpaceLease.cage_id == cage.id, customer.id, first, last):
                raise RuleViolation(m.VISIT_CAGE_NOT_LEASED(customer.name, cage.name, first, last))
        for rid in rack_ids:
            rack = get_or_404(s, Rack, rid, "rack")
            if not _leased(s, SpaceLease.rack_id == rack.id, customer.id, first, last):
                raise RuleViolation(m.VISIT_RACK_NOT_LEASED(customer.name, f"{rack.room.name}/{rack.name}", first, last))
            racks.append(rack)
        sites = {r.room.site_id for r in racks}
        if len(sites) != 1:
            raise ValidationError({"space": m.VISIT_ONE_SITE()})
        site = s.get(Site, sites.pop())
        cages = {r.cage_id for r in racks} if cage_id is None else {cage_id}
        if not _authorised(s, contact.id, site.id, cages, first, last):
            raise RuleViolation((m.VISIT_NOT_AUTHORISED_CAGE if cages - {None} else m.VISIT_NOT_AUTHORISED)(
                contact.name, site.code, first, last))
        for n, v in enumerate(visitors, start=1):
            if v.contact_id is not None:
                vc = get_or_404(s, Contact, v.contact_id, "contact")
                if vc.customer_id != customer.id:
                    raise ValidationError({f"visitors.{n}.contact_id": m.VISIT_NOT_CONTACT(vc.name, customer.name)})
                if not _authorised(s, vc.id, site.id, cages, first, last) and not escort_needed:
                    raise RuleViolation(m.VISITOR_NOT_AUTHORISED(vc.name, site.code))
            elif not escort_needed:
                raise RuleViolation(m.VISITOR_NOT_CONTACT(v.name.strip(), customer.name))
        visit = Visit(customer_id=customer.id, site_id=site.id, contact_id=contact.id, cage_id=cage_id,
                      purpose=purpose.strip()[:255], window_start=window_start, window_end=window_end,
                      escort_needed=bool(escort_needed), state=VisitState.REQUESTED, requested_by=actor.login,
                      requested_at=_now(), updated_by=actor.login)
        s.add(visit)
        s.flush()
        if cage_id is None:
            s.execute(visit_rack.insert(), [{"visit_id": visit.id, "rack_id": r.id} for r in racks])
        uow.audit("visit.create", "visit", visit.id, f"{reference(visit.id)} {customer.name}",
                  after={**{k: getattr(visit, k) for k in VISIT_FIELDS}, "racks": [r.id for r in racks]})
        for v in visitors:
            row = Visitor(visit_id=visit.id, contact_id=v.contact_id, name=v.name.strip()[:64], id_type=v.id_type,
                          id_number=v.id_number.strip().upper(), company=(v.company or "").strip()[:128] or None,
                          updated_by=actor.login)
            s.add(row)
            s.flush()
            uow.audit("visitor.create", "visitor", row.id, row.name,
                      after={**{k: getattr(row, k) for k in VISITOR_FIELDS}, "id_number_masked": mask_id(row.id_number)})
        uow.commit()
        return visit.id


def _state(value: str):
    """The state's word inside a sentence (lower case), translated in the console."""
    return m.OPS_STATE[VisitState.label(value).lower()]()


def _move_visit(db, actor, visit_id, to, permission, allowed_from, reason=None, **changes) -> None:
    require(actor, permission)
    with UnitOfWork(db, actor) as uow:
        v = get_or_404(uow.session, Visit, visit_id, "visit")
        if v.state not in allowed_from:
            raise RuleViolation(m.VISIT_CANNOT_BECOME(reference(v.id), _state(v.state), _state(to)))
        before = {"state": v.state}
        v.state = to
        for k, val in changes.items():
            setattr(v, k, val)
        flush_versioned(uow, v, reference(v.id))
        uow.audit(f"visit.{to}", "visit", v.id, reference(v.id), before=before, after={"state": to, **changes},
                  reason=reason)
        uow.commit()


def approve_visit(db: Database, actor: Actor, visit_id: int) -> None:
    _move_visit(db, actor, visit_id, VisitState.APPROVED, "approve_visits", {VisitState.REQUESTED},
                approved_by=actor.login)


def reject_visit(db: Database, actor: Actor, visit_id: int, reason: str) -> None:
    if not (reason and reason.strip()):
        raise ValidationError({"reason": m.VISIT_REJECT_REASON()})
    _move_visit(db, actor, visit_id, VisitState.REJECTED, "approve_visits", {VisitState.REQUESTED},
                reason=reason.strip())


def cancel_visit(db: Database, actor: Actor, visit_id: int, reason: str) -> None:
    if not (reason and reason.strip()):
        raise ValidationError({"reason": m.VISIT_CANCEL_REASON()})
    _move_visit(db, actor, visit_id, VisitState.CANCELLED, "request_visits",
                {VisitState.REQUESTED, VisitState.APPROVED}, reason=reason.strip())


# --- the guard desk ----------------------------------------------------------------------------------

def check_in(db: Database, actor: Actor, visitor_id: int, badge: str, *, at: dt.datetime | None = None) -> None:
    """Let one visitor in with a badge: the visit approved, within its window (an hour early at most)."""
    require(actor, "guard_desk")
    if not (badge and badge.strip()):
        raise ValidationError({"badge": m.VISIT_BADGE()})
    at = at or _now()
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        p = get_or_404(s, Visitor, visitor_id, "visitor")
        v = s.get(Visit, p.visit_id)
        if v.state != VisitState.APPROVED:
            raise RuleViolation(m.VISIT_NOT_APPROVED(reference(v.id), _state(v.state)))
        if p.checked_in_at is not None:
            raise RuleViolation(m.VISITOR_IN_ALREADY(p.name, local_text(p.checked_in_at)))
        if at < v.window_start - EARLY or at > v.window_end:
            raise RuleViolation(m.VISIT_OUT_OF_WINDOW(reference(v.id), local_text(v.window_start)[:16],
                                                     local_text(v.window_end)[:16], p.name, local_text(at)[:16]))
        busy = s.execute(select(Visitor.name).join(Visit, Visit.id == Visitor.visit_id).where(
            Visit.site_id == v.site_id, Visitor.badge == badge.strip(), Visitor.checked_in_at.is_not(None),
            Visitor.checked_out_at.is_(None))).scalar_one_or_none()
        if busy:
            raise RuleViolation(m.VISIT_BADGE_BUSY(badge.strip(), busy))
        p.badge, p.checked_in_at, p.checked_in_by = badge.strip()[:32], at, actor.login
        flush_versioned(uow, p, p.name)
        uow.audit("visitor.check_in", "visitor", p.id, p.name, before={"checked_in_at": None},
                  after={"badge": p.badge, "checked_in_at": at, "checked_in_by": actor.login})
        uow.commit()


def check_out(db: Database, actor: Actor, visitor_id: int, *, at: dt.datetime | None = None) -> bool:
    """Let one visitor out (the badge back). Returns whether they overstayed the window. The visit
    closes when everyone who came in is out and nobody else is expected (its window has passed)."""
    require(actor, "guard_desk")
    at = at or _now()
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        p = get_or_404(s, Visitor, visitor_id, "visitor")
        v = s.get(Visit, p.visit_id)
        if p.checked_in_at is None:
            raise RuleViolation(m.VISITOR_NEVER_IN(p.name))
        if p.checked_out_at is not None:
            raise RuleViolation(m.VISITOR_OUT_ALREADY(p.name, local_text(p.checked_out_at)))
        if at < p.checked_in_at:
            raise ValidationError({"at": m.VISITOR_OUT_BEFORE_IN(p.name, local_text(p.checked_in_at))})
        p.checked_out_at, p.checked_out_by = at, actor.login
        flush_versioned(uow, p, p.name)
        over = at > v.window_end
        uow.audit("visitor.check_out", "visitor", p.id, p.name, before={"checked_out_at": None},
                  after={"checked_out_at": at, "checked_out_by": actor.login},
                  reason=f"overstayed by {_minutes(at - v.window_end)} min" if over else None)
        others = s.execute(select(Visitor).where(Visitor.visit_id == v.id, Visitor.id != p.id)).scalars().all()
        if all(o.checked_out_at is not None for o in others):
            before = v.state
            v.state = VisitState.CLOSED
            flush_versioned(uow, v, reference(v.id))
            uow.audit("visit.closed", "visit", v.id, reference(v.id), before={"state": before},
                      after={"state": VisitState.CLOSED})
        uow.commit()
        return over


def _minutes(delta: dt.timedelta) -> int:
    return int(delta.total_seconds() // 60)


# --- reading -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class VisitorRow:
    visitor_id: int
    visit_id: int
    reference: str
    state: str
    customer: str
    site: str
    space: str
    purpose: str
    name: str
    id_type: str
    id_number: str          # masked unless the reader may see it
    company: str
    escort_needed: bool
    window_start: dt.datetime
    window_end: dt.datetime
    badge: str
    checked_in_at: dt.datetime | None
    checked_out_at: dt.datetime | None
    overstay_min: int       # minutes past the window (on site now or when they left); 0 when none

    @property
    def on_site(self) -> bool:
        return self.checked_in_at is not None and self.checked_out_at is None

    @property
    def overstayed(self) -> bool:
        return self.overstay_min > 0


def _spaces(s, visits: list[Visit]) -> dict[int, str]:
    """Visit id -> its cage's name, or its racks' names in order: one statement for all the visits."""
    if not visits:
        return {}
    cages: dict[int, str] = {}
    racks: dict[int, list[str]] = {}
    for vid, cname, rname in s.execute(
            select(Visit.id, Cage.name, Rack.name).outerjoin(Cage, Cage.id == Visit.cage_id)
            .outerjoin(visit_rack, visit_rack.c.visit_id == Visit.id).outerjoin(Rack, Rack.id == visit_rack.c.rack_id)
            .where(Visit.id.in_([v.id for v in visits])).order_by(Visit.id, Rack.name)).all():
        if cname is not None:
            cages[vid] = cname
        if rname is not None:
            racks.setdefault(vid, []).append(rname)
    return {v.id: cages.get(v.id, "") if v.cage_id else ", ".join(racks.get(v.id, [])) for v in visits}


def _rows(s, actor: Actor | None, q, now: dt.datetime) -> list[VisitorRow]:
    found = s.execute(q).all()
    visits = {v.id: v for _p, v, _c, _s in found}
    spaces = _spaces(s, list(visits.values()))
    out = []
    for p, v, cname, scode in found:
        end = p.checked_out_at or (now if p.checked_in_at else None)
        over = _minutes(end - v.window_end) if end is not None and end > v.window_end else 0
        out.append(VisitorRow(p.id, v.id, reference(v.id), v.state, cname, scode, spaces[v.id], v.purpose, p.name,
                              p.id_type, shown_id(actor, p.id_number), p.company or "", v.escort_needed,
                              v.window_start, v.window_end, p.badge or "", p.checked_in_at, p.checked_out_at, over))
    return out


def _base():
    return (select(Visitor, Visit, Customer.name, Site.code).join(Visit, Visit.id == Visitor.visit_id)
            .join(Customer, Customer.id == Visit.customer_id).join(Site, Site.id == Visit.site_id))


def on_site_now(db: Database, actor: Actor | None, *, site_id: int | None = None,
                now: dt.datetime | None = None) -> list[VisitorRow]:
    """Visitors checked in and not out; overstays first."""
    now = now or _now()
    with db.session() as s:
        q = _base().where(Visitor.checked_in_at.is_not(None), Visitor.checked_out_at.is_(None))
        if site_id is not None:
            q = q.where(Visit.site_id == site_id)
        rows = _rows(s, actor, q.order_by(Visitor.checked_in_at), now)
    return sorted(rows, key=lambda r: (-r.overstay_min, r.checked_in_at))


def visitors_of_day(db: Database, actor: Actor | None, day, *, site_id: int | None = None,
                    now: dt.datetime | None = None) -> list[VisitorRow]:
    """Everyone expected or on site that Shanghai day: visits whose window touches it, and anyone
    in the building during it (the guard desk's daily list)."""
    day = parse_date(day, what="day")
    a, b = local_midnight(day), local_midnight(day + dt.timedelta(days=1))
    now = now or _now()
    with db.session() as s:
        q = _base().where(or_(
            and_(Visit.window_start < b, Visit.window_end > a,
                 Visit.state.in_((VisitState.REQUESTED, VisitState.APPROVED, VisitState.CLOSED))),
            and_(Visitor.checked_in_at < b, or_(Visitor.checked_out_at.is_(None), Visitor.checked_out_at > a))))
        if site_id is not None:
            q = q.where(Visit.site_id == site_id)
        return _rows(s, actor, q.order_by(Visit.window_start, Visit.id, Visitor.id), now)


@dataclass(frozen=True)
class GuardDesk:
    """The guard desk's tab in one read: who is on site now (overstays first) and everyone of the day."""

    here: list[VisitorRow]
    day: list[VisitorRow]
    sites: list[tuple[int, str, str]] | None = None   # (id, code, name) of every site, when asked for


def guard_desk(db: Database, actor: Actor | None, day, *, site_id: int | None = None,
               now: dt.datetime | None = None, with_sites: bool = False) -> GuardDesk:
    """`on_site_now` and `visitors_of_day` together: one query for the visitors of both (and their
    spaces), split here, so the tab reads its rows once (issue 26). The same rows in the same order;
    with `with_sites`, the sites of the tab's choice too, in the same read."""
    day = parse_date(day, what="day")
    a, b = local_midnight(day), local_midnight(day + dt.timedelta(days=1))
    now = now or _now()
    here = and_(Visitor.checked_in_at.is_not(None), Visitor.checked_out_at.is_(None))
    of_day = or_(and_(Visit.window_start < b, Visit.window_end > a,
                      Visit.state.in_((VisitState.REQUESTED, VisitState.APPROVED, VisitState.CLOSED))),
                 and_(Visitor.checked_in_at < b, or_(Visitor.checked_out_at.is_(None), Visitor.checked_out_at > a)))
    with reading(), db.session() as s:
        q = _base().where(or_(here, of_day))
        if site_id is not None:
            q = q.where(Visit.site_id == site_id)
        rows = _rows(s, actor, q.order_by(Visit.window_start, Visit.id, Visitor.id), now)
        site_rows = _sites_in(s) if with_sites else None
    inside = sorted((r for r in rows if r.on_site), key=lambda r: (-r.overstay_min, r.checked_in_at))
    of_the_day = [r for r in rows if (r.window_start < b and r.window_end > a and r.state in (
        VisitState.REQUESTED, VisitState.APPROVED, VisitState.CLOSED)) or (
        r.checked_in_at is not None and r.checked_in_at < b and (r.checked_out_at is None or r.checked_out_at > a))]
    return GuardDesk(inside, of_the_day, site_rows)


def who_was_in(db: Database, actor: Actor | None, day, *, site_id: int | None = None, cage_id: int | None = None,
               rack_id: int | None = None, now: dt.datetime | None = None) -> list[VisitorRow]:
    """Who was inside (checked in) during that Shanghai day, with when they came and left; narrowed
    to one cage (visits to it or to its racks) or one rack."""
    day = parse_date(day, what="day")
    a, b = local_midnight(day), local_midnight(day + dt.timedelta(days=1))
    now = now or _now()
    with db.session() as s:
        q = _base().where(Visitor.checked_in_at < b, or_(Visitor.checked_out_at.is_(None), Visitor.checked_out_at > a))
        if site_id is not None:
            q = q.where(Visit.site_id == site_id)
        if cage_id is not None:
            in_cage = select(visit_rack.c.visit_id).join(Rack, Rack.id == visit_rack.c.rack_id).where(
                Rack.cage_id == cage_id)
            q = q.where(or_(Visit.cage_id == cage_id, Visit.id.in_(in_cage)))
        if rack_id is not None:
            rack = s.get(Rack, rack_id)
            q = q.where(or_(Visit.id.in_(select(visit_rack.c.visit_id).where(visit_rack.c.rack_id == rack_id)),
                            and_(Visit.cage_id.is_not(None), Visit.cage_id == (rack.cage_id if rack else -1))))
        return _rows(s, actor, q.order_by(Visitor.checked_in_at), now)


def list_visits(db: Database, actor: Actor | None, *, state: str | None = None, customer_id: int | None = None,
                since: dt.datetime | None = None) -> list[VisitorRow]:
    with db.session() as s:
        q = _base()
        if state:
            q = q.where(Visit.state == state)
        if customer_id is not None:
            q = q.where(Visit.customer_id == customer_id)
        if since is not None:
            q = q.where(Visit.window_end > since)
        return _rows(s, actor, q.order_by(Visit.window_start, Visit.id, Visitor.id), _now())


def sites(db: Database) -> list[tuple[int, str, str]]:
    """(id, code, name) of every site, for the guard desk's choice."""
    with db.session() as s:
        return _sites_in(s)


def _sites_in(s) -> list[tuple[int, str, str]]:
    return [tuple(r) for r in s.execute(select(Site.id, Site.code, Site.name).order_by(Site.code)).all()]


@dataclass(frozen=True)
class AccessRow:
    id: int
    contact: str
    customer: str
    site: str
    cage: str
    valid_from: dt.date
    valid_to: dt.date | None
    revoked: bool


def list_access(db: Database, *, customer_id: int | None = None, site_id: int | None = None) -> list[AccessRow]:
    with db.session() as s:
        q = (select(SiteAccess, Contact.name, Customer.name, Site.code, Cage.name)
             .join(Contact, Contact.id == SiteAccess.contact_id).join(Customer, Customer.id == SiteAccess.customer_id)
             .join(Site, Site.id == SiteAccess.site_id).outerjoin(Cage, Cage.id == SiteAccess.cage_id))
        if customer_id is not None:
            q = q.where(SiteAccess.customer_id == customer_id)
        if site_id is not None:
            q = q.where(SiteAccess.site_id == site_id)
        return [AccessRow(a.id, contact, cust, site, cage or "", a.valid_from, a.valid_to, a.revoked_at is not None)
                for a, contact, cust, site, cage in s.execute(q.order_by(Customer.name, Contact.name)).all()]

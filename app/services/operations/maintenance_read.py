"""Reading maintenance windows and their stored impact, in a fixed number of statements whatever the
number of windows (issue 26): the windows with their site's code and the notice setting in one, the
impacts of all of them in one, what each works on (its label) in one UNION ALL of the kinds present.
`maintenance_view` gives the Operations page's maintenance tab its windows and the chosen window's
impact in one session. app/services/operations/maintenance.py re-exports these names.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import String, case, literal, select, union_all

from models import (Contract, CrossConnect, Customer, Device, MaintenanceImpact, MaintenanceWindow, PowerFeed,
                    PowerPanel, Rack, Room, Site)
from models.choices import ImpactLevel, MaintenanceState, MaintenanceTarget

from app.domain import messages as m
from app.domain.errors import NotFound
from app.store.db import Database, reading
from app.services.operations.maintenance_sla import notice_hours_column, notice_hours_of, noticed_in_time


def reference(window_id: int) -> str:
    return f"MW-{window_id:06d}"


@dataclass(frozen=True)
class Impact:
    customer_id: int
    customer: str
    object_type: str   # rack, device, cross_connect
    object_id: int
    object_label: str
    impact: str        # ImpactLevel
    contract_id: int | None
    contract: str | None
    why: str


@dataclass(frozen=True)
class WindowRow:
    id: int
    reference: str
    site: str
    title: str
    target_kind: str
    target: str
    planned_start: dt.datetime
    planned_end: dt.datetime
    state: str
    emergency: bool
    noticed_at: dt.datetime | None
    in_time: bool      # noticed at least the notice period before the start (planned work)
    customers: int
    worst: str | None  # ImpactLevel
    contact: str | None


@dataclass(frozen=True)
class MaintenanceView:
    """The windows of a scope and the stored impact of the chosen one (None: no window)."""

    windows: list[WindowRow]
    chosen: int | None
    impacts: list[Impact]


def _label_parts(kinds: set[str]):
    """One SELECT (kind, id, label) per kind of target present; a target that cannot be named reads '?'
    (a device or cross-connect not in a rack, as the impact's own walk refuses it)."""
    def part(kind, key, label, *joins):
        q = select(literal(kind, String).label("k"), key.label("id"), label.label("label"))
        for target, on in joins:
            q = q.join(target, on)
        return q
    T = MaintenanceTarget
    parts = {
        T.FEED: lambda: part(T.FEED, PowerFeed.id, PowerPanel.name + "/" + PowerFeed.name,
                             (PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)),
        T.PANEL: lambda: part(T.PANEL, PowerPanel.id, PowerPanel.name),
        T.RACK: lambda: part(T.RACK, Rack.id, Room.name + "/" + Rack.name, (Room, Room.id == Rack.room_id)),
        T.XCONNECT: lambda: part(T.XCONNECT, CrossConnect.id,
                                 case((CrossConnect.rack_id.is_(None), "?"), else_=CrossConnect.reference)),
        T.COOLING: lambda: part(T.COOLING, Room.id, Room.name),
    }
    out = [parts[k]() for k in sorted(kinds) if k in parts]
    if kinds & {T.PDU, T.DEVICE}:
        out.append(part("device", Device.id, case((Device.rack_id.is_(None), "?"), else_=Device.name)))
    return out


def _target_key(w: MaintenanceWindow) -> tuple[str, int | None]:
    T = MaintenanceTarget
    return {T.FEED: (T.FEED, w.power_feed_id), T.PANEL: (T.PANEL, w.power_panel_id), T.PDU: ("device", w.device_id),
            T.DEVICE: ("device", w.device_id), T.RACK: (T.RACK, w.rack_id),
            T.XCONNECT: (T.XCONNECT, w.cross_connect_id)}.get(w.target_kind, (T.COOLING, w.room_id))


def _target_labels(s, windows: list[MaintenanceWindow]) -> dict[int, str]:
    """Window id -> what it works on, as the impact's walk names it, in one statement."""
    wanted = {w.id: _target_key(w) for w in windows if w.target_kind != MaintenanceTarget.UPS}
    parts = _label_parts({w.target_kind for w in windows})
    found: dict[tuple[str, int], str] = {}
    if parts:
        ids = {key for _k, key in wanted.values() if key is not None}
        q = union_all(*parts) if len(parts) > 1 else parts[0]
        sub = q.subquery()
        for k, key, label in s.execute(select(sub.c.k, sub.c.id, sub.c.label).where(sub.c.id.in_(ids or {-1}))):
            found[(k, key)] = label
    return {w.id: (w.ups or "") if w.target_kind == MaintenanceTarget.UPS else found.get(wanted[w.id], "?")
            for w in windows}


def _conditions(start, end, site_id, open_only) -> list:
    where = []
    if start is not None:
        where.append(MaintenanceWindow.planned_end > start)
    if end is not None:
        where.append(MaintenanceWindow.planned_start < end)
    if site_id is not None:
        where.append(MaintenanceWindow.site_id == site_id)
    if open_only:
        where.append(MaintenanceWindow.state.in_(MaintenanceState.OPEN))
    return where


def windows_in(s, start: dt.datetime | None = None, end: dt.datetime | None = None, *, site_id: int | None = None,
               open_only: bool = False, window_id: int | None = None) -> list[WindowRow]:
    """The windows (overlapping [start, end), of a site, open, or the one `window_id`), earliest first."""
    where = _conditions(start, end, site_id, open_only)
    if window_id is not None:
        where.append(MaintenanceWindow.id == window_id)
    found = s.execute(select(MaintenanceWindow, Site.code, notice_hours_column())
                      .outerjoin(Site, Site.id == MaintenanceWindow.site_id)
                      .where(*where).order_by(MaintenanceWindow.planned_start, MaintenanceWindow.id)).all()
    if not found:
        return []
    ids = select(MaintenanceWindow.id).where(*where) if window_id is None else [window_id]
    customers: dict[int, set[int]] = {}
    worst: dict[int, str] = {}
    for mid, cid, level in s.execute(select(MaintenanceImpact.maintenance_id, MaintenanceImpact.customer_id,
                                            MaintenanceImpact.impact).where(MaintenanceImpact.maintenance_id.in_(ids))):
        customers.setdefault(mid, set()).add(cid)
        if mid not in worst or ImpactLevel.RANK[level] > ImpactLevel.RANK[worst[mid]]:
            worst[mid] = level
    labels = _target_labels(s, [w for w, _c, _h in found])
    return [WindowRow(w.id, reference(w.id), code or "", w.title, w.target_kind, labels[w.id], w.planned_start,
                      w.planned_end, w.state, w.emergency, w.noticed_at, noticed_in_time(w, notice_hours_of(stored)),
                      len(customers.get(w.id, ())), worst.get(w.id), w.contact) for w, code, stored in found]


def list_windows(db: Database, start: dt.datetime | None = None, end: dt.datetime | None = None, *,
                 site_id: int | None = None, open_only: bool = False) -> list[WindowRow]:
    """Windows overlapping [start, end) (all when not given), earliest first."""
    with db.session() as s:
        return windows_in(s, start, end, site_id=site_id, open_only=open_only)


def window(db: Database, window_id: int) -> WindowRow:
    with db.session() as s:
        rows = windows_in(s, window_id=window_id)
    if not rows:
        raise NotFound(m.not_found("maintenance window", window_id))
    return rows[0]


def impacts_in(s, window_id: int) -> list[Impact]:
    """The stored impact of a window, worst first; NotFound when there is no such window (one statement)."""
    rows = s.execute(select(MaintenanceWindow.id, MaintenanceImpact, Customer.name, Contract.number)
                     .outerjoin(MaintenanceImpact, MaintenanceImpact.maintenance_id == MaintenanceWindow.id)
                     .outerjoin(Customer, Customer.id == MaintenanceImpact.customer_id)
                     .outerjoin(Contract, Contract.id == MaintenanceImpact.contract_id)
                     .where(MaintenanceWindow.id == window_id)).all()
    if not rows:
        raise NotFound(m.not_found("maintenance window", window_id))
    out = [Impact(i.customer_id, cname, i.object_type, i.object_id, i.object_label, i.impact, i.contract_id,
                  number, i.why or "") for _w, i, cname, number in rows if i is not None and cname is not None]
    return sorted(out, key=lambda i: (-ImpactLevel.RANK[i.impact], i.customer, i.object_label))


def impact_of(db: Database, window_id: int) -> list[Impact]:
    """The stored impact of a window (as of its last computation: planning, confirming)."""
    with db.session() as s:
        return impacts_in(s, window_id)


def maintenance_view(db: Database, start: dt.datetime | None = None, end: dt.datetime | None = None, *,
                     open_only: bool = False, keep: int | None = None) -> MaintenanceView:
    """The maintenance tab in one read: the windows and the impact of `keep` when it is listed, else of
    the first window."""
    with reading(), db.session() as s:
        rows = windows_in(s, start, end, open_only=open_only)
        chosen = keep if any(r.id == keep for r in rows) else (rows[0].id if rows else None)
        return MaintenanceView(rows, chosen, impacts_in(s, chosen) if chosen is not None else [])

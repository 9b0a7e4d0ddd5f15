"""Maintenance windows: planned (or emergency) work on a feed, panel, UPS, PDU, rack, device,
cross-connect or a room's cooling, and who it affects, worked out (never typed) from the power
chain (app/services/power.py), the devices, the leases of racks, U ranges and cages, the
cross-connects and the contracts behind them.

Impact per customer and object (netbox-circuitmaintenance's levels):
- a rack whose active feeds are all in the work loses power: **outage** (a single-fed rack);
- a rack that keeps a feed on the other side only: **reduced redundancy**, or **degraded** when
  the remaining side could not carry the whole rack (its N-redundancy check fails);
- a device whose supplies all reach feeds (or a PDU) in the work goes dark: **outage**, even in a
  rack that keeps power (a single-corded server on the A side);
- work on a rack, a device or a cross-connect: outage of that object; a room's cooling: degraded;
- a rack in outage takes its active cross-connects down with it.

Lifecycle (MaintenanceState.TRANSITIONS): tentative → confirmed → in progress → completed; cancelled
or rescheduled (a new tentative window) before it starts. Confirming gives the customers notice
(`noticed_at`); planned work needs at least the setting `maintenance_notice_hours` (72 h) of
notice, else it is refused (plan it as emergency maintenance, with a reason). What counts against
the SLA: `maintenance_excluded` (app/services/operations/maintenance_sla.py) gives the windows that
do not (planned, noticed in time).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import delete, or_, select

from models import (Contract, ContractItem, Customer, CrossConnect, Device, MaintenanceImpact, MaintenanceWindow,
                    PduFeed, PowerConnection, PowerFeed, PowerPanel, Rack, Room, Site, SpaceLease)
from models.choices import (ImpactLevel, MaintenanceState, MaintenanceTarget, PowerFeedStatus, RedundancyState,
                            XconnectState)

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import local_date, local_text
from app.domain import messages as m
from app.domain.errors import NotFound, RuleViolation, ValidationError
from app.domain.messages import listed
from app.services.entities import flush_versioned
from app.store.found import get_or_404
from app.read.settings import MAINTENANCE_NOTICE_HOURS
from app.store.db import Database
from app.store.uow import UnitOfWork
from app.services.operations.maintenance_sla import notice_hours_in
# the reading side (a fixed number of statements per list), re-exported: callers name them here
from app.services.operations.maintenance_read import (  # noqa: F401
    Impact, MaintenanceView, WindowRow, impact_of, impacts_in, list_windows, maintenance_view, reference, window,
    windows_in)

UTC = dt.timezone.utc
FIELDS = ("site_id", "title", "description", "target_kind", "power_feed_id", "power_panel_id", "ups", "device_id",
          "rack_id", "cross_connect_id", "room_id", "planned_start", "planned_end", "state", "emergency",
          "emergency_reason", "noticed_at", "actual_start", "actual_end", "rescheduled_to_id", "contact")


def _now() -> dt.datetime:
    return dt.datetime.now(UTC).replace(microsecond=0)


# --- what the work touches -----------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    kind: str
    site_id: int
    label: str
    feeds: frozenset[int] = frozenset()      # feeds switched off
    pdus: frozenset[int] = frozenset()       # pdu_feed rows switched off
    racks: frozenset[int] = frozenset()      # racks worked on (outage)
    devices: frozenset[int] = frozenset()    # devices worked on (outage)
    xconnects: frozenset[int] = frozenset()  # cross-connects worked on (outage)
    cooled_room: int | None = None           # a room's cooling (degraded)


def _target_of(s, w: MaintenanceWindow) -> Target:
    kind = w.target_kind
    if kind == MaintenanceTarget.FEED:
        f = get_or_404(s, PowerFeed, w.power_feed_id, "feed")
        p = s.get(PowerPanel, f.power_panel_id)
        return Target(kind, p.site_id, f"{p.name}/{f.name}", feeds=frozenset({f.id}))
    if kind == MaintenanceTarget.PANEL:
        p = get_or_404(s, PowerPanel, w.power_panel_id, "power panel")
        feeds = s.execute(select(PowerFeed.id).where(PowerFeed.power_panel_id == p.id)).scalars()
        return Target(kind, p.site_id, p.name, feeds=frozenset(feeds))
    if kind == MaintenanceTarget.UPS:
        panels = s.execute(select(PowerPanel.id).where(PowerPanel.site_id == w.site_id,
                                                       PowerPanel.ups == w.ups)).scalars().all()
        feeds = s.execute(select(PowerFeed.id).where(PowerFeed.power_panel_id.in_(panels or [-1]))).scalars()
        return Target(kind, w.site_id, w.ups or "", feeds=frozenset(feeds))
    if kind == MaintenanceTarget.PDU:
        d = get_or_404(s, Device, w.device_id, "PDU")
        pdu = s.execute(select(PduFeed.id).where(PduFeed.device_id == d.id)).scalar_one_or_none()
        return Target(kind, _site_of_rack(s, d.rack_id), d.name, pdus=frozenset({pdu} if pdu else set()))
    if kind == MaintenanceTarget.RACK:
        r = get_or_404(s, Rack, w.rack_id, "rack")
        return Target(kind, r.room.site_id, f"{r.room.name}/{r.name}", racks=frozenset({r.id}))
    if kind == MaintenanceTarget.DEVICE:
        d = get_or_404(s, Device, w.device_id, "device")
        return Target(kind, _site_of_rack(s, d.rack_id), d.name, devices=frozenset({d.id}))
    if kind == MaintenanceTarget.XCONNECT:
        x = get_or_404(s, CrossConnect, w.cross_connect_id, "cross-connect")
        return Target(kind, _site_of_rack(s, x.rack_id), x.reference, xconnects=frozenset({x.id}))
    room = get_or_404(s, Room, w.room_id, "room")
    return Target(kind, room.site_id, room.name, cooled_room=room.id)


def _site_of_rack(s, rack_id: int | None) -> int:
    if rack_id is None:
        raise ValidationError({"target": m.MW_DEVICE_NO_RACK()})
    return s.get(Rack, rack_id).room.site_id


# --- the impact, worked out ----------------------------------------------------------------------

def _worse(a: str, b: str) -> str:
    return a if ImpactLevel.RANK[a] >= ImpactLevel.RANK[b] else b


def work_out_impact(s, w: MaintenanceWindow) -> list[Impact]:
    """Who the window affects and how, from the chain and the leases as they stand now."""
    from app.read.power import rack_power

    t = _target_of(s, w)
    first_day, last_day = local_date(w.planned_start), local_date(w.planned_end)
    rack_level: dict[int, tuple[str, str]] = {}    # rack -> (impact, why)
    device_level: dict[int, tuple[str, str]] = {}  # device -> (impact, why)
    for r in t.racks:
        rack_level[r] = (ImpactLevel.OUTAGE, "the rack itself is worked on")
    for d in t.devices:
        device_level[d] = (ImpactLevel.OUTAGE, "the device itself is worked on")
    if t.cooled_room is not None:
        for r in s.execute(select(Rack.id).where(Rack.room_id == t.cooled_room)).scalars():
            rack_level[r] = (ImpactLevel.DEGRADED, "the room's cooling is worked on")
    lost_pdu_feeds = set()
    if t.pdus:
        lost_pdu_feeds = set(s.execute(select(PduFeed.id).where(PduFeed.id.in_(t.pdus))).scalars())
    # the power chain: racks fed by a feed in the work, or holding a PDU in it
    touched = set(s.execute(select(PowerFeed.rack_id).where(PowerFeed.id.in_(t.feeds or {-1}),
                                                            PowerFeed.rack_id.is_not(None))).scalars())
    if lost_pdu_feeds:
        touched |= set(s.execute(select(Device.rack_id).join(PduFeed, PduFeed.device_id == Device.id)
                                 .where(PduFeed.id.in_(lost_pdu_feeds))).scalars())
    if touched:
        checks = rack_power(s, touched)
        feeds = s.execute(select(PowerFeed).where(PowerFeed.rack_id.in_(touched),
                                                  PowerFeed.status == PowerFeedStatus.ACTIVE)).scalars().all()
        by_rack: dict[int, list[PowerFeed]] = {}
        for f in feeds:
            by_rack.setdefault(f.rack_id, []).append(f)
        for rack_id in touched:
            active = by_rack.get(rack_id, [])
            left = [f for f in active if f.id not in t.feeds]
            if not active or t.pdus and not (set(f.id for f in active) & t.feeds):
                continue  # only a PDU is worked on: its devices, below
            if not left:
                rack_level[rack_id] = _worst_of(rack_level.get(rack_id), (
                    ImpactLevel.OUTAGE, "single-fed: its only feed is in the work" if len(active) == 1
                    else "every feed of the rack is in the work"))
            elif {f.side for f in left} != {f.side for f in active}:
                lost_side = ", ".join(sorted({f.side for f in active} - {f.side for f in left}))
                check = checks.get(rack_id)
                if check is not None and check.redundancy == RedundancyState.FAIL:
                    rack_level[rack_id] = _worst_of(rack_level.get(rack_id), (
                        ImpactLevel.DEGRADED, f"side {lost_side} lost and the other side cannot carry the whole rack"))
                else:
                    rack_level[rack_id] = _worst_of(rack_level.get(rack_id), (
                        ImpactLevel.REDUCED, f"dual-fed: side {lost_side} lost, the other side carries the rack"))
        # devices whose every supply reaches the lost feeds or PDUs go dark
        plugs = s.execute(select(PowerConnection.device_id, PduFeed.id, PduFeed.power_feed_id)
                          .join(PduFeed, PduFeed.id == PowerConnection.pdu_id)
                          .join(Device, Device.id == PowerConnection.device_id)
                          .where(Device.rack_id.in_(touched))).all()
        reach: dict[int, list[bool]] = {}
        for device_id, pdu_id, feed_id in plugs:
            reach.setdefault(device_id, []).append(feed_id in t.feeds or pdu_id in lost_pdu_feeds)
        for device_id, lost in reach.items():
            if all(lost):
                device_level[device_id] = (ImpactLevel.OUTAGE, "every power supply is plugged into the work")
            elif any(lost) and t.pdus:
                device_level[device_id] = (ImpactLevel.REDUCED, "one power supply is plugged into the PDU in the work")
    # cross-connects: worked on, or in a rack that loses power
    xc_level: dict[int, tuple[str, str]] = {x: (ImpactLevel.OUTAGE, "the cross-connect itself is worked on")
                                            for x in t.xconnects}
    dark = [r for r, (lvl, _w) in rack_level.items() if lvl == ImpactLevel.OUTAGE]
    if dark:
        for x in s.execute(select(CrossConnect.id).where(
                CrossConnect.rack_id.in_(dark),
                CrossConnect.state.in_((XconnectState.INSTALLED, XconnectState.ACTIVE)))).scalars():
            xc_level.setdefault(x, (ImpactLevel.OUTAGE, "its rack loses power"))
    return _who(s, rack_level, device_level, xc_level, first_day, last_day)


def _worst_of(a: tuple[str, str] | None, b: tuple[str, str]) -> tuple[str, str]:
    if a is None:
        return b
    return a if ImpactLevel.RANK[a[0]] >= ImpactLevel.RANK[b[0]] else b


def _who(s, rack_level, device_level, xc_level, first_day, last_day) -> list[Impact]:
    """The customers and contracts behind the affected racks, devices and cross-connects."""
    rows: dict[tuple, Impact] = {}
    contracts = {}

    def contract_of(item_id):
        if item_id is None:
            return None, None
        if item_id not in contracts:
            contracts[item_id] = s.execute(select(Contract.id, Contract.number).join(
                ContractItem, ContractItem.contract_id == Contract.id).where(ContractItem.id == item_id)).one_or_none() \
                or (None, None)
        return contracts[item_id]

    names = {}

    def name(cid):
        if cid not in names:
            names[cid] = s.get(Customer, cid).name
        return names[cid]

    def add(cid, otype, oid, label, level, why, item_id):
        c_id, c_no = contract_of(item_id)
        key = (cid, otype, oid)
        old = rows.get(key)
        if old is None or ImpactLevel.RANK[level] > ImpactLevel.RANK[old.impact]:
            rows[key] = Impact(cid, name(cid), otype, oid, label, level, c_id or (old.contract_id if old else None),
                               c_no or (old.contract if old else None), why)

    if rack_level:
        racks = {r.id: r for r in s.execute(select(Rack).where(Rack.id.in_(rack_level))).scalars()}
        leases = s.execute(select(SpaceLease).where(
            SpaceLease.rack_id.in_(rack_level), SpaceLease.start_date <= last_day,
            or_(SpaceLease.end_date.is_(None), SpaceLease.end_date >= first_day))).scalars().all()
        leased = set()
        for lease in leases:
            rack = racks[lease.rack_id]
            level, why = rack_level[lease.rack_id]
            add(lease.customer_id, "rack", rack.id, f"{rack.room.name}/{rack.name}", level, why, lease.contract_item_id)
            leased.add((lease.rack_id, lease.customer_id))
        for rack in racks.values():  # a rack assigned to a customer without a lease row
            if rack.customer_id and (rack.id, rack.customer_id) not in leased:
                level, why = rack_level[rack.id]
                add(rack.customer_id, "rack", rack.id, f"{rack.room.name}/{rack.name}", level, why, None)
    if device_level:
        for d in s.execute(select(Device).where(Device.id.in_(device_level))).scalars():
            level, why = device_level[d.id]
            item = s.execute(select(ContractItem.id).where(ContractItem.device_id == d.id)
                             .order_by(ContractItem.id.desc()).limit(1)).scalar_one_or_none()
            owner = d.owner_customer_id
            if owner is None and item is not None:
                owner = s.execute(select(Contract.customer_id).join(ContractItem, ContractItem.contract_id == Contract.id)
                                  .where(ContractItem.id == item)).scalar_one()
            if owner is None:  # the provider's own device: whoever leases the rack's space
                for lease in s.execute(select(SpaceLease).where(
                        SpaceLease.rack_id == d.rack_id, SpaceLease.start_date <= last_day,
                        or_(SpaceLease.end_date.is_(None), SpaceLease.end_date >= first_day))).scalars():
                    add(lease.customer_id, "device", d.id, d.name, level, why, lease.contract_item_id)
                continue
            add(owner, "device", d.id, d.name, level, why, item)
    if xc_level:
        for x in s.execute(select(CrossConnect).where(CrossConnect.id.in_(xc_level))).scalars():
            level, why = xc_level[x.id]
            add(x.customer_id, "cross_connect", x.id, x.reference, level, why, x.contract_item_id)
            if x.peer_customer_id:
                add(x.peer_customer_id, "cross_connect", x.id, x.reference, level, why, None)
    return sorted(rows.values(), key=lambda i: (-ImpactLevel.RANK[i.impact], i.customer, i.object_label))


def _store_impact(uow: UnitOfWork, w: MaintenanceWindow) -> list[Impact]:
    s = uow.session
    rows = work_out_impact(s, w)
    s.execute(delete(MaintenanceImpact).where(MaintenanceImpact.maintenance_id == w.id))
    for i in rows:
        s.add(MaintenanceImpact(maintenance_id=w.id, customer_id=i.customer_id, object_type=i.object_type,
                                object_id=i.object_id, object_label=i.object_label[:128], impact=i.impact,
                                contract_id=i.contract_id, why=i.why[:255]))
    s.flush()
    return rows


# --- use cases -----------------------------------------------------------------------------------

TARGET_COLUMN = {MaintenanceTarget.FEED: "power_feed_id", MaintenanceTarget.PANEL: "power_panel_id",
                 MaintenanceTarget.UPS: "ups", MaintenanceTarget.PDU: "device_id", MaintenanceTarget.RACK: "rack_id",
                 MaintenanceTarget.DEVICE: "device_id", MaintenanceTarget.XCONNECT: "cross_connect_id",
                 MaintenanceTarget.COOLING: "room_id"}


def _check_window(errors: dict, start, end) -> None:
    if not isinstance(start, dt.datetime) or start.tzinfo is None:
        errors["planned_start"] = m.MW_START()
    if not isinstance(end, dt.datetime) or end.tzinfo is None:
        errors["planned_end"] = m.MW_END()
    elif "planned_start" not in errors and end <= start:
        errors["planned_end"] = m.MW_ENDS_FIRST()


def _plan_errors(target_kind, target, planned_start, planned_end, title, emergency, emergency_reason,
                 site_id) -> dict[str, str]:
    errors: dict[str, str] = {}
    if target_kind not in MaintenanceTarget.values():
        errors["target_kind"] = m.MW_TARGET_KIND(", ".join(MaintenanceTarget.values()))
    if target in (None, ""):
        errors["target"] = m.MW_TARGET()
    if not (title and title.strip()):
        errors["title"] = m.MW_TITLE()
    if emergency and not (emergency_reason and emergency_reason.strip()):
        errors["emergency_reason"] = m.MW_EMERGENCY_REASON()
    if target_kind == MaintenanceTarget.UPS and site_id is None:
        errors["site_id"] = m.MW_UPS_SITE()
    _check_window(errors, planned_start, planned_end)
    return errors


def plan_in(uow: UnitOfWork, *, target_kind: str, target, planned_start: dt.datetime, planned_end: dt.datetime,
            title: str, description: str | None = None, site_id: int | None = None, emergency: bool = False,
            emergency_reason: str | None = None, contact: str | None = None,
            reason: str | None = None) -> MaintenanceWindow:
    """Plan a tentative window inside the caller's unit of work (the use case below, imports)."""
    errors = _plan_errors(target_kind, target, planned_start, planned_end, title, emergency, emergency_reason, site_id)
    if errors:
        raise ValidationError(errors)
    s = uow.session
    values = dict(title=title.strip()[:255], description=(description or "").strip() or None,
                  target_kind=target_kind, planned_start=planned_start, planned_end=planned_end,
                  state=MaintenanceState.TENTATIVE, emergency=bool(emergency),
                  emergency_reason=((emergency_reason or "").strip() or None) if emergency else None,
                  contact=(contact or "").strip()[:128] or None, site_id=site_id or 0)
    values[TARGET_COLUMN[target_kind]] = str(target).strip() if target_kind == MaintenanceTarget.UPS else int(target)
    w = MaintenanceWindow(**values)
    if target_kind == MaintenanceTarget.UPS:
        get_or_404(s, Site, site_id, "site")
        if not s.execute(select(PowerPanel.id).where(PowerPanel.site_id == site_id,
                                                     PowerPanel.ups == w.ups)).first():
            raise NotFound(m.MW_NO_UPS.quoting(w.ups))
    if target_kind == MaintenanceTarget.PDU and w.device_id is not None and not s.execute(
            select(PduFeed.id).where(PduFeed.device_id == w.device_id)).first():
        raise ValidationError({"target": m.MW_NOT_PDU()})
    t = _target_of(s, w)
    w.site_id = t.site_id
    w.updated_by = uow.actor.login
    s.add(w)
    s.flush()
    rows = _store_impact(uow, w)
    affected = f"{MaintenanceTarget.label(w.target_kind)} {t.label}; {len({r.customer_id for r in rows})} customer(s) affected"
    uow.audit("maintenance.create", "maintenance", w.id, f"{reference(w.id)} {w.title}",
              after={k: getattr(w, k) for k in FIELDS}, reason=f"{reason}; {affected}" if reason else affected)
    return w


def plan_maintenance(db: Database, actor: Actor, *, target_kind: str, target, planned_start: dt.datetime,
                     planned_end: dt.datetime, title: str, description: str | None = None, site_id: int | None = None,
                     emergency: bool = False, emergency_reason: str | None = None,
                     contact: str | None = None) -> int:
    """A tentative window on one object (`target`: its id; for a UPS its name, with `site_id`);
    the impact is worked out at once. Returns the window's id."""
    require(actor, "plan_maintenance")
    errors = _plan_errors(target_kind, target, planned_start, planned_end, title, emergency, emergency_reason, site_id)
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        w = plan_in(uow, target_kind=target_kind, target=target, planned_start=planned_start,
                    planned_end=planned_end, title=title, description=description, site_id=site_id,
                    emergency=emergency, emergency_reason=emergency_reason, contact=contact)
        uow.commit()
        return w.id


def _move(uow: UnitOfWork, w: MaintenanceWindow, to: str, reason: str | None = None, **changes) -> None:
    if to not in MaintenanceState.TRANSITIONS[w.state]:
        allowed = listed(m.OPS_STATE_LABEL[MaintenanceState.label(x)]()
                         for x in sorted(MaintenanceState.TRANSITIONS[w.state])) or m.MW_NONE()
        raise RuleViolation(m.MW_CANNOT_BECOME(reference(w.id), _state(w.state), _state(to), allowed))
    before = {"state": w.state, **{k: getattr(w, k) for k in changes}}
    w.state = to
    for k, v in changes.items():
        setattr(w, k, v)
    flush_versioned(uow, w, reference(w.id))
    uow.audit(f"maintenance.{to}", "maintenance", w.id, f"{reference(w.id)} {w.title}", before=before,
              after={"state": to, **changes}, reason=reason)


def confirm_maintenance(db: Database, actor: Actor, window_id: int, *, now: dt.datetime | None = None) -> list[Impact]:
    """Confirm the window and give the affected customers notice now. Planned work starting within
    the notice period is refused (emergency work is not, and counts against the SLA)."""
    require(actor, "plan_maintenance")
    now = now or _now()
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        w = get_or_404(s, MaintenanceWindow, window_id, "maintenance window")
        hours = notice_hours_in(s)
        lead = w.planned_start - now
        if not w.emergency and lead < dt.timedelta(hours=hours):
            raise RuleViolation(m.MW_NOTICE_SHORT(reference(w.id), local_text(w.planned_start), _hours(lead), hours,
                                                  MAINTENANCE_NOTICE_HOURS))
        rows = _store_impact(uow, w)
        _move(uow, w, MaintenanceState.CONFIRMED, reason=f"notice given {_hours(lead)} before the start; "
              f"{len({r.customer_id for r in rows})} customer(s) affected", noticed_at=now)
        uow.commit()
        return rows


def _hours(delta: dt.timedelta) -> str:
    h = delta.total_seconds() / 3600
    return m.MW_HOURS(f"{h:.0f}") if h >= 0 else m.MW_HOURS_AFTER(f"{-h:.0f}")


def _state(value: str):
    """The state's word inside a sentence (lower case), translated in the console."""
    return m.OPS_STATE[MaintenanceState.label(value).lower()]()


def start_maintenance(db: Database, actor: Actor, window_id: int, *, at: dt.datetime | None = None) -> None:
    require(actor, "plan_maintenance")
    with UnitOfWork(db, actor) as uow:
        w = get_or_404(uow.session, MaintenanceWindow, window_id, "maintenance window")
        if w.state == MaintenanceState.TENTATIVE:
            raise RuleViolation(m.MW_TENTATIVE(reference(w.id)))
        _move(uow, w, MaintenanceState.IN_PROGRESS, actual_start=at or _now())
        uow.commit()


def complete_maintenance(db: Database, actor: Actor, window_id: int, *, at: dt.datetime | None = None,
                         note: str | None = None) -> None:
    require(actor, "plan_maintenance")
    with UnitOfWork(db, actor) as uow:
        w = get_or_404(uow.session, MaintenanceWindow, window_id, "maintenance window")
        end = at or _now()
        if w.actual_start and end < w.actual_start:
            raise ValidationError({"at": m.MW_END_BEFORE_START(local_text(w.actual_start))})
        _move(uow, w, MaintenanceState.COMPLETED, reason=note, actual_end=end)
        uow.commit()


def cancel_maintenance(db: Database, actor: Actor, window_id: int, reason: str) -> None:
    require(actor, "plan_maintenance")
    if not (reason and reason.strip()):
        raise ValidationError({"reason": m.MW_CANCEL_REASON()})
    with UnitOfWork(db, actor) as uow:
        w = get_or_404(uow.session, MaintenanceWindow, window_id, "maintenance window")
        _move(uow, w, MaintenanceState.CANCELLED, reason=reason.strip())
        uow.commit()


def reschedule_maintenance(db: Database, actor: Actor, window_id: int, planned_start: dt.datetime,
                           planned_end: dt.datetime, reason: str) -> int:
    """The window moves: this one becomes rescheduled, a new tentative one (to confirm, with fresh
    notice) takes the new times. Returns the new window's id."""
    require(actor, "plan_maintenance")
    errors: dict[str, str] = {}
    _check_window(errors, planned_start, planned_end)
    if not (reason and reason.strip()):
        errors["reason"] = m.MW_MOVE_REASON()
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        w = get_or_404(s, MaintenanceWindow, window_id, "maintenance window")
        if MaintenanceState.RESCHEDULED not in MaintenanceState.TRANSITIONS[w.state]:
            raise RuleViolation(m.MW_NOT_RESCHEDULABLE(reference(w.id), _state(w.state)))
        new = MaintenanceWindow(**{k: getattr(w, k) for k in FIELDS if k not in (
            "state", "noticed_at", "actual_start", "actual_end", "rescheduled_to_id")})
        new.planned_start, new.planned_end, new.state = planned_start, planned_end, MaintenanceState.TENTATIVE
        new.updated_by = actor.login
        s.add(new)
        s.flush()
        _store_impact(uow, new)
        uow.audit("maintenance.create", "maintenance", new.id, f"{reference(new.id)} {new.title}",
                  after={k: getattr(new, k) for k in FIELDS}, reason=f"rescheduled from {reference(w.id)}: {reason}")
        _move(uow, w, MaintenanceState.RESCHEDULED, reason=reason.strip(), rescheduled_to_id=new.id)
        uow.commit()
        return new.id


# --- reading ---------------------------------------------------------------------------------------

def find_window_in(s, key) -> MaintenanceWindow:
    text = str(key).strip().upper()
    if text.startswith("MW-"):
        text = text[3:]
    if not text.isdigit():
        raise ValidationError({"maintenance": m.MW_NAME()})
    return get_or_404(s, MaintenanceWindow, int(text), "maintenance window")


def impact_now(db: Database, window_id: int) -> list[Impact]:
    """The impact worked out afresh from the chain and the leases as they stand (nothing stored)."""
    with db.session() as s:
        return work_out_impact(s, get_or_404(s, MaintenanceWindow, window_id, "maintenance window"))

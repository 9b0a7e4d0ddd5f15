"""Which nodes the operations desk's maintenance windows take out of a capacity search's window.

A window counts when it is open (tentative, confirmed or running) and overlaps the search's
window (a running one counts until it is completed). What it does to a node follows the desk's
impact rules (app/services/operations/maintenance.py `work_out_impact`), worked out set-wise for
every node at once, not per node:

- work on the node's server or its rack: **outage**;
- work on a power feed, a panel (its feeds), a UPS (the feeds of the site's panels behind it):
  a rack whose every active feed is in the work loses power (single-fed, or both sides in the
  work): **outage**; a rack that keeps a feed on another side only: **reduced redundancy**;
- work on a PDU, or on feeds: a server whose every power supply is plugged into PDUs in the work
  (or fed from feeds in the work) goes dark: **outage**, even in a dual-fed rack; one supply of
  several on a PDU in the work: **reduced redundancy**.

- a rack that keeps a feed on another side only, where the side kept cannot carry the rack's load
  (app/read/power.py's check: a feed left would carry, with the lost side's load moved onto it,
  more than its breaker's rule allows): **degraded**, the desk's middle level.

An outage makes the node unavailable over the search's window; reduced redundancy and degraded
leave it offered, marked with the window's reference (`power_marks`), the degraded ones offered
last (a node that may lose power when the side kept trips is the last choice, not a hidden one).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import and_, case, func, or_, select
from sqlalchemy.orm import Session

from models import Device, GpuAsset, GpuModel, PduFeed, PowerConnection, PowerFeed, PowerPanel
from models.choices import MaintenanceState, MaintenanceTarget, PowerFeedStatus
from models.cluster import GpuNode
from models.maintenance import MaintenanceWindow

from app.domain import messages as M
from app.services.operations.maintenance import reference as maintenance_reference

# the targets a capacity search looks at: the node itself, and its power chain
BUSY_TARGETS = (MaintenanceTarget.DEVICE, MaintenanceTarget.RACK)
POWER_TARGETS = (MaintenanceTarget.FEED, MaintenanceTarget.PANEL, MaintenanceTarget.UPS, MaintenanceTarget.PDU)


@dataclass(frozen=True)
class Work:
    """An open window overlapping the search: its reference, kind, and what it switches off."""

    reference: str
    kind: str
    devices: frozenset[int] = frozenset()  # servers worked on
    racks: frozenset[int] = frozenset()    # racks worked on
    feeds: frozenset[int] = frozenset()    # power feeds switched off
    pdus: frozenset[int] = frozenset()     # pdu_feed rows switched off
    start: dt.datetime | None = None
    end: dt.datetime | None = None


def _feeds_of(s: Session, windows) -> dict[int, set[int]]:
    """The feeds each power window switches off (feed: itself; panel: its feeds; UPS: the feeds of
    the site's panels behind it), in one statement per kind."""
    out: dict[int, set[int]] = {w.id: set() for w in windows}
    for w in windows:
        if w.target_kind == MaintenanceTarget.FEED and w.power_feed_id:
            out[w.id].add(w.power_feed_id)
    panels = {w.power_panel_id: w.id for w in windows if w.target_kind == MaintenanceTarget.PANEL}
    if panels:
        for fid, pid in s.execute(select(PowerFeed.id, PowerFeed.power_panel_id)
                                  .where(PowerFeed.power_panel_id.in_(panels))):
            out[panels[pid]].add(fid)
    ups = {(w.site_id, w.ups): w.id for w in windows if w.target_kind == MaintenanceTarget.UPS and w.ups}
    if ups:
        rows = s.execute(select(PowerFeed.id, PowerPanel.site_id, PowerPanel.ups)
                         .join(PowerPanel, PowerPanel.id == PowerFeed.power_panel_id)
                         .where(PowerPanel.site_id.in_({k[0] for k in ups}), PowerPanel.ups.in_({k[1] for k in ups})))
        for fid, site_id, name in rows:
            if (site_id, name) in ups:
                out[ups[(site_id, name)]].add(fid)
    return out


def works_over(s: Session, start: dt.datetime, end: dt.datetime | None) -> list[Work]:
    """The open windows on a server, a rack or the power chain that overlap start..end (None: open),
    in planned order, each with what it switches off."""
    w = MaintenanceWindow
    when = [or_(w.planned_end > start, w.state == MaintenanceState.IN_PROGRESS)]
    if end is not None:
        when.append(w.planned_start < end)
    windows = s.execute(select(w.id, w.target_kind, w.device_id, w.rack_id, w.power_feed_id, w.power_panel_id,
                               w.ups, w.site_id, w.planned_start, w.planned_end)
                        .where(w.state.in_(MaintenanceState.OPEN), w.target_kind.in_(BUSY_TARGETS + POWER_TARGETS),
                               *when).order_by(w.planned_start, w.id)).all()
    if not windows:
        return []
    feeds = _feeds_of(s, [x for x in windows if x.target_kind in POWER_TARGETS])
    pdu_devices = {x.device_id for x in windows if x.target_kind == MaintenanceTarget.PDU}
    pdus = dict(s.execute(select(PduFeed.device_id, PduFeed.id).where(PduFeed.device_id.in_(pdu_devices))).all()) \
        if pdu_devices else {}
    out = []
    for x in windows:
        ref, kind = maintenance_reference(x.id), x.target_kind
        if kind == MaintenanceTarget.DEVICE:
            out.append(Work(ref, kind, devices=frozenset({x.device_id})))
        elif kind == MaintenanceTarget.RACK:
            out.append(Work(ref, kind, racks=frozenset({x.rack_id})))
        elif kind == MaintenanceTarget.PDU:
            out.append(Work(ref, kind, pdus=frozenset({pdus[x.device_id]} if x.device_id in pdus else set()),
                            start=x.planned_start, end=x.planned_end))
        else:
            out.append(Work(ref, kind, feeds=frozenset(feeds.get(x.id, ())), start=x.planned_start, end=x.planned_end))
    return _together(out)


def _together(works: list[Work]) -> list[Work]:
    """Power windows whose times overlap (one after the other in a chain) are counted as one work:
    side A's feed and side B's feed worked on at the same hour darken a dual-fed rack, though each
    window alone only reduces its redundancy. Their references are joined ("MW-000001 + MW-000002")."""
    power = sorted((w for w in works if w.feeds or w.pdus or w.kind in POWER_TARGETS), key=lambda w: w.start)
    out = [w for w in works if not (w.feeds or w.pdus or w.kind in POWER_TARGETS)]
    group: list[Work] = []
    for w in power + [None]:
        if w is not None and group and w.start < max(g.end for g in group):
            group.append(w)
            continue
        if len(group) == 1:
            out.append(group[0])
        elif group:
            out.append(Work(" + ".join(g.reference for g in group), MaintenanceTarget.FEED,
                            feeds=frozenset().union(*(g.feeds for g in group)),
                            pdus=frozenset().union(*(g.pdus for g in group)),
                            start=group[0].start, end=max(g.end for g in group)))
        group = [w] if w is not None else []
    return out


def _ids(values) -> set[int]:
    return set(values) or {-1}


def _racks_dark(feeds: frozenset[int]):
    """Racks fed by a feed in the work whose every active feed is in it (a select of rack ids)."""
    f = PowerFeed
    touched = select(f.rack_id).where(f.id.in_(_ids(feeds)), f.rack_id.is_not(None))
    return (select(f.rack_id).where(f.rack_id.in_(touched), f.status == PowerFeedStatus.ACTIVE)
            .group_by(f.rack_id).having(func.sum(case((f.id.in_(_ids(feeds)), 0), else_=1)) == 0))


def _racks_one_side(feeds: frozenset[int]):
    """Racks that lose a side but keep another (dual-fed, one side in the work): reduced redundancy."""
    f = PowerFeed
    touched = select(f.rack_id).where(f.id.in_(_ids(feeds)), f.rack_id.is_not(None))
    kept = func.count(func.distinct(case((f.id.not_in(_ids(feeds)), f.side))))
    return (select(f.rack_id).where(f.rack_id.in_(touched), f.status == PowerFeedStatus.ACTIVE)
            .group_by(f.rack_id).having(and_(kept > 0, kept < func.count(func.distinct(f.side)))))


def _supplies(work: Work, *, every: bool):
    """Servers whose power supplies reach the work (a feed or a PDU in it): every one (`every`: the
    server goes dark) or some but not all (reduced); a select of device ids."""
    lost = or_(PduFeed.power_feed_id.in_(_ids(work.feeds)), PduFeed.id.in_(_ids(work.pdus)))
    plugged = (select(PowerConnection.device_id).join(PduFeed, PduFeed.id == PowerConnection.pdu_id).where(lost))
    n_lost = func.sum(case((lost, 1), else_=0))
    q = (select(PowerConnection.device_id).join(PduFeed, PduFeed.id == PowerConnection.pdu_id)
         .where(PowerConnection.device_id.in_(plugged)).group_by(PowerConnection.device_id))
    return q.having(n_lost == func.count()) if every else q.having(and_(n_lost > 0, n_lost < func.count()))


def _dark_condition(work: Work):
    """A condition on Device: the server is out while `work` is done."""
    conds = []
    if work.devices:
        conds.append(Device.id.in_(work.devices))
    if work.racks:
        conds.append(Device.rack_id.in_(work.racks))
    if work.feeds:
        conds.append(Device.rack_id.in_(_racks_dark(work.feeds)))
    if work.feeds or work.pdus:
        conds.append(Device.id.in_(_supplies(work, every=True)))
    return or_(*conds) if conds else None


def busy_nodes(works: list[Work]):
    """Node ids that an outage of one of `works` takes out (a select), or None when none does."""
    conds = [c for c in (_dark_condition(w) for w in works) if c is not None]
    if not conds:
        return None
    return select(GpuNode.id).join(Device, Device.id == GpuNode.device_id).where(or_(*conds))


@dataclass(frozen=True)
class PowerMarks:
    """What the power windows leave offered servers with: {device id: (references, …)}."""

    reduced: dict[int, tuple[str, ...]]
    degraded: dict[int, tuple[str, ...]]


def power_marks(s: Session, works: list[Work], device_ids) -> PowerMarks:
    """Of `device_ids` (servers not taken out), those a power window leaves with reduced redundancy
    (one supply of several lost, or the rack on one side that carries it) or degraded (the rack on
    one side that cannot carry it): a few statements per window over these servers only, and one
    power check of their one-sided racks (app.read.power.rack_power)."""
    from app.read.power import rack_power

    ids = set(device_ids)
    one_sided: list[tuple[Work, int, int]] = []  # (work, device, rack)
    supply: list[tuple[Work, int]] = []
    for w in works:
        if not (w.feeds or w.pdus) or not ids:
            continue
        supply += [(w, d) for d in s.execute(select(Device.id).where(
            Device.id.in_(ids), Device.id.in_(_supplies(w, every=False)))).scalars()]
        if w.feeds:
            one_sided += [(w, d, r) for d, r in s.execute(select(Device.id, Device.rack_id).where(
                Device.id.in_(ids), Device.rack_id.in_(_racks_one_side(w.feeds))))]
    checks = rack_power(s, {r for _w, _d, r in one_sided}) if one_sided else {}
    reduced: dict[int, list[str]] = {}
    degraded: dict[int, list[str]] = {}
    for w, d, r in one_sided:
        target = degraded if _side_kept_overloaded(checks.get(r), w.feeds) else reduced
        target.setdefault(d, []).append(w.reference)
    for w, d in supply:
        if w.reference not in degraded.get(d, ()) and w.reference not in reduced.get(d, ()):
            reduced.setdefault(d, []).append(w.reference)
    return PowerMarks({d: tuple(refs) for d, refs in reduced.items()},
                      {d: tuple(refs) for d, refs in degraded.items()})


def _side_kept_overloaded(check, feeds: frozenset[int]) -> bool:
    """Whether a feed the work leaves on, on the side kept, would carry more than its limit with the
    lost side's load moved onto it (its failover load: the rack's check with the other side lost)."""
    if check is None:
        return False
    active = [f for f in check.feeds if f.status == PowerFeedStatus.ACTIVE]
    lost_sides = {f.side for f in active} - {f.side for f in active if f.id not in feeds}
    return any(f.failover_w > f.limit_w for f in active if f.id not in feeds and f.side not in lost_sides)


def maintained(s: Session, works: list[Work], model_ids: list[int]) -> list:
    """What the windows keep out, for the shortfall: "16 × H100 SXM 80GB (MW-000012)"."""
    out = []
    for w in works:
        cond = _dark_condition(w)
        if cond is None:
            continue
        for name, n in s.execute(select(GpuModel.name, func.count(GpuAsset.id))
                                 .select_from(GpuNode).join(Device, Device.id == GpuNode.device_id)
                                 .join(GpuAsset, GpuAsset.device_id == GpuNode.device_id)
                                 .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
                                 .where(cond, GpuAsset.gpu_model_id.in_(model_ids)).group_by(GpuModel.name)):
            out.append(M.CAPACITY_MAINTENANCE_ITEM(n, name, w.reference))
        if len(out) >= 5:
            break
    return out[:5]

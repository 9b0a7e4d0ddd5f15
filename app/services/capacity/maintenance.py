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

Set-wise in the number of windows too: the windows, the feeds and PDUs each switches off and the
servers each takes out are relations joined in SQL (`_groups`, `_lost_feeds`, `_lost_pdus`,
`dark_devices`), so a search over hundreds of open windows runs the statements it runs over one
(it OR-ed one condition per window, and marked the offer with two statements per window: 300
windows took the Haikou search from 62 to 1,152 ms, docs/performance.md).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import and_, case, func, literal, or_, select, union, union_all
from sqlalchemy.orm import Session, aliased

from models import Device, GpuAsset, GpuModel, PduFeed, PowerConnection, PowerFeed, PowerPanel
from models.choices import MaintenanceState, MaintenanceTarget, PowerFeedStatus
from models.cluster import GpuNode
from models.maintenance import MaintenanceWindow

from app.domain import messages as M
from app.read.power import rack_power
from app.services.operations.maintenance import reference as maintenance_reference

# the targets a capacity search looks at: the node itself, and its power chain
BUSY_TARGETS = (MaintenanceTarget.DEVICE, MaintenanceTarget.RACK)
POWER_TARGETS = (MaintenanceTarget.FEED, MaintenanceTarget.PANEL, MaintenanceTarget.UPS, MaintenanceTarget.PDU)


@dataclass(frozen=True)
class Work:
    """An open window (or power windows whose times overlap, counted as one) overlapping the
    search: its reference ("MW-000001 + MW-000002"), kind, and its key in `dark_devices` (a device
    or rack window: minus its id; power windows: their group, from 1)."""

    reference: str
    kind: str
    key: int
    power: bool = False


@dataclass(frozen=True)
class Span:
    """The search's window in instants (end None: open)."""

    start: dt.datetime
    end: dt.datetime | None


def _open(span: Span, *kinds):
    w = MaintenanceWindow
    conds = [w.state.in_(MaintenanceState.OPEN), w.target_kind.in_(kinds),
             or_(w.planned_end > span.start, w.state == MaintenanceState.IN_PROGRESS)]
    if span.end is not None:
        conds.append(w.planned_start < span.end)
    return conds


def _groups(span: Span):
    """(window id, group) of the open power windows over the span: windows whose times overlap, one
    after the other in a chain, share a group (side A's feed and side B's worked on at the same
    hour darken a dual-fed rack, though each window alone only reduces its redundancy). Window
    functions: a window starting before the latest end of those planned before it joins their group."""
    w = MaintenanceWindow
    order = (w.planned_start, w.id)
    ranked = (select(w.id, w.planned_start,
                     func.max(w.planned_end).over(order_by=order, rows=(None, -1)).label("before"))
              .where(*_open(span, *POWER_TARGETS)).subquery("mw_ranked"))
    new = case((or_(ranked.c.before.is_(None), ranked.c.planned_start >= ranked.c.before), 1), else_=0)
    return select(ranked.c.id, func.sum(new).over(order_by=(ranked.c.planned_start, ranked.c.id)).label("grp")) \
        .cte("mw_group")


def _lost_feeds(groups, racks=None):
    """(group, feed id): the feeds a group's windows switch off (feed: itself; panel: its feeds; UPS:
    the feeds of the site's panels behind it); with `racks`, only theirs."""
    w, f, p = MaintenanceWindow, PowerFeed, PowerPanel
    of = (select(groups.c.grp, w.target_kind, w.power_feed_id, w.power_panel_id, w.site_id, w.ups)
          .join(w, w.id == groups.c.id).subquery("mw_of"))
    feed = select(of.c.grp, f.id.label("feed_id")).join(f, f.id == of.c.power_feed_id).where(
        of.c.target_kind == MaintenanceTarget.FEED)
    panel = select(of.c.grp, f.id).join(f, f.power_panel_id == of.c.power_panel_id).where(
        of.c.target_kind == MaintenanceTarget.PANEL)
    ups = (select(of.c.grp, f.id).join(p, and_(p.site_id == of.c.site_id, p.ups == of.c.ups))
           .join(f, f.power_panel_id == p.id).where(of.c.target_kind == MaintenanceTarget.UPS))
    if racks is not None:
        feed, panel, ups = (q.where(f.rack_id.in_(racks)) for q in (feed, panel, ups))
    return union(feed, panel, ups).cte("mw_lost_feed")


def _lost_pdus(groups, lost_feeds):
    """(group, pdu_feed id): the PDU feeds a group switches off (a PDU worked on, or its feed lost)."""
    w = MaintenanceWindow
    direct = (select(groups.c.grp, PduFeed.id.label("pdu_id")).join(w, w.id == groups.c.id)
              .join(PduFeed, PduFeed.device_id == w.device_id).where(w.target_kind == MaintenanceTarget.PDU))
    via = select(lost_feeds.c.grp, PduFeed.id).join(PduFeed, PduFeed.power_feed_id == lost_feeds.c.feed_id)
    return union(direct, via).cte("mw_lost_pdu")


def dark_devices(span: Span):
    """(key, device id) of every server an outage takes out over the span (a select): worked on
    itself or in a rack worked on (key: minus the window's id); in a rack whose every active feed a
    power group switches off, or whose every supply is plugged into PDUs it switches off (key: the
    group)."""
    w, f, f2 = MaintenanceWindow, PowerFeed, aliased(PowerFeed)
    pc, pc2 = PowerConnection, aliased(PowerConnection)
    groups = _groups(span)
    lost = _lost_feeds(groups)
    pdus = _lost_pdus(groups, lost)
    on_device = select((literal(0) - w.id).label("key"), w.device_id.label("device_id")).where(
        *_open(span, MaintenanceTarget.DEVICE))
    on_rack = select(literal(0) - w.id, Device.id).join(Device, Device.rack_id == w.rack_id).where(
        *_open(span, MaintenanceTarget.RACK))
    active = select(func.count()).where(f2.rack_id == f.rack_id, f2.status == PowerFeedStatus.ACTIVE).scalar_subquery()
    racks = (select(lost.c.grp, f.rack_id).join(f, f.id == lost.c.feed_id)
             .where(f.status == PowerFeedStatus.ACTIVE, f.rack_id.is_not(None))
             .group_by(lost.c.grp, f.rack_id).having(func.count(func.distinct(f.id)) == active).subquery("mw_dark_rack"))
    in_dark = select(racks.c.grp, Device.id).join(Device, Device.rack_id == racks.c.rack_id)
    supplies = select(func.count()).where(pc2.device_id == pc.device_id).scalar_subquery()
    unplugged = (select(pdus.c.grp, pc.device_id).join(pc, pc.pdu_id == pdus.c.pdu_id)
                 .group_by(pdus.c.grp, pc.device_id).having(func.count(func.distinct(pc.id)) == supplies))
    return union_all(on_device, on_rack, in_dark, unplugged).subquery("mw_dark")


def works_over(s: Session, start: dt.datetime, end: dt.datetime | None) -> list[Work]:
    """The open windows on a server, a rack or the power chain that overlap start..end (None: open),
    in planned order, power windows overlapping in time joined as one (two statements)."""
    span = Span(start, end)
    w = MaintenanceWindow
    out: list[Work] = [Work(maintenance_reference(i), kind, -i) for i, kind in s.execute(
        select(w.id, w.target_kind).where(*_open(span, *BUSY_TARGETS)).order_by(w.planned_start, w.id))]
    groups = _groups(span)
    joined: dict[int, list[tuple[int, str]]] = {}
    for i, kind, grp in s.execute(select(groups.c.id, w.target_kind, groups.c.grp).join(w, w.id == groups.c.id)
                                  .order_by(w.planned_start, w.id)):
        joined.setdefault(int(grp), []).append((i, kind))
    for grp, ws in joined.items():
        out.append(Work(" + ".join(maintenance_reference(i) for i, _k in ws),
                        ws[0][1] if len(ws) == 1 else MaintenanceTarget.FEED, grp, power=True))
    return out


def busy_nodes(works: list[Work], span: Span | None):
    """Node ids that an outage of one of the windows takes out (a select), or None when there is
    no window."""
    if not works or span is None:
        return None
    dark = dark_devices(span)
    return select(GpuNode.id).where(GpuNode.device_id.in_(select(dark.c.device_id)))


@dataclass(frozen=True)
class PowerMarks:
    """What the power windows leave offered servers with: {device id: (references, …)}."""

    reduced: dict[int, tuple[str, ...]]
    degraded: dict[int, tuple[str, ...]]


def power_marks(s: Session, works: list[Work], span: Span, device_ids) -> PowerMarks:
    """Of `device_ids` (servers not taken out), those a power window leaves with reduced redundancy
    (one supply of several lost, or the rack on one side that carries it) or degraded (the rack on
    one side that cannot carry it): three statements over these servers and their racks, and one
    power check of their one-sided racks (app.read.power.rack_power), whatever the windows' number."""
    ref = {w.key: w.reference for w in works if w.power}
    ids = set(device_ids)
    if not ref or not ids:
        return PowerMarks({}, {})
    rack_of = dict(s.execute(select(Device.id, Device.rack_id).where(Device.id.in_(ids))).all())
    groups = _groups(span)
    lost = _lost_feeds(groups, set(rack_of.values()))
    pdus = _lost_pdus(groups, _lost_feeds(groups))
    f, pc, pc2 = PowerFeed, PowerConnection, aliased(PowerConnection)
    feeds: dict[int, list[tuple[int, str]]] = {}  # rack -> its active feeds (id, side)
    for fid, rack, side in s.execute(select(f.id, f.rack_id, f.side).where(
            f.rack_id.in_(set(rack_of.values())), f.status == PowerFeedStatus.ACTIVE)):
        feeds.setdefault(rack, []).append((fid, side))
    lost_in: dict[tuple[int, int], set[int]] = {}  # (group, rack) -> its feeds lost
    for grp, fid, rack in s.execute(select(lost.c.grp, lost.c.feed_id, f.rack_id).join(f, f.id == lost.c.feed_id)
                                    .where(f.rack_id.in_(set(feeds)))):
        lost_in.setdefault((int(grp), rack), set()).add(fid)
    one_sided = {k: gone for k, gone in lost_in.items()
                 if 0 < len({sd for fid, sd in feeds[k[1]] if fid not in gone}) < len({sd for _f, sd in feeds[k[1]]})}
    checks = rack_power(s, {r for _g, r in one_sided}) if one_sided else {}
    reduced: dict[int, list[str]] = {}
    degraded: dict[int, list[str]] = {}
    for d, rack in rack_of.items():
        for (grp, r), gone in one_sided.items():
            if r == rack and grp in ref:
                target = degraded if _side_kept_overloaded(checks.get(r), gone) else reduced
                target.setdefault(d, []).append(ref[grp])
    supplies = select(func.count()).where(pc2.device_id == pc.device_id).scalar_subquery()
    for grp, d in s.execute(select(pdus.c.grp, pc.device_id).join(pc, pc.pdu_id == pdus.c.pdu_id)
                            .where(pc.device_id.in_(ids)).group_by(pdus.c.grp, pc.device_id)
                            .having(func.count(func.distinct(pc.id)) < supplies)):
        r = ref.get(int(grp))
        if r and r not in degraded.get(d, ()) and r not in reduced.get(d, ()):
            reduced.setdefault(d, []).append(r)
    order = {w.reference: i for i, w in enumerate(works)}  # in planned order, whatever order the rows came in
    return PowerMarks({d: tuple(sorted(refs, key=order.__getitem__)) for d, refs in reduced.items()},
                      {d: tuple(sorted(refs, key=order.__getitem__)) for d, refs in degraded.items()})


def _side_kept_overloaded(check, feeds: set[int]) -> bool:
    """Whether a feed the work leaves on, on the side kept, would carry more than its limit with the
    lost side's load moved onto it (its failover load: the rack's check with the other side lost)."""
    if check is None:
        return False
    active = [f for f in check.feeds if f.status == PowerFeedStatus.ACTIVE]
    lost_sides = {f.side for f in active} - {f.side for f in active if f.id not in feeds}
    return any(f.failover_w > f.limit_w for f in active if f.id not in feeds and f.side not in lost_sides)


def maintained(s: Session, works: list[Work], span: Span, model_ids: list[int]) -> list:
    """What the windows keep out, for the shortfall: "16 × H100 SXM 80GB (MW-000012)" (one
    statement over every window; the first five in planned order)."""
    if not works:
        return []
    dark = dark_devices(span)
    counted: dict[int, list] = {}
    for key, name, n in s.execute(
            select(dark.c.key, GpuModel.name, func.count(GpuAsset.id))
            .select_from(dark).join(GpuNode, GpuNode.device_id == dark.c.device_id)
            .join(GpuAsset, GpuAsset.device_id == GpuNode.device_id)
            .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
            .where(GpuAsset.gpu_model_id.in_(model_ids)).group_by(dark.c.key, GpuModel.name).order_by(GpuModel.name)):
        counted.setdefault(int(key), []).append((name, n))
    out = [M.CAPACITY_MAINTENANCE_ITEM(n, name, w.reference) for w in works for name, n in counted.get(w.key, ())]
    return out[:5]

"""Capacity search: which nodes are free for a whole window, grouped into offers, best fit first.

A node (models.cluster.GpuNode) is free for a window when
- its service state is available or allocated (allocated: its GPUs' leases may end before the
  window) and its maintenance flag is off;
- every GPU in it is available or leased, and no GPU lease overlaps the window;
- none of its GPUs is named by an approved or running contract whose item overlaps the window;
- no hold holds it over the window (an active hold not yet past its expiry, or a hold moved to a
  contract still being drafted, submitted or approved);
- no open maintenance window of the operations desk overlapping the window takes it out: work on
  its server or its rack, or on the power chain feeding it (a feed, panel, UPS or PDU) when the
  impact is an outage; reduced redundancy or degraded (the side kept cannot carry the rack) leaves it
  offered, marked, the degraded last (app/services/capacity/maintenance.py).

Everything is set-wise SQL: the free nodes are a subquery, counted per group (a cluster = one
fabric, a scale-up domain, or a site for "anywhere"); only the nodes of the few best groups are
fetched, so a search over 50,000 nodes reads a few hundred rows.
"""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

from sqlalchemy import and_, exists, func, or_, select
from sqlalchemy.orm import Session

from models import (Contract, ContractItem, Device, DeviceType, GpuAsset, GpuLease, GpuModel, Rack, Region, Room, Site,
                    Subsidiary, contract_item_gpu)
from models.capacity import CapacityHold, capacity_hold_node
from models.choices import ContractStatus, FormFactor, GpuState
from models.cluster import GpuCluster, GpuNode, ScaleUpDomain

from app.domain import messages as M
from app.domain.clock import local_midnight
from app.domain.errors import NotFound, ValidationError
from app.domain.rating import local_today
from app.services.capacity.holding import NODE_STATES_OFFERED, holding_condition
from app.services.capacity.maintenance import Span, busy_nodes, power_marks, works_over
from app.services.capacity.maintenance import maintained as maintenance_items
from app.services.capacity.prices import TermFigures, term_figures
from app.store.db import Database

ANYWHERE, ONE_FABRIC, ONE_DOMAIN = "anywhere", "fabric", "domain"
SCOPES = (ANYWHERE, ONE_FABRIC, ONE_DOMAIN)
TRAINING_8 = "training-8"  # "any 8-GPU training model": SXM or OAM cards, 8 to a node
# Contracts whose named GPUs are taken over their items' days (drafts take nothing)
TAKING = (ContractStatus.APPROVED, ContractStatus.ACTIVE, ContractStatus.SUSPENDED)
MAX_OFFERS = 3


@dataclass(frozen=True)
class CapacityRequest:
    count: int
    models: tuple[str, ...] = ()         # GPU model names; empty with training8: any 8-GPU training model
    training8: bool = False
    unit: str = "gpu"                    # "gpu" or "node"
    scope: str = ANYWHERE
    region: str | None = None            # a region's code or name (its districts included)
    subsidiary: str | None = None        # a subsidiary's code
    site: str | None = None              # a site's code
    start: dt.date | None = None         # default today
    months: int | None = None            # None with no end: open-ended
    end: dt.date | None = None           # inclusive; from months when not given
    price_subsidiary_id: int | None = None  # the subsidiary whose prices apply (default: the site's)
    exclude_hold_id: int | None = None   # a hold's own nodes count as free to it


@dataclass(frozen=True)
class OfferNode:
    node_id: int
    device_id: int
    device: str
    rack: str
    gpus: int
    reduced: tuple[str, ...] = ()  # maintenance windows leaving it with reduced power redundancy (MW-…)
    degraded: tuple[str, ...] = ()  # … leaving its rack on a side that cannot carry the rack's load


@dataclass(frozen=True)
class Offer:
    model_id: int
    model: str
    vendor: str
    scope: str
    group: str             # the cluster, domain or site offered
    cluster: str | None
    fabric: str | None
    site: str
    site_id: int
    subsidiary_id: int
    nodes: tuple[OfferNode, ...]
    gpus: int              # GPUs offered (whole nodes)
    racks: int
    free_in_group: int     # GPUs free in the group (what is left after this offer: free_in_group - gpus)
    start: dt.date
    end: dt.date | None
    terms: tuple[TermFigures, ...] = ()

    @property
    def node_ids(self) -> tuple[int, ...]:
        return tuple(n.node_id for n in self.nodes)

    @property
    def reduced(self) -> tuple[str, ...]:
        """The maintenance windows that leave offered nodes with reduced redundancy (MW-…), once each."""
        return tuple(dict.fromkeys(r for n in self.nodes for r in n.reduced))

    @property
    def degraded(self) -> tuple[str, ...]:
        """The maintenance windows that leave offered nodes degraded (MW-…), once each."""
        return tuple(dict.fromkeys(r for n in self.nodes for r in n.degraded))


@dataclass(frozen=True)
class GroupFree:
    """Free capacity of one group, for the shortfall message."""

    model: str
    group: str
    site: str
    gpus: int
    nodes: int
    fabric: str = "none"


@dataclass(frozen=True)
class SearchResult:
    request: CapacityRequest
    start: dt.date
    end: dt.date | None
    wanted_gpus: int
    offers: tuple[Offer, ...]
    nearest: tuple[GroupFree, ...] = field(default=())   # the largest free groups when nothing fits
    shortfall: str | None = None   # the sentence saying what is short and where the nearest is


# --- the window ---------------------------------------------------------------------------------

def add_months(day: dt.date, months: int) -> dt.date:
    y, m = divmod(day.month - 1 + months, 12)
    year, month = day.year + y, m + 1
    import calendar

    return day.replace(year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1]))


def window_of(start: dt.date | None, months: int | None, end: dt.date | None) -> tuple[dt.date, dt.date | None]:
    """(first day, last day inclusive or None: open-ended); `months` from `start` ends the day before
    the same date `months` later (1 Dec + 3 months → 28 Feb)."""
    first = start or local_today()
    if end is None and months:
        end = add_months(first, months) - dt.timedelta(days=1)
    if end is not None and end < first:
        raise ValidationError({"end": f"the window ends ({end}) before it starts ({first})"})
    return first, end


def _instants(start: dt.date, end: dt.date | None):
    return local_midnight(start), (local_midnight(end + dt.timedelta(days=1)) if end else None)


# --- the free nodes, as one subquery ------------------------------------------------------------

def _overlaps(lo_col, hi_col, start: dt.datetime, end: dt.datetime | None):
    """[lo, hi) (hi NULL: open) overlaps [start, end) (end None: open)."""
    cond = [or_(hi_col.is_(None), hi_col > start)]
    if end is not None:
        cond.append(lo_col < end)
    return and_(*cond)


def _date_overlaps(lo_col, hi_col, start: dt.date, end: dt.date | None):
    """Inclusive day ranges [lo, hi] (hi NULL: open) and [start, end] (end None: open)."""
    cond = [or_(hi_col.is_(None), hi_col >= start)]
    if end is not None:
        cond.append(lo_col <= end)
    return and_(*cond)


def held_nodes(start: dt.date, end: dt.date | None, now: dt.datetime, exclude_hold_id: int | None = None):
    """Node ids held over the window (a select)."""
    q = (select(capacity_hold_node.c.node_id).join(CapacityHold, CapacityHold.id == capacity_hold_node.c.hold_id)
         .where(holding_condition(now), _date_overlaps(CapacityHold.start_date, CapacityHold.end_date, start, end)))
    if exclude_hold_id is not None:
        q = q.where(CapacityHold.id != exclude_hold_id)
    return q


def free_nodes(session: Session, model_ids: list[int], start: dt.date, end: dt.date | None, *,
               now: dt.datetime | None = None, exclude_hold_id: int | None = None, exclude_contract_id: int | None = None,
               works: list | None = None):
    """A select of (node_id, device_id, cluster_id, domain_id, model_id, gpus, site_id, rack_id)
    for every node free over the window holding GPUs of `model_ids` only."""
    now = now or dt.datetime.now(dt.timezone.utc)
    t0, t1 = _instants(start, end)
    g = GpuAsset
    # Per server, by the GPU index (device_id, model, state: covering): no scan of the whole fleet.
    # Everything is correlated on the server (Device), not the node, so that the database takes the
    # server's type first: a type of another model drops the server before any GPU is read.
    mine = g.device_id == Device.id
    # A GPU whose leases all end by the window's start (busy_until, models/billing.follow_leases) is
    # free of leases in it: read from the same index row as its model and state. One ending later is
    # busy over an open-ended window; over a bounded one its leases say (one may start after it).
    unfit = [g.gpu_model_id.not_in(model_ids), g.state.not_in((GpuState.AVAILABLE, GpuState.LEASED))]
    if t1 is None:
        unfit.append(g.busy_until > t0)
    unfit = select(g.id).where(mine, or_(*unfit))
    gpus = select(func.count(g.id)).where(mine).scalar_subquery()
    model = select(func.min(g.gpu_model_id)).where(mine).scalar_subquery()
    lease_busy = (select(GpuLease.id).join(GpuAsset, GpuAsset.id == GpuLease.gpu_id)
                  .where(GpuAsset.device_id == Device.id, GpuAsset.busy_until > t0,
                         _overlaps(GpuLease.start, GpuLease.end, t0, t1)))
    item_start = func.coalesce(ContractItem.service_start, Contract.start_date)
    item_end = func.coalesce(ContractItem.service_end, Contract.end_date)
    named = (select(contract_item_gpu.c.gpu_id).join(ContractItem, ContractItem.id == contract_item_gpu.c.item_id)
             .join(Contract, Contract.id == ContractItem.contract_id)
             .join(GpuAsset, GpuAsset.id == contract_item_gpu.c.gpu_id)
             .where(GpuAsset.device_id == Device.id, Contract.status.in_(TAKING),
                    _date_overlaps(item_start, item_end, start, end)))
    if t1 is None:  # a GPU leased past the start is unfit already: only the others' names are asked
        named = named.where(or_(GpuAsset.busy_until.is_(None), GpuAsset.busy_until <= t0))
    if exclude_contract_id is not None:
        named = named.where(Contract.id != exclude_contract_id)
    conds = [GpuNode.state.in_(NODE_STATES_OFFERED), GpuNode.maintenance.is_(False),
             # the server's type says its model: most servers drop here, before any GPU is read
             Device.device_type_id.in_(select(DeviceType.id).where(or_(DeviceType.gpu_model_id.is_(None),
                                                                       DeviceType.gpu_model_id.in_(model_ids)))),
             # a leased server drops at its first open lease (most of a busy fleet), then the rest
             *([] if t1 is None else [~exists(lease_busy)]), exists(select(g.id).where(mine)), ~exists(unfit),
             ~exists(named),
             GpuNode.id.not_in(held_nodes(start, end, now, exclude_hold_id))]
    busy = busy_nodes(works_over(session, t0, t1) if works is None else works, Span(t0, t1))
    if busy is not None:
        conds.append(GpuNode.id.not_in(busy))
    return (select(GpuNode.id.label("node_id"), GpuNode.device_id, GpuNode.cluster_id, GpuNode.domain_id,
                   model.label("model_id"), gpus.label("gpus"), Room.site_id, Device.rack_id)
            .select_from(GpuNode).join(Device, Device.id == GpuNode.device_id)
            .join(Rack, Rack.id == Device.rack_id).join(Room, Room.id == Rack.room_id)
            .where(*conds))


@dataclass(frozen=True)
class _Group:
    key: int
    model_id: int
    gpus: int
    nodes: int
    per_node: int


def _groups(rows, key_of) -> list[_Group]:
    """The free rows counted per (group key, model): GPUs, nodes, the most GPUs on one node."""
    acc: dict[tuple, list[int]] = {}
    for r in rows:
        k = (key_of(r), r.model_id)
        if k[0] is None:
            continue
        a = acc.setdefault(k, [0, 0, 0])
        a[0] += int(r.gpus)
        a[1] += 1
        a[2] = max(a[2], int(r.gpus))
    return [_Group(k, m, g, n, p) for (k, m), (g, n, p) in acc.items()]


# --- resolving the request ------------------------------------------------------------------------

def _model_ids(s: Session, req: CapacityRequest) -> dict[int, GpuModel]:
    if req.models:
        # a model by its whole name, or by a word of it that names one model only ("H100", "910B")
        every = s.execute(select(GpuModel).order_by(GpuModel.name)).scalars().all()
        rows, missing, unclear = [], [], []
        for asked in req.models:
            key = asked.strip().lower()
            hits = [m for m in every if m.name.lower() == key] or [
                m for m in every if key and key in m.name.lower().split() or m.name.lower().startswith(key + " ")]
            if len(hits) == 1:
                rows.append(hits[0])
            elif hits:
                unclear.append(f"{asked} ({', '.join(m.name for m in hits)})")
            else:
                missing.append(asked)
        known = ", ".join(m.name for m in every)
        if missing:
            raise ValidationError({"model": f"no GPU model named {', '.join(missing)}; the models are {known}"})
        if unclear:
            raise ValidationError({"model": f"{'; '.join(unclear)}: name one of them in full"})
    elif req.training8:
        rows = s.execute(select(GpuModel).where(GpuModel.form_factor.in_((FormFactor.SXM, FormFactor.OAM)),
                                                GpuModel.active.is_(True))).scalars().all()
    else:
        raise ValidationError({"model": "name a GPU model (or several), or ask for any 8-GPU training model"})
    return {m.id: m for m in rows}


def _site_filter(s: Session, req: CapacityRequest):
    conds = []
    if req.site:
        site = s.execute(select(Site).where(func.lower(Site.code) == req.site.strip().lower())).scalar_one_or_none()
        if site is None:
            raise NotFound(f"there is no site with the code {req.site}")
        conds.append(Site.id == site.id)
    if req.subsidiary:
        sub = s.execute(select(Subsidiary).where(func.lower(Subsidiary.code) == req.subsidiary.strip().lower())).scalar_one_or_none()
        if sub is None:
            raise NotFound(f"there is no subsidiary with the code {req.subsidiary}")
        conds.append(Site.subsidiary_id == sub.id)
    if req.region:
        text = req.region.strip()
        region = s.execute(select(Region).where(or_(Region.code == text, Region.name == text))).scalars().first()
        if region is None:
            raise NotFound(f"there is no region {text} (give its six-digit code or its name, e.g. 460100 or 海口市)")
        prefix = region.code[:2] if region.level == 1 else region.code[:4] if region.level == 2 else region.code
        conds.append(Site.region_code.like(prefix + "%"))
    return conds


def _wanted(req: CapacityRequest, gpus_per_node: int) -> tuple[int, int]:
    """(nodes, GPUs) the request takes on nodes of `gpus_per_node` GPUs: whole nodes."""
    if req.unit == "node":
        return req.count, req.count * gpus_per_node
    nodes = math.ceil(req.count / gpus_per_node)
    return nodes, req.count


def search_capacity_in(s: Session, req: CapacityRequest, *, now: dt.datetime | None = None,
                       exclude_contract_id: int | None = None) -> SearchResult:
    if req.count is None or req.count < 1:
        raise ValidationError({"count": "ask for at least one GPU or node"})
    if req.scope not in SCOPES:
        raise ValidationError({"scope": f"one of {', '.join(SCOPES)}"})
    if req.unit not in ("gpu", "node"):
        raise ValidationError({"unit": "gpu or node"})
    start, end = window_of(req.start, req.months, req.end)
    models = _model_ids(s, req)
    if not models:
        raise ValidationError({"model": "no active 8-GPU training model (SXM or OAM) is in the catalogue"})
    # the free nodes are read once (one statement over every node, set-wise); the groups, the
    # nearest free capacity and the offers are counted from those rows
    works = works_over(s, *_instants(start, end))
    rows = s.execute(free_nodes(s, list(models), start, end, now=now, exclude_hold_id=req.exclude_hold_id,
                                exclude_contract_id=exclude_contract_id, works=works)).all()
    site_conds = _site_filter(s, req)
    if site_conds:
        sites = set(s.execute(select(Site.id).where(*site_conds)).scalars())
        in_place = [r for r in rows if r.site_id in sites]
    else:
        in_place = rows
    clusters = {c.id: c for c in s.execute(select(GpuCluster.id, GpuCluster.name, GpuCluster.fabric, GpuCluster.site_id)
                                           .where(GpuCluster.id.in_({r.cluster_id for r in rows} or {-1})))}
    # the group key of the scope: one fabric = a cluster with a fabric; one domain; anywhere = a site
    if req.scope == ONE_FABRIC:
        def key_of(r):
            return r.cluster_id if clusters[r.cluster_id].fabric != "none" else None
    elif req.scope == ONE_DOMAIN:
        def key_of(r):
            return r.domain_id
    else:
        def key_of(r):
            return r.site_id
    groups = _groups(in_place, key_of)
    wanted_gpus = req.count if req.unit == "gpu" else None
    fitting, short = [], []
    for g in groups:
        nodes_needed, gpus_needed = _wanted(req, int(g.per_node or 8))
        (fitting if g.nodes >= nodes_needed else short).append((g, nodes_needed, gpus_needed))
    # best fit: the smallest group that holds the request (keeps large fabrics whole), then the model name
    fitting.sort(key=lambda x: (x[0].gpus, models[x[0].model_id].name, x[0].key))
    offers = []
    for g, nodes_needed, gpus_needed in fitting[:MAX_OFFERS]:
        mine = [r for r in in_place if r.model_id == g.model_id and key_of(r) == g.key]
        offers.append(_offer(s, req, mine, g, models[g.model_id], nodes_needed, gpus_needed, start, end, works))
    if wanted_gpus is None:
        wanted_gpus = req.count * int(max((g.per_node for g in groups), default=8) or 8)
    if offers:
        return SearchResult(req, start, end, wanted_gpus, tuple(offers))
    nearest = _nearest(s, rows, clusters, models)
    best = max((g.gpus for g in groups), default=0)
    held = _held_now(s, list(models), start, end, now or dt.datetime.now(dt.timezone.utc))
    maintained = maintenance_items(s, works, Span(*_instants(start, end)), list(models))
    sentence = shortfall_sentence(req, start, end, wanted_gpus, best, nearest, held, maintained)
    return SearchResult(req, start, end, wanted_gpus, (), nearest, sentence)


def _held_now(s: Session, model_ids: list[int], start: dt.date, end: dt.date | None, now: dt.datetime) -> list:
    """The holds keeping GPUs of these models over the window: "64 × H100 in FZ-H100-NDR-01 (hold
    FZ-H2026-0001 until 2026-12-09)", so that a refusal also says what a hold keeps."""
    rows = s.execute(
        select(CapacityHold.number, CapacityHold.expires_at, GpuModel.name, GpuCluster.name.label("cluster"),
               func.count(GpuAsset.id).label("n"))
        .select_from(CapacityHold).join(capacity_hold_node, capacity_hold_node.c.hold_id == CapacityHold.id)
        .join(GpuNode, GpuNode.id == capacity_hold_node.c.node_id).join(GpuCluster, GpuCluster.id == GpuNode.cluster_id)
        .join(GpuAsset, GpuAsset.device_id == GpuNode.device_id).join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
        .where(holding_condition(now), GpuAsset.gpu_model_id.in_(model_ids),
               _date_overlaps(CapacityHold.start_date, CapacityHold.end_date, start, end))
        .group_by(CapacityHold.number, CapacityHold.expires_at, GpuModel.name, GpuCluster.name)
        .order_by(CapacityHold.number).limit(5)).all()
    from app.domain.clock import local_date

    return [M.CAPACITY_HOLD_ITEM(r.n, r.name, r.cluster, r.number, local_date(r.expires_at)) for r in rows]


def _group_label(s: Session, scope: str, key) -> tuple[str, GpuCluster | None, Site]:
    if scope == ONE_DOMAIN:
        d = s.get(ScaleUpDomain, key)
        c = s.get(GpuCluster, d.cluster_id)
        return f"{c.name} / {d.name}", c, s.get(Site, c.site_id)
    if scope == ONE_FABRIC:
        c = s.get(GpuCluster, key)
        return c.name, c, s.get(Site, c.site_id)
    site = s.get(Site, key)
    return site.code, None, site


def _offer(s: Session, req: CapacityRequest, rows, g: _Group, model: GpuModel, nodes_needed: int, gpus_needed: int,
           start: dt.date, end: dt.date | None, works=()) -> Offer:
    # racks together: the racks with the most free nodes first, nodes in rack order
    rack_n: dict[int, int] = {}
    for r in rows:
        rack_n[r.rack_id] = rack_n.get(r.rack_id, 0) + 1
    free = {r.device_id: r for r in rows}
    named = s.execute(select(Device.id, Device.name, Device.position, Rack.id.label("rack_id"), Rack.name.label("rack"))
                      .join(Rack, Rack.id == Device.rack_id).where(Device.id.in_(free))).all()
    # a window on the power chain: its degraded racks last (over every free server of the group)
    marks = power_marks(s, works, Span(*_instants(start, end)), free) if any(w.power for w in works) else None
    degraded = marks.degraded if marks else {}
    named.sort(key=lambda d: (d.id in degraded, -rack_n[d.rack_id], d.rack, d.position is None, d.position or 0,
                              d.name))
    chosen = named[:nodes_needed]
    reduced = marks.reduced if marks else {}
    nodes = tuple(OfferNode(free[d.id].node_id, d.id, d.name, d.rack, int(free[d.id].gpus), reduced.get(d.id, ()),
                            degraded.get(d.id, ()))
                  for d in chosen)
    label, cluster, site = _group_label(s, req.scope, g.key)
    if cluster is None and nodes:
        cluster = s.get(GpuCluster, free[nodes[0].device_id].cluster_id)
    sub_id = req.price_subsidiary_id or site.subsidiary_id
    gpus = gpus_needed if req.unit == "gpu" else sum(n.gpus for n in nodes)
    terms = ()
    if end is not None:
        from app.services.reference import tax_rates_on

        terms = tuple(term_figures(s, model.id, sub_id, gpus, start, end, tax_rates_on(s, start)))
    return Offer(model.id, model.name, model.vendor, req.scope, label, cluster.name if cluster else None,
                 cluster.fabric if cluster else None, site.code, site.id, sub_id, nodes, gpus,
                 len({n.rack for n in nodes}), g.gpus, start, end, terms)


def _nearest(s: Session, rows, clusters: dict, models: dict[int, GpuModel]) -> tuple[GroupFree, ...]:
    """The largest free groups of the requested models: per cluster (with its site) and per site,
    whatever the region asked, so the message can say where capacity is."""
    per: dict[tuple[int, int], list[int]] = {}
    for r in rows:
        a = per.setdefault((r.cluster_id, r.model_id), [0, 0])
        a[0] += int(r.gpus)
        a[1] += 1
    codes = dict(s.execute(select(Site.id, Site.code).where(Site.id.in_({c.site_id for c in clusters.values()} or {-1}))).all())
    top = sorted(per.items(), key=lambda kv: (-kv[1][0], clusters[kv[0][0]].name))[:5]
    return tuple(GroupFree(models[m].name, clusters[c].name, codes[clusters[c].site_id], gpus, nodes, clusters[c].fabric)
                 for (c, m), (gpus, nodes) in top)


SCOPE_WORDS = {ANYWHERE: "", ONE_FABRIC: M.CAPACITY_IN_FABRIC(), ONE_DOMAIN: M.CAPACITY_IN_DOMAIN()}


def shortfall_sentence(req: CapacityRequest, start: dt.date, end: dt.date | None, wanted: int,
                       best_in_scope: int, nearest: tuple[GroupFree, ...], held=(), maintained=()) -> str:
    """What is short and where the nearest free capacity is, in one sentence (a catalogue Message:
    the console translates it part by part); `held` and `maintained` name what holds and
    maintenance windows keep (`_held_now`, `_maintained`)."""
    what = "/".join(req.models) if req.models else M.CAPACITY_ANY_TRAINING()
    places = [w for w in (req.region, req.subsidiary, req.site) if w]
    where = M.CAPACITY_IN_PLACE(" / ".join(places)) if places else ""
    window = M.CAPACITY_FROM_TO(start, end) if end else M.CAPACITY_FROM_OPEN(start)
    scope = SCOPE_WORDS[req.scope] or M.CAPACITY_IN_SITE()
    if nearest:
        near = M.CAPACITY_NEAREST(M.listed(
            (M.CAPACITY_FREE_IN_NO_FABRIC if n.fabric == "none" else M.CAPACITY_FREE_IN)(n.gpus, n.model, n.group, n.site)
            for n in nearest))
    else:
        near = M.CAPACITY_NONE_FREE()
    return M.CAPACITY_SHORT(wanted, what, SCOPE_WORDS[req.scope], where, window, best_in_scope, scope,
                            max(wanted - best_in_scope, 0), near, M.CAPACITY_HELD(M.listed(held)) if held else "",
                            M.CAPACITY_MAINTENANCE(M.listed(maintained)) if maintained else "")


def search_capacity(db: Database, req: CapacityRequest, *, now: dt.datetime | None = None) -> SearchResult:
    """The offers for `req`, best fit first, each with its nodes and every term's price; when none
    fits, the shortfall and the nearest free capacity."""
    with db.session() as s:
        return search_capacity_in(s, req, now=now)


# --- what the contract's capacity check asks -------------------------------------------------------

def held_gpus_for_others(customer_id: int, now: dt.datetime | None = None, contract_id: int | None = None):
    """A select of GPU ids on nodes held now for another customer (a hold moved to `contract_id`
    is the contract's own)."""
    now = now or dt.datetime.now(dt.timezone.utc)
    q = (select(GpuAsset.id).join(GpuNode, GpuNode.device_id == GpuAsset.device_id)
         .join(capacity_hold_node, capacity_hold_node.c.node_id == GpuNode.id)
         .join(CapacityHold, CapacityHold.id == capacity_hold_node.c.hold_id)
         .where(holding_condition(now), CapacityHold.customer_id != customer_id))
    if contract_id is not None:
        q = q.where(or_(CapacityHold.contract_id.is_(None), CapacityHold.contract_id != contract_id))
    return q


def where_free(s: Session, gpu_model_id: int, not_ids, limit: int = 3) -> str:
    """Where GPUs of a model are free now, the most first: "16 in FZ-H100-A (FZ1), 8 in BJ unassigned
    (BJ1)"; empty when none is."""
    rows = s.execute(
        select(GpuCluster.name, Site.code, func.count().label("n"))
        .select_from(GpuAsset).join(GpuNode, GpuNode.device_id == GpuAsset.device_id)
        .join(GpuCluster, GpuCluster.id == GpuNode.cluster_id).join(Site, Site.id == GpuCluster.site_id)
        .where(GpuAsset.gpu_model_id == gpu_model_id, GpuAsset.state == GpuState.AVAILABLE,
               GpuNode.state.in_(NODE_STATES_OFFERED), GpuNode.maintenance.is_(False), GpuAsset.id.not_in(not_ids))
        .group_by(GpuCluster.name, Site.code).order_by(func.count().desc(), GpuCluster.name).limit(limit)).all()
    return ", ".join(f"{r.n} in {r.name} ({r.code})" for r in rows)


"""What the Clusters page, the CLI and the exports read: clusters, node rows, the topology picture's
data, a node's history and health events, and the utilisation by GPU model and site."""
from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from sqlalchemy import Integer, and_, cast, func, literal, null, select, true, union_all

from models import (Cable, Customer, Device, DeviceGpuCount, FabricSwitch, GpuAsset, GpuCluster, GpuModel, GpuNode,
                    GpuNodeHistory, HealthEvent, NodeBurnIn, Rack, ScaleUpDomain, Site)
from models.capacity import CapacityHold, Quote, capacity_hold_node
from models.choices import GpuState, NodeState, SwitchTier

from app.services.capacity.holding import NODE_STATES_OFFERED, holding_condition
from app.services.clusters.topology import find_cluster_in, find_node_in
from app.store.db import Database


@dataclass(frozen=True)
class ClusterRow:
    id: int
    name: str
    site: str
    fabric: str
    rails: int | None
    nodes: int
    gpus: int
    states: dict[str, int]  # node state -> nodes
    models: str  # GPU models of its nodes, e.g. "H100 SXM 80GB"
    storage_network: str | None
    management_network: str | None
    note: str | None
    version: int


@dataclass(slots=True)  # not frozen: a frozen dataclass sets each field through object.__setattr__ (4× the cost)
class NodeRow:
    id: int
    device_id: int
    name: str
    rack: str | None
    model: str | None
    gpus: int
    state: str
    maintenance: bool
    tenant: str | None  # the customer of its leased GPUs
    reason: str | None
    by: str | None
    at: dt.datetime | None
    domain: str | None
    version: int
    hold: str | None = None                # the number of the capacity hold that holds it now
    hold_expires: dt.datetime | None = None
    hold_customer: str | None = None       # whom the hold keeps it for
    hold_quote: str | None = None          # the quote made from the hold (the first, when several)
    unfit: tuple[tuple[str, int], ...] = ()  # (GPU state, GPUs) of its GPUs neither available nor leased

    @property
    def offerable(self) -> bool:
        """Whether the capacity search can offer it at all (the window aside): its state, its
        maintenance flag, its GPUs' states and its hold (app/services/capacity/search.py)."""
        return (self.state in NODE_STATES_OFFERED and not self.maintenance and not self.unfit and self.gpus > 0
                and self.hold is None)


@dataclass
class Topology:
    cluster: ClusterRow
    spines: list[tuple[int, str]] = field(default_factory=list)  # (device id, name)
    leaves: list[tuple[int, str, int | None]] = field(default_factory=list)  # (device id, name, rail)
    nodes: list[NodeRow] = field(default_factory=list)
    node_links: list[tuple[int, int]] = field(default_factory=list)  # (leaf device id, node device id)
    spine_links: list[tuple[int, int]] = field(default_factory=list)  # (spine device id, leaf device id)
    spine_mesh: bool = False  # no leaf–spine cable recorded: drawn as the full mesh a fat tree has


def list_clusters(db: Database, *, site: str | None = None, cluster_id: int | None = None) -> list[ClusterRow]:
    """The clusters with their node states, GPUs and models: three reads, side by side (issue 26)."""
    one = (GpuNode.cluster_id == cluster_id) if cluster_id is not None else true()
    clusters, state_rows, model_rows = db.read_sessions_together(*map(_rows_of, (
        _clusters_query(site, cluster_id), _states_query(one), _cluster_models(one, every=cluster_id is None))))
    return _cluster_rows(clusters, state_rows, model_rows)


def clusters_and_utilisation(db: Database) -> tuple[list[ClusterRow], list[tuple[str, str, dict[str, int]]]]:
    """list_clusters() and utilisation() in three reads side by side, the GPUs of every cluster counted
    once for both (the Clusters page: the two countings were its two longest statements, 80 and 150 ms
    on the large data, on a two-core server; issue 26)."""
    # the longest first: sent before the others queue for the read threads
    groups, clusters, state_rows = db.read_sessions_together(*map(_rows_of, (
        _utilisation_query(), _clusters_query(None, None), _states_query(true()))))
    per: Counter = Counter()
    for cid, model, _site, _state, _maint, _held, n in groups:
        per[(cid, model)] += int(n)
    return (_cluster_rows(clusters, state_rows, [(cid, model, n) for (cid, model), n in per.items()]),
            _utilisation_of(groups))


def _rows_of(statement):
    """A read of a session (Database.read_sessions_together): the statement's rows."""
    return lambda s: s.execute(statement).all()


def _clusters_query(site: str | None, cluster_id: int | None):
    q = (select(GpuCluster, Site.code).join(Site, Site.id == GpuCluster.site_id).order_by(Site.code, GpuCluster.name))
    if site:
        q = q.where(Site.code == site)
    if cluster_id is not None:
        q = q.where(GpuCluster.id == cluster_id)
    return q


def _states_query(one):
    return select(GpuNode.cluster_id, GpuNode.state, func.count()).where(one).group_by(GpuNode.cluster_id, GpuNode.state)


def _cluster_rows(clusters, state_rows, model_rows) -> list[ClusterRow]:
    states: dict[int, Counter] = {}
    for cid, state, n in state_rows:
        states.setdefault(cid, Counter())[state] = n
    gpus: dict[int, int] = {}
    models: dict[int, set] = {}
    for cid, model, n in model_rows:
        gpus[cid] = gpus.get(cid, 0) + n
        models.setdefault(cid, set()).add(model)
    return [ClusterRow(c.id, c.name, code, c.fabric, c.rails, sum(states.get(c.id, {}).values()), gpus.get(c.id, 0),
                       dict(states.get(c.id, {})), ", ".join(sorted(models.get(c.id, ()))), c.storage_network,
                       c.management_network, c.note, c.version)
            for c, code in clusters]


def _cluster_models(one, every: bool):
    """(cluster id, GPU model name, GPUs): for every cluster from the GPUs counted per server first
    (_per_node_gpus: 115 -> 64 ms on PostgreSQL, 293 -> 68 ms on SQLite, large data), for one cluster
    through its nodes."""
    if not every:
        return (select(GpuNode.cluster_id, GpuModel.name, func.count(GpuAsset.id))
                .join(GpuAsset, GpuAsset.device_id == GpuNode.device_id)
                .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id).where(one)
                .group_by(GpuNode.cluster_id, GpuModel.name))
    per_node = _per_node_gpus()
    x = (select(GpuNode.cluster_id, per_node.c.gpu_model_id, cast(func.sum(per_node.c.n), Integer).label("n"))
         .join(GpuNode, GpuNode.device_id == per_node.c.device_id)
         .group_by(GpuNode.cluster_id, per_node.c.gpu_model_id)).subquery()
    return select(x.c.cluster_id, GpuModel.name, x.c.n).join(GpuModel, GpuModel.id == x.c.gpu_model_id)


def cluster_row(db: Database, cluster: int | str) -> ClusterRow:
    with db.session() as s:
        cid = find_cluster_in(s, cluster).id
    return list_clusters(db, cluster_id=cid)[0]


FIT_GPU_STATES = (GpuState.AVAILABLE, GpuState.LEASED)  # what the capacity search offers (free_nodes)


def _gpu_groups(dialect: str, where):
    """The GPUs of the nodes `where` picks, counted per server, model and state (with the largest
    customer id among them): a subquery. On PostgreSQL a LATERAL per node, which walks the index on
    (device, model, state) node by node: the plain join's estimate (8 GPUs a node × 1,000 nodes at
    random_page_cost 4) made the planner scan all 400,000 GPUs in parallel (46 ms against 6 ms on
    the large data); SQLite's planner walks the index by itself (and has no LATERAL)."""
    n_, customer = func.count().label("n"), func.max(GpuAsset.customer_id).label("customer_id")
    if dialect != "postgresql":
        return (select(GpuAsset.device_id, GpuAsset.gpu_model_id, GpuAsset.state, n_, customer)
                .join(GpuNode, GpuNode.device_id == GpuAsset.device_id).where(where)
                .group_by(GpuAsset.device_id, GpuAsset.gpu_model_id, GpuAsset.state).subquery())
    nodes = select(GpuNode.device_id).where(where).subquery()
    per = (select(GpuAsset.gpu_model_id, GpuAsset.state, n_, customer)
           .where(GpuAsset.device_id == nodes.c.device_id)
           .group_by(GpuAsset.gpu_model_id, GpuAsset.state).lateral())
    return (select(nodes.c.device_id, per.c.gpu_model_id, per.c.state, per.c.n, per.c.customer_id)
            .select_from(nodes.join(per, true())).subquery())


def _node_rows(s, where, now: dt.datetime | None = None) -> list[NodeRow]:
    """Node rows in two statements (1,000 nodes: no ORM objects, no per-node query), run on the
    Core connection (no ORM row layer): the nodes with their server, rack, domain and the hold that
    holds them now; their GPUs counted per server, model and state from the covering index (device,
    model, state), the model and tenant names joined to those groups (not to every GPU)."""
    conn = s.connection()
    rows = _node_base(conn, where, now)
    if not rows:
        return []
    return _assemble_nodes(rows, _node_gpus(conn, where))


def _node_base(conn, where, now: dt.datetime | None = None) -> list:
    """The nodes `where` picks with their server, rack and domain, the hold that holds each now (the
    one expiring first, with whom it keeps it for and its first quote; NULLs when none), and last
    their cluster's id: one statement, the holds a window's first row per node joined (issue 26: a
    read fewer on the page)."""
    quote = select(func.min(Quote.number)).where(Quote.hold_id == CapacityHold.id).scalar_subquery()
    first = func.row_number().over(partition_by=capacity_hold_node.c.node_id,
                                   order_by=(CapacityHold.expires_at, CapacityHold.id))
    holds = (select(capacity_hold_node.c.node_id, CapacityHold.number, CapacityHold.expires_at,
                    Customer.name.label("customer"), quote.label("quote"), first.label("n"))
             .join(CapacityHold, CapacityHold.id == capacity_hold_node.c.hold_id)
             .join(Customer, Customer.id == CapacityHold.customer_id)
             .join(GpuNode, GpuNode.id == capacity_hold_node.c.node_id)
             .where(where, holding_condition(now or dt.datetime.now(dt.timezone.utc)))).subquery()
    return conn.execute(
        select(GpuNode.id, GpuNode.device_id, Device.name, Rack.name, GpuNode.state, GpuNode.maintenance,
               GpuNode.state_reason, GpuNode.state_by, GpuNode.state_at, ScaleUpDomain.name, GpuNode.version,
               holds.c.number, holds.c.expires_at, holds.c.customer, holds.c.quote, GpuNode.cluster_id)
        .join(Device, Device.id == GpuNode.device_id)
        .outerjoin(Rack, Rack.id == Device.rack_id)
        .outerjoin(ScaleUpDomain, ScaleUpDomain.id == GpuNode.domain_id)
        .outerjoin(holds, and_(holds.c.node_id == GpuNode.id, holds.c.n == 1))
        .where(where).order_by(Device.name)).all()


def _node_gpus(conn, where) -> list:
    g = _gpu_groups(conn.dialect.name, where)
    return conn.execute(select(g.c.device_id, g.c.state, g.c.n, GpuModel.name, Customer.name)
                        .join(GpuModel, GpuModel.id == g.c.gpu_model_id)
                        .outerjoin(Customer, Customer.id == g.c.customer_id)).all()


def _assemble_nodes(rows, gpu_groups) -> list[NodeRow]:
    per_dev: dict[int, list] = {}  # device -> [GPUs, model, tenant, {unfit state: GPUs}]
    for dev_id, state, n, model, cust in gpu_groups:
        acc = per_dev.setdefault(dev_id, [0, None, None, {}])
        acc[0] += n
        acc[1] = model if acc[1] is None or model > acc[1] else acc[1]
        if cust is not None and (acc[2] is None or cust > acc[2]):
            acc[2] = cust
        if state not in FIT_GPU_STATES:
            acc[3][state] = acc[3].get(state, 0) + n
    out = []
    for (nid, dev_id, name, rack, state, maint, reason, by, at, domain, version, number, expires, for_, quoted,
         _cluster) in rows:
        n, model, tenant, unfit = per_dev.get(dev_id, (0, None, None, {}))
        out.append(NodeRow(nid, dev_id, name, rack, model, n, state, maint, tenant, reason, by, at, domain, version,
                           number, expires, for_, quoted, tuple(sorted(unfit.items()))))
    return out


def cluster_nodes(db: Database, cluster: int | str, *, state: str | None = None) -> list[NodeRow]:
    with db.session() as s:
        c = find_cluster_in(s, cluster)
        where = GpuNode.cluster_id == c.id
        if state:
            where = where & (GpuNode.state == state)
        return _node_rows(s, where)


def topology(db: Database, cluster: int | str, *, row: ClusterRow | None = None) -> Topology:
    """Spines, leaves, nodes and the cables between them. `row`: the cluster's list row when the caller
    has it, which saves reading it again. The switches, the nodes (their servers, their GPUs, their
    holds) and the cables are independent reads, sent side by side (Database.read_together): at a
    subsidiary's round trip the picture costs its longest read, not the sum (issue 26)."""
    row = row or cluster_row(db, cluster)
    return _topology_of(row, *db.read_together(*_topology_reads(db, row.id)))


def cluster_view(db: Database, row: ClusterRow, *, events: int = 500) -> tuple[Topology, list[EventRow]]:
    """What the Clusters page shows of the chosen cluster (its list row given): the topology and the
    newest health events, every read side by side."""
    parts, newest = _view_reads(db, row.id, events)
    return _topology_of(row, *parts), newest


def shown_cluster(keep: int | None):
    """The id of the cluster the Clusters page shows as a scalar subquery: `keep` (the one shown before)
    while it exists, else the first of list_clusters' order (site, name). Its reads go beside the
    list's instead of after them (issue 26)."""
    first = (select(GpuCluster.id).join(Site, Site.id == GpuCluster.site_id)
             .order_by(Site.code, GpuCluster.name).limit(1).scalar_subquery())
    if keep is None:
        return first
    return func.coalesce(select(GpuCluster.id).where(GpuCluster.id == keep).scalar_subquery(), first)


def shown_cluster_reads(db: Database, keep: int | None, *, events: int = 500) -> tuple:
    """cluster_view's reads of the cluster shown_cluster picks, before its list row is known: pass what
    this returns to view_of with the row of the list."""
    return _view_reads(db, shown_cluster(keep), events)


def _view_reads(db: Database, cluster_id, events: int) -> tuple:
    """(the picture's reads, the newest events) of a cluster by its id or an expression of it, side by side."""
    *parts, newest = db.read_together(*_topology_reads(db, cluster_id),
                                      lambda: _cluster_events(db, cluster_id, events))
    return parts, newest


def view_of(row: ClusterRow, read: tuple) -> tuple[Topology, list[EventRow]] | None:
    """cluster_view of `row` from shown_cluster_reads; None when those rows are another cluster's (the
    list changed between the statements): read it again with cluster_view."""
    parts, newest = read
    (switches, _cables), nodes = parts[0], parts[1]
    if any(s[-1] != row.id for s in switches) or any(n[-1] != row.id for n in nodes):
        return None
    return _topology_of(row, *parts), newest


def _topology_reads(db: Database, cluster_id) -> tuple:
    """The picture's reads of a cluster: its id, or an expression of it (shown_cluster)."""
    where = GpuNode.cluster_id == cluster_id

    def on_connection(read):
        def call():
            with db.read_session() as s:
                return read(s.connection())
        return call
    return (lambda: _switches_and_cables(db, cluster_id), on_connection(lambda c: _node_base(c, where)),
            on_connection(lambda c: _node_gpus(c, where)))


def _topology_of(row: ClusterRow, switches_and_cables, node_base, node_gpus) -> Topology:
    t = Topology(row)
    t.nodes = _assemble_nodes(node_base, node_gpus) if node_base else []
    switches, cables = switches_and_cables
    for dev_id, name, tier, rail, _cluster in switches:
        if tier == SwitchTier.SPINE:
            t.spines.append((dev_id, name))
        else:
            t.leaves.append((dev_id, name, rail))
    leaves = {d for d, _n, _r in t.leaves}
    spines = {d for d, _n in t.spines}
    nodes = {n.device_id for n in t.nodes}
    for a, b in cables:
        for leaf, other in ((a, b), (b, a)):
            if leaf in leaves and other in nodes:
                t.node_links.append((leaf, other))
            elif leaf in leaves and other in spines:
                t.spine_links.append((other, leaf))
    if not t.spine_links and t.spines and t.leaves:
        t.spine_mesh = True
        t.spine_links = [(sp, lf) for sp, _n in t.spines for lf, _m, _r in t.leaves]
    return t


def _switches_and_cables(db: Database, cluster_id) -> tuple[list, list]:
    """The cluster's switches (id, name, tier, rail, cluster; by rail, then name) and (side A, side B) of every
    cable with one of them at either end: one statement, the two as rows of one UNION ALL told apart by
    their first column (issue 26: a read fewer on the page)."""
    mine = select(FabricSwitch.device_id).where(FabricSwitch.cluster_id == cluster_id)
    none = null()
    both = union_all(
        select(literal(0).label("cable"), Device.id.label("a"), Device.name.label("name"),
               FabricSwitch.tier.label("tier"), FabricSwitch.rail.label("rail"), none.label("b"),
               FabricSwitch.cluster_id.label("cluster_id"))
        .join(FabricSwitch, FabricSwitch.device_id == Device.id).where(FabricSwitch.cluster_id == cluster_id),
        select(literal(1), Cable.side_a_device_id, none, none, none, Cable.side_b_device_id, none)
        .where(Cable.side_a_device_id.in_(mine) | Cable.side_b_device_id.in_(mine))).subquery()
    with db.read_session() as s:
        rows = s.execute(select(both).order_by(both.c.cable, both.c.rail, both.c.name)).all()
    return ([(a, name, tier, rail, cid) for cable, a, name, tier, rail, _b, cid in rows if not cable],
            [(a, b) for cable, a, _n, _t, _r, b, _c in rows if cable])


@dataclass(frozen=True)
class HistoryRow:
    at: dt.datetime
    from_state: str | None
    to_state: str
    by: str
    reason: str


def node_history(db: Database, node: int | str) -> list[HistoryRow]:
    with db.session() as s:
        n = find_node_in(s, node)
        return [HistoryRow(*r) for r in s.execute(
            select(GpuNodeHistory.at, GpuNodeHistory.from_state, GpuNodeHistory.to_state, GpuNodeHistory.actor_login,
                   GpuNodeHistory.reason).where(GpuNodeHistory.node_id == n.id)
            .order_by(GpuNodeHistory.at.desc(), GpuNodeHistory.id.desc()))]


@dataclass(frozen=True)
class EventRow:
    id: int
    at: dt.datetime
    node: str
    gpu: str | None
    vendor: str
    code: str
    action: str
    note: str | None
    source: str


def health_events(db: Database, *, cluster: int | str | None = None, node: int | str | None = None,
                  limit: int = 500) -> list[EventRow]:
    """The newest events first (of a cluster, a node, or all)."""
    with db.session() as s:
        if node is not None:
            where = HealthEvent.node_id == find_node_in(s, node).id
        elif cluster is not None:
            where = GpuNode.cluster_id == find_cluster_in(s, cluster).id
        else:
            where = true()
        return _events_where(s, where, limit)


def _cluster_events(db: Database, cluster_id, limit: int) -> list[EventRow]:
    """A cluster's newest events by its id (or an expression of it: shown_cluster): one statement."""
    with db.read_session() as s:
        return _events_where(s, GpuNode.cluster_id == cluster_id, limit)


def _events_where(s, where, limit: int) -> list[EventRow]:
    q = (select(HealthEvent.id, HealthEvent.at, Device.name, GpuAsset.serial, HealthEvent.vendor, HealthEvent.code,
                HealthEvent.action, HealthEvent.note, HealthEvent.source)
         .join(GpuNode, GpuNode.id == HealthEvent.node_id).join(Device, Device.id == GpuNode.device_id)
         .outerjoin(GpuAsset, GpuAsset.id == HealthEvent.gpu_id).where(where))
    return [EventRow(*r) for r in s.execute(q.order_by(HealthEvent.at.desc(), HealthEvent.id.desc()).limit(limit))]


def burn_ins(db: Database, node: int | str) -> list[tuple]:
    with db.session() as s:
        n = find_node_in(s, node)
        return s.execute(select(NodeBurnIn.at, NodeBurnIn.dcgm_level, NodeBurnIn.passed, NodeBurnIn.duration_s,
                                NodeBurnIn.nccl_busbw_gbps, NodeBurnIn.expected_busbw_gbps, NodeBurnIn.source)
                         .where(NodeBurnIn.node_id == n.id).order_by(NodeBurnIn.at.desc())).all()


# --- utilisation ------------------------------------------------------------------------------------

ALLOCATED, AVAILABLE, HELD, TRIAGE, OTHER = "allocated", "available", "held", "triage", "other"
BUCKETS = (ALLOCATED, AVAILABLE, HELD, TRIAGE, OTHER)


def utilisation(db: Database) -> list[tuple[str, str, dict[str, int]]]:
    """(GPU model, site code, {bucket: GPUs}) of every GPU in a node: allocated (node allocated),
    available (node available, not in maintenance, not held), held, triage (triage or RMA), other
    (onboarding, burn-in, draining, maintenance, retired).

    One statement, counted in the database: the GPUs per server and model first (from the index on
    gpu_asset's device and model alone), then per cluster, model, node state, maintenance flag and
    whether a hold holds the node now, the names joined last (issue 26: on the large data, 400,000
    GPUs, 195 -> 136 ms on PostgreSQL, 342 -> 81 ms on SQLite, and no GPU brought into Python when a
    hold exists)."""
    with db.read_session() as s:
        return _utilisation_of(s.execute(_utilisation_query()).all())


def _utilisation_query():
    """(cluster id, GPU model, site code, node state, maintenance, held now, GPUs) of every GPU in a node."""
    held = GpuNode.id.in_(select(capacity_hold_node.c.node_id)
                          .join(CapacityHold, CapacityHold.id == capacity_hold_node.c.hold_id)
                          .where(holding_condition(dt.datetime.now(dt.timezone.utc))))
    per_node = _per_node_gpus()
    x = (select(GpuNode.cluster_id, per_node.c.gpu_model_id, GpuNode.state, GpuNode.maintenance,
                held.label("held"), cast(func.sum(per_node.c.n), Integer).label("n"))
         .join(GpuNode, GpuNode.device_id == per_node.c.device_id)
         .group_by(GpuNode.cluster_id, per_node.c.gpu_model_id, GpuNode.state, GpuNode.maintenance, held)).subquery()
    return (select(x.c.cluster_id, GpuModel.name, Site.code, x.c.state, x.c.maintenance, x.c.held, x.c.n)
            .join(GpuModel, GpuModel.id == x.c.gpu_model_id).join(GpuCluster, GpuCluster.id == x.c.cluster_id)
            .join(Site, Site.id == GpuCluster.site_id))


def _utilisation_of(groups) -> list[tuple[str, str, dict[str, int]]]:
    out: dict[tuple[str, str], Counter] = {}
    for _cid, model, site, state, maint, is_held, n in groups:
        out.setdefault((model, site), Counter())[_bucket(state, maint, bool(is_held))] += int(n)
    return [(m, site, {b: c.get(b, 0) for b in BUCKETS}) for (m, site), c in sorted(out.items())]


def _per_node_gpus():
    """GPUs per server and model (device_id, gpu_model_id, n): the counts kept beside the GPUs
    (device_gpu_count, models/gpu.follow_gpu_places), one row a server and model, so that the nodes
    join 50,000 rows and no GPU is read (migration 0042: it was an index-only scan of 391,613 GPUs in
    every statement on the large data)."""
    return select(DeviceGpuCount.device_id, DeviceGpuCount.gpu_model_id, DeviceGpuCount.n).subquery()


def _bucket(state: str, maintenance: bool, held: bool) -> str:
    if state in (NodeState.TRIAGE, NodeState.RMA):
        return TRIAGE
    if state == NodeState.ALLOCATED:
        return ALLOCATED
    if state == NodeState.AVAILABLE and not maintenance:
        return HELD if held else AVAILABLE
    return OTHER




@dataclass(frozen=True)
class HeldGroup:
    """A hold's GPUs in one (GPU model, site) bar of the utilisation chart."""

    number: str
    expires_at: dt.datetime
    model: str
    site: str
    gpus: int


def utilisation_holds(db: Database, *, now: dt.datetime | None = None) -> list[HeldGroup]:
    """The holds that hold GPUs now, per GPU model and site (what the chart's held bars are made
    of), the soonest to expire first."""
    now = now or dt.datetime.now(dt.timezone.utc)
    with db.session() as s:
        rows = s.execute(
            select(CapacityHold.number, CapacityHold.expires_at, GpuModel.name, Site.code, func.count(GpuAsset.id))
            .join(capacity_hold_node, capacity_hold_node.c.hold_id == CapacityHold.id)
            .join(GpuNode, GpuNode.id == capacity_hold_node.c.node_id)
            .join(GpuAsset, GpuAsset.device_id == GpuNode.device_id)
            .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
            .join(GpuCluster, GpuCluster.id == GpuNode.cluster_id).join(Site, Site.id == GpuCluster.site_id)
            .where(holding_condition(now))
            .group_by(CapacityHold.number, CapacityHold.expires_at, GpuModel.name, Site.code)
            .order_by(CapacityHold.expires_at, CapacityHold.number, GpuModel.name, Site.code)).all()
        return [HeldGroup(*r) for r in rows]

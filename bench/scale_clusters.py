"""The large data's GPU clusters (issue 25): every GPU server of the large fleet (~49,000 8-GPU
servers in the liquid-cooled rooms, bench/scale.py GPU_RACK_SHARE) becomes a node of one of about 500
clusters (its site's servers in runs; NVIDIA ones on rail-optimised InfiniBand
NDR with 8 rails, Huawei ones on RoCE), the site's IB switches as leaves (by rail) and spines; the
first cluster has 1,000 nodes and its 8,000 node → leaf cables (the benchmark's topology picture);
node states from the GPUs' (leased → allocated, else mostly available, a few draining, in triage,
RMA, burn-in, onboarding, maintenance), one history row per node; 2,000,000 health events (XIDs and
Ascend codes from the catalogue, with its action) over the past year.

Called by bench/scale.py after its bulk tables, on the same bulk writer; deterministic from its
seed; explicit ids like the rest of the large data (not audited: reconcile counts them as such).
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Callable, Iterator

from app.domain.health import catalogue

from .scale_coloc import _rows

SEED = 20261201
N_CLUSTERS, N_EVENTS, BIG = 500, 2_000_000, 1_000
CLUSTER_COLS = ("id", "name", "site_id", "fabric", "rails", "storage_network", "management_network", "note",
                "version", "updated_at", "updated_by")
NODE_COLS = ("id", "device_id", "cluster_id", "domain_id", "state", "maintenance", "state_reason", "state_by",
             "state_at", "version", "updated_at", "updated_by")
SWITCH_COLS = ("id", "cluster_id", "device_id", "tier", "rail", "version", "updated_at", "updated_by")
HISTORY_COLS = ("id", "node_id", "from_state", "to_state", "at", "actor_login", "reason")
CABLE_COLS = ("id", "side_a_device_id", "side_a_type", "side_a_name", "side_b_device_id", "side_b_type", "side_b_name",
              "type", "status", "label", "color", "length", "length_unit", "version", "updated_at", "updated_by")
EVENT_COLS = ("id", "node_id", "gpu_id", "at", "vendor", "code", "action", "note", "source")
FREE_STATES = (("available", 86), ("draining", 2), ("triage", 2), ("rma", 1), ("burn_in", 5), ("onboarding", 4))
# The share of nodes left free for sale (available, every GPU available, no lease, named by no contract):
# a provider keeps 10-15 % of its fleet to sell; spread over the clusters (runs of racks), so that every
# large fabric has a few dozen free GPUs of its model and "64 H100 in one fabric" finds an offer.
FREE_SHARE = 0.12


def _ts(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S.%f")


def write_clusters(w, today: dt.date, progress: Callable[[str], None], *, n_clusters: int = N_CLUSTERS,
                   n_events: int = N_EVENTS, big: int = BIG) -> tuple[int, int, int]:
    """Write the clusters, nodes, switches, the big cluster's cables, history and health events;
    returns (clusters, nodes, events)."""
    rng = random.Random(SEED)
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None, microsecond=0)
    stamp = _ts(now)
    servers = _rows(w, "SELECT d.id, s.id, s.code, COALESCE(m.vendor, 'NVIDIA') FROM device d "
                       "JOIN device_type t ON t.id = d.device_type_id JOIN rack r ON r.id = d.rack_id "
                       "JOIN room o ON o.id = r.room_id JOIN site s ON s.id = o.site_id "
                       "LEFT JOIN gpu_model m ON m.id = t.gpu_model_id "
                       "WHERE t.gpu_slots > 0 AND NOT EXISTS (SELECT 1 FROM gpu_node n WHERE n.device_id = d.id) "
                       "ORDER BY s.id, COALESCE(m.vendor, 'NVIDIA'), d.id")
    if not servers:
        return 0, 0, 0
    leased = {d for (d,) in _rows(w, "SELECT DISTINCT device_id FROM gpu_asset WHERE state = 'leased' "
                                     "AND device_id IS NOT NULL")}
    free = _free_servers(w, rng, [row[0] for row in servers], leased)
    switches: dict[int, list[int]] = {}
    for dev_id, site_id in _rows(w, "SELECT d.id, o.site_id FROM device d JOIN device_type t ON t.id = d.device_type_id "
                                    "JOIN rack r ON r.id = d.rack_id JOIN room o ON o.id = r.room_id "
                                    "WHERE t.role = 'switch' AND t.slug = 'nvidia-qm9700' "
                                    "AND NOT EXISTS (SELECT 1 FROM fabric_switch f WHERE f.device_id = d.id) "
                                    "ORDER BY o.site_id, d.id"):
        switches.setdefault(site_id, []).append(dev_id)
    base = {t: _rows(w, f'SELECT COALESCE(MAX(id), 0) FROM "{t}"')[0][0] or 0
            for t in ("gpu_cluster", "gpu_node", "fabric_switch", "gpu_node_history", "cable", "health_event")}
    groups: dict[tuple[int, str], list[tuple]] = {}  # (site, vendor) -> servers: a cluster is one vendor's
    for row in servers:
        groups.setdefault((row[1], row[3]), []).append(row)
    # the benchmark's cluster: the first `big` NVIDIA servers of the site that has the most
    big_key = max(groups, key=lambda k: (k[1] != "Huawei", len(groups[k])))
    total = len(servers)
    clusters, nodes, fabric_switches, cables = [], [], [], []
    node_vendor: list[tuple[int, str]] = []
    cid, nid, swid, cabid = base["gpu_cluster"], base["gpu_node"], base["fabric_switch"], base["cable"]
    weights = [w_ for _s, w_ in FREE_STATES]
    pools = {site: list(devs) for site, devs in switches.items()}
    for key in sorted(groups, key=lambda k: (k != big_key, k)):
        rows = groups[key]
        site_id, code, nvidia = key[0], rows[0][2], key[1] != "Huawei"
        k = max(1, round(n_clusters * len(rows) / total))
        size = max(1, -(-len(rows) // k))
        chunks, start = [], 0
        if key == big_key:
            chunks.append(rows[:big])
            start = min(big, len(rows))
        chunks += [rows[i:i + size] for i in range(start, len(rows), size)]
        pool = pools.get(site_id, [])
        for j, chunk in enumerate(chunks, start=1):
            cid += 1
            wired = key == big_key and j == 1
            fabric, rails = ("infiniband_ndr", 8) if nvidia else ("roce", None)
            clusters.append((cid, f"{code}-{'IB' if nvidia else 'RoCE'}-{j:03d}", site_id, fabric, rails,
                             f"{code} storage 200GbE", f"{code} OOB 1GbE", "large data", 1, stamp, "system"))
            leaves: list[tuple[int, int | None]] = []
            if nvidia and len(pool) >= 3:  # 8 leaves (one per rail) and 2 spines, or what the site has
                n_leaves = min(8, len(pool) - 2)
                mine, pool[:] = pool[:n_leaves + 2], pool[n_leaves + 2:]
                for r, dev in enumerate(mine[:n_leaves], start=1):
                    swid += 1
                    fabric_switches.append((swid, cid, dev, "leaf", r, 1, stamp, "system"))
                    leaves.append((dev, r))
                for dev in mine[n_leaves:]:
                    swid += 1
                    fabric_switches.append((swid, cid, dev, "spine", None, 1, stamp, "system"))
            for i, (dev, _site, _code, _vendor) in enumerate(chunk, start=1):
                nid += 1
                state = "allocated" if dev in leased else rng.choices(FREE_STATES, weights)[0][0]
                maintenance = rng.random() < 0.01
                if dev in free:
                    state, maintenance = "available", False
                nodes.append((nid, dev, cid, None, state, maintenance, "large data", "system", stamp, 1,
                              stamp, "system"))
                node_vendor.append((nid, "nvidia" if nvidia else "ascend"))
                if wired:
                    for r_dev, r in leaves:
                        cabid += 1
                        cables.append((cabid, dev, "dcim.interface", f"mlx5_{r - 1}", r_dev, "dcim.interface",
                                       f"p{i}", "aoc", "connected", None, None, None, None, 1, stamp, "system"))
    progress(f"writing {len(clusters):,} GPU clusters, {len(nodes):,} nodes, {len(fabric_switches):,} switches, "
             f"{len(cables):,} fabric cables")
    w.write("gpu_cluster", CLUSTER_COLS, clusters)
    w.write("gpu_node", NODE_COLS, nodes)
    w.write("fabric_switch", SWITCH_COLS, fabric_switches)
    w.write("cable", CABLE_COLS, cables)
    w.write("gpu_node_history", HISTORY_COLS, ((base["gpu_node_history"] + i, n[0], None, n[4], stamp, "system",
                                                "large data") for i, n in enumerate(nodes, start=1)))
    progress(f"writing {n_events:,} health events")
    n = w.write("health_event", EVENT_COLS, _events(rng, node_vendor, now, base["health_event"], n_events))
    return len(clusters), len(nodes), n


def _free_servers(w, rng: random.Random, devices: list[int], leased: set[int]) -> set[int]:
    """FREE_SHARE of the servers, among those no lease and no contract item holds, left for sale:
    their GPUs set available (the fleet's plan left some in maintenance or burn-in, GPU by GPU, so
    that hardly a whole server was free). Runs of consecutive servers (a rack's worth), so that
    offers can keep racks together."""
    named = {d for (d,) in _rows(w, "SELECT DISTINCT g.device_id FROM gpu_asset g "
                                    "JOIN contract_item_gpu c ON c.gpu_id = g.id WHERE g.device_id IS NOT NULL")}
    open_ = [d for d in devices if d not in leased and d not in named]
    want = min(len(open_), round(FREE_SHARE * len(devices)))
    picked: set[int] = set()
    run = 8
    starts = list(range(0, len(open_), run))
    rng.shuffle(starts)
    for i in starts:
        if len(picked) >= want:
            break
        picked.update(open_[i:i + run][:want - len(picked)])
    ids = sorted(picked)
    for i in range(0, len(ids), 5000):  # ids are integers of our own: written into the statement
        w.execute("UPDATE gpu_asset SET state = 'available' WHERE device_id IN (%s)" % ",".join(map(str, ids[i:i + 5000])))
    return picked


def _events(rng: random.Random, node_vendor: list[tuple[int, str]], now: dt.datetime, base: int,
            n: int) -> Iterator[tuple]:
    faults = {v: catalogue(v) for v in ("nvidia", "ascend")}
    # mostly what restarts a job or is only logged; a few that drain or need service
    weights = {v: [30 if f.action in ("none", "restart_app") else (6 if f.action == "reset_gpu" else 1) for f in fs]
               for v, fs in faults.items()}
    year = 365 * 86400
    for i in range(1, n + 1):
        node_id, vendor = node_vendor[rng.randrange(len(node_vendor))]
        f = rng.choices(faults[vendor], weights[vendor])[0]
        at = now - dt.timedelta(seconds=rng.randrange(year))
        yield (base + i, node_id, None, _ts(at), vendor, f.code, f.action, None, "large data")

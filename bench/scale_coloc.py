"""The large data's colocation book (issue 15): partial rack leases (U ranges) and cross-connects.

Called by app/scale.py after its bulk tables are written, on the same bulk writer. A colocation
rack that is not leased whole keeps its hosted servers; the longest run of units free on both
faces is leased in two or three U ranges to different customers (some ranges ended), so no lease
holds another customer's device. About half of the live ranges order one to three cross-connects
through their site's meet-me room, in every lifecycle state with consistent dates.
Deterministic from its seed; rows written with explicit ids like the rest of the large data.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Callable

from models.choices import XconnectMedium, XconnectPeer, XconnectState

SEED = 20261130
LEASE_COLS = ("id", "rack_id", "customer_id", "face", "u_from", "u_to", "start_date", "end_date", "cage_id",
              "contract_item_id", "note", "version", "updated_at", "updated_by")
XC_COLS = ("id", "reference", "customer_id", "rack_id", "panel", "port", "mmr_panel", "mmr_port", "peer_kind",
           "peer_name", "peer_customer_id", "peer_port", "medium", "state", "circuit_id", "ordered_date",
           "installed_date", "active_date", "disconnected_date", "work_note", "contract_item_id", "version",
           "updated_at", "updated_by")
CARRIERS = ["中国电信", "中国联通", "中国移动", "中信国际电讯", "鹏博士"]
CLOUDS = ["阿里云高速通道", "腾讯云专线接入", "华为云云专线", "AWS Direct Connect", "Azure ExpressRoute"]


def _rows(w, sql: str) -> list[tuple]:
    cur = w.conn.cursor()
    cur.execute(sql)
    out = cur.fetchall()
    cur.close()
    return out


def _longest_free_run(used: set[int], height: int) -> tuple[int, int]:
    best, start = (1, 0), None
    for u in range(1, height + 2):
        if u <= height and u not in used:
            start = u if start is None else start
        elif start is not None:
            if u - start > best[1] - best[0] + 1:
                best = (start, u - 1)
            start = None
    return best


def write_coloc(w, today: dt.date, progress: Callable[[str], None]) -> tuple[int, int]:
    """Write the partial leases and cross-connects; returns their counts."""
    rng = random.Random(SEED)
    stamp = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None).strftime("%Y-%m-%d %H:%M:%S.%f")
    racks = _rows(w, "SELECT r.id, r.u_height, r.name, s.code FROM rack r JOIN room m ON m.id = r.room_id "
                     "JOIN site s ON s.id = m.site_id WHERE r.status = 'available' AND r.customer_id IS NULL "
                     "AND r.cage_id IS NULL ORDER BY r.id")
    used: dict[int, set[int]] = {}
    for rack_id, pos, h in _rows(w, "SELECT d.rack_id, CAST(d.position AS INTEGER), CAST(t.u_height AS INTEGER) "
                                    "FROM device d JOIN device_type t ON t.id = d.device_type_id "
                                    "WHERE d.position IS NOT NULL"):
        used.setdefault(rack_id, set()).update(range(pos, pos + max(1, h)))
    customers = [c for (c,) in _rows(w, "SELECT id FROM customer ORDER BY id")]
    lease_id = (_rows(w, "SELECT COALESCE(MAX(id), 0) FROM space_lease")[0][0] or 0)
    xc_id = (_rows(w, "SELECT COALESCE(MAX(id), 0) FROM cross_connect")[0][0] or 0)
    leases, xcs = [], []
    mmr_next: dict[str, int] = {}
    for rack_id, height, rack_name, site in racks:
        lo, height = _longest_free_run(used.get(rack_id, set()), height)  # both faces free (leases: both)
        if height - lo + 1 < 6:
            continue
        cuts = sorted(rng.sample(range(lo + 2, height - 1), rng.choice([1, 2])))
        bounds = list(zip([lo] + cuts, [c - 1 for c in cuts] + [height]))
        lessees = rng.sample(customers, len(bounds))
        for (u_from, u_to), cust in zip(bounds, lessees):
            start = today - dt.timedelta(days=rng.randrange(30, 700))
            ended = rng.random() < 0.15
            end = (today - dt.timedelta(days=rng.randrange(1, 25))) if ended else \
                (None if rng.random() < 0.3 else today + dt.timedelta(days=rng.randrange(30, 900)))
            lease_id += 1
            leases.append((lease_id, rack_id, cust, None, u_from, u_to, start.isoformat(),
                           end.isoformat() if end else None, None, None, "partial rack (large data)", 1, stamp,
                           "system"))
            if ended or rng.random() < 0.5:
                continue
            for port in range(1, rng.randint(1, 3) + 1):
                xc_id += 1
                kind = rng.choice([XconnectPeer.CARRIER, XconnectPeer.CARRIER, XconnectPeer.CLOUD,
                                   XconnectPeer.CUSTOMER])
                peer_customer = rng.choice([c for c in customers[:50] if c != cust]) \
                    if kind == XconnectPeer.CUSTOMER else None
                peer = rng.choice(CARRIERS if kind == XconnectPeer.CARRIER else CLOUDS) if kind != \
                    XconnectPeer.CUSTOMER else f"customer {peer_customer}"
                state = rng.choice(XconnectState.values())
                ordered = start + dt.timedelta(days=rng.randrange(0, max(1, (today - start).days - 20)))
                installed = ordered + dt.timedelta(days=rng.randrange(3, 10)) \
                    if state in (XconnectState.INSTALLED, XconnectState.ACTIVE) or \
                    (state == XconnectState.DISCONNECTED and rng.random() < 0.8) else None
                active = installed + dt.timedelta(days=rng.randrange(0, 4)) if installed and \
                    state in (XconnectState.ACTIVE, XconnectState.DISCONNECTED) else None
                gone = ((active or installed or ordered) + dt.timedelta(days=rng.randrange(1, 30))) \
                    if state == XconnectState.DISCONNECTED else None
                mmr_next[site] = mmr_next.get(site, 0) + 1
                n = mmr_next[site]
                circuit = f"{site}-{kind[:2].upper()}-{xc_id:07d}" if active else None
                xcs.append((xc_id, f"XC-{xc_id:06d}", cust, rack_id, f"PP-{rack_name}-{u_from:02d}", str(port),
                            f"MMR-ODF-{(n - 1) // 144 + 1:02d}", str((n - 1) % 144 + 1), kind, peer, peer_customer,
                            None, rng.choice(XconnectMedium.values()), state, circuit, ordered.isoformat(),
                            installed.isoformat() if installed else None, active.isoformat() if active else None,
                            min(gone, today).isoformat() if gone else None, None, None, 1, stamp, "system"))
    progress(f"writing {len(leases):,} partial rack leases and {len(xcs):,} cross-connects")
    w.write("space_lease", LEASE_COLS, leases)
    w.write("cross_connect", XC_COLS, xcs)
    return len(leases), len(xcs)

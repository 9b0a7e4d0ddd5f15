"""The large data's operations desk (issue 24): 200,000 tickets over the past year with their
histories (every state move and priority change as the service writes them), 10,000 of them open,
1,000,000 timeline notes, 10,000 maintenance windows with their impact rows (a share of them
noticed in time, so that the SLA clocks exclude them), one large customer raising a twentieth of
all tickets (the benchmark's monthly SLA report).

Called by bench/scale.py after its bulk tables, on the same bulk writer; deterministic from its
seed; explicit ids like the rest of the large data (not audited: reconcile counts them as such).
The SLA clock is still computed from these events: nothing of it is stored.
"""
from __future__ import annotations

import datetime as dt
import random
from typing import Callable, Iterator

from .scale_coloc import _rows

SEED = 20261202
N_TICKETS, N_OPEN, N_NOTES, N_WINDOWS = 200_000, 10_000, 1_000_000, 10_000
BIG_SHARE = 0.05          # of the tickets, raised by the largest customer
TICKET_COLS = ("id", "number", "kind", "state", "priority", "title", "customer_id", "contact_id", "channel",
               "contract_id", "site_id", "assignee_id", "opened_at", "opened_by", "resolved_at", "closed_at",
               "escalation", "version", "updated_at", "updated_by")
EVENT_COLS = ("id", "ticket_id", "at", "actor", "kind", "from_value", "to_value", "note", "visibility")
WINDOW_COLS = ("id", "site_id", "title", "target_kind", "rack_id", "planned_start", "planned_end", "state",
               "emergency", "emergency_reason", "noticed_at", "actual_start", "actual_end", "contact", "version",
               "updated_at", "updated_by")
IMPACT_COLS = ("id", "maintenance_id", "customer_id", "object_type", "object_id", "object_label", "impact",
               "contract_id", "why")
PRIORITIES = (("P1", 3), ("P2", 12), ("P3", 45), ("P4", 40))
KINDS = (("incident", 45), ("remote_hands", 35), ("service_request", 12), ("shipment", 5), ("site_visit", 3))
OPEN_STATES = (("new", 8), ("acknowledged", 22), ("on_site", 10), ("in_progress", 35), ("waiting_customer", 15),
               ("waiting_vendor", 10))
TITLES = {"incident": "GPU 服务器宕机 server down", "remote_hands": "远程协助 reboot / cable",
          "service_request": "服务请求 service request", "shipment": "到货签收 inbound shipment",
          "site_visit": "进场访问 site visit"}
NOTES = ("已电话联系客户 called the customer", "已更换电源模块 PSU swapped", "等待厂商备件 waiting for the part",
         "已拍照上传 photos attached", "客户确认恢复 customer confirms service is back")


def _ts(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M:%S.%f")


def _weighted(rng: random.Random, table):
    return rng.choices([v for v, _w in table], weights=[w for _v, w in table])[0]


class _Ids:
    def __init__(self, w, *tables: str):
        self.next = {t: (w.scalar(f'SELECT COALESCE(MAX(id), 0) FROM "{t}"') or 0) for t in tables}

    def __call__(self, table: str) -> int:
        self.next[table] += 1
        return self.next[table]


def _history(rng: random.Random, opened: dt.datetime, final: str, priority: str, minutes: int
             ) -> list[tuple[dt.datetime, str, str | None, str]]:
    """(at, kind, from, to) of one ticket's moves after its opening, ending in `final`."""
    at, out, state = opened, [], "new"

    def move(to: str, gap: int) -> None:
        nonlocal at, state
        at = at + dt.timedelta(minutes=max(1, gap))
        out.append((at, "state", state, to))
        state = to
    if final == "new":
        return out
    move("acknowledged", rng.randint(1, max(2, minutes // 8)))
    if rng.random() < 0.05:   # a priority changed mid-ticket
        at = at + dt.timedelta(minutes=rng.randint(1, 30))
        to = {"P1": "P2", "P2": "P1", "P3": "P2", "P4": "P3"}[priority]
        out.append((at, "priority", to, priority))   # the ticket's current priority is the last to_value
    if final == "acknowledged":
        return out
    if rng.random() < 0.5 or final == "on_site":
        move("on_site", rng.randint(10, 120))
        if final == "on_site":
            return out
    move("in_progress", rng.randint(5, 60))
    if final == "in_progress":
        return out
    if rng.random() < 0.3 or final in ("waiting_customer", "waiting_vendor"):
        move(final if final.startswith("waiting") else rng.choice(("waiting_customer", "waiting_vendor")),
             rng.randint(10, 240))
        if final.startswith("waiting"):
            return out
        move("in_progress", rng.randint(30, 1440))
    move("resolved", rng.randint(10, minutes))
    if final == "closed":
        move("closed", rng.randint(60, 4320))
    return out


def write_ops(w, today: dt.date, progress: Callable[[str], None], *, n_tickets: int = N_TICKETS,
              n_open: int = N_OPEN, n_notes: int = N_NOTES, n_windows: int = N_WINDOWS) -> tuple[int, int, int]:
    """Write the tickets, their timelines and the maintenance windows; returns (tickets, events, windows)."""
    rng = random.Random(SEED)
    contracts = _rows(w, "SELECT c.id, c.customer_id FROM contract c WHERE c.status = 'active' ORDER BY c.id")
    sites = [r[0] for r in _rows(w, "SELECT id FROM site ORDER BY id")]
    users = [r for r in _rows(w, "SELECT id, login FROM app_user WHERE role = 'operator' ORDER BY id")] or \
        [r for r in _rows(w, "SELECT id, login FROM app_user ORDER BY id")]
    if not contracts or not sites or not users:
        return 0, 0, 0
    contacts: dict[int, list[int]] = {}
    for cid, cust in _rows(w, "SELECT id, customer_id FROM contact ORDER BY id"):
        contacts.setdefault(cust, []).append(cid)
    counts = {}
    for _cid, cust in contracts:
        counts[cust] = counts.get(cust, 0) + 1
    big = max(counts, key=lambda c: (counts[c], -c))
    big_contracts = [c for c in contracts if c[1] == big]
    ids = _Ids(w, "ticket", "ticket_event", "maintenance_window", "maintenance_impact")
    now = dt.datetime.combine(today, dt.time(12)) - dt.timedelta(hours=8)   # naive UTC, like the stored times
    span = dt.timedelta(days=365).total_seconds()
    stamp = _ts(now)
    tickets, events = [], []
    progress(f"planning {n_tickets:,} tickets ({n_open:,} open) with their histories")
    for k in range(n_tickets):
        is_open = k >= n_tickets - n_open          # the most recent ones are still open
        if is_open:
            opened = now - dt.timedelta(seconds=rng.uniform(600, 14 * 86400))
        else:
            opened = now - dt.timedelta(seconds=span * (1 - k / n_tickets) + rng.uniform(0, 3600))
        contract_id, customer_id = rng.choice(big_contracts) if rng.random() < BIG_SHARE else rng.choice(contracts)
        priority, kind = _weighted(rng, PRIORITIES), _weighted(rng, KINDS)
        final = _weighted(rng, OPEN_STATES) if is_open else "closed"
        tid = ids("ticket")
        history = _history(rng, opened, final, priority, {"P1": 240, "P2": 480, "P3": 1440, "P4": 4320}[priority])
        history = [h for h in history if h[0] < now]
        state = next((h[3] for h in reversed(history) if h[1] == "state"), "new")
        resolved = next((h[0] for h in reversed(history) if h[3] == "resolved"), None)
        closed = next((h[0] for h in reversed(history) if h[3] == "closed"), None)
        assignee_id, login = rng.choice(users)
        year = (opened + dt.timedelta(hours=8)).year
        tickets.append((tid, f"T-{year}-{tid:06d}", kind, state, priority, TITLES[kind], customer_id,
                        rng.choice(contacts[customer_id]) if contacts.get(customer_id) else None,
                        rng.choice(("phone", "email", "in_person")), contract_id, rng.choice(sites), assignee_id,
                        _ts(opened), login, _ts(resolved) if resolved else None, _ts(closed) if closed else None,
                        0, 1 + len(history), stamp, login))
        events.append((ids("ticket_event"), tid, _ts(opened), login, "open", None, "new", None, "internal"))
        for at, ev_kind, frm, to in history:
            events.append((ids("ticket_event"), tid, _ts(at), login, ev_kind, frm, to, None, "internal"))
    progress(f"writing {len(tickets):,} tickets and {len(events):,} state and priority events")
    w.write("ticket", TICKET_COLS, tickets)
    n_events = w.write("ticket_event", EVENT_COLS, events)
    opened_at = {t[0]: t[12] for t in tickets}
    first_id, last_id = tickets[0][0], tickets[-1][0]
    del tickets, events

    def notes() -> Iterator[tuple]:
        for _ in range(n_notes):
            tid = rng.randint(first_id, last_id)
            yield (ids("ticket_event"), tid, opened_at[tid], rng.choice(users)[1], "note", None, None,
                   rng.choice(NOTES), rng.choice(("internal", "internal", "customer")))
    progress(f"writing {n_notes:,} timeline notes")
    n_events += w.write("ticket_event", EVENT_COLS, notes())
    n_windows = _write_windows(w, rng, ids, now, contracts, n_windows, progress)
    return last_id - first_id + 1, n_events, n_windows


def _write_windows(w, rng: random.Random, ids: _Ids, now: dt.datetime, contracts, n: int, progress) -> int:
    """Maintenance windows over the past three years on racks, each affecting one to five contracts
    (outage or reduced redundancy); nine in ten noticed 96 h ahead (excluded from the SLA clocks)."""
    racks = _rows(w, "SELECT r.id, r.name, o.site_id FROM rack r JOIN room o ON o.id = r.room_id ORDER BY r.id")
    if not racks:
        return 0
    windows, impacts = [], []
    for k in range(n):
        rack_id, rack_name, site_id = rng.choice(racks)
        start = now - dt.timedelta(days=3 * 365 * (1 - k / n)) + dt.timedelta(hours=rng.randint(-48, 48))
        end = start + dt.timedelta(hours=rng.choice((1, 2, 4, 6)))
        future = start > now
        state = "confirmed" if future else rng.choice(("completed",) * 9 + ("cancelled",))
        noticed = start - dt.timedelta(hours=96 if rng.random() < 0.9 else 12)
        wid = ids("maintenance_window")
        windows.append((wid, site_id, f"机柜维护 rack maintenance {rack_name}", "rack", rack_id, _ts(start), _ts(end),
                        state, False, None, _ts(noticed),
                        _ts(start) if state == "completed" else None, _ts(end) if state == "completed" else None,
                        "NOC 400-800-0000", 1, _ts(noticed), "scale"))
        for contract_id, customer_id in rng.sample(contracts, rng.randint(1, 5)):
            impacts.append((ids("maintenance_impact"), wid, customer_id, "rack", rack_id, rack_name,
                            rng.choice(("outage", "reduced_redundancy")), contract_id, "rack maintenance"))
    progress(f"writing {len(windows):,} maintenance windows and {len(impacts):,} impact rows")
    w.write("maintenance_window", WINDOW_COLS, windows)
    w.write("maintenance_impact", IMPACT_COLS, impacts)
    return len(windows)

"""A large synthetic provider for measuring the console at scale (`demo load --scale large`).

20 sites, 200 rooms, 10,000 racks (7,000 of them GPU racks holding ~49,000 8-GPU servers, the
clusters' nodes), 100,000 devices, 400,000 GPUs in every lifecycle state,
5,000 customers, 20,000 contracts with items, twelve months of GPU leases and daily rack
meter readings, and 2,000,000 audit events in a valid hash chain, spread over twenty people
as their roles would (operators move GPUs and devices, account managers draft contracts, an
administrator approves; logins by role). Then what a few months of use leave behind, through
the services themselves: three months billed and issued, credit notes (full and partial), and
one bank file of receipts paying 90 % of the oldest month's statements, imported by the
`payments import` use case. The last ended month is left unbilled for the benchmark's run.

Unlike the small demo, the bulk rows do not go through the services (that would take hours):
they are generated in memory with explicit ids, deterministically from one seed, and written
with sqlite3 `executemany` (foreign-key checks off, synchronous off for the load) or
PostgreSQL `COPY`. The users, the regions and the reference data still go through the
services, and the synthetic audit events continue the chain those left, hashed exactly as
`app.audit.trail.event_hash` does, so `audit verify` passes afterwards.
"""
from __future__ import annotations

import datetime as dt
import random
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from sqlalchemy import func, select

from models import AuditEvent, GpuModel, Region, Subsidiary, User
from models.billing import refresh_busy_until
from models.gpu import refresh_device_gpus
from models.choices import ContractStatus, GpuState, Role

from app import __version__
from app.domain.actor import Actor
from app.audit.trail import GENESIS_HASH, HASHED_FIELDS, canonical_json, event_hash
from app.domain.clock import TZ
from app.store.db import Database
from app.demo.load import COVERAGE, CONTACT_NAMES, DEVICE_TYPES, SITES, SUBSIDIARIES, SUBSIDIARIES_EN, ensure_demo_users
from app.domain.errors import RuleViolation
from app.services.reference import load_regions
from app.domain.validators import make_uscc

SEED = 20261129
N_SITES, ROOMS_PER_SITE, RACKS_PER_ROOM = 20, 10, 50          # 200 rooms, 10,000 racks
N_DEVICES, N_GPUS = 100_000, 400_000
N_CUSTOMERS, N_CONTRACTS = 5_000, 20_000
N_AUDIT = 2_000_000
GPU_RACK_SHARE = 0.7   # rooms with liquid cooling and GPU racks (7 of 10: ~49,000 8-GPU servers); the rest colocation
BATCH = 20_000
TZ_OFFSET = TZ.utcoffset(dt.datetime(2026, 1, 1))             # app.domain.clock.TZ; Shanghai has no DST

Progress = Callable[[str], None]


@dataclass(frozen=True)
class LargeSummary:
    sites: int
    rooms: int
    racks: int
    devices: int
    gpus: int
    customers: int
    contracts: int
    contract_items: int
    gpu_leases: int
    meter_readings: int
    audit_events: int
    seconds: float
    statements: int = 0  # issued, over the billed months
    credit_notes: int = 0
    payments: int = 0
    billed_months: tuple[str, ...] = ()

    def __str__(self) -> str:
        return (f"large provider loaded in {self.seconds:.0f} s: {self.sites} sites, {self.rooms} rooms, "
                f"{self.racks:,} racks, {self.devices:,} devices, {self.gpus:,} GPUs, {self.customers:,} customers, "
                f"{self.contracts:,} contracts ({self.contract_items:,} items), {self.gpu_leases:,} GPU leases, "
                f"{self.meter_readings:,} meter readings, {self.audit_events:,} audit events; "
                f"{', '.join(self.billed_months) or 'no month'} billed: {self.statements:,} statements issued, "
                f"{self.credit_notes:,} credit notes, {self.payments:,} receipts imported")


# --- value formatting: the same text on SQLite (what SQLAlchemy stores) and in PostgreSQL COPY -----

def _ts(t: dt.datetime) -> str:
    """Naive-UTC text with microseconds, exactly as SQLAlchemy writes DateTime on SQLite."""
    return t.strftime("%Y-%m-%d %H:%M:%S.%f")


def _local_midnight_utc(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day) - TZ_OFFSET


# --- writers -----------------------------------------------------------------------

class _Writer:
    """Bulk rows into one table at a time, on the raw driver connection."""

    def __init__(self, db: Database):
        self.db = db
        self.sqlite = db.is_sqlite
        self.raw = db.engine.raw_connection()
        self.conn = self.raw.driver_connection
        self.counts: dict[str, int] = {}
        if self.sqlite:
            self.conn.commit()
            cur = self.conn.cursor()
            cur.execute("PRAGMA foreign_keys=OFF")  # ids are generated consistently; checked by the tests
            cur.execute("PRAGMA synchronous=OFF")
            cur.execute("PRAGMA cache_size=-262144")
            cur.execute("PRAGMA temp_store=MEMORY")
            cur.close()

    def write(self, table: str, columns: tuple[str, ...], rows: Iterable[tuple]) -> int:
        """Rows into an empty-ish table; its secondary indexes are dropped first and built after."""
        from sqlalchemy.schema import CreateIndex

        from models import Base

        indexes = [ix for ix in Base.metadata.tables[table].indexes if not ix.unique]
        for ix in indexes:
            self.execute(f'DROP INDEX IF EXISTS "{ix.name}"')
        try:
            return self._write(table, columns, rows)
        finally:
            for ix in indexes:
                self.execute(str(CreateIndex(ix).compile(dialect=self.db.engine.dialect)))

    def _write(self, table: str, columns: tuple[str, ...], rows: Iterable[tuple]) -> int:
        n = 0
        cols = ", ".join(f'"{c}"' for c in columns)
        if self.sqlite:
            sql = f'INSERT INTO "{table}" ({cols}) VALUES ({", ".join("?" * len(columns))})'
            cur = self.conn.cursor()
            batch: list[tuple] = []
            for row in rows:
                batch.append(row)
                if len(batch) >= BATCH:
                    cur.executemany(sql, batch)
                    n += len(batch)
                    batch = []
            if batch:
                cur.executemany(sql, batch)
                n += len(batch)
            cur.close()
            self.conn.commit()
        else:
            with self.conn.cursor() as cur:
                with cur.copy(f'COPY "{table}" ({cols}) FROM STDIN') as copy:
                    for row in rows:
                        copy.write_row(row)
                        n += 1
            self.conn.commit()
        self.counts[table] = self.counts.get(table, 0) + n
        return n

    def execute(self, sql: str, params: tuple = ()) -> None:
        cur = self.conn.cursor()
        cur.execute(sql.replace("?", "%s") if not self.sqlite else sql, params)
        cur.close()
        self.conn.commit()

    def scalar(self, sql: str):
        cur = self.conn.cursor()
        cur.execute(sql)
        row = cur.fetchone()
        cur.close()
        return row[0] if row else None

    def analyze(self) -> None:
        """Planner statistics (and, on PostgreSQL, the visibility map for index-only scans)."""
        if self.sqlite:
            self.execute("ANALYZE")
            return
        self.conn.commit()
        self.conn.autocommit = True
        try:
            self.conn.execute("VACUUM ANALYZE")
        finally:
            self.conn.autocommit = False

    def finish(self) -> None:
        if self.sqlite:
            cur = self.conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()
        else:
            # Explicit ids: move every serial sequence past them.
            for table in self.counts:
                if table in ("contract_item_gpu", "document_counter", "audit_event"):
                    continue
                cur = self.conn.cursor()
                cur.execute("SELECT pg_get_serial_sequence(%s, 'id')", (table,))
                seq = cur.fetchone()[0]
                if seq:
                    cur.execute(f'SELECT setval(%s, (SELECT COALESCE(MAX(id), 1) FROM "{table}"))', (seq,))
                cur.close()
            self.conn.commit()
        self.raw.close()


# --- the plan: everything generated in memory first ----------------------------------

NAME_A = ["华", "星", "云", "智", "数", "联", "海", "天", "鹏", "信", "融", "创", "瑞", "博", "安", "恒", "新", "启",
          "睿", "中", "远", "航", "卓", "腾"]
NAME_B = ["科技", "信息", "数据", "智能", "网络", "算力", "软件", "传媒", "生物", "金融", "物流", "游戏", "视觉", "医疗"]
NAME_C = ["有限公司", "股份有限公司", "研究院有限公司", "技术有限公司"]
GPU_PRICE = {"H100 SXM 80GB": 220000, "H200 141GB": 260000, "A100 80GB": 110000, "A800 80GB": 105000,
             "H800 80GB": 190000, "B300 288GB": 380000, "L40S 48GB": 60000, "RTX 4090 24GB": 16000,
             "RTX 5090 32GB": 22000, "Ascend 910B 64GB": 120000, "Ascend 920 96GB": 160000}
HOURLY = {"H100 SXM 80GB": 18, "H200 141GB": 24, "A100 80GB": 9, "A800 80GB": 8, "H800 80GB": 15,
          "B300 288GB": 42, "L40S 48GB": 5, "RTX 4090 24GB": 2, "RTX 5090 32GB": 3, "Ascend 910B 64GB": 10,
          "Ascend 920 96GB": 14}
PATHS = {
    GpuState.ORDERED: [],
    GpuState.RECEIVED: [GpuState.RECEIVED],
    GpuState.BURN_IN: [GpuState.RECEIVED, GpuState.BURN_IN],
    GpuState.AVAILABLE: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.AVAILABLE],
    GpuState.LEASED: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.AVAILABLE, GpuState.LEASED],
    GpuState.MAINTENANCE: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.AVAILABLE, GpuState.MAINTENANCE],
    GpuState.RMA: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.RMA],
    GpuState.RETIRED: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.AVAILABLE, GpuState.RETIRED],
}
REASONS = {GpuState.ORDERED: "采购下单 purchase order", GpuState.RECEIVED: "到货签收 received at the dock",
           GpuState.BURN_IN: "上架压测 burn-in started", GpuState.AVAILABLE: "压测通过 burn-in passed",
           GpuState.LEASED: "合同生效 leased under contract", GpuState.MAINTENANCE: "ECC 错误，停机检修",
           GpuState.RMA: "压测失败，返厂 RMA", GpuState.RETIRED: "显存故障，报废"}
# Lifecycle states of GPUs not mounted in a server, by share.
LOOSE_STATES = [(GpuState.ORDERED, 18), (GpuState.RECEIVED, 18), (GpuState.BURN_IN, 12), (GpuState.AVAILABLE, 26),
                (GpuState.RMA, 11), (GpuState.RETIRED, 15)]
CONTRACT_STATUS = [(ContractStatus.ACTIVE, 62), (ContractStatus.SUSPENDED, 3), (ContractStatus.EXPIRED, 20),
                   (ContractStatus.TERMINATED, 5), (ContractStatus.DRAFT, 4), (ContractStatus.PENDING, 3),
                   (ContractStatus.APPROVED, 3)]
CONTRACT_KIND = [("gpu", 35), ("rack", 30), ("hosting", 35)]


def _weighted(rng: random.Random, table):
    values, weights = zip(*table)
    return rng.choices(values, weights)[0]


class Plan:
    """Ids and rows for every bulk table, built deterministically from one seed."""

    def __init__(self, rng: random.Random, today: dt.date, base: dict[str, int], ref: dict):
        self.rng = rng
        self.today = today
        self.now = dt.datetime.combine(today, dt.time(2, 0))  # naive UTC, 10:00 in Shanghai
        self.base = base
        self.ref = ref
        self.rows: dict[str, list[tuple]] = {}
        self.events: list[tuple] = []  # (action, object_type, object_id, label, after dict or None, reason)

    def nid(self, table: str) -> int:
        self.base[table] += 1
        return self.base[table]


def _build(plan: Plan, progress: Progress) -> None:
    rng, today, ref = plan.rng, plan.today, plan.ref
    ev = plan.events
    subs = ref["subsidiaries"]             # code -> id
    sub_codes = list(subs)
    gpu_models = ref["gpu_models"]         # name -> (id, vendor)
    dtypes = ref["device_types"]           # slug -> (id, u_height, gpu model name, role)

    # --- sites and rooms -------------------------------------------------------------
    progress("planning sites, rooms, racks")
    site_rows, room_rows = [], []
    districts = ref["districts"]            # province prefix (2) -> [codes]
    site_specs = []
    for i in range(N_SITES):
        if i < len(SITES):
            sub, code, name, region, addr, lat, lon, kw, _rooms = SITES[i]
        else:
            sub = sub_codes[i % len(sub_codes)]
            prov = ref["sub_region"][sub][:2]
            region = rng.choice(districts.get(prov) or ref["all_districts"])
            code = f"{sub}-L{i:02d}"
            name = f"华锐{ref['region_names'].get(region, '')}算力中心{i:02d}"
            addr = f"{ref['region_names'].get(region, '')}产业园{rng.randint(1, 99)}号"
            lat = f"{22 + rng.random() * 18:.6f}"
            lon = f"{103 + rng.random() * 18:.6f}"
            kw = 20000
        site_specs.append((sub, code, name, region, addr, lat, lon))
    sites = []
    for sub, code, name, region, addr, lat, lon in site_specs:
        sid = plan.nid("site")
        cooling = "liquid" if len(sites) % 3 == 0 else "air"
        site_rows.append((sid, code, name, subs[sub], region, addr, str(lat), str(lon), "active", cooling,
                          "60000", 1, _ts(plan.now), "system"))
        sites.append((sid, code, sub))
        ev.append(("site.create", "site", sid, f"{code} {name}", {"code": code, "name": name}, None))
    rooms = []
    for sid, scode, sub in sites:
        for r in range(ROOMS_PER_SITE):
            rid = plan.nid("room")
            cooling = "liquid" if r < round(ROOMS_PER_SITE * GPU_RACK_SHARE) else "air"
            rname = f"{r // 2 + 1}F-{'AB'[r % 2]} {'液冷智算机房' if cooling == 'liquid' else '风冷机房'}"
            room_rows.append((rid, sid, rname, cooling, str(RACKS_PER_ROOM * 40), str(RACKS_PER_ROOM * 44),
                              5, 10, None, 1, _ts(plan.now), "system"))
            rooms.append((rid, sid, scode, sub, cooling))
            ev.append(("room.create", "room", rid, f"{scode} / {rname}", {"name": rname, "site_id": sid}, None))
    plan.rows["site"], plan.rows["room"] = site_rows, room_rows

    # --- racks: GPU racks (the fleet's) and colocation racks ---------------------------------
    racks = []  # [id, room, site code, sub, kind, name, u, kw, status, customer]
    for rid, _sid, scode, sub, cooling in rooms:
        for k in range(RACKS_PER_ROOM):
            rack_id = plan.nid("rack")
            row, col = divmod(k, 10)
            kind = "gpu" if cooling == "liquid" else "colo"
            u = 48 if kind == "gpu" else 42
            kw = 80 if kind == "gpu" else 10
            racks.append([rack_id, rid, scode, sub, kind, f"{chr(65 + row)}{col + 1:02d}", u, kw, "available", None,
                          row, col])
    gpu_racks = [r for r in racks if r[4] == "gpu"]
    colo_racks = [r for r in racks if r[4] == "colo"]

    # --- devices ---------------------------------------------------------------------
    progress("planning devices and GPUs")
    gpu_slugs = [s for s, v in dtypes.items() if v[2]]
    devices = []  # [id, name, serial, tag, type id, owner, rack id, position, face, status]
    gpu_servers = []  # (device id, model name, rack)
    for i, rack in enumerate(gpu_racks):
        slug = gpu_slugs[i % len(gpu_slugs)]
        type_id, uh, model, _role = dtypes[slug]
        n = min(8, (rack[6] - 2) // int(uh))
        for k in range(n):
            did = plan.nid("device")
            devices.append([did, f"gpu-{rack[2].lower()}-{did:06d}", f"SN{rng.randrange(10 ** 9, 10 ** 10)}",
                            f"AT-{did:07d}", type_id, None, rack[0], 1 + k * int(uh), "front", "active"])
            gpu_servers.append((did, model, rack))
    switch_id = dtypes["nvidia-qm9700"][0]
    tor_id = dtypes["huawei-ce6881"][0]
    for rack in racks:
        did = plan.nid("device")
        if rack[4] == "gpu":
            devices.append([did, f"ib-{rack[2].lower()}-{did:06d}", f"MT{rng.randrange(10 ** 8, 10 ** 9)}",
                            f"AT-{did:07d}", switch_id, None, rack[0], rack[6] - 1, "front", "active"])
        else:
            devices.append([did, f"tor-{rack[2].lower()}-{did:06d}", f"HW{rng.randrange(10 ** 8, 10 ** 9)}",
                            f"AT-{did:07d}", tor_id, None, rack[0], 42, "rear", "active"])
    n_hosted = N_DEVICES - len(devices)
    hosted_types = [dtypes["dell-poweredge-r760"][0], dtypes["h3c-r4900-g5"][0]]
    per_rack, extra = divmod(n_hosted, len(colo_racks))
    hosted_by_rack: dict[int, list[list]] = {}
    for j, rack in enumerate(colo_racks):
        n = per_rack + (1 if j < extra else 0)
        for k in range(n):
            did = plan.nid("device")
            d = [did, f"srv-{rack[2].lower()}-{did:06d}", f"CN{rng.randrange(10 ** 8, 10 ** 9)}", f"AT-{did:07d}",
                 hosted_types[k % 2], None, rack[0], 1 + k * 2, "front", "active"]
            devices.append(d)
            hosted_by_rack.setdefault(rack[0], []).append(d)

    # --- GPUs ------------------------------------------------------------------------
    gpus = []  # [id, serial, model id, device id, slot, state, customer, purchase, cost, warranty, dep]
    free_by_model: dict[str, list[list]] = {}
    purchase0 = today - dt.timedelta(days=900)
    model_code = {name: "".join(ch for ch in name.split()[0] if ch.isalnum()).upper()[:6] for name in gpu_models}

    def new_gpu(model: str, device_id, slot, state):
        gid = plan.nid("gpu_asset")
        mid, vendor = gpu_models[model]
        bought = purchase0 + dt.timedelta(days=rng.randrange(0, 800))
        g = [gid, f"{model_code[model]}-{rng.getrandbits(44):011X}", mid, device_id, slot, state, None,
             bought.isoformat(), str(GPU_PRICE[model]),
             (bought + dt.timedelta(days=365 * 3 - rng.randrange(0, 700))).isoformat(),
             48 if vendor == "Huawei" else 36]
        gpus.append(g)
        return g

    for did, model, _rack in gpu_servers:
        for slot in range(1, 9):
            g = new_gpu(model, did, slot, GpuState.AVAILABLE)
            free_by_model.setdefault(model, []).append(g)
    model_names = list(gpu_models)
    while len(gpus) < N_GPUS:
        new_gpu(model_names[len(gpus) % len(model_names)], None, None, _weighted(rng, LOOSE_STATES))
    # A share of the GPU servers kept out of the contracts (for sale: bench/scale_clusters.py FREE_SHARE
    # makes them the nodes the capacity search can offer): every 8th run of 8 servers (64 GPUs) of a model
    for model, pool in free_by_model.items():
        runs = [pool[i:i + 64] for i in range(0, len(pool), 64)]
        free_by_model[model] = [g for j, run in enumerate(runs) if j % 8 != 3 for g in run]
    for pool in free_by_model.values():
        rng.shuffle(pool)

    # --- customers ---------------------------------------------------------------------
    progress("planning customers and contracts")
    customer_rows, contact_rows = [], []
    managers = ref["managers"]
    alphabet = "0123456789ABCDEFGHJKLMNPQRTUWXY"
    seen_codes = set()
    customers = []
    for i in range(N_CUSTOMERS):
        cid = plan.nid("customer")
        region = rng.choice(ref["all_districts"])
        # a district right under a municipality (or a province) has no city: name it after that
        city = ref["region_names"].get(region[:4] + "00") or ref["region_names"].get(region[:2] + "0000", "")
        name = f"{city}{''.join(rng.sample(NAME_A, 2))}{rng.choice(NAME_B)}{rng.choice(NAME_C)}{i + 1:04d}"
        while True:
            body = "91" + region[:4] + "MA" + "".join(rng.choice(alphabet) for _ in range(9))
            if body not in seen_codes:
                seen_codes.add(body)
                break
        customer_rows.append((cid, name, make_uscc(body), region, f"{city}科技路{rng.randint(1, 999)}号",
                              managers[i % len(managers)], "active", 1, _ts(plan.now), "system"))
        contact_rows.append((plan.nid("contact"), cid, CONTACT_NAMES[i % len(CONTACT_NAMES)],
                             f"13{rng.randrange(100000000, 999999999)}", f"ops{cid}@customer{cid}.cn", "技术负责人"))
        customers.append((cid, name))
        ev.append(("customer.create", "customer", cid, name, {"name": name, "region_code": region}, None))
    plan.rows["customer"], plan.rows["contact"] = customer_rows, contact_rows

    # --- contracts ---------------------------------------------------------------------
    contract_rows, item_rows, item_gpu_rows, lease_rows = [], [], [], []
    counters: dict[tuple[int, str], int] = {}
    colo_pool = colo_racks[:]
    rng.shuffle(colo_pool)
    shared_racks = colo_pool[: len(colo_pool) // 4]      # hosting: servers of many customers
    lease_pool = colo_pool[len(colo_pool) // 4:]         # whole racks leased to one customer
    hosting_pool = [d for r in shared_racks for d in hosted_by_rack.get(r[0], [])]
    rng.shuffle(hosting_pool)
    metered_racks: dict[int, tuple[dt.date, float]] = {}
    lease_count = 0
    cust_perm = [c for c in customers]
    rng.shuffle(cust_perm)
    expired_gpu_pool: dict[str, list[list]] = {}

    def contract_number(sub_id: int, sub_code: str, year: int) -> str:
        key = (sub_id, str(year))
        counters[key] = counters.get(key, 0) + 1
        return f"{sub_code}-{year}-{counters[key]:04d}"

    for i in range(N_CONTRACTS):
        status = _weighted(rng, CONTRACT_STATUS)
        kind = _weighted(rng, CONTRACT_KIND)
        cust_id, cust_name = cust_perm[i % len(cust_perm)]
        consuming = status in (ContractStatus.ACTIVE, ContractStatus.SUSPENDED)
        ended = status in (ContractStatus.EXPIRED, ContractStatus.TERMINATED)
        if consuming:
            start = today - dt.timedelta(days=rng.randrange(20, 360))
            end = today + dt.timedelta(days=rng.randrange(5, 720))
        elif ended:
            end = today - dt.timedelta(days=rng.randrange(1, 330))
            start = end - dt.timedelta(days=rng.randrange(90, 400))
        else:
            start = today + dt.timedelta(days=rng.randrange(0, 60))
            end = start + dt.timedelta(days=rng.choice([365, 730, 1095]))
        racks_taken: list[list] = []
        if kind == "rack":
            if consuming:
                n = rng.randint(1, 3)
                racks_taken, lease_pool[:] = lease_pool[:n], lease_pool[n:]
                if not racks_taken:
                    kind = "hosting"
            else:
                racks_taken = [rng.choice(colo_racks)]
        if kind == "hosting" and not hosting_pool:
            kind = "gpu"
        gpu_model = rng.choice(model_names)
        gpus_taken: list[list] = []
        if kind == "gpu":
            if consuming:
                pool = free_by_model[gpu_model]
                n = min(len(pool), 8 * rng.randint(1, 12))
                gpus_taken, pool[:] = pool[:n], pool[n:]
            elif ended:
                pool = free_by_model[gpu_model]
                n = min(len(pool), 8 * rng.randint(1, 3))
                gpus_taken = pool[:n]
                expired_gpu_pool.setdefault(gpu_model, []).extend(gpus_taken)
                pool[:] = pool[n:]
        sub_code = racks_taken[0][3] if racks_taken else rng.choice(sub_codes)
        sub_id = subs[sub_code]
        cid = plan.nid("contract")
        number = contract_number(sub_id, sub_code, start.year)
        title = {"gpu": f"{gpu_model} 算力租用合同", "rack": "机柜租用合同", "hosting": "服务器托管合同"}[kind]
        contract_rows.append((cid, number, sub_id, cust_id, title, status, start.isoformat(), end.isoformat(),
                              None, None, 1, None, None, None, "zh", 1, _ts(plan.now), "system"))
        ev.append(("contract.create", "contract", cid, number, {"number": number, "customer_id": cust_id,
                                                                 "status": "draft", "kind": kind}, None))
        for step in {"draft": [], "pending_approval": ["pending_approval"],
                     "approved": ["pending_approval", "approved"]}.get(
                status, ["pending_approval", "approved", "active"] + ([status] if status != "active" else [])):
            ev.append((f"contract.{step}", "contract", cid, number, {"status": step}, None))
        svc_start = start.isoformat()
        # items in service were handed over when they started (they bill from their handover)
        handover = _ts(_local_midnight_utc(start)) if status in ("active", "suspended", "expired", "terminated") else None

        def item(kind_, desc, unit_price, price_unit, tax="idc", **kw):
            iid = plan.nid("contract_item")
            # called within this iteration only: it reads this contract's cid, svc_start and handover
            item_rows.append((iid, cid, kind_, desc, kw.get("rack_id"), kw.get("u_from"), kw.get("u_to"),  # noqa: B023
                              kw.get("device_id"), kw.get("gpu_model_id"), str(kw.get("quantity", 1)),
                              str(unit_price), price_unit, tax, svc_start, None,  # noqa: B023
                              kw.get("power_allowance_kw"),
                              kw.get("kwh_price"), kw.get("included_hours"), kw.get("hourly_rate"), kw.get("mbps"),
                              1, _ts(plan.now), "system", handover))  # noqa: B023
            return iid

        if kind == "rack":
            for rack in racks_taken:
                item("rack", f"机柜租用 {rack[2]} {rack[5]}", rng.choice([6800, 7500, 8200, 9600]), "month",
                     rack_id=rack[0], power_allowance_kw=str(rack[7]), kwh_price="1.2000")
                if consuming:
                    rack[8], rack[9] = "leased", cust_id
                    for d in hosted_by_rack.get(rack[0], []):
                        d[5] = cust_id
                if consuming or ended:
                    first = max(start, today - dt.timedelta(days=366))
                    prev = metered_racks.get(rack[0])
                    if prev is None or first < prev[0]:
                        metered_racks[rack[0]] = (first, float(rack[7]))
            if rng.random() < 0.3:
                item("one_off", "上架安装 installation", 2000, "one_off")
        elif kind == "hosting":
            n = rng.randint(1, 3)
            taken, hosting_pool[:] = hosting_pool[:n], hosting_pool[n:]
            for d in taken:
                item("hosting", f"服务器托管 {d[1]}", rng.choice([900, 1200, 1500]), "month", device_id=d[0],
                     u_from=int(d[7]), u_to=int(d[7]) + 1)
                if consuming:
                    d[5] = cust_id
        else:
            mid = gpu_models[gpu_model][0]
            hourly = HOURLY[gpu_model]
            pu = rng.choice(["gpu_hour", "month", "year", "hybrid"])
            n = len(gpus_taken) or 8 * rng.randint(1, 4)
            if pu == "gpu_hour":
                iid = item("gpu", f"{gpu_model} 按小时", hourly, "gpu_hour", gpu_model_id=mid, quantity=n)
            elif pu == "month":
                iid = item("gpu", f"{gpu_model} 包月", hourly * 600, "month", "equipment_lease", gpu_model_id=mid,
                           quantity=n)
            elif pu == "year":
                iid = item("gpu", f"{gpu_model} 包年", hourly * 6500, "year", "equipment_lease", gpu_model_id=mid,
                           quantity=n)
            else:
                iid = item("gpu", f"{gpu_model} 混合计费", hourly * 500 * n, "hybrid", gpu_model_id=mid, quantity=n,
                           included_hours=str(500 * n), hourly_rate=str(hourly))
            lease_start = _ts(_local_midnight_utc(start))
            lease_end = None if consuming else _ts(_local_midnight_utc(end + dt.timedelta(days=1)))
            for g in gpus_taken:
                item_gpu_rows.append((iid, g[0]))
                lease_rows.append((plan.nid("gpu_lease"), g[0], iid, lease_start, lease_end))
                lease_count += 1
                if consuming:
                    g[5], g[6] = GpuState.LEASED, cust_id
        if rng.random() < 0.5:
            mbps = rng.choice([100, 200, 500, 1000, 2000])
            item("bandwidth", f"BGP 带宽 {mbps} Mbps", 25, "mbps_month", "telecom", mbps=mbps)
    plan.rows["contract"], plan.rows["contract_item"] = contract_rows, item_rows
    plan.rows["contract_item_gpu"], plan.rows["gpu_lease"] = item_gpu_rows, lease_rows
    plan.rows["document_counter"] = [(sub_id, "contract", year, n) for (sub_id, year), n in sorted(counters.items())]

    # What no active contract took: free GPUs in servers become partly maintenance or burn-in.
    for pool in free_by_model.values():
        for g in pool:
            r = rng.random()
            g[5] = GpuState.MAINTENANCE if r < 0.06 else GpuState.BURN_IN if r < 0.10 else GpuState.AVAILABLE
    for rack in lease_pool:
        rack[8] = rng.choice(["available", "available", "reserved", "maintenance", "planned"])

    # Downtime: a few hours for some leased GPUs in the last months (credits on statements).
    downtime_rows = []
    leased = [g for g in gpus if g[5] == GpuState.LEASED]
    for g in rng.sample(leased, min(3000, len(leased))):
        s = plan.now - dt.timedelta(days=rng.randrange(2, 120), hours=rng.randrange(0, 24))
        downtime_rows.append((plan.nid("downtime"), g[0], None, _ts(s), _ts(s + dt.timedelta(hours=rng.randint(1, 30))),
                              "GPU 故障 Xid 79，更换"))
    plan.rows["downtime"] = downtime_rows

    # --- rows for racks, devices, GPUs and their history ------------------------------------
    plan.rows["rack"] = [(r[0], r[1], r[5], r[6], str(r[7]), str(r[7] * 1.25), r[8], f"RK-{r[0]:06d}", r[9],
                          r[10], r[11], 1, _ts(plan.now), "system") for r in racks]
    for r in racks:
        ev.append(("rack.create", "rack", r[0], f"{r[2]} {r[5]}", {"name": r[5], "room_id": r[1]}, None))
        if r[8] == "leased":
            ev.append(("rack.lease", "rack", r[0], f"{r[2]} {r[5]}", {"status": "leased", "customer_id": r[9]}, None))
    plan.rows["device"] = [(d[0], d[1], d[2], d[3], d[4], d[5], d[6], str(d[7]), d[8], d[9], None, 1,
                            _ts(plan.now), "system") for d in devices]
    for d in devices:
        ev.append(("device.create", "device", d[0], d[1], {"name": d[1], "rack_id": d[6], "position": d[7]}, None))
    plan.rows["gpu_asset"] = [(g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], 1,
                               _ts(plan.now), "system") for g in gpus]
    history = []
    for g in gpus:
        path = PATHS[g[5]]
        ev.append(("gpu.create", "gpu", g[0], f"GPU {g[1]}", {"serial": g[1], "state": "ordered"}, None))
        prev = GpuState.ORDERED
        for step in path:
            ev.append(("gpu.transition", "gpu", g[0], f"GPU {g[1]}", {"state": step}, REASONS[step]))
            prev = step
        at = plan.now - dt.timedelta(days=rng.randrange(1, 360), seconds=rng.randrange(0, 86400))
        before = ([GpuState.ORDERED] + path)[-2] if path else None
        history.append((plan.nid("gpu_history"), g[0], before, g[5], _ts(at), "system", REASONS[g[5]]))
    plan.rows["gpu_history"] = history

    # --- meter readings: daily cumulative kWh per metered rack ---------------------------------
    plan.metered_racks = metered_racks


def _readings(plan: Plan) -> Iterator[tuple]:
    rng = random.Random(SEED + 1)
    for rack_id, (first, kw) in sorted(plan.metered_racks.items()):
        total = rng.randrange(1000, 90000) + 0.0
        day = first - dt.timedelta(days=1)
        while day <= plan.today:
            plan.base["meter_reading"] += 1
            yield (plan.base["meter_reading"], rack_id, _ts(_local_midnight_utc(day)), f"{total:.3f}")
            total += kw * 24 * (0.55 + rng.random() * 0.5)
            day += dt.timedelta(days=1)


# --- the audit chain ------------------------------------------------------------------

HOSTS = ["ops-pc-01", "ops-pc-02", "finance-pc", "am-laptop-07", "noc-console"]


# Who does what: operators move GPUs, devices and racks; account managers enter customers and
# draft contracts; the administrator builds sites and approves; logins follow how often each
# role uses the console (an auditor now and then).
ROLE_OF_ACTION = {"site": Role.ADMIN, "room": Role.ADMIN, "rack": Role.OPERATOR, "device": Role.OPERATOR,
                  "gpu": Role.OPERATOR, "customer": Role.ACCOUNT_MANAGER, "contract": Role.ACCOUNT_MANAGER}
APPROVING = {"contract.approved", "contract.active", "contract.suspended", "contract.terminated"}
LOGIN_SHARE = [(Role.OPERATOR, 45), (Role.ACCOUNT_MANAGER, 30), (Role.ADMIN, 15), (Role.AUDITOR, 10)]
EXTRA_USERS = [(f"ops{k:02d}", Role.OPERATOR, name) for k, name in enumerate(
    ["张伟", "王芳", "李强", "刘敏", "陈杰", "杨洋", "黄磊", "赵静"], start=1)] + [
    (f"am{k:02d}", Role.ACCOUNT_MANAGER, name) for k, name in enumerate(["周婷", "吴刚", "徐丽", "孙鹏"], start=1)] + [
    ("finance01", Role.ADMIN, "郑晓梅"), ("audit01", Role.AUDITOR, "冯雪")]


class _Actors:
    """users (id, login, name, role), the acting administrator first, picked deterministically."""

    def __init__(self, users: list[tuple]):
        self.first = users[0]
        self.by_role: dict[str, list[tuple]] = {}
        for u in users:
            self.by_role.setdefault(u[3], []).append(u)
        self.login_roles = [r for r, share in LOGIN_SHARE for _ in range(share) if r in self.by_role]
        self.rng = random.Random(SEED + 3)

    def _of(self, role: str, i: int) -> tuple:
        pool = self.by_role.get(role)
        return pool[(i * 2654435761 >> 7) % len(pool)] if pool else self.first

    def doing(self, action: str, i: int) -> tuple:
        if action in APPROVING:
            return self._of(Role.ADMIN, i)
        role = ROLE_OF_ACTION.get(action.split(".", 1)[0])
        return self._of(role, i) if role else self.first

    def logging_in(self, i: int) -> tuple:
        if not self.login_roles:
            return self.first
        return self._of(self.login_roles[self.rng.randrange(len(self.login_roles))], i)


def audit_rows(plan: Plan, start_seq: int, prev_hash: str, n: int, users: list[tuple]) -> Iterator[tuple]:
    """n events after (start_seq, prev_hash), oldest first, each hashed by app.audit.trail.event_hash."""
    rng = random.Random(SEED + 2)
    who = _Actors(users)
    events = plan.events
    span_start = dt.datetime.combine(plan.today - dt.timedelta(days=400), dt.time(0, 0))
    span = (plan.now - span_start).total_seconds() - 3600
    step_us = int(span * 1_000_000 / max(n, 1))
    t0 = span_start
    request = None
    # The rows beyond the planned events are logins, spread evenly among them (people log in
    # throughout the year, not after it); every planned event is kept when n leaves room.
    logins = max(0, n - len(events))
    done = 0  # planned events written
    for i in range(n):
        if done < len(events) and (i + 1 - done) * n > logins * (i + 1):
            action, otype, oid, label, after, reason = events[done]
            actor = who.doing(action, done)
            done += 1
        else:
            actor = who.logging_in(i)
            action, otype, oid, label, after, reason = "auth.login", "user", actor[0], actor[1], None, None
        if request is None or i % 4 == 0:
            request = "%08x-%04x-4%03x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                                      0x8000 | rng.getrandbits(14), rng.getrandbits(48))
        t = t0 + dt.timedelta(microseconds=i * step_us + (i * 7919) % 1000)
        ts_hash = t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        seq = start_seq + i
        after_json = None if after is None else canonical_json(after)
        payload = {"seq": seq, "ts": ts_hash, "actor_id": actor[0], "actor_login": actor[1],
                   "actor_name": actor[2], "actor_role": actor[3], "host": HOSTS[i % len(HOSTS)],
                   "app_version": __version__, "request_id": request, "action": action, "object_type": otype,
                   "object_id": None if oid is None else str(oid), "object_label": label, "before": None,
                   "after": after_json, "reason": reason, "outcome": "success", "prev_hash": prev_hash}
        h = event_hash(payload)
        yield (seq, ts_hash[:10] + " " + ts_hash[11:26], actor[0], actor[1], actor[2], actor[3], payload["host"],
               __version__, request, action, otype, payload["object_id"], label, None, after_json, reason,
               "success", prev_hash, h)
        prev_hash = h
    plan.audit_head = (start_seq + n - 1, prev_hash)


def _bulk_events(w: "_Writer", plan: Plan) -> None:
    """One event per table written in bulk, naming the id ranges it holds (`after.ids`): the rows did not go
    through the services, and `audit reconcile` explains them by this load instead of reporting them."""
    from models import Base

    for table in sorted(w.counts):
        if "id" not in Base.metadata.tables[table].c or not w.counts[table]:
            continue
        cur = w.conn.cursor()
        cur.execute(f'SELECT min(id), max(id) FROM (SELECT id, id - row_number() OVER (ORDER BY id) AS g '
                    f'FROM "{table}") x GROUP BY g ORDER BY 1')
        ranges = [[a, b] for a, b in cur.fetchall()]
        cur.close()
        plan.events.append(("bulk.load", table, None, f"{table}: {w.counts[table]:,} rows",
                            {"table": table, "ids": ranges, "rows": w.counts[table]},
                            "bulk-loaded by bench/scale.py, not through the services"))


AUDIT_COLS = ("seq", "ts") + HASHED_FIELDS[2:] + ("hash",)

COLUMNS = {
    "subsidiary": ("id", "code", "name", "name_en", "credit_code", "address", "address_en", "phone", "bank_name",
                   "bank_name_en", "bank_account", "region_code", "version", "updated_at", "updated_by"),
    "site": ("id", "code", "name", "subsidiary_id", "region_code", "address", "latitude", "longitude", "status",
             "cooling", "power_capacity_kw", "version", "updated_at", "updated_by"),
    "room": ("id", "site_id", "name", "cooling", "power_capacity_kw", "cooling_capacity_kw", "grid_rows", "grid_cols",
             "notes", "version", "updated_at", "updated_by"),
    "rack": ("id", "room_id", "name", "u_height", "power_capacity_kw", "breaker_limit_kw", "status", "asset_tag",
             "customer_id", "grid_row", "grid_col", "version", "updated_at", "updated_by"),
    "customer": ("id", "name", "credit_code", "region_code", "address", "account_manager_id", "status", "version",
                 "updated_at", "updated_by"),
    "contact": ("id", "customer_id", "name", "phone", "email", "role"),
    "device": ("id", "name", "serial", "asset_tag", "device_type_id", "owner_customer_id", "rack_id", "position",
               "face", "status", "notes", "version", "updated_at", "updated_by"),
    "gpu_asset": ("id", "serial", "gpu_model_id", "device_id", "slot", "state", "customer_id", "purchase_date",
                  "purchase_cost", "warranty_end", "depreciation_months", "version", "updated_at", "updated_by"),
    "gpu_history": ("id", "gpu_id", "from_state", "to_state", "at", "actor_login", "reason"),
    "contract": ("id", "number", "subsidiary_id", "customer_id", "title", "status", "start_date", "end_date",
                 "renewal_of_id", "amends_id", "revision", "effective_date", "service_level", "terms", "language",
                 "version", "updated_at", "updated_by"),
    "contract_item": ("id", "contract_id", "kind", "description", "rack_id", "u_from", "u_to", "device_id",
                      "gpu_model_id", "quantity", "unit_price", "price_unit", "tax_category", "service_start",
                      "service_end", "power_allowance_kw", "kwh_price", "included_hours", "hourly_rate", "mbps",
                      "version", "updated_at", "updated_by", "handover_at"),
    "contract_item_gpu": ("item_id", "gpu_id"),
    "gpu_lease": ("id", "gpu_id", "contract_item_id", "start", "end"),
    "downtime": ("id", "gpu_id", "device_id", "start", "end", "reason"),
    "document_counter": ("subsidiary_id", "kind", "scope", "last_value"),
    "meter_reading": ("id", "rack_id", "read_at", "kwh_total"),
}
ORDER = ("site", "room", "customer", "contact", "rack", "device", "gpu_asset", "gpu_history", "contract",
         "contract_item", "contract_item_gpu", "gpu_lease", "downtime", "document_counter")


# --- what a few months of use leave: through the services ---------------------------------

BILLED_MONTHS = 3  # ended months billed and issued before the last one (left for the benchmark)
PAID_SHARE = 0.9  # of the oldest billed month's statements, paid by one imported bank file
N_CREDITS, N_PARTIAL_CREDITS = 60, 30


def _use(db: Database, actor: Actor, today: dt.date, tick: Callable[[str], None]) -> dict:
    """Bill, issue, credit and import receipts through the use cases, as the finance desk would."""
    import csv
    import os
    import tempfile

    from app.domain import rating as B
    from app.services.billing import credit_statement, get_statement, run_billing
    from app.services.receivables import import_payments
    from models import Customer, Statement
    from models.choices import StatementKind, StatementStatus

    rng = random.Random(SEED + 4)
    as_of = dt.datetime.combine(today, dt.time(2, 0), tzinfo=dt.timezone.utc)
    last = B.Period.containing(today - dt.timedelta(days=today.day))  # the last ended month: left unbilled
    months, p = [], last
    for _ in range(BILLED_MONTHS):
        p = B.Period.containing(p.first - dt.timedelta(days=1))
        months.insert(0, p.label)
    issued = 0
    for label in months:
        tick(f"billing {label}: run and issue (app.services.billing)")
        issued += len(run_billing(db, actor, label, issue=True, as_of=as_of).issued)
    with db.session() as s:
        middle = list(s.execute(select(Statement.number).where(
            Statement.period == months[len(months) // 2], Statement.kind == StatementKind.STATEMENT,
            Statement.status == StatementStatus.ISSUED).order_by(Statement.number)).scalars())
        oldest = s.execute(select(Statement.number, Statement.total, Customer.credit_code, Customer.name)
                           .join(Customer, Customer.id == Statement.customer_id).where(
            Statement.period == months[0], Statement.kind == StatementKind.STATEMENT,
            Statement.status == StatementStatus.ISSUED).order_by(Statement.number)).all()
    tick(f"{N_CREDITS} credit notes on {months[len(months) // 2]} ({N_PARTIAL_CREDITS} partial)")
    credits = 0
    for k, number in enumerate(rng.sample(middle, min(N_CREDITS, len(middle)))):
        if k < N_PARTIAL_CREDITS:
            st = get_statement(db, number)
            ln = max(st.lines, key=lambda li: li.amount)
            if ln.amount < 10:
                continue
            credit_statement(db, actor, number, "客户投诉服务中断，协商减免 10%", line_ids=[ln.id],
                             amount=B.fen(ln.amount / 10), at=as_of)
        else:
            credit_statement(db, actor, number, "合同价格录入有误，冲销后按更正价格重开", at=as_of)
        credits += 1
    paid = rng.sample(oldest, int(len(oldest) * PAID_SHARE))
    tick(f"importing one bank file of {len(paid):,} receipts for {months[0]} (payments import)")
    fd, path = tempfile.mkstemp(prefix="receipts-", suffix=".csv")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            out = csv.writer(f)
            out.writerow(["客户", "到账日期", "金额", "流水号", "付款户名", "付款方式"])
            for k, (_number, total, code, name) in enumerate(sorted(paid)):
                out.writerow([code, (today - dt.timedelta(days=rng.randrange(0, 20))).isoformat(), str(total),
                              f"HX{today:%Y%m%d}{k:07d}", name, "transfer"])
        payments = len(import_payments(db, actor, path).payments)
    finally:
        os.unlink(path)
    return dict(statements=issued, credit_notes=credits, payments=payments, billed_months=tuple(months))


# --- the load ---------------------------------------------------------------------------

def _ensure_more_users(db: Database, actor: Actor) -> None:
    """Twenty people in all (the demo's six and EXTRA_USERS), through the users use case."""
    from app.demo.load import DEMO_PASSWORD
    from app.services.users import add_user

    with db.session() as s:
        existing = set(s.execute(select(User.login)).scalars())
    for login_name, role, name in EXTRA_USERS:
        if login_name not in existing:
            add_user(db, actor, login_name, role, DEMO_PASSWORD, name)


def _reference(db: Database, actor: Actor, rng: random.Random, w: _Writer, plan_base: dict, progress: Progress) -> dict:
    """Subsidiaries and device types from the small demo (bulk), coverage through the service."""
    from app.services.reference import add_coverage

    with db.session() as s:
        regions = s.execute(select(Region.code, Region.name, Region.level)).all()
        gpu_models = {name: (mid, vendor) for mid, name, vendor in s.execute(
            select(GpuModel.id, GpuModel.name, GpuModel.vendor))}
        managers = [uid for (uid,) in s.execute(
            select(User.id).where(User.role == Role.ACCOUNT_MANAGER).order_by(User.id))]
    region_names = {c: n for c, n, _l in regions}
    districts: dict[str, list[str]] = {}
    for code, _n, level in regions:
        if level == 3:
            districts.setdefault(code[:2], []).append(code)
    all_districts = sorted(c for c, _n, level in regions if level == 3)
    for v in districts.values():
        v.sort()
    now = _ts(dt.datetime.now(dt.timezone.utc).replace(tzinfo=None))
    sub_rows, subs, sub_region = [], {}, {}
    for code, name, name_en, body, addr, region, bank, account in SUBSIDIARIES:
        sid = plan_base["subsidiary"] = plan_base["subsidiary"] + 1
        addr_en, bank_en = SUBSIDIARIES_EN[code]
        sub_rows.append((sid, code, name, name_en, make_uscc(body), addr, addr_en, "0591-8888 6666", bank, bank_en,
                         account, region, 1, now, "system"))
        subs[code], sub_region[code] = sid, region
    w.write("subsidiary", COLUMNS["subsidiary"], sub_rows)
    dt_rows, dtypes = [], {}
    for values in DEVICE_TYPES:
        tid = plan_base["device_type"] = plan_base["device_type"] + 1
        gpu = values.get("gpu")
        dt_rows.append((tid, values["manufacturer"], values["model"], values["slug"], str(values["u_height"]),
                        values["is_full_depth"], values["max_power_w"], values["typical_power_w"],
                        values.get("gpu_slots", 0), gpu_models[gpu][0] if gpu else None, values["role"], 1, now,
                        "system"))
        dtypes[values["slug"]] = (tid, values["u_height"], gpu, values["role"])
    w.write("device_type", ("id", "manufacturer", "model", "slug", "u_height", "is_full_depth", "max_power_w",
                            "typical_power_w", "gpu_slots", "gpu_model_id", "role", "version", "updated_at",
                            "updated_by"), dt_rows)
    for sub, region, level, hours in COVERAGE:
        add_coverage(db, actor, subs[sub], region, service_level=level, response_hours=hours)
    return dict(subsidiaries=subs, sub_region=sub_region, gpu_models=gpu_models, device_types=dtypes,
                districts=districts, all_districts=all_districts, region_names=region_names,
                managers=managers or [None])


def load_large(db: Database, actor: Actor | None = None, progress: Progress = lambda m: None, *,
               today: dt.date | None = None, audit_events: int = N_AUDIT, use: bool = True) -> LargeSummary:
    t_start = time.perf_counter()
    today = today or (dt.datetime.now(dt.timezone.utc) + TZ_OFFSET).date()
    with db.session() as s:
        if s.execute(select(func.count()).select_from(Subsidiary)).scalar_one():
            raise RuleViolation("this database already has subsidiaries; the large provider loads only into an "
                                "empty one (create a new database, e.g. --db large.db)")
    actor = ensure_demo_users(db, actor)
    _ensure_more_users(db, actor)
    progress("regions (GB/T 2260)")
    load_regions(db, actor)
    from app.services.baselines import seed_baselines
    seed_baselines(db)  # what the migrations loaded, as `db upgrade` does (audit reconcile compares it)
    rng = random.Random(SEED)

    def tick(msg: str) -> None:
        progress(f"[{time.perf_counter() - t_start:6.1f} s] {msg}")

    w = _Writer(db)
    try:
        base = {}
        for table in ("subsidiary", "device_type", "site", "room", "rack", "device", "gpu_asset", "gpu_history",
                      "customer", "contact", "contract", "contract_item", "gpu_lease", "downtime", "meter_reading"):
            base[table] = w.scalar(f'SELECT COALESCE(MAX(id), 0) FROM "{table}"') or 0
        tick("subsidiaries, device types, coverage")
        ref = _reference(db, actor, rng, w, base, tick)
        plan = Plan(rng, today, base, ref)
        _build(plan, tick)
        for table in ORDER:
            rows = plan.rows[table]
            tick(f"writing {len(rows):,} rows into {table}")
            w.write(table, COLUMNS[table], rows)
            plan.rows[table] = []
        tick("GPUs' lease ends (gpu_asset.busy_until, models/billing.follow_leases)")
        with db.engine.begin() as conn:   # set-wise, every GPU at once (the writer has committed its rows)
            refresh_busy_until(conn, None)
            refresh_device_gpus(conn, None)   # the GPUs per server (device_gpu_count, models/gpu.follow_gpu_places)
        from .scale_power import write_power  # A and B panels and feeds for every rack (issue 15)
        write_power(w, tick)
        from .scale_coloc import write_coloc  # partial leases, cross-connects (issue 15)
        write_coloc(w, today, tick)
        from .scale_clusters import write_clusters  # GPU clusters, nodes, health events (issue 25)
        write_clusters(w, today, tick)
        from .scale_ops import write_ops  # tickets with histories, notes, maintenance windows (issue 24)
        write_ops(w, today, tick)
        tick("writing daily meter readings")
        n_readings = w.write("meter_reading", COLUMNS["meter_reading"], _readings(plan))
        _bulk_events(w, plan)
        head_seq, head_hash = w.scalar("SELECT seq FROM audit_head WHERE id = 1"), \
            w.scalar("SELECT hash FROM audit_head WHERE id = 1")
        n_audit = max(0, audit_events - head_seq, len(plan.events))  # every planned event, whatever the budget
        with db.session() as s:
            users = [(u.id, u.login, u.display_name, u.role) for u in s.execute(select(User).order_by(User.id)).scalars()]
        users = [next(u for u in users if u[1] == actor.login)] + [u for u in users if u[1] != actor.login]
        tick(f"hashing and writing {n_audit:,} audit events after #{head_seq}")
        w.write("audit_event", AUDIT_COLS, audit_rows(plan, head_seq + 1, head_hash or GENESIS_HASH, n_audit, users))
        seq, h = plan.audit_head if n_audit else (head_seq, head_hash)
        w.execute("UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1", (seq, h))
        tick("analyze (planner statistics)")
        w.analyze()
        w.finish()
    except BaseException:  # noqa: BLE001 - re-raised below, after closing
        try:
            w.raw.close()
        finally:
            raise
    used = _use(db, actor, today, tick) if use else {}
    tick("the open tickets' SLA clocks, kept as the console's sweep keeps them (ticket_sla_state)")
    from app.services.operations.sla import keep_sla_states
    keep_sla_states(db)
    with db.session() as s:
        seq = s.execute(select(func.max(AuditEvent.seq))).scalar_one()
    c = w.counts
    summary = LargeSummary(c.get("site", 0), c.get("room", 0), c.get("rack", 0), c.get("device", 0),
                           c.get("gpu_asset", 0), c.get("customer", 0), c.get("contract", 0),
                           c.get("contract_item", 0), c.get("gpu_lease", 0), n_readings, seq,
                           time.perf_counter() - t_start, **used)
    tick("done")
    return summary

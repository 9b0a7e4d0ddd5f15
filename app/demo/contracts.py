"""Demo contracts: rack leases, GPU rentals of every pricing kind, meter readings and downtime.

Contracts started in the months before `today`, so `billing run --period <last month>`
has real work: prorated starts, a termination mid-month, power overage with a meter reset,
a GPU's downtime credit, hybrid over its commitment, and contracts ending soon.
"""
from __future__ import annotations

import datetime as dt
import random
from collections import defaultdict
from decimal import Decimal

from sqlalchemy import func, select

from app.domain.actor import Actor
from app.domain.clock import TZ as SHANGHAI
from app.domain.errors import AuthenticationFailed
from app.services import billing as B
from app.services import contracts as C
from app.services.users import login
from app.store.db import Database
from models import Customer, Device, GpuAsset, GpuModel, Rack, Room, Site
from models.choices import GpuState, ItemKind, PriceUnit

D = Decimal


def _month_start(today: dt.date, back: int) -> dt.date:
    y, m = today.year, today.month - back
    while m <= 0:
        y, m = y - 1, m + 12
    while m > 12:
        y, m = y + 1, m - 12
    return dt.date(y, m, 1)


def _add_months(day: dt.date, months: int) -> dt.date:
    y, m = divmod(day.month - 1 + months, 12)
    return dt.date(day.year + y, m + 1, day.day)


def _at(day: dt.date, hour: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour), SHANGHAI)


def _sign(db: Database, manager: Actor, admin: Actor, info: C.ContractInfo, start: dt.date) -> C.ContractInfo:
    C.submit_contract(db, manager, info.id)
    C.approve_contract(db, admin, info.id)
    return C.activate_contract(db, admin, info.id, at=_at(start))


# GPU rentals: model, quantity, price unit, price, extras, months back, term months, language
GPU_DEALS = [
    ("H100 SXM 80GB", 16, PriceUnit.GPU_HOUR, D("16.80"), {}, 5, 12, "zh"),
    ("H200 141GB", 8, PriceUnit.MONTH, D("11800"), {}, 3, 12, "zh"),
    ("A800 80GB", 8, PriceUnit.YEAR, D("72000"), {}, 4, 24, "zh"),
    ("RTX 4090 24GB", 8, PriceUnit.HYBRID, D("9600"), {"included_hours": D("3000"), "hourly_rate": D("2.20")}, 2, 6, "zh"),
    ("Ascend 910B 64GB", 8, PriceUnit.MONTH, D("7600"), {}, 6, 12, "zh"),
    ("L40S 48GB", 8, PriceUnit.GPU_HOUR, D("4.50"), {}, 1, 6, "en"),
    ("B300 288GB", 8, PriceUnit.MONTH, D("26800"), {}, 11, 12, "zh"),  # ends within 30 days
]


def load_demo_contracts(db: Database, admin: Actor, rng: random.Random, today: dt.date) -> int:
    try:
        manager = login(db, "lina", "demo1234")
    except AuthenticationFailed:  # users made before the demo keep their own passwords
        manager = admin
    hosted, customers, models, gpu_home = _what_to_lease(db)
    leased_racks, seen_customers = _lease_racks(db, manager, admin, rng, today, hosted)
    count = len(leased_racks)
    free_customers = [c for c in customers if c not in seen_customers]
    gpu_contracts, gpu_count = _rent_gpus(db, manager, admin, today, models, gpu_home, free_customers)
    count += gpu_count
    last_month = _month_start(today, 1)
    # A GPU of the H100 contract was down for 30 hours last month: not billed, credited.
    if gpu_contracts:
        with db.session() as s:
            gpu_id = s.execute(select(GpuAsset.id).where(GpuAsset.state == GpuState.LEASED,
                                                         GpuAsset.gpu_model_id == models["H100 SXM 80GB"])
                               .order_by(GpuAsset.id).limit(1)).scalar()
        if gpu_id:
            down = _at(last_month + dt.timedelta(days=9), 14)
            B.record_downtime(db, admin, start=down, end=down + dt.timedelta(hours=30), gpu_id=gpu_id,
                              reason="NVLink 故障，更换 GPU 基板")

    _meter_readings(db, admin, rng, today, leased_racks)
    return count


def _what_to_lease(db: Database) -> tuple[list, list[int], dict[str, int], dict[int, int]]:
    """The racks holding a customer's servers (one site after the other), the customers, the GPU
    models by name and the subsidiary holding each model's available GPUs."""
    with db.session() as s:
        # Racks that hold a customer's servers, with that customer and the site's subsidiary.
        hosted = s.execute(
            select(Rack.id, Rack.name, Rack.asset_tag, Device.owner_customer_id, Site.subsidiary_id, Site.code)
            .join(Device, Device.rack_id == Rack.id).join(Room, Room.id == Rack.room_id)
            .join(Site, Site.id == Room.site_id)
            .where(Device.owner_customer_id.is_not(None))
            .group_by(Rack.id, Rack.name, Rack.asset_tag, Device.owner_customer_id, Site.subsidiary_id, Site.code)
            .order_by(Rack.id)).all()
        customers = s.execute(select(Customer.id).order_by(Customer.id)).scalars().all()
        models = {m.name: m.id for m in s.execute(select(GpuModel)).scalars()}
        # The subsidiary whose site holds each model's available GPUs.
        gpu_home = dict(s.execute(
            select(GpuAsset.gpu_model_id, func.min(Site.subsidiary_id))
            .join(Device, Device.id == GpuAsset.device_id).join(Rack, Rack.id == Device.rack_id)
            .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
            .where(GpuAsset.state == GpuState.AVAILABLE).group_by(GpuAsset.gpu_model_id)).all())
    # Spread the rack leases over the sites: one rack per site in turn.
    by_site = defaultdict(list)
    for row in hosted:
        by_site[row[5]].append(row)
    queues = list(by_site.values())
    hosted = [q[k] for k in range(max(map(len, queues), default=0)) for q in queues if k < len(q)]
    return hosted, customers, models, gpu_home


def _lease_racks(db: Database, manager: Actor, admin: Actor, rng: random.Random, today: dt.date,
                 hosted: list) -> tuple[list, set]:
    """A rack lease for up to 12 customers hosting servers; returns each leased rack (its tag or name,
    its start) and the customers who got one."""
    leased_racks = []
    seen_customers = set()
    for rack_id, rack_name, tag, customer_id, sub_id, site_code in hosted:
        if customer_id in seen_customers or len(leased_racks) >= 12:
            continue
        seen_customers.add(customer_id)
        n = len(leased_racks)
        start = _month_start(today, 11 if n in (0, 1) else rng.randint(2, 8))
        if n == 2:
            start = start + dt.timedelta(days=14)  # a mid-month handover
        end = _add_months(start, 12) - dt.timedelta(days=1)
        if n == 1:
            end = end + dt.timedelta(days=45)  # one ending within 60–90 days
        items = [
            C.ItemSpec(kind=ItemKind.RACK, description=f"机柜租赁 {site_code} {rack_name}（含 6 kW 电力）",
                       description_en=f"Rack lease {site_code} {rack_name} (6 kW of power included)",
                       unit_price=D("6800"), price_unit=PriceUnit.MONTH, rack_id=rack_id,
                       power_allowance_kw=D("6"), kwh_price=D("1.15")),
            C.ItemSpec(kind=ItemKind.BANDWIDTH, description="BGP 带宽 100 Mbps",
                       description_en="BGP bandwidth 100 Mbps", unit_price=D("45"),
                       price_unit=PriceUnit.MBPS_MONTH, mbps=100),
            C.ItemSpec(kind=ItemKind.ONE_OFF, description="上架安装与布线（一次性）",
                       description_en="Racking and cabling (one-off)", unit_price=D("2000"),
                       price_unit=PriceUnit.ONE_OFF),
        ]
        if n % 3 == 0:
            items.append(C.ItemSpec(kind=ItemKind.MAINTENANCE, description="服务器维保（7×24，按台）",
                                    description_en="Server maintenance (24×7, per server)",
                                    unit_price=D("350"), price_unit=PriceUnit.MONTH, quantity=D(4)))
        info = C.create_contract(db, manager, subsidiary_id=sub_id, customer_id=customer_id, start_date=start,
                                 end_date=end, items=items, title=f"机柜租赁合同 {site_code} {rack_name}",
                                 # no response time of its own: the PDF prints the serving team's
                                 # (the coverage of the customer's region, app.services.contracts.signing)
                                 terms="按月结算，账单出具后 15 日内付款。\n超出电力配额部分按实际用电量计费。")
        _sign(db, manager, admin, info, start)
        leased_racks.append((tag or rack_name, start))

    return leased_racks, seen_customers


def _rent_gpus(db: Database, manager: Actor, admin: Actor, today: dt.date, models: dict[str, int],
               gpu_home: dict[int, int], free_customers: list[int]) -> tuple[list, int]:
    """The GPU rentals, one ended early, a draft and one awaiting approval; returns the signed GPU
    rentals and the number of contracts made."""
    count = 0
    gpu_contracts = []
    for n, (model, qty, unit, price, extra, back, months, lang) in enumerate(GPU_DEALS):
        if models[model] not in gpu_home:
            continue
        start = _month_start(today, back)
        end = _add_months(start, months) - dt.timedelta(days=1)
        zh = lang == "zh"
        item = C.ItemSpec(kind=ItemKind.GPU, description=f"{model} 算力租赁" if zh else f"{model} GPU rental",
                          description_en=f"{model} GPU rental" if zh else None,
                          unit_price=price, price_unit=unit, quantity=D(qty), gpu_model_id=models[model], **extra)
        info = C.create_contract(db, manager, subsidiary_id=gpu_home[models[model]], customer_id=free_customers[n],
                                 start_date=start, end_date=end, items=[item], language=lang,
                                 title=f"{model} 算力租赁合同" if zh else f"{model} GPU rental agreement",
                                 service_level="7×24 运维，GPU 故障 4 小时内更换；故障期间不计费" if zh
                                 else "24×7 operations; a failed GPU is replaced within 4 hours and not billed while down")
        gpu_contracts.append(_sign(db, manager, admin, info, start))
        count += 1

    last_month = _month_start(today, 1)
    # The RTX 5090 customer ended early: terminated on the 15th of last month.
    if models["RTX 5090 32GB"] in gpu_home:
        start = _month_start(today, 4)
        info = C.create_contract(db, manager, subsidiary_id=gpu_home[models["RTX 5090 32GB"]],
                                 customer_id=free_customers[len(GPU_DEALS)], start_date=start,
                                 end_date=_add_months(start, 12) - dt.timedelta(days=1),
                                 items=[C.ItemSpec(kind=ItemKind.GPU, description="RTX 5090 算力租赁（按小时）",
                                                   description_en="RTX 5090 GPU rental (hourly)",
                                                   unit_price=D("3.20"), price_unit=PriceUnit.GPU_HOUR, quantity=D(8),
                                                   gpu_model_id=models["RTX 5090 32GB"])],
                                 title="RTX 5090 算力租赁合同")
        _sign(db, manager, admin, info, start)
        C.terminate_contract(db, admin, info.id, "客户项目结束，提前解约", last_day=last_month + dt.timedelta(days=14),
                             at=_at(last_month + dt.timedelta(days=15)))
        count += 1
    # A draft and one awaiting approval, for the approval queue.
    for k, submit in ((0, False), (1, True)):
        start = _month_start(today, -1)
        info = C.create_contract(db, manager, subsidiary_id=gpu_home.get(models["H100 SXM 80GB"], 1),
                                 customer_id=free_customers[len(GPU_DEALS) + 1 + k], start_date=start,
                                 end_date=_add_months(start, 12) - dt.timedelta(days=1),
                                 items=[C.ItemSpec(kind=ItemKind.GPU, description="H100 算力包月（意向）",
                                                   description_en="H100 monthly GPU rental (proposed)",
                                                   unit_price=D("12800"), price_unit=PriceUnit.MONTH, quantity=D(8),
                                                   gpu_model_id=models["H100 SXM 80GB"])],
                                 title="H100 算力包月合同（草拟）")
        if submit:
            C.submit_contract(db, manager, info.id)
        count += 1

    return gpu_contracts, count


def _meter_readings(db: Database, admin: Actor, rng: random.Random, today: dt.date, leased_racks: list) -> None:
    """Daily meter readings for every leased rack since its start; one counter replaced last month."""
    last_month = _month_start(today, 1)
    rows = []
    for r, (rack_key, start) in enumerate(leased_racks):
        kwh = D(rng.randint(1000, 90000))
        day = start
        reset_day = last_month + dt.timedelta(days=17) if r == 0 else None
        while day <= today:
            if day == reset_day:
                kwh = D(0)  # the meter was replaced: the counter starts again from zero
            rows.append({"rack": rack_key, "read_at": _at(day).isoformat(), "kwh_total": str(kwh),
                         "reset": "1" if day == reset_day else ""})
            draw_kw = D(rng.randint(45, 78)) / 10  # some racks draw over their 6 kW allowance
            kwh += (draw_kw * 24).quantize(D("0.001"))
            day += dt.timedelta(days=1)
    if rows:
        B.import_meter_readings(db, admin, rows)

"""A deterministic, realistic demo: the Fuzhou headquarters and five subsidiaries.

Everything goes through the services (so the audit trail verifies afterwards), in a
few large units of work so that it loads in seconds.
"""
from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable

from sqlalchemy import func, select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import RuleViolation
from app.domain.rating import local_today
from app.domain.validators import make_uscc
from app.services.common import create_in
from app.services.customers import replace_contacts_in
from app.services.dcim import write_device_in
from app.services.gpus import install_gpu_in, move_gpu
from app.services.reference import add_coverage, load_regions, region_name
from app.services.users import add_user, has_users, login
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Customer, Device, GpuAsset, GpuModel, Rack, Room, Site, Subsidiary, User
from models.choices import Cooling, DeviceRole, DeviceStatus, GpuState, RackStatus, Role, ServiceLevel

DEMO_PASSWORD = "demo1234"
SEED = 2026
SWITCH_KW = Decimal("0.64")  # the InfiniBand switch each GPU rack gets on top

DEMO_USERS = [
    ("admin", Role.ADMIN, "系统管理员"),
    ("wanglei", Role.OPERATOR, "王磊"),
    ("liuyang", Role.OPERATOR, "刘洋"),
    ("lina", Role.ACCOUNT_MANAGER, "李娜"),
    ("chenchen", Role.ACCOUNT_MANAGER, "陈晨"),
    ("zhaomin", Role.AUDITOR, "赵敏"),
]

# code, name, English name, 17-char credit body, address, region, bank
SUBSIDIARIES = [
    ("FZ", "华锐算力科技（福州）有限公司", "Huarui Compute Technology (Fuzhou) Co., Ltd.", "91350100MA2Y7K3L0",
     "福建省福州市鼓楼区五四路128号", "350102", "中国工商银行福州五四支行", "1402 0232 0910 0088 123"),
    ("BJ", "华锐算力（北京）有限公司", "Huarui Compute (Beijing) Co., Ltd.", "91110105MA01R8XQ2",
     "北京市朝阳区酒仙桥路10号", "110105", "中国建设银行北京酒仙桥支行", "1105 0163 5400 0000 456"),
    ("SH", "华锐算力（上海）有限公司", "Huarui Compute (Shanghai) Co., Ltd.", "91310115MA1K4D7N3",
     "上海市浦东新区张江路368号", "310115", "招商银行上海张江支行", "1219 0988 1210 001"),
    ("GZ", "华锐算力（广州）有限公司", "Huarui Compute (Guangzhou) Co., Ltd.", "91440112MA5D2H9P4",
     "广东省广州市黄埔区科学大道182号", "440112", "中国银行广州开发区支行", "6879 7231 0457"),
    ("SZ", "华锐算力（深圳）有限公司", "Huarui Compute (Shenzhen) Co., Ltd.", "91440300MA5G6T1R5",
     "广东省深圳市南山区科技园南区深南大道9966号", "440305", "平安银行深圳科技园支行", "1500 8899 0011 22"),
    ("HZ", "华锐算力（杭州）有限公司", "Huarui Compute (Hangzhou) Co., Ltd.", "91330110MA2H3W8U6",
     "浙江省杭州市余杭区文一西路1218号", "330110", "杭州银行余杭支行", "3301 0401 6000 7788"),
]

# Each subsidiary's address and bank in English, for English documents (address_en, bank_name_en).
SUBSIDIARIES_EN = {
    "FZ": ("No. 128 Wusi Road, Gulou District, Fuzhou, Fujian",
           "Industrial and Commercial Bank of China, Fuzhou Wusi Sub-branch"),
    "BJ": ("No. 10 Jiuxianqiao Road, Chaoyang District, Beijing",
           "China Construction Bank, Beijing Jiuxianqiao Sub-branch"),
    "SH": ("No. 368 Zhangjiang Road, Pudong New Area, Shanghai",
           "China Merchants Bank, Shanghai Zhangjiang Sub-branch"),
    "GZ": ("No. 182 Kexue Avenue, Huangpu District, Guangzhou, Guangdong",
           "Bank of China, Guangzhou Development Zone Sub-branch"),
    "SZ": ("No. 9966 Shennan Avenue, South Hi-tech Park, Nanshan District, Shenzhen, Guangdong",
           "Ping An Bank, Shenzhen Science and Technology Park Sub-branch"),
    "HZ": ("No. 1218 Wenyi West Road, Yuhang District, Hangzhou, Zhejiang",
           "Bank of Hangzhou, Yuhang Sub-branch"),
}

# Each subsidiary's own local number (its city's area code).
SUBSIDIARY_PHONES = {"FZ": "0591-8888 6666", "BJ": "010-6543 2100", "SH": "021-5080 3300",
                     "GZ": "020-8226 5500", "SZ": "0755-8661 7700", "HZ": "0571-8898 1200"}

# subsidiary, code, name, region, address, lat, lon, power kW, rooms (name, cooling, racks, rack kW)
SITES = [
    ("FZ", "FZ-MW1", "福州马尾智算中心", "350105", "福州市马尾区快安大道66号", "26.0123", "119.4580", 1500,
     [("A1 液冷智算机房", Cooling.LIQUID, 24, 40), ("B1 风冷机房", Cooling.AIR, 40, 8)]),
    ("FZ", "FZ-CS1", "福州仓山数据中心", "350104", "福州市仓山区金山大道618号", "26.0387", "119.2735", 400,
     [("1F 机房", Cooling.AIR, 36, 8)]),
    ("BJ", "BJ-YZ1", "北京亦庄数据中心", "110115", "北京市大兴区亦庄经济开发区科创十三街", "39.7950", "116.5060", 800,
     [("M1 机房", Cooling.AIR, 40, 10), ("M2 机房", Cooling.AIR, 24, 12)]),
    ("SH", "SH-ZJ1", "上海张江智算中心", "310115", "上海市浦东新区郭守敬路498号", "31.2035", "121.5910", 600,
     [("3F 智算机房", Cooling.AIR, 32, 15)]),
    ("GZ", "GZ-HP1", "广州黄埔数据中心", "440112", "广州市黄埔区开创大道2515号", "23.1670", "113.4600", 300,
     [("A 机房", Cooling.AIR, 30, 8)]),
    ("SZ", "SZ-NS1", "深圳南山算力中心", "440305", "深圳市南山区留仙大道3370号", "22.5800", "113.9500", 300,
     [("5F 机房", Cooling.AIR, 24, 10)]),
    ("HZ", "HZ-YH1", "杭州余杭数据中心", "330110", "杭州市余杭区仓前街道良睦路1399号", "30.2870", "119.9980", 400,
     [("B2 机房", Cooling.AIR, 30, 10)]),
]

# subsidiary, region code, service level, response hours (DOMAIN.md's examples)
COVERAGE = [
    ("FZ", "350000", ServiceLevel.ONSITE, 2), ("FZ", "350100", ServiceLevel.ONSITE, 1),
    ("FZ", "350200", ServiceLevel.ONSITE, 4), ("FZ", "350500", ServiceLevel.ONSITE, 4),
    ("FZ", "460105", ServiceLevel.REMOTE, 8), ("FZ", "460106", ServiceLevel.REMOTE, 8),
    ("FZ", "460107", ServiceLevel.REMOTE, 8), ("FZ", "460108", ServiceLevel.REMOTE, 8),
    ("GZ", "460100", ServiceLevel.PARTNER, 12),
    ("GZ", "440100", ServiceLevel.ONSITE, 2), ("GZ", "441900", ServiceLevel.ONSITE, 4),
    ("GZ", "440600", ServiceLevel.ONSITE, 4),
    ("SZ", "440300", ServiceLevel.ONSITE, 2),
    ("SZ", "520100", ServiceLevel.PARTNER, 24), ("SZ", "520300", ServiceLevel.PARTNER, 24),
    ("SZ", "520200", ServiceLevel.PARTNER, 24),
    ("SH", "310000", ServiceLevel.ONSITE, 2), ("SH", "320000", ServiceLevel.REMOTE, 6),
    ("HZ", "330000", ServiceLevel.ONSITE, 2),
    ("BJ", "110000", ServiceLevel.ONSITE, 2), ("BJ", "120000", ServiceLevel.REMOTE, 6),
    ("BJ", "130000", ServiceLevel.REMOTE, 8),
]

# Device types: NetBox-style values. The first four are the library files in resources/device-types.
DEVICE_TYPES = [
    dict(manufacturer="Supermicro", model="AS-8125GS-TNMR2", slug="supermicro-as-8125gs-tnmr2", u_height=8,
         is_full_depth=True, max_power_w=9000, typical_power_w=7200, gpu_slots=8, role=DeviceRole.GPU_SERVER,
         gpu="H100 SXM 80GB"),
    dict(manufacturer="Supermicro", model="SYS-421GE-TNRT", slug="supermicro-sys-421ge-tnrt", u_height=4,
         is_full_depth=True, max_power_w=4400, typical_power_w=3600, gpu_slots=8, role=DeviceRole.GPU_SERVER,
         gpu="L40S 48GB"),
    dict(manufacturer="Nvidia", model="NVIDIA DGX A100 640GB", slug="nvidia-dgx-a100-640gb", u_height=6,
         is_full_depth=True, max_power_w=6500, typical_power_w=5200, gpu_slots=8, role=DeviceRole.GPU_SERVER,
         gpu="A100 80GB"),
    dict(manufacturer="Nvidia", model="QM9700", slug="nvidia-qm9700", u_height=1, is_full_depth=True,
         max_power_w=1720, typical_power_w=640, role=DeviceRole.SWITCH),
    dict(manufacturer="Inspur", model="NF5688M7 (H200)", slug="inspur-nf5688m7-h200", u_height=6, is_full_depth=True,
         max_power_w=10200, typical_power_w=8400, gpu_slots=8, role=DeviceRole.GPU_SERVER, gpu="H200 141GB"),
    dict(manufacturer="Inspur", model="NF5688M7 (H800)", slug="inspur-nf5688m7-h800", u_height=6, is_full_depth=True,
         max_power_w=10200, typical_power_w=8000, gpu_slots=8, role=DeviceRole.GPU_SERVER, gpu="H800 80GB"),
    dict(manufacturer="Inspur", model="NF5688M6 (A800)", slug="inspur-nf5688m6-a800", u_height=6, is_full_depth=True,
         max_power_w=7000, typical_power_w=5600, gpu_slots=8, role=DeviceRole.GPU_SERVER, gpu="A800 80GB"),
    dict(manufacturer="Supermicro", model="SYS-A22GA-NBRT (B300)", slug="supermicro-b300-hgx", u_height=10,
         is_full_depth=True, max_power_w=14300, typical_power_w=12000, gpu_slots=8, role=DeviceRole.GPU_SERVER,
         gpu="B300 288GB"),
    dict(manufacturer="Huawei", model="Atlas 800T A2", slug="huawei-atlas-800t-a2", u_height=4, is_full_depth=True,
         max_power_w=5600, typical_power_w=4500, gpu_slots=8, role=DeviceRole.GPU_SERVER, gpu="Ascend 910B 64GB"),
    dict(manufacturer="Huawei", model="Atlas 900 A3 node", slug="huawei-atlas-900-a3", u_height=4, is_full_depth=True,
         max_power_w=6800, typical_power_w=5500, gpu_slots=8, role=DeviceRole.GPU_SERVER, gpu="Ascend 920 96GB"),
    dict(manufacturer="ASUS", model="ESC8000-E11 (RTX 4090)", slug="asus-esc8000-rtx4090", u_height=4,
         is_full_depth=True, max_power_w=4000, typical_power_w=3300, gpu_slots=8, role=DeviceRole.GPU_SERVER,
         gpu="RTX 4090 24GB"),
    dict(manufacturer="ASUS", model="ESC8000A-E13 (RTX 5090)", slug="asus-esc8000-rtx5090", u_height=4,
         is_full_depth=True, max_power_w=5200, typical_power_w=4300, gpu_slots=8, role=DeviceRole.GPU_SERVER,
         gpu="RTX 5090 32GB"),
    dict(manufacturer="Dell", model="PowerEdge R760", slug="dell-poweredge-r760", u_height=2, is_full_depth=True,
         max_power_w=1400, typical_power_w=650, role=DeviceRole.SERVER),
    dict(manufacturer="H3C", model="UniServer R4900 G5", slug="h3c-r4900-g5", u_height=2, is_full_depth=True,
         max_power_w=1200, typical_power_w=550, role=DeviceRole.SERVER),
    dict(manufacturer="Huawei", model="CE6881-48S6CQ", slug="huawei-ce6881", u_height=1, is_full_depth=False,
         max_power_w=450, typical_power_w=260, role=DeviceRole.SWITCH),
]

CUSTOMER_NAMES = [
    ("深度求索智能科技（福州）有限公司", "350102"), ("星河大模型研究院（北京）有限公司", "110108"),
    ("海口美兰数智科技有限公司", "460108"), ("琼山云图信息技术有限公司", "460107"),
    ("贵阳数谷算力服务有限公司", "520115"), ("遵义智联科技有限公司", "520302"),
    ("六盘水云创数据有限公司", "520201"), ("广州天河视觉智能有限公司", "440106"),
    ("东莞松湖智造科技有限公司", "441900"), ("佛山顺德机器人研究有限公司", "440606"),
    ("厦门鹭岛语音科技有限公司", "350203"), ("泉州晋江鞋服数智有限公司", "350582"),
    ("上海浦江生物计算有限公司", "310115"), ("杭州西溪电商智能有限公司", "330106"),
    ("苏州工业园区芯算科技有限公司", "320505"), ("深圳前海量化投资管理有限公司", "440305"),
    ("北京中关村自动驾驶科技有限公司", "110108"), ("天津滨海医疗影像有限公司", "120116"),
    ("福州鼓楼游戏渲染工作室", "350102"), ("宁德新能源仿真科技有限公司", "350902"),
    ("南京紫金山天文数据有限公司", "320102"), ("海口秀英跨境电商有限公司", "460105"),
    ("广州番禺动漫渲染有限公司", "440113"), ("杭州滨江短视频科技有限公司", "330108"),
    ("上海徐汇金融风控有限公司", "310104"), ("北京海淀教育智能有限公司", "110108"),
    ("深圳南山具身智能科技有限公司", "440305"), ("福州长乐卫星遥感有限公司", "350112"),
    ("龙华区智慧城市运营有限公司", "460106"), ("贵州大数据交易服务有限公司", "520115"),
]
STREETS = ["人民路", "中山路", "解放路", "建设路", "科技大道", "创新路", "长江路", "滨海大道", "文化路", "新华路"]
CONTACT_NAMES = ["张伟", "王芳", "李强", "刘敏", "陈静", "杨洋", "黄磊", "赵丽", "周杰", "吴婷", "徐斌", "孙悦"]


@dataclass(frozen=True)
class DemoSummary:
    users: int
    sites: int
    racks: int
    devices: int
    gpus: int
    customers: int
    contracts: int
    login_hint: str


def _credit_body(rng: random.Random, prefix: str) -> str:
    alphabet = "0123456789ABCDEFGHJKLMNPQRTUWXY"
    return prefix + "".join(rng.choice(alphabet) for _ in range(17 - len(prefix)))


def ensure_demo_users(db: Database, actor: Actor | None) -> Actor:
    """On an empty database create the demo users; else the caller must be an admin."""
    if not has_users(db):
        add_user(db, None, "admin", Role.ADMIN, DEMO_PASSWORD, "系统管理员")
        actor = login(db, "admin", DEMO_PASSWORD)
    if actor is None:
        raise RuleViolation("the database already has users: load the demo as an administrator (--user)")
    require(actor, "manage_users")
    existing = {u for (u,) in db.session().execute(select(User.login))}
    for login_name, role, name in DEMO_USERS:
        if login_name not in existing:
            add_user(db, actor, login_name, role, DEMO_PASSWORD, name)
    return actor


def _load_places(db: Database, actor: Actor, progress: Callable[[str], None]) -> dict:
    """The subsidiaries, sites, rooms and racks; returns the subsidiaries by code."""
    with UnitOfWork(db, actor) as uow:
        progress("subsidiaries, sites, rooms and racks")
        subs = {}
        for code, name, name_en, body, addr, region, bank, account in SUBSIDIARIES:
            subs[code] = create_in(uow, "subsidiary", dict(
                code=code, name=name, name_en=name_en, credit_code=make_uscc(body), address=addr,
                address_en=SUBSIDIARIES_EN[code][0], region_code=region, bank_name=bank,
                bank_name_en=SUBSIDIARIES_EN[code][1], bank_account=account, phone=SUBSIDIARY_PHONES[code]))
        sites, racks_by_room = {}, {}
        for sub, code, name, region, addr, lat, lon, kw, rooms in SITES:
            site = create_in(uow, "site", dict(
                code=code, name=name, subsidiary_id=subs[sub].id, region_code=region, address=addr,
                latitude=lat, longitude=lon, status="active",
                cooling=Cooling.LIQUID if any(r[1] == Cooling.LIQUID for r in rooms) else Cooling.AIR,
                power_capacity_kw=kw))
            sites[code] = site
            for room_name, cooling, n_racks, rack_kw in rooms:
                cols = 12 if n_racks > 24 else 8
                room = create_in(uow, "room", dict(site_id=site.id, name=room_name, cooling=cooling,
                                                   power_capacity_kw=n_racks * rack_kw,
                                                   cooling_capacity_kw=n_racks * rack_kw * Decimal("1.1"),
                                                   grid_rows=(n_racks + cols - 1) // cols, grid_cols=cols))
                racks = []
                for i in range(n_racks):
                    row, col = divmod(i, cols)
                    racks.append(create_in(uow, "rack", dict(
                        room_id=room.id, name=f"{chr(ord('A') + row)}{col + 1:02d}", u_height=42 if rack_kw < 40 else 48,
                        power_capacity_kw=rack_kw, breaker_limit_kw=Decimal(rack_kw) * Decimal("1.25"),
                        status=RackStatus.AVAILABLE, asset_tag=f"RK-{code}-{len(racks_by_room) + 1}{i + 1:03d}",
                        grid_row=row, grid_col=col)))
                racks_by_room[room.id] = racks
        uow.commit()
    return subs


def _load_types_and_customers(db: Database, actor: Actor, rng: random.Random,
                              progress: Callable[[str], None]) -> tuple[dict, dict, list]:
    """The device types and the customers with a contact each; returns the GPU models by name, the
    device types by slug and the customers."""
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        progress("device types, customers")
        gpu_models = {m.name: m for m in s.execute(select(GpuModel)).scalars()}
        dtypes = {}
        for values in DEVICE_TYPES:
            values = dict(values)
            gpu = values.pop("gpu", None)
            if gpu:
                values["gpu_model_id"] = gpu_models[gpu].id
            dtypes[values["slug"]] = create_in(uow, "device_type", values)
        managers = [u for u in s.execute(select(User).where(User.role == Role.ACCOUNT_MANAGER)).scalars()]
        customers = []
        for i, (name, region) in enumerate(CUSTOMER_NAMES):
            c = create_in(uow, "customer", dict(
                name=name, credit_code=make_uscc(_credit_body(rng, "91" + region[:4] + "MA")), region_code=region,
                address=f"{region_name(s, region)}{rng.choice(STREETS)}{rng.randint(1, 999)}号",
                account_manager_id=managers[i % len(managers)].id))
            contact = CONTACT_NAMES[i % len(CONTACT_NAMES)]
            replace_contacts_in(uow, c, [dict(name=contact, phone=f"13{rng.randint(100000000, 999999999)}",
                                              email=f"ops{i + 1}@customer{i + 1}.cn", role="技术负责人")])
            customers.append(c)
        uow.commit()

    return gpu_models, dtypes, customers


def _load_devices(db: Database, actor: Actor, rng: random.Random, dtypes: dict, customers: list,
                  progress: Callable[[str], None]) -> list[int]:
    """The GPU servers with a switch on top of each of their racks, and the customers' hosted servers;
    returns the GPU servers' ids."""
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        progress("GPU servers, hosted servers and the GPU fleet")
        rooms = s.execute(select(Room).order_by(Room.id)).scalars().all()
        racks_by_room = {r.id: [] for r in rooms}
        for rack in s.execute(select(Rack).order_by(Rack.id)).scalars():
            racks_by_room[rack.room_id].append(rack)
        liquid = [r for r in rooms if r.cooling == Cooling.LIQUID][0]
        # GPU servers: the fleet's, by model, in the liquid room and the 15 kW rooms.
        fleet_plan = [
            ("supermicro-as-8125gs-tnmr2", 4), ("inspur-nf5688m7-h200", 4), ("nvidia-dgx-a100-640gb", 3),
            ("inspur-nf5688m6-a800", 3), ("inspur-nf5688m7-h800", 3), ("supermicro-b300-hgx", 2),
            ("supermicro-sys-421ge-tnrt", 3), ("asus-esc8000-rtx4090", 3), ("asus-esc8000-rtx5090", 3),
            ("huawei-atlas-800t-a2", 4), ("huawei-atlas-900-a3", 2),
        ]
        big_rooms = [liquid] + [r for r in rooms if r is not liquid
                                and r.power_capacity_kw / max(1, len(racks_by_room[r.id])) >= 12]
        slots = []  # (rack, next free U)
        # Racks of the high-density rooms, one room after the other, so every such site gets servers.
        for k in range(14):
            for room in big_rooms:
                if k < len(racks_by_room[room.id]):
                    slots.append([racks_by_room[room.id][k], 1, Decimal(0)])
        servers = []
        n = 0
        for slug, count in fleet_plan:
            dtype = dtypes[slug]
            for _ in range(count):
                n += 1
                for slot in slots:
                    rack, pos, used_kw = slot
                    kw = Decimal(dtype.typical_power_w) / 1000
                    if pos + dtype.u_height - 1 <= rack.u_height - 2 and used_kw + kw + SWITCH_KW <= rack.power_capacity_kw:
                        break
                else:
                    raise RuntimeError("demo layout ran out of rack space")
                device = write_device_in(uow, None, dict(
                    name=f"gpu-{rack.room.site.code.lower()}-{n:03d}", serial=f"SN{rng.randint(10 ** 9, 10 ** 10 - 1)}",
                    asset_tag=f"AT-GPU-{n:04d}", device_type_id=dtype.id, rack_id=rack.id,
                    position=pos, face="front", status=DeviceStatus.ACTIVE))
                slot[1] = pos + int(dtype.u_height)
                slot[2] = used_kw + kw
                servers.append(device.id)
        # A switch on top of each GPU rack.
        for rack, pos, _used_kw in slots:
            if pos > 1:
                write_device_in(uow, None, dict(
                    name=f"ib-{rack.room.site.code.lower()}-{rack.name.lower()}", serial=f"MT{rng.randint(10 ** 8, 10 ** 9)}",
                    device_type_id=dtypes["nvidia-qm9700"].id, rack_id=rack.id, position=rack.u_height - 1,
                    face="front", status=DeviceStatus.ACTIVE))
        # Hosted (colocation) servers owned by customers, in the air-cooled rooms.
        air_racks = [r for room in rooms if room not in big_rooms for r in racks_by_room[room.id]]
        hosted = 0
        for i, rack in enumerate(air_racks[::2]):  # every other rack, in every room
            owner = customers[i % len(customers)]
            for k in range(rng.randint(3, 7)):
                hosted += 1
                dtype = dtypes[rng.choice(["dell-poweredge-r760", "h3c-r4900-g5"])]
                write_device_in(uow, None, dict(
                    name=f"cust{owner.id:02d}-srv-{hosted:03d}", serial=f"CN{rng.randint(10 ** 8, 10 ** 9)}",
                    device_type_id=dtype.id, owner_customer_id=owner.id, rack_id=rack.id, position=1 + k * 3,
                    face="front", status=DeviceStatus.ACTIVE))
            write_device_in(uow, None, dict(
                name=f"tor-{rack.room.site.code.lower()}-{rack.name.lower()}", serial=f"HW{rng.randint(10 ** 8, 10 ** 9)}",
                device_type_id=dtypes["huawei-ce6881"].id, rack_id=rack.id, position=42, face="rear",
                owner_customer_id=owner.id,  # the customer's own switch: its rack is leased to it
                status=DeviceStatus.ACTIVE))
        uow.commit()

    return servers


def _load_the_rest(db: Database, actor: Actor, rng: random.Random, today: dt.date,
                   progress: Callable[[str], None]) -> int:
    """Contracts, space, power, maintenance, cross-connects, finance, operations, visits, clusters and
    capacity; returns the number of contracts."""
    contracts = 0
    try:
        from app.demo.contracts import load_demo_contracts
    except ImportError:
        load_demo_contracts = None
    if load_demo_contracts:
        progress("contracts")
        contracts = load_demo_contracts(db, actor, rng, today)
        from app.demo.space import load_demo_space  # a shared rack and a cage (issue 15)
        progress("leased space: a shared rack and a cage")
        contracts += load_demo_space(db, actor, today)
        from app.demo.power import load_demo_power  # an A/B-fed row, one rack failing N redundancy (issue 15)
        progress("power chain: an A/B-fed row")
        load_demo_power(db, actor)
        from app.demo.access import load_demo_maintenance  # a planned feed maintenance on the A/B row (issue 24)
        load_demo_maintenance(db, actor, today)
        from app.demo.xconnect import load_demo_xconnects  # cross-connects through the meet-me room
        load_demo_xconnects(db, actor, today)
        from app.demo.finance import load_demo_finance  # invoicing profiles, deposits (issue 11)
        load_demo_finance(db, actor, today)
        from app.demo.operations import load_demo_operations  # on call, a week of tickets (issue 24)
        progress("operations desk: on call and a week of tickets")
        load_demo_operations(db, actor, today)
        from app.demo.access import load_demo_visits  # authorised contacts and visitors (issue 24)
        load_demo_visits(db, actor)
    from app.demo.clusters import load_demo_clusters  # GPU clusters, fabrics, a node in triage (issue 25)
    progress("GPU clusters: an H100 NDR fabric, a 910B RoCE one, a node in triage")
    load_demo_clusters(db, actor, today)
    if load_demo_contracts:
        from app.demo.capacity import load_demo_capacity  # price list, a Haikou hold and quote (issue 25)
        progress("capacity: the price list, a hold and a quote")
        load_demo_capacity(db, actor, today)

    return contracts


def load_demo(db: Database, actor: Actor | None = None, *,
              progress: Callable[[str], None] = lambda m: None, today: dt.date | None = None) -> DemoSummary:
    today = today or local_today()
    with db.session() as s:
        if s.execute(select(func.count()).select_from(Subsidiary)).scalar_one():
            raise RuleViolation("this database already has subsidiaries; the demo loads only into an empty one "
                                "(create a new database file, e.g. --db demo.db)")
    actor = ensure_demo_users(db, actor)
    rng = random.Random(SEED)
    progress("regions (GB/T 2260)")
    load_regions(db, actor)
    from app.services.baselines import seed_baselines
    seed_baselines(db)  # what the migrations loaded, as `db upgrade` does (audit reconcile compares it)

    subs = _load_places(db, actor, progress)
    for sub, region, level, hours in COVERAGE:
        add_coverage(db, actor, subs[sub].id, region, service_level=level, response_hours=hours)

    gpu_models, dtypes, customers = _load_types_and_customers(db, actor, rng, progress)
    servers = _load_devices(db, actor, rng, dtypes, customers, progress)
    progress("GPU lifecycle")
    _load_gpus(db, actor, rng, servers, gpu_models, today)

    contracts = _load_the_rest(db, actor, rng, today, progress)
    with db.session() as s:
        count = lambda m: s.execute(select(func.count()).select_from(m)).scalar_one()
        return DemoSummary(count(User), count(Site), count(Rack), count(Device), count(GpuAsset), count(Customer),
                           contracts, f"log in as admin (or wanglei, lina, zhaomin …) with password {DEMO_PASSWORD}")


def gpu_serial(vendor: str, model_name: str, idx: int) -> str:
    """NV-H100-000123, HW-910B-000123: readable demo serials that sort by model."""
    words = model_name.split()
    short = words[1] if words[0] in ("Ascend", "RTX") else words[0]
    return f"{'HW' if vendor == 'Huawei' else 'NV'}-{short}-{idx:06d}"


def _load_gpus(db, actor, rng, servers, gpu_models, today):
    """Install 8 GPUs in each fleet server (available), then spare GPUs in every other state."""
    purchase = today - dt.timedelta(days=400)
    prices = {"H100 SXM 80GB": 220000, "H200 141GB": 260000, "A100 80GB": 110000, "A800 80GB": 105000,
              "H800 80GB": 190000, "B300 288GB": 380000, "L40S 48GB": 60000, "RTX 4090 24GB": 16000,
              "RTX 5090 32GB": 22000, "Ascend 910B 64GB": 120000, "Ascend 920 96GB": 160000}

    def new_gpu(uow, model, idx):
        bought = purchase + dt.timedelta(days=rng.randint(0, 300))
        return create_in(uow, "gpu", dict(
            serial=gpu_serial(model.vendor, model.name, idx),
            gpu_model_id=model.id, state=GpuState.ORDERED, purchase_date=bought,
            purchase_cost=Decimal(prices[model.name]), warranty_end=bought + dt.timedelta(days=365 * 3 - rng.randint(0, 800)),
            depreciation_months=48 if model.vendor == "Huawei" else 36))

    path = {
        GpuState.RECEIVED: [GpuState.RECEIVED],
        GpuState.BURN_IN: [GpuState.RECEIVED, GpuState.BURN_IN],
        GpuState.AVAILABLE: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.AVAILABLE],
        GpuState.MAINTENANCE: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.AVAILABLE, GpuState.MAINTENANCE],
        GpuState.RMA: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.RMA],
        GpuState.RETIRED: [GpuState.RECEIVED, GpuState.BURN_IN, GpuState.AVAILABLE, GpuState.RETIRED],
        GpuState.ORDERED: [],
    }
    reasons = {GpuState.RECEIVED: "到货签收 received at the dock", GpuState.BURN_IN: "上架压测 burn-in started",
               GpuState.AVAILABLE: "压测通过 burn-in passed", GpuState.MAINTENANCE: "ECC 错误，停机检修",
               GpuState.RMA: "压测失败，返厂 RMA", GpuState.RETIRED: "显存故障，报废"}
    idx = 0
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        for server_id in servers:
            server = s.get(Device, server_id)
            model = s.get(GpuModel, server.device_type.gpu_model_id)
            for slot_no in range(1, 9):
                idx += 1
                gpu = new_gpu(uow, model, idx)
                for step in path[GpuState.AVAILABLE]:
                    move_gpu(uow, gpu, step, reasons[step])
                install_gpu_in(uow, gpu.id, server.id, slot_no, "上架安装 installed")
            if rng.random() < 0.15:  # one GPU of some servers is in maintenance
                gpu = s.execute(select(GpuAsset).where(GpuAsset.device_id == server.id, GpuAsset.slot == 8)).scalar_one()
                move_gpu(uow, gpu, GpuState.MAINTENANCE, reasons[GpuState.MAINTENANCE])
        for model in gpu_models.values():
            for state in (GpuState.ORDERED, GpuState.RECEIVED, GpuState.BURN_IN, GpuState.AVAILABLE,
                          GpuState.MAINTENANCE, GpuState.RMA, GpuState.RETIRED):
                for _ in range(rng.randint(1, 3)):
                    idx += 1
                    gpu = new_gpu(uow, model, idx)
                    for step in path[state]:
                        move_gpu(uow, gpu, step, reasons[step])
        uow.commit()

"""Builders for the contract and billing tests: a subsidiary, a customer, racks and GPUs.

Test setup writes with the ORM directly; the code under test goes through the services.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from zoneinfo import ZoneInfo

from sqlalchemy import select

from app.services import contracts as C
from app.domain.validators import make_uscc
from models import (Customer, GpuAsset, GpuModel, MeterReading, Rack, Region, Room, Site, Subsidiary)
from models.choices import GpuState, ItemKind, PriceUnit, RackStatus

CST = ZoneInfo("Asia/Shanghai")
D = Decimal


def cst(y, m, d, hh=0, mm=0) -> dt.datetime:
    """A Shanghai wall-clock time as an aware datetime."""
    return dt.datetime(y, m, d, hh, mm, tzinfo=CST)


@dataclass(frozen=True)
class World:
    subsidiary_id: int
    customer_id: int
    other_customer_id: int
    rack_ids: tuple[int, ...]  # A-01 … A-06
    gpu_ids: tuple[int, ...]  # 10 × H100, serial H100-0001 …
    h100_id: int


_counter = [0]


def make_world(db, n_racks: int = 6, n_gpus: int = 10, n_customers: int = 2) -> World:
    with db.session() as s:
        s.add(Region(code="440100", name="广州市", level=2))
        s.flush()
        sub = Subsidiary(code="GZ", name="广州算力科技有限公司", credit_code=make_uscc("91440101MA5CXK001"),
                         region_code="440100", bank_name="招商银行广州分行", bank_account="120908000000001")
        s.add(sub)
        s.flush()
        site = Site(code="GZ1", name="广州一号数据中心", subsidiary_id=sub.id, region_code="440100")
        s.add(site)
        s.flush()
        room = Room(site_id=site.id, name="A")
        s.add(room)
        s.flush()
        racks = [Rack(room_id=room.id, name=f"A-{i:02d}", status=RackStatus.AVAILABLE) for i in range(1, n_racks + 1)]
        s.add_all(racks)
        customers = [Customer(name=f"星河智算{i}号有限公司", credit_code=make_uscc(f"9144030MA5F{i:05d}"[:17].ljust(17, "0")))
                     for i in range(1, n_customers + 1)]
        s.add_all(customers)
        h100 = s.execute(select(GpuModel).where(GpuModel.name == "H100 SXM 80GB")).scalar_one()
        gpus = [GpuAsset(serial=f"H100-{i:04d}", gpu_model_id=h100.id, state=GpuState.AVAILABLE)
                for i in range(1, n_gpus + 1)]
        s.add_all(gpus)
        s.commit()
        return World(sub.id, customers[0].id, customers[1].id if n_customers > 1 else customers[0].id,
                     tuple(r.id for r in racks), tuple(g.id for g in gpus), h100.id)


def rack_item(world: World, n: int, price: str, **kw) -> C.ItemSpec:
    return C.ItemSpec(kind=ItemKind.RACK, description=f"机柜 A-{n:02d} 租赁", unit_price=D(price),
                      price_unit=kw.pop("price_unit", PriceUnit.MONTH), rack_id=world.rack_ids[n - 1], **kw)


def gpu_item(world: World, gpus: list[int], price: str, unit: str = PriceUnit.GPU_HOUR, **kw) -> C.ItemSpec:
    return C.ItemSpec(kind=ItemKind.GPU, description=f"H100 算力租赁 {len(gpus)} 卡", unit_price=D(price),
                      price_unit=unit, quantity=D(len(gpus)), gpu_ids=tuple(world.gpu_ids[i - 1] for i in gpus), **kw)


def signed(db, manager, admin, world: World, items, start: dt.date, end: dt.date, *, customer_id=None,
           at: dt.datetime | None = None, activate: bool = True, language: str = "zh") -> C.ContractInfo:
    """Draft (account manager), submit, approve and activate (administrator)."""
    c = C.create_contract(db, manager, subsidiary_id=world.subsidiary_id, customer_id=customer_id or world.customer_id,
                          start_date=start, end_date=end, items=items, title="测试合同", language=language)
    C.submit_contract(db, manager, c.id)
    c = C.approve_contract(db, admin, c.id)
    if activate:
        c = C.activate_contract(db, admin, c.id, at=at or cst(start.year, start.month, start.day))
    return c


def add_readings(db, rack_id: int, rows: list[tuple[dt.datetime, str]]) -> None:
    with db.session() as s:
        s.add_all(MeterReading(rack_id=rack_id, read_at=t, kwh_total=D(v)) for t, v in rows)
        s.commit()


def test_world_builds(db):
    w = make_world(db)
    assert len(w.rack_ids) == 6 and len(w.gpu_ids) == 10
    with db.session() as s:
        assert s.get(Subsidiary, w.subsidiary_id).code == "GZ"

"""Console test helpers: private settings per test and a small seeded estate."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

import pytest

from models import GpuModel, Region
from app.domain.rating import local_today
from app.services.common import create_record
from app.domain.validators import make_uscc


@pytest.fixture(autouse=True, scope="session")
def shielded_singletons():
    """The suite makes millions of PySide calls: the same work-around as the console (ui.shell.main)."""
    from ui.shell.main import shield_singletons
    shield_singletons()


@pytest.fixture(autouse=True)
def fresh_change_bus():
    """Each test gets its own change bus: pages left from an earlier test (their database already
    dropped) must not hear this test's announcements."""
    from ui.shell import operations
    operations.forget_bus()
    yield
    operations.forget_bus()


@pytest.fixture(autouse=True)
def private_settings(tmp_path, monkeypatch):
    """Each test gets its own settings file; nothing touches the user's real settings."""
    from PySide6.QtCore import QSettings
    from ui.shell import settings as ui_settings
    monkeypatch.setenv("IDC_CONSOLE_SETTINGS", str(tmp_path / "settings.ini"))
    ui_settings.set_settings(ui_settings.Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)))
    yield
    ui_settings.set_settings(None)


@pytest.fixture(autouse=True)
def no_modal_error_boxes(monkeypatch):
    """Failure dialogs would block or linger; record them instead."""
    shown = []
    from ui.shell import operations
    monkeypatch.setattr(operations, "show_error", lambda parent, exc, tb="": shown.append(exc))
    return shown


@dataclass
class Estate:
    site_id: int
    room_id: int
    rack_ids: list[int]
    customer_ids: list[int]
    gpu_ids: list[int]
    gpu_model_id: int


@pytest.fixture
def estate(db, admin) -> Estate:
    with db.session() as s:
        s.add_all([Region(code="350000", name="福建省", level=1),
                   Region(code="350100", name="福州市", level=2, parent_code="350000")])
        s.commit()
        gm = s.query(GpuModel).order_by(GpuModel.id).first().id
    sub = create_record(db, admin, "subsidiary", {"code": "FZ", "name": "福州算力科技有限公司",
                                                   "credit_code": make_uscc("91350100MA3000001")})
    site = create_record(db, admin, "site", {"code": "FZ1", "name": "福州一号机房楼", "subsidiary_id": sub,
                                              "region_code": "350100", "power_capacity_kw": Decimal(2000)})
    room = create_record(db, admin, "room", {"site_id": site, "name": "A101"})
    racks = [create_record(db, admin, "rack", {"room_id": room, "name": f"A{i:02d}", "u_height": 42})
             for i in range(1, 8)]
    customers = [create_record(db, admin, "customer", {"name": name, "credit_code": make_uscc(f"9135010{i}MA30000{i}0")})
                 for i, name in enumerate(["福州星河智能科技", "厦门海峡数据服务", "泉州云帆网络"], start=1)]
    gpus = [create_record(db, admin, "gpu", {"serial": f"SN-H100-{i:04d}", "gpu_model_id": gm,
                                             "state": "received" if i % 2 else "ordered",
                                             "warranty_end": local_today() + dt.timedelta(days=30 * i)})
            for i in range(1, 13)]
    return Estate(site, room, racks, customers, gpus, gm)

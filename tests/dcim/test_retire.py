"""Retiring keeps the reason the user typed: one use case per kind, the reason audited."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from app.domain.errors import ValidationError
from app.services import dcim
from app.services.common import create_record
from app.services.registry import RETIRABLE, retire_record
from app.services.users import list_users, login, retire_user
from models import AuditEvent, Device
from tests.support.builders import build_customer, build_site, build_types
from tests.conftest import PASSWORD, table_counts


def _last_event(db, object_type):
    with db.session() as s:
        return s.execute(select(AuditEvent).where(AuditEvent.object_type == object_type)
                         .order_by(AuditEvent.seq.desc()).limit(1)).scalar_one()


@pytest.fixture
def device(db, admin):
    w = build_site(db, admin)
    types = build_types(db, admin)
    return dcim.place_device(db, admin, dict(name="web-01", device_type_id=types["server"], rack_id=w["racks"][0],
                                             position=1, face="front", status="active"))


def test_retire_device_records_the_reason(db, admin, device):
    with db.session() as s:
        version = s.get(Device, device).version
    dcim.retire_device(db, admin, device, "  主板故障，报废  ", version)
    ev = _last_event(db, "device")
    assert (ev.action, ev.reason) == ("device.retire", "主板故障，报废")
    with db.session() as s:
        assert s.get(Device, device).status == "decommissioning"


@pytest.mark.parametrize("reason", [None, "", "   "])
def test_retire_without_a_reason_is_refused_and_changes_nothing(db, admin, device, reason):
    before = table_counts(db)
    with pytest.raises(ValidationError) as e:
        dcim.retire_device(db, admin, device, reason)
    assert "reason" in e.value.errors
    assert table_counts(db) == before


def test_retire_user_records_the_reason_and_the_login_stops_working(db, admin, manager):
    info = next(u for u in list_users(db) if u.login == manager.login)
    retire_user(db, admin, info.id, "离职", info.version)
    ev = _last_event(db, "user")
    assert (ev.action, ev.reason, ev.object_label) == ("user.retire", "离职", manager.login)
    from app.domain.errors import AuthenticationFailed
    with pytest.raises(AuthenticationFailed):
        login(db, manager.login, PASSWORD)


def test_an_admin_cannot_retire_themself(db, admin):
    before = table_counts(db)
    with pytest.raises(ValidationError):
        retire_user(db, admin, admin.id, "test")
    assert table_counts(db) == before


def test_every_retirable_kind_audits_the_reason(db, admin, manager, device):
    site_ids = {}
    with db.session() as s:
        from models import Rack, Site
        site_ids["site"] = s.execute(select(Site.id)).scalars().first()
        site_ids["rack"] = s.execute(select(Rack.id)).scalars().first()
    gm = None
    with db.session() as s:
        from models import GpuModel
        gm = s.execute(select(GpuModel.id)).scalars().first()
    ids = dict(device=device, **site_ids, customer=build_customer(db, admin),
               user=next(u.id for u in list_users(db) if u.login == manager.login),
               gpu=create_record(db, admin, "gpu", dict(serial="SN-R1", gpu_model_id=gm, state="received")))
    from app.services.gpus import transition_gpu
    for state in ("burn_in", "available"):
        transition_gpu(db, admin, ids["gpu"], state, "intake")
    assert set(ids) == RETIRABLE
    for kind, id_ in ids.items():
        retire_record(db, admin, kind, id_, f"retire {kind}")
        ev = _last_event(db, kind)
        assert ev.reason == f"retire {kind}", kind

"""Rack placement and power rules: each refusal, its message, and an unchanged database."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from app.domain.errors import PermissionDenied, RuleViolation, ValidationError
from app.services.dcim import move_device, place_device
from models import Device
from tests.support.builders import build_site, build_types, ensure_admin
from tests.conftest import table_counts


@pytest.fixture
def rack(db, admin):
    ids = build_site(db, admin)
    ids.update(build_types(db, admin))
    return ids


def _place(db, actor, ids, name, type_key, position, face="front", rack_index=0, **kw):
    return place_device(db, actor, dict(name=name, device_type_id=ids[type_key], rack_id=ids["racks"][rack_index],
                                        position=position, face=face), **kw)


def test_device_must_fit_in_rack(db, admin, rack):
    before = table_counts(db)
    with pytest.raises(ValidationError) as err:
        _place(db, admin, rack, "too-high", "gpu_server", 40)  # 4U at U40 reaches U43 of 42
    assert "reach U43" in err.value.message and "U39" in err.value.message
    assert table_counts(db) == before


def test_overlap_on_same_face_refused_and_names_the_other_device(db, admin, rack):
    _place(db, admin, rack, "srv-1", "server", 10)
    before = table_counts(db)
    with pytest.raises(RuleViolation) as err:
        _place(db, admin, rack, "srv-2", "server", 11)
    assert "srv-1" in err.value.message and "U10" in err.value.message
    assert table_counts(db) == before


def test_half_depth_devices_share_units_on_opposite_faces(db, admin, rack):
    front = _place(db, admin, rack, "srv-front", "server", 10, "front")
    rear = _place(db, admin, rack, "sw-rear", "switch", 10, "rear")
    with db.session() as s:
        rows = s.execute(select(Device.id, Device.position, Device.face).where(Device.id.in_([front, rear]))).all()
    assert sorted(rows) == sorted([(front, 10, "front"), (rear, 10, "rear")])


def test_full_depth_device_takes_both_faces(db, admin, rack):
    _place(db, admin, rack, "gpu-1", "gpu_server", 20, "front")
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="both faces"):
        _place(db, admin, rack, "sw-rear", "switch", 22, "rear")
    assert table_counts(db) == before


def test_power_over_capacity_needs_override_and_is_audited(db, admin, rack):
    # Rack capacity 10 kW (breaker 12.5 kW). Two GPU servers: 7.2 kW; a third: 10.8 kW typical.
    _place(db, admin, rack, "gpu-1", "gpu_server", 1)
    _place(db, admin, rack, "gpu-2", "gpu_server", 5)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="10.80 kW typical against a capacity of 10.00 kW"):
        _place(db, admin, rack, "gpu-3", "gpu_server", 9)
    assert table_counts(db) == before
    with pytest.raises(ValidationError, match="reason"):
        _place(db, admin, rack, "gpu-3", "gpu_server", 9, power_override=True)
    _place(db, admin, rack, "gpu-3", "gpu_server", 9, power_override=True, reason="客户合同允许 12 kW")
    from sqlalchemy import select

    from models import AuditEvent
    with db.session() as s:
        ev = s.execute(select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(1)).scalar_one()
    assert ev.action == "device.create" and "power override" in ev.reason and "客户合同" in ev.reason


def test_power_over_breaker_limit_always_refused(db, admin, rack):
    for i, pos in enumerate((1, 5, 9)):
        _place(db, admin, rack, f"gpu-{i}", "gpu_server", pos, power_override=True, reason="test")
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="breaker limit"):  # 14.4 kW > 12.5 kW
        _place(db, admin, rack, "gpu-4", "gpu_server", 13, power_override=True, reason="test")
    assert table_counts(db) == before


def test_operator_without_override_permission(db, admin, operator, auditor, rack):
    before = table_counts(db)
    with pytest.raises(PermissionDenied):
        _place(db, auditor, rack, "x", "server", 1)
    assert table_counts(db) == before


def test_move_device_refused_then_accepted(db, admin, rack):
    _place(db, admin, rack, "srv-1", "server", 10)
    dev = _place(db, admin, rack, "srv-2", "server", 20)
    before = table_counts(db)
    with pytest.raises(RuleViolation):
        move_device(db, admin, dev, rack["racks"][0], Decimal(11), "front")
    assert table_counts(db) == before
    move_device(db, admin, dev, rack["racks"][1], Decimal(11), "front")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(1, 44), st.sampled_from(["front", "rear"]),
                          st.sampled_from(["server", "switch"])), min_size=1, max_size=12))
def test_placements_never_overlap(sqlite_db, placements):
    """Whatever sequence of placements is tried, what was accepted never overlaps."""
    from sqlalchemy import delete, select

    from models import Device, DeviceType
    db = sqlite_db
    admin = ensure_admin(db)
    with db.session() as s:
        if not s.execute(select(DeviceType.id)).first():
            ids = build_site(db, admin, rack_kw=Decimal(100))
            ids.update(build_types(db, admin))
            db._ids = ids
        s.execute(delete(Device))
        s.commit()
    ids = db._ids
    for n, (pos, face, kind) in enumerate(placements):
        try:
            _place(db, admin, ids, f"d{n}", kind, pos, face)
        except (RuleViolation, ValidationError):
            pass
    with db.session() as s:
        rows = s.execute(select(Device.position, Device.face, DeviceType.u_height, DeviceType.is_full_depth)
                         .join(DeviceType)).all()
    taken = set()
    for pos, face, height, full in rows:
        assert pos + height - 1 <= 42
        for u in range(int(pos * 2), int((pos + height) * 2)):
            for f in (("front", "rear") if full else (face,)):
                assert (u, f) not in taken
                taken.add((u, f))

"""GPU lifecycle and slots."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.errors import RuleViolation, ValidationError
from app.services.common import create_record
from app.services.dcim import place_device
from app.services.gpus import gpu_history, install_gpu, transition_gpu, transition_gpus
from models.choices import GpuState
from tests.support.builders import build_site, build_types, ensure_admin
from tests.conftest import table_counts
from tests.support.kept import gpu_counts_are_the_gpus

TO_LEASED = ["received", "burn_in", "available", "leased"]


@pytest.fixture
def fleet(db, admin):
    ids = build_site(db, admin, rack_kw=20)
    ids.update(build_types(db, admin))
    ids["server"] = place_device(db, admin, dict(name="gpu-001", device_type_id=ids["gpu_server"],
                                                 rack_id=ids["racks"][0], position=1))
    ids["gpu"] = create_record(db, admin, "gpu", dict(serial="L40S-0001", gpu_model_id=ids["l40s"]))
    return ids


def _walk(db, actor, gpu, states):
    for st_ in states:
        transition_gpu(db, actor, gpu, st_, f"to {st_}")


def test_allowed_path_and_history(db, admin, fleet):
    _walk(db, admin, fleet["gpu"], TO_LEASED)
    hist = gpu_history(db, fleet["gpu"])
    assert [(h.from_state, h.to_state) for h in hist] == [
        ("ordered", "received"), ("received", "burn_in"), ("burn_in", "available"), ("available", "leased")]
    assert all(h.actor == "admin" and h.reason for h in hist)


def test_forbidden_move_refused_with_allowed_list(db, admin, fleet):
    before = table_counts(db)
    with pytest.raises(RuleViolation) as err:
        transition_gpu(db, admin, fleet["gpu"], "leased", "skip ahead")
    assert "Ordered" in err.value.message and "Allowed from here: Received" in err.value.message
    assert table_counts(db) == before


def test_move_needs_reason(db, admin, fleet):
    before = table_counts(db)
    with pytest.raises(ValidationError, match="reason"):
        transition_gpu(db, admin, fleet["gpu"], "received", "  ")
    assert table_counts(db) == before


def test_leased_gpu_cannot_be_retired_or_removed(db, admin, fleet):
    install_gpu(db, admin, fleet["gpu"], fleet["server"], 1)
    _walk(db, admin, fleet["gpu"], TO_LEASED)
    before = table_counts(db)
    with pytest.raises(RuleViolation):
        transition_gpu(db, admin, fleet["gpu"], "retired", "end of life")
    with pytest.raises(RuleViolation, match="leased"):
        install_gpu(db, admin, fleet["gpu"], None, None)
    assert table_counts(db) == before


def test_slot_rules(db, admin, fleet):
    other = create_record(db, admin, "gpu", dict(serial="L40S-0002", gpu_model_id=fleet["l40s"]))
    install_gpu(db, admin, fleet["gpu"], fleet["server"], 1)
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="already holds GPU L40S-0001"):
        install_gpu(db, admin, other, fleet["server"], 1)
    with pytest.raises(ValidationError, match="8 GPU slots"):
        install_gpu(db, admin, other, fleet["server"], 9)
    from sqlalchemy import select
    from models import GpuModel
    with db.session() as s:
        h100 = s.execute(select(GpuModel.id).where(GpuModel.name == "H100 SXM 80GB")).scalar_one()
    wrong = create_record(db, admin, "gpu", dict(serial="H100-0001", gpu_model_id=h100))
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="takes L40S 48GB GPUs"):
        install_gpu(db, admin, wrong, fleet["server"], 2)
    assert table_counts(db) == before
    gpu_counts_are_the_gpus(db)   # the GPUs per server followed (device_gpu_count)


def test_bulk_move_reports_refusals(db, admin, fleet):
    ids = [create_record(db, admin, "gpu", dict(serial=f"BULK-{i:03d}", gpu_model_id=fleet["l40s"])) for i in range(5)]
    transition_gpu(db, admin, ids[0], "received", "early")
    seen = []
    result = transition_gpus(db, admin, ids, "received", "64 GPUs received", progress=lambda d, t: seen.append((d, t)),
                             batch=2)
    assert result.moved == 4 and len(result.refused) == 1 and "BULK-000" in result.refused[0][1]
    assert seen[-1] == (5, 5)


def test_operator_may_not_edit_customers_and_auditor_nothing(db, admin, auditor, fleet):
    from app.domain.errors import PermissionDenied
    before = table_counts(db)
    with pytest.raises(PermissionDenied, match="may not change GPUs"):
        transition_gpu(db, auditor, fleet["gpu"], "received", "x")
    assert table_counts(db) == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(GpuState.values()), max_size=14))
def test_no_sequence_reaches_a_forbidden_state(moves):
    """Pure check of the transition table as the service applies it."""
    state = GpuState.ORDERED
    path = [state]
    for target in moves:
        if target in GpuState.TRANSITIONS[state]:
            state = target
            path.append(state)
    for a, b in zip(path, path[1:]):
        assert b in GpuState.TRANSITIONS[a]
        assert a != GpuState.RETIRED
        assert not (a == GpuState.LEASED and b == GpuState.RETIRED)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(GpuState.values()), min_size=1, max_size=10))
def test_service_follows_the_table(sqlite_db, moves):
    """Random move sequences through the real service: state only ever follows allowed edges."""
    from sqlalchemy import select

    from models import GpuAsset, GpuModel
    db = sqlite_db
    admin = ensure_admin(db)
    with db.session() as s:
        model = s.execute(select(GpuModel.id).limit(1)).scalar_one()
        n = s.execute(select(GpuAsset.id)).all()
    gpu = create_record(db, admin, "gpu", dict(serial=f"P-{len(n)}", gpu_model_id=model))
    state = "ordered"
    for target in moves:
        try:
            transition_gpu(db, admin, gpu, target, "property")
            assert target in GpuState.TRANSITIONS[state]
            state = target
        except RuleViolation:
            assert target not in GpuState.TRANSITIONS[state]
    with db.session() as s:
        assert s.get(GpuAsset, gpu).state == state


def test_move_to_another_slot_is_audited_and_refusals_leave_nothing(db, admin, fleet):
    from sqlalchemy import select
    from app.read import queries
    from app.services.gpus import move_gpu_slot
    from models import AuditEvent
    other = create_record(db, admin, "gpu", dict(serial="L40S-0002", gpu_model_id=fleet["l40s"]))
    transition_gpu(db, admin, other, "received", "delivered")
    assert [g[1] for g in queries.stock_gpus(db, fleet["server"])] == ["L40S-0002"]   # ordered L40S-0001 is not stock
    install_gpu(db, admin, fleet["gpu"], fleet["server"], 1)
    install_gpu(db, admin, other, fleet["server"], 2)
    assert queries.stock_gpus(db, fleet["server"]) == []
    before = table_counts(db)
    with pytest.raises(RuleViolation, match="slot 2 of gpu-001 already holds GPU L40S-0002"):
        move_gpu_slot(db, admin, fleet["gpu"], 2, "swap")
    with pytest.raises(RuleViolation, match="already in slot 1"):
        move_gpu_slot(db, admin, fleet["gpu"], 1)
    assert table_counts(db) == before
    move_gpu_slot(db, admin, fleet["gpu"], 5, "riser 1 faulty")
    grid = queries.gpu_slots(db, fleet["server"])
    assert [(s.slot, s.serial) for s in grid.slots if s.gpu_id] == [(2, "L40S-0002"), (5, "L40S-0001")]
    assert len(grid.slots) == 8 and grid.gpu_model == "L40S 48GB"
    with db.session() as s:
        ev = s.execute(select(AuditEvent).where(AuditEvent.action == "gpu.move")).scalar_one()
        import json
        assert ev.reason == "riser 1 faulty" and json.loads(ev.after)["slot"] == 5 and json.loads(ev.before)["slot"] == 1
    install_gpu(db, admin, other, None, None, "spare")
    with pytest.raises(RuleViolation, match="not in a server"):
        move_gpu_slot(db, admin, other, 3)
    gpu_counts_are_the_gpus(db)   # the GPUs per server followed (device_gpu_count)


def test_only_installable_gpus_are_stock_and_rma_or_retire_empties_the_slot(db, admin, fleet):
    """Maintenance and RMA GPUs are not offered from stock and cannot be installed; a move to RMA or
    retired takes the GPU out of its slot, with the slot named in its history and a gpu.uninstall event."""
    import json

    from sqlalchemy import select

    from app.read import queries
    from models import AuditEvent, GpuAsset
    serials = {}
    for name, path in (("AV", ["received", "burn_in", "available"]), ("MT", ["received", "burn_in", "available", "maintenance"]),
                       ("RM", ["received", "burn_in", "rma"]), ("RC", ["received"])):
        serials[name] = create_record(db, admin, "gpu", dict(serial=f"L40S-{name}", gpu_model_id=fleet["l40s"]))
        _walk(db, admin, serials[name], path)
    assert [g[1] for g in queries.stock_gpus(db, fleet["server"])] == ["L40S-AV", "L40S-RC"]
    before = table_counts(db)
    for name in ("MT", "RM"):
        with pytest.raises(RuleViolation, match="cannot be installed into a server"):
            install_gpu(db, admin, serials[name], fleet["server"], 3)
    assert table_counts(db) == before

    install_gpu(db, admin, serials["AV"], fleet["server"], 3, "rack-up")
    transition_gpu(db, admin, serials["AV"], "maintenance", "ECC errors")   # maintenance stays in place
    with db.session() as s:
        assert s.get(GpuAsset, serials["AV"]).slot == 3
    transition_gpu(db, admin, serials["AV"], "rma", "fails burn-in again")
    install_gpu(db, admin, serials["RC"], fleet["server"], 4)
    for st_ in ("burn_in", "available", "retired"):
        transition_gpu(db, admin, serials["RC"], st_, f"to {st_}")
    with db.session() as s:
        for name, slot in (("AV", 3), ("RC", 4)):
            g = s.get(GpuAsset, serials[name])
            assert (g.device_id, g.slot) == (None, None)
            ev = s.execute(select(AuditEvent).where(AuditEvent.action == "gpu.uninstall",
                                                    AuditEvent.object_id == str(g.id))).scalar_one()
            assert json.loads(ev.before) == {"device_id": fleet["server"], "slot": slot, "where": f"gpu-001 slot {slot}"}
            assert ev.reason.startswith("RMA: " if name == "AV" else "Retired: ")
    assert gpu_history(db, serials["AV"])[-1].reason == "fails burn-in again (taken out of gpu-001 slot 3)"
    assert gpu_history(db, serials["RC"])[-1].reason == "to retired (taken out of gpu-001 slot 4)"
    assert [s.slot for s in queries.gpu_slots(db, fleet["server"]).slots if s.gpu_id] == []
    gpu_counts_are_the_gpus(db)   # the GPUs per server followed (device_gpu_count)

"""Rights are those of now: a demoted or disabled user loses them in an open session, events record
the current role, and generic updates cannot skip a dedicated use case."""
from __future__ import annotations

import pytest
from sqlalchemy import select

from app.domain.errors import AuthenticationFailed, PermissionDenied, ValidationError
from app.services.common import create_record, update_record
from app.services.gpus import transition_gpu
from app.services.users import update_user
from models import AuditEvent, GpuAsset, GpuModel, User
from tests.conftest import table_counts


def _gpu_model(db, actor, name="Test GPU"):
    return create_record(db, actor, "gpu_model", dict(name=name, vendor="NVIDIA", memory_gb=16, form_factor="pcie"))


def _last_event(db):
    with db.session() as s:
        return s.execute(select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(1)).scalar_one()


def test_disabled_user_loses_rights_in_open_session(db, admin, operator):
    _gpu_model(db, operator, "before")  # the operator's session works
    update_user(db, admin, operator.id, active=False)
    before = table_counts(db)
    with pytest.raises(AuthenticationFailed, match="disabled"):
        _gpu_model(db, operator, "after")
    assert table_counts(db) == before


def test_demoted_user_loses_rights_in_open_session(db, admin, operator):
    update_user(db, admin, operator.id, role="auditor")
    before = table_counts(db)
    with pytest.raises(PermissionDenied, match="Log in again"):
        _gpu_model(db, operator)  # `operator` still says role=operator
    assert table_counts(db) == before


def test_promoted_user_events_record_the_current_role(db, admin, manager):
    update_user(db, admin, manager.id, role="admin", display_name="李娜 (admin)")
    _gpu_model(db, manager)  # the stale actor says account_manager, who may not manage GPUs
    event = _last_event(db)
    assert (event.action, event.actor_role, event.actor_name) == ("gpu_model.create", "admin", "李娜 (admin)")


@pytest.fixture
def gpu(db, admin):
    with db.session() as s:
        model_id = s.execute(select(GpuModel.id).limit(1)).scalar_one()
    gpu_id = create_record(db, admin, "gpu", dict(serial="SEC-0001", gpu_model_id=model_id))
    for state in ("received", "burn_in", "available", "retired"):
        transition_gpu(db, admin, gpu_id, state, f"to {state}")
    return gpu_id


def test_generic_update_cannot_move_a_retired_gpu(db, admin, gpu):
    before = table_counts(db)
    with pytest.raises(ValidationError, match="lifecycle move") as err:
        update_record(db, admin, "gpu", gpu, {"state": "available"})
    assert "state" in err.value.errors
    with pytest.raises(ValidationError, match="install"):
        update_record(db, admin, "gpu", gpu, {"slot": 1})
    with pytest.raises(ValidationError, match="kept by the program"):
        update_record(db, admin, "gpu", gpu, {"version": 1})
    assert table_counts(db) == before
    with db.session() as s:
        assert s.get(GpuAsset, gpu).state == "retired"


def test_generic_update_passes_protected_fields_left_as_they_are(db, admin, gpu):
    """A form sends every field: an unchanged state is no change."""
    update_record(db, admin, "gpu", gpu, {"state": "retired", "depreciation_months": 48})
    with db.session() as s:
        assert s.get(GpuAsset, gpu).depreciation_months == 48


def test_protected_fields_declared_for_users_contracts_statements():
    from app.services.entities import PROTECTED_FIELDS, protected_problems
    from models import Contract, Statement

    assert {"role", "active", "password_hash"} <= set(PROTECTED_FIELDS["app_user"])
    assert protected_problems(User, {"role": "admin"}) and protected_problems(User, {"password_hash": "x"})
    assert protected_problems(Contract, {"status": "active"})
    assert protected_problems(Statement, {"total": 0})

"""What "retire" means per kind (the Delete key in a list): one use case that takes
the reason the user typed and writes it into the audit trail, whatever the kind.
"""
from __future__ import annotations

from app.domain.actor import Actor
from app.domain.errors import ValidationError
from app.services import dcim, gpus
from app.services.common import update_record
from app.services.entities import require_reason
from app.services.users import retire_user
from app.store.db import Database
from models.choices import CustomerStatus, GpuState, RackStatus, SiteStatus

# Kinds retired by setting a status through the generic update (audited with the reason).
_RETIRE_STATUS = {"site": ("status", SiteStatus.RETIRED), "rack": ("status", RackStatus.DECOMMISSIONED),
                  "customer": ("status", CustomerStatus.INACTIVE)}
RETIRABLE = frozenset(_RETIRE_STATUS) | {"device", "user", "gpu"}


def retire_record(db: Database, actor: Actor, kind: str, record_id, reason: str,
                  expected_version: int | None = None) -> None:
    """Retire one record of `kind` with the reason the user gave (audited with the event)."""
    reason = require_reason(reason, kind)
    if kind == "device":
        dcim.retire_device(db, actor, record_id, reason, expected_version)
    elif kind == "user":
        retire_user(db, actor, record_id, reason, expected_version)
    elif kind == "gpu":
        gpus.transition_gpu(db, actor, record_id, GpuState.RETIRED, reason, expected_version)
    elif kind in _RETIRE_STATUS:
        key, value = _RETIRE_STATUS[kind]
        update_record(db, actor, kind, record_id, {key: value}, expected_version, reason=reason)
    else:
        raise ValidationError({"kind": f"a {kind} is not retired; it has no retired state"})

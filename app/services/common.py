"""The generic record use cases over every record-level kind (sites, rooms, racks, devices, device
types, GPUs, GPU models, customers, subsidiaries): create, update and delete by kind name, for the
forms, imports and the demo. Importing this module registers every kind: it imports the services
that own them (each registers its EntitySpec in app.services.entities), so a kind named here is
always found. The services themselves use app.services.entities for their own kinds."""
from __future__ import annotations

from app.domain.auth import require
from app.services import customers, dcim, gpus, reference  # noqa: F401  (each registers its kinds)
from app.services.entities import (
    create_in,
    create_many_in,
    flush_or_refuse,
    get_or_404,
    pk_of,
    refuse_if_referenced,
    snapshot,
    spec_of,
    update_in,
    update_many_in,
    upsert_in,
)
from app.store.uow import UnitOfWork

# the steps inside a caller's unit of work, for callers that name any kind (imports, the demo)
__all__ = ["create_in", "create_many_in", "create_record", "delete_record", "update_in", "update_many_in",
           "update_record", "upsert_in"]


def create_record(db, actor, kind: str, values: dict, *, reason: str | None = None) -> int:
    with UnitOfWork(db, actor) as uow:
        obj = create_in(uow, kind, values, reason=reason)
        uow.commit()
        return pk_of(obj)


def update_record(db, actor, kind: str, obj_id, values: dict, expected_version: int | None = None,
                  *, reason: str | None = None) -> int:
    """Returns the new version."""
    with UnitOfWork(db, actor) as uow:
        obj = update_in(uow, kind, obj_id, values, expected_version, reason=reason)
        uow.commit()
        return obj.version


def delete_record(db, actor, kind: str, obj_id, *, reason: str | None = None) -> None:
    spec = spec_of(kind)
    require(actor, spec.permission)
    with UnitOfWork(db, actor) as uow:
        obj = get_or_404(uow.session, spec.model, obj_id, kind)
        label = f"{kind} {getattr(obj, spec.label_attr)}"
        refuse_if_referenced(uow.session, obj, label)
        before = snapshot(obj)
        uow.session.delete(obj)
        flush_or_refuse(uow.session)
        uow.audit(f"{kind}.delete", kind, obj_id, str(before.get(spec.label_attr)), before=before, reason=reason)
        uow.commit()

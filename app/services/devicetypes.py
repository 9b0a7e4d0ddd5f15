"""Device types written from NetBox's devicetype-library (app.importexport.devicetypes reads the
files): create by slug, set-wise (one flush for all new types, their events 500 to a batch), or
update the stored type keeping what a person set; one `import` event for the whole run."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from sqlalchemy import select, text

from app.audit.trail import append_events
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import DomainError, PermissionDenied, ValidationError
from app.services.entities import create_in
from app.services.entities import flush_or_refuse, flush_versioned, snapshot, spec_of
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import DeviceType
from models.choices import DeviceRole

POWER_FIELDS = ("max_power_w", "typical_power_w", "power_flag")
Refusal = tuple[str, Any, str]  # (file, field or None, why): a file the database or a rule refused


@dataclass(frozen=True)
class DeviceTypeWrite:
    """What write_device_types did: counts by outcome, the files refused while writing, the kinds changed;
    `rolled_back` when strict and a file was refused (nothing written)."""
    counts: Counter
    refused: tuple[Refusal, ...] = ()
    changes: frozenset[str] = frozenset()
    cancelled: bool = False
    rolled_back: bool = False


def write_device_types(db: Database, actor: Actor, good: list[tuple[str, dict]], refused_files: set[str],
                       source: str, total: int, *, dry_run: bool = False, strict: bool = False,
                       progress: Callable[[int], None] = lambda _done: None,
                       cancelled: Callable[[], bool] | None = None) -> DeviceTypeWrite:
    """Write the device types read from `source` ((file name, values) for each good file; `refused_files`
    the files refused on reading, counted in the import event): new slugs created set-wise, existing ones
    updated file by file (a refused file rolls back alone). `progress(done)` counts files written."""
    require(actor, "import")
    require(actor, "manage_dcim")
    counts: Counter[str] = Counter()
    refused: list[Refusal] = []
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        existing = {t.slug: t for t in s.execute(
            select(DeviceType).where(DeviceType.slug.in_([v["slug"] for _n, v in good]))).scalars()} \
            if len(good) < 1000 else {t.slug: t for t in s.execute(select(DeviceType)).scalars()}
        if db.is_sqlite:
            # pysqlite begins a transaction only at the first write; begin it now so that
            # releasing the first file's SAVEPOINT cannot commit anything on its own.
            s.execute(text("UPDATE audit_head SET seq = seq WHERE id = 1"))
        new = [(name, values) for name, values in good if values["slug"] not in existing]
        refused.extend(create_device_types_in(uow, new, counts, progress=progress))
        for done, (name, values) in enumerate(good, start=1):
            if values["slug"] not in existing:
                continue
            if cancelled is not None and cancelled():
                uow.rollback()
                return DeviceTypeWrite(counts, cancelled=True)
            savepoint = s.begin_nested()
            try:
                counts[upsert_device_type(uow, values, existing=existing[values["slug"]])] += 1
                savepoint.commit()
            except PermissionDenied:
                savepoint.rollback()
                raise
            except DomainError as exc:
                savepoint.rollback()
                refused.extend(_row_errors(name, exc))
            progress(len(new) + done)
        if strict and refused:
            uow.rollback()
            return DeviceTypeWrite(counts, tuple(refused), rolled_back=True)
        uow.audit("import", "device_type", None, source,
                  after={"kind": "device-types", "file": source, "rows": total, "created": counts["created"],
                         "updated": counts["updated"], "unchanged": counts["unchanged"],
                         "refused": len(refused_files | {name for name, _f, _r in refused}), "dry_run": dry_run})
        changes = frozenset(uow.changes)
        if dry_run:
            uow.rollback()
        else:
            uow.commit()
    return DeviceTypeWrite(counts, tuple(refused), changes)


_LOOK_UP = object()


def upsert_device_type(uow: UnitOfWork, values: dict, *, from_library: bool = True,
                       reason: str | None = None, existing: Any = _LOOK_UP) -> str:
    """Create by slug, or update the existing type; returns 'created', 'updated' or 'unchanged'.

    Only the fields given are written. From a library file (`from_library`), a person's
    choices survive a re-import: the role is never overwritten (the file has none), nor the GPU
    slots and GPU model when the file has no GPU bays, and when
    the file's power is flagged or missing while the stored type carries a draw and no flag
    (someone entered or corrected it), the stored power is kept.
    """
    s = uow.session
    if existing is _LOOK_UP:
        existing = s.execute(select(DeviceType).where(DeviceType.slug == values.get("slug"))).scalar_one_or_none()
    if existing is None:
        create_in(uow, "device_type", values, reason=reason)
        return "created"
    spec = spec_of("device_type")
    require(uow.actor, spec.permission)
    values = dict(values)
    if from_library:
        file_role = values.pop("role", None)
        # GPU slots and the GPU model are ours: a NetBox file says nothing of them unless it has GPU bays
        # (its count is then the file's word); a re-import keeps what a person set.
        if not values.get("gpu_slots"):
            values.pop("gpu_slots", None)
        values.pop("gpu_model_id", None)
        # No draw in the file: missing data, unless the file describes power distribution or a
        # passive part, which carries no load (then a stored draw is the old import's mistake).
        file_has_no_draw = (values.get("max_power_w") is None and values.get("typical_power_w") is None
                            and file_role not in DeviceRole.NO_LOAD)
        if (values.get("power_flag") or file_has_no_draw) and existing.power_flag is None \
                and (existing.max_power_w is not None or existing.typical_power_w is not None):
            for key in POWER_FIELDS:
                values.pop(key, None)
    merged = {k: getattr(existing, k) for k in snapshot(existing)}
    merged.update(values)
    merged["_id"] = existing.id
    errors = spec.validate(s, merged)
    if errors:
        raise ValidationError(errors)
    before = snapshot(existing)
    changed = False
    for key in values:
        if key.startswith("_") or key in ("id",):
            continue
        if getattr(existing, key) != merged[key]:
            setattr(existing, key, merged[key])
            changed = True
    if not changed:
        return "unchanged"
    flush_versioned(uow, existing, f"device type {existing.slug}")
    after = snapshot(existing)
    keys = [k for k in after if after[k] != before[k] and k not in ("version", "updated_at", "updated_by")]
    uow.audit("device_type.update", "device_type", existing.id, existing.slug,
              before={k: before[k] for k in keys}, after={k: after[k] for k in keys}, reason=reason)
    return "updated"


def _row_errors(name: str, exc: DomainError) -> list[Refusal]:
    fields = getattr(exc, "errors", None) or {None: exc.message}
    return [(name, field, reason) for field, reason in fields.items()]


def create_device_types_in(uow: UnitOfWork, new: list[tuple[str, dict]], counts: Counter,
                           progress: Callable[[int], None]) -> list[Refusal]:
    """Create the types the database does not hold yet; returns the refusals.

    The same steps as app.services.entities.create_in (permission, validation, insert, one audit
    event per type), but the inserts of all valid types go in one flush: one statement
    instead of a flush, a savepoint and a release per file. Should the database refuse that
    batch anyway, it is rolled back and each type is created on its own, so that a bad one
    is named and the others still go in.
    """
    spec = spec_of("device_type")
    require(uow.actor, spec.permission)
    s = uow.session
    refused: list[Refusal] = []
    checked: list[tuple[str, dict]] = []
    for name, values in new:
        values = dict(values)
        errors = spec.validate(s, values)
        if errors:
            refused.extend((name, field, reason) for field, reason in errors.items())
        else:
            checked.append((name, values))
    savepoint = s.begin_nested()
    try:
        objs = [DeviceType(**{k: v for k, v in values.items() if not k.startswith("_")}, updated_by=uow.actor.login)
                for _name, values in checked]
        s.add_all(objs)
        flush_or_refuse(s)
        savepoint.commit()
    except DomainError:
        savepoint.rollback()
        for done, (name, values) in enumerate(checked, start=1):
            one = s.begin_nested()
            try:
                create_in(uow, "device_type", values)
                one.commit()
                counts["created"] += 1
            except PermissionDenied:
                one.rollback()
                raise
            except DomainError as exc:
                one.rollback()
                refused.extend(_row_errors(name, exc))
            progress(done)
        return refused
    uow.changes.add("device_type")
    for start in range(0, len(objs), 500):  # the same events as create_in writes, 500 to a batch
        batch = objs[start:start + 500]
        append_events(uow.session, uow.actor, request_id=uow.request_id, events=[
            dict(action="device_type.create", object_type="device_type", object_id=obj.id, object_label=obj.slug,
                 after=snapshot(obj)) for obj in batch])
        counts["created"] += len(batch)
        progress(start + len(batch))
    return refused

"""Shared mechanics of the use cases: snapshots, versioned updates, reference checks, and the
generic create/update steps of a record-level kind (`EntitySpec`, registered by the service that owns
the kind: customers, dcim, gpus, reference).

The steps here find a kind among those registered so far: a service uses them for its own kinds.
Whoever names a kind it does not own (a form, an import, the demo) goes through app.services.common,
whose import registers every kind."""
from __future__ import annotations

import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable, Iterable

from sqlalchemy import func, inspect, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from app.domain.auth import KIND_PERMISSION, require
from app.domain.clock import local_text
from app.domain.errors import Conflict, InUse, NotFound, RuleViolation, ValidationError
from app.domain.validators import column_problems
from app.store.found import get_or_404
from app.services.bulk import flush_versioned_many, insert_rows
from app.store.uow import UnitOfWork
from models import Base

SNAPSHOT_SKIPS = ("version", "updated_at", "updated_by")  # bookkeeping a snapshot leaves out
_ABSENT = object()


def _plain(value: Any) -> Any:
    """A column value as the audit trail holds it (Decimal and dates as text)."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return value


def snapshot(obj: Base, fields: Iterable[str] | None = None) -> dict[str, Any]:
    """Column values of `obj` as plain JSON-able values (Decimal and dates as text)."""
    names = fields or _snapshot_names(type(obj))
    out = {}
    for name in names:
        value = getattr(obj, name)
        out[name] = value if value is None or type(value) in (str, int, bool) else _plain(value)
    return out


_SNAPSHOT_NAMES: dict[type, list[str]] = {}


def _snapshot_names(model: type) -> list[str]:
    """The attributes a snapshot of a `model` record holds (its mapper asked once per class: a bulk
    update's 100,000 snapshots asked it each time, a tenth of the import, issue 26)."""
    names = _SNAPSHOT_NAMES.get(model)
    if names is None:
        names = _SNAPSHOT_NAMES[model] = [c.key for c in inspect(model).column_attrs if c.key not in SNAPSHOT_SKIPS]
    return names


def snapshot_of_row(model: type, row: dict) -> dict[str, Any]:
    """What snapshot() gives for a record just inserted with the column values `row` (a set-wise
    insert has no ORM object to ask)."""
    keys = _SNAPSHOT_KEYS.get(model)
    if keys is None:
        keys = _SNAPSHOT_KEYS[model] = [c.key for c in model.__table__.columns if c.key not in SNAPSHOT_SKIPS]
    out = {}
    for k in keys:
        value = row.get(k)
        out[k] = value if value is None or type(value) in (str, int) else _plain(value)
    return out


_SNAPSHOT_KEYS: dict[type, list[str]] = {}


@contextmanager
def btree_lookups(s: Session):
    """Lookups of many keys at once that only a btree index should answer (PostgreSQL).

    The trigram GIN indexes of the contains-filters (serials, names) also answer `=`, and for a list
    of keys on a table the planner thinks small it takes them; a GIN search then walks the index's
    whole pending list of recent inserts (fastupdate), so looking up a batch of serials after a few
    thousand new GPUs took 2.7 s (500 serials), and more with every batch. GIN is only ever read by
    bitmap scans: without them the btree (unique) index answers (0.4 ms). Put back afterwards; it is
    local to the transaction anyway, so after an error the rollback puts it back (a statement in an
    aborted transaction would only hide the error)."""
    if s.get_bind().dialect.name != "postgresql":
        yield
        return
    before = s.execute(text("SELECT current_setting('enable_bitmapscan'), "
                            "set_config('enable_bitmapscan', 'off', true)")).scalar_one()
    yield
    s.execute(text("SELECT set_config('enable_bitmapscan', :v, true)"), {"v": before})


def check_version(obj: Base, expected_version: int | None, label: str) -> None:
    if expected_version is not None and obj.version != expected_version:
        raise Conflict(
            f"{label} was changed by {obj.updated_by or 'someone'} at {local_time(obj.updated_at)} "
            "after you opened it. Reload it to see their changes, then edit again.",
            who=obj.updated_by, when=obj.updated_at)


def flush_versioned(uow: UnitOfWork, obj: Base, label: str) -> None:
    """Flush, turning a lost race on the version column into a Conflict naming who won."""
    obj.updated_by = uow.actor.login
    obj.updated_at = dt.datetime.now(dt.timezone.utc)  # always an UPDATE, so the version moves
    try:
        uow.session.flush()
    except StaleDataError:
        uow.session.rollback()
        model = type(obj)
        pk = inspect(obj).identity
        with uow.db.session() as s:
            fresh = s.get(model, pk[0] if len(pk) == 1 else pk)
            who = getattr(fresh, "updated_by", None) if fresh else None
            when = getattr(fresh, "updated_at", None) if fresh else None
        raise Conflict(f"{label} was changed by {who or 'someone'} at {local_time(when)} while you were "
                       "editing it. Reload it to see their changes, then edit again.", who=who, when=when) from None


def local_time(value: dt.datetime | None) -> str:
    if value is None:
        return "an unknown time"
    return local_text(value)


def references_to(session: Session, obj: Base, *, ignore: Iterable[str] = ()) -> list[tuple[str, int]]:
    """(table, count) for every row in another table whose foreign key points at `obj`."""
    table = obj.__table__
    pk_col = list(table.primary_key.columns)[0]
    key = getattr(obj, pk_col.key)
    found = []
    for other in Base.metadata.sorted_tables:
        if other.name in ignore:
            continue
        for fk in other.foreign_keys:
            if fk.column.table is table and fk.column is pk_col:
                if other is table and fk.parent.name == pk_col.name:
                    continue
                n = session.execute(select(func.count()).select_from(other).where(fk.parent == key)).scalar_one()
                if n:
                    found.append((other.name, n))
    return found


TABLE_WORDS = {
    "device": "device(s)", "gpu_asset": "GPU(s)", "rack": "rack(s)", "room": "room(s)", "site": "site(s)",
    "contract": "contract(s)", "contract_item": "contract item(s)", "customer": "customer(s)",
    "coverage": "coverage entries", "rack_reservation": "reservation(s)", "statement": "statement(s)",
    "region": "sub-region(s)", "subsidiary": "subsidiaries", "gpu_lease": "GPU lease(s)",
    "meter_reading": "meter reading(s)", "contact": "contact(s)", "device_type": "device type(s)",
    "downtime": "downtime record(s)", "gpu_history": "history rows", "contract_item_gpu": "contract GPU link(s)",
    "statement_line": "statement line(s)", "app_user": "user(s)", "document_counter": "counters",
}


def refuse_if_referenced(session: Session, obj: Base, label: str, *, ignore: Iterable[str] = ()) -> None:
    refs = references_to(session, obj, ignore=ignore)
    if refs:
        what = ", ".join(f"{n} {TABLE_WORDS.get(t, t)}" for t, n in refs)
        raise InUse(f"{label} cannot be deleted: it is still referred to by {what}. "
                    "Remove or reassign those first, or retire it by status instead.")


def integrity_message(exc: IntegrityError) -> str:
    text = str(exc.orig)
    if "UNIQUE" in text.upper() or "duplicate key" in text:
        return "a record with the same unique value already exists: " + text.splitlines()[0]
    return "the database refused the change: " + text.splitlines()[0]


def flush_or_refuse(session: Session) -> None:
    try:
        session.flush()
    except IntegrityError as exc:
        raise RuleViolation(integrity_message(exc)) from exc


# --- one create/update/delete for the entities whose rules are record-level ------------

@dataclass(frozen=True)
class EntitySpec:
    kind: str                      # audit object type and action prefix
    model: type
    validate: Callable[[Session, dict], dict[str, str]]  # may normalise values in place
    label_attr: str
    normalise: Callable[[dict], None] | None = None
    after_write: Callable[[UnitOfWork, Any, dict], None] | None = None  # cross-entity rules
    # The same rules as `validate` for many new records at once (one query per rule, not per record):
    # (session, [values]) -> [errors] in the same order, each values dict normalised in place as
    # `validate` does. Without it create_many_in calls `validate` once per record.
    validate_many: Callable[[Session, list[dict]], list[dict[str, str]]] | None = None

    @property
    def permission(self) -> str:
        """What writing this kind needs: declared once, in app.domain.auth.KIND_PERMISSION."""
        return KIND_PERMISSION[self.kind]


REGISTRY: dict[str, EntitySpec] = {}

# Fields that only a dedicated use case may change, by table: a generic update (update_record, an
# import's upsert) that would change one is refused, naming the use case to go through. "*" covers
# every column of the table. Declared here once, whatever kind name a table is registered under.
BOOKKEEPING = ("id", "version", "updated_at", "updated_by", "created_at")
PROTECTED_FIELDS: dict[str, dict[str, str]] = {
    "gpu_asset": {"state": "a lifecycle move (transition_gpu: 'Move to…')",
                  "device_id": "installing or removing the GPU (install_gpu)",
                  "slot": "installing or removing the GPU (install_gpu)"},
    "contract": {"status": "the contract's own actions (submit, approve, activate, suspend, terminate)",
                 "number": "numbering at approval", "revision": "amending the contract"},
    "statement": {"*": "the billing run (a statement is changed only by voiding and re-issuing it)"},
    "statement_line": {"*": "the billing run"},
    "app_user": {"role": "editing the user (update_user, administrators only)",
                 "active": "editing the user (update_user, administrators only)",
                 "password_hash": "setting a password (update_user)",
                 "failed_logins": "logging in", "locked_until": "logging in"},
    "gpu_node": {"state": "the node's state moves (node state, drain, undrain: app/services/clusters/nodes.py)",
                 "device_id": "adding the server as a node (cluster add-node)",
                 "cluster_id": "adding the server to another cluster (cluster add-node)"},
    "audit_event": {"*": "nothing: the audit trail is append-only"},
    "audit_head": {"*": "nothing: the audit trail is append-only"},
}


def refuse_unstorable(model: type, values: dict) -> None:
    """Refuse values no column can hold (not finite, too large, too long, a NUL, a loose date): checked
    on what the caller gave (a validator may trip over NaN) and again on what validation made of it."""
    errors = column_problems(model, values)
    if errors:
        raise ValidationError(errors)


def protected_problems(model: type, values: dict, current: Base | None = None) -> dict[str, str]:
    """field -> why, for each field in `values` that a generic update may not change.

    With `current`, a field given with the value it already has is no change and passes (a form
    sends every field).
    """
    rules = PROTECTED_FIELDS.get(model.__table__.name, {})
    errors = {}
    for key, value in values.items():
        if key.startswith("_"):
            continue
        how = rules.get(key) or rules.get("*")
        if how is None and key not in BOOKKEEPING:
            continue
        if current is not None and getattr(current, key, object()) == value:
            continue
        errors[key] = (f"{key} is kept by the program and cannot be set" if how is None
                       else f"{key} cannot be changed by editing the record; use {how}")
    return errors


def require_reason(reason: str | None, what: str) -> str:
    """The stripped reason, or a refusal naming the field: retiring is never silent."""
    text = (reason or "").strip()
    if not text:
        raise ValidationError({"reason": f"say why the {what} is retired; the reason goes into the audit trail"})
    return text


def register(spec: EntitySpec) -> EntitySpec:
    REGISTRY[spec.kind] = spec
    return spec


def spec_of(kind: str) -> EntitySpec:
    """The registered spec of `kind` (app.services.common registers every kind)."""
    try:
        return REGISTRY[kind]
    except KeyError:
        raise NotFound(f"there is no kind of record called {kind!r}") from None


def create_in(uow: UnitOfWork, kind: str, values: dict, *, reason: str | None = None):
    """Create a record of `kind` inside the caller's unit of work."""
    spec = spec_of(kind)
    require(uow.actor, spec.permission)
    values = dict(values)
    refuse_unstorable(spec.model, values)
    if spec.normalise:
        spec.normalise(values)
    errors = spec.validate(uow.session, values)
    if errors:
        raise ValidationError(errors)
    refuse_unstorable(spec.model, values)
    obj = spec.model(**{k: v for k, v in values.items() if not k.startswith("_")}, updated_by=uow.actor.login)
    uow.session.add(obj)
    flush_or_refuse(uow.session)
    if spec.after_write:
        spec.after_write(uow, obj, values)
    uow.audit(f"{kind}.create", kind, pk_of(obj), str(getattr(obj, spec.label_attr)), after=snapshot(obj),
              reason=reason)
    return obj


def create_many_in(uow: UnitOfWork, kind: str, rows: list[dict], *, reasons: list[str | None] | None = None,
                   then: Callable[[list[tuple[int, dict]]], list[Exception | None]] | None = None,
                   stored: Callable[[int], dict] | None = None) -> list[Any]:
    """create_in for many new records at once (a bulk import): the same checks, in the same order,
    for every record, then one multi-row INSERT and one create event each, in order.

    Returns, for each row, the new record's id or the ValidationError that refused it (nothing is
    written for a refused row; the others are). The rules are the kind's own: `validate_many` when
    the kind has one (each rule asks the database once for all rows), else `validate` row by row.
    A kind with cross-entity rules (`after_write`) is refused: its records are created one by one
    (create_in). `then` is the calling use case's own rules for the rows that passed the record's:
    given [(index in `rows`, values as they will be stored)] in order, it answers an error or None for
    each; an error refuses that row. `stored(index)` gives columns the INSERT writes beyond the record
    its create event shows (the same keys for every row): what the use case's own next events record
    of the record at once, instead of an UPDATE of every row after the INSERT (import_gpus_in).
    """
    spec = spec_of(kind)
    require(uow.actor, spec.permission)
    if spec.after_write is not None:
        raise TypeError(f"{kind} has cross-entity rules (after_write); create its records with create_in")
    model = spec.model
    out: list[Any] = [None] * len(rows)
    checked: list[tuple[int, dict]] = []
    for i, given in enumerate(rows):
        values = dict(given)
        errors = column_problems(model, values)
        if errors:
            out[i] = ValidationError(errors)
            continue
        if spec.normalise:
            spec.normalise(values)
        checked.append((i, values))
    s = uow.session
    with s.no_autoflush:
        if spec.validate_many is not None:
            found = spec.validate_many(s, [v for _i, v in checked])
        else:
            found = [spec.validate(s, v) for _i, v in checked]
    good: list[tuple[int, dict]] = []
    for (i, values), errors in zip(checked, found):
        if not errors:  # what validation made of the values fits the columns too
            given = rows[i]
            errors = column_problems(model, {k: v for k, v in values.items() if v is not given.get(k, _ABSENT)})
        if errors:
            out[i] = ValidationError(errors)
        else:
            good.append((i, values))
    if then is not None and good:
        refused = then(good)
        for (i, _v), problem in zip(good, refused):
            out[i] = problem
        good = [g for g, problem in zip(good, refused) if problem is None]
    if not good:
        return out
    table = model.__table__
    defaults = {c.key: c.default.arg for c in table.columns if c.default is not None and c.default.is_scalar}
    keys = {k for k in set().union(*(v.keys() for _i, v in good)) if not k.startswith("_") and k in table.c}
    params = []
    for _i, v in good:  # one set of keys for every row: a key a row lacks takes its default
        row = {k: v[k] if k in v else defaults.get(k) for k in keys}
        row["updated_by"] = uow.actor.login
        params.append(row)
    pk = list(table.primary_key.columns)[0]
    ids = insert_rows(s, table, params if stored is None else [{**row, **stored(i)} for (i, _v), row in zip(good, params)])
    for (i, _v), row, new_id in zip(good, params, ids):
        out[i] = new_id
        row[pk.key] = new_id
        # the record as the INSERT made it (its defaults too), as create_in's snapshot shows it
        uow.audit(f"{kind}.create", kind, new_id, str(row.get(spec.label_attr)),
                  after=snapshot_of_row(model, {**defaults, **row}), reason=reasons[i] if reasons else None)
    return out


def update_in(uow: UnitOfWork, kind: str, obj_id, values: dict, expected_version: int | None = None,
              *, reason: str | None = None):
    """The update inside a caller's unit of work (a use case that writes more in the same transaction)."""
    spec = spec_of(kind)
    require(uow.actor, spec.permission)
    obj = get_or_404(uow.session, spec.model, obj_id, kind)
    check_version(obj, expected_version, f"{kind} {getattr(obj, spec.label_attr)}")
    return _update(uow, spec, obj, values, reason=reason)


def upsert_in(uow: UnitOfWork, kind: str, existing, values: dict, *, reason: str | None = None,
              validate_as: dict | None = None) -> tuple[Any, str]:
    """THE create-or-update of a record-level kind (a form's save, an import's row): create when
    `existing` is None, else change only the fields that differ. Returns (record, outcome) with
    outcome 'created', 'updated' or 'unchanged' (nothing written, nothing audited).

    `validate_as` overrides values for validation only (e.g. a GPU's slot, which its own use case
    keeps)."""
    if existing is None:
        return create_in(uow, kind, values, reason=reason), "created"
    spec = spec_of(kind)
    require(uow.actor, spec.permission)
    obj = _update(uow, spec, existing, values, reason=reason, validate_as=validate_as, only_changes=True)
    return existing, ("unchanged" if obj is None else "updated")


def _update(uow: UnitOfWork, spec: EntitySpec, obj, values: dict, *, reason: str | None = None,
            validate_as: dict | None = None, only_changes: bool = False):
    """Validate the record as it would be, write the given fields and audit what changed.

    With `only_changes`, fields equal to what is stored are not written, and nothing at all is
    written (None is returned) when none differs."""
    before, merged = _as_updated(spec, obj, values, validate_as)
    errors = spec.validate(uow.session, merged)
    if errors:
        raise ValidationError(errors)
    return _write_update(uow, spec, obj, values, before, merged, reason=reason, only_changes=only_changes)


def update_many_in(uow: UnitOfWork, kind: str, items: list[tuple[Any, dict]], *,
                   validate_as: dict | None = None) -> list[Any]:
    """upsert_in's update for many existing records at once (a bulk import): [(record, values)], each
    checked by the same rules as _update (the kind's validate_many when it has one: one query per rule
    for all), and only the fields that differ written. Returns, for each, the record (updated), None
    (unchanged: nothing written) or the error that refused it (nothing written for it)."""
    spec = spec_of(kind)
    require(uow.actor, spec.permission)
    out: list[Any] = [None] * len(items)
    prepared = []
    for i, (obj, values) in enumerate(items):
        try:
            prepared.append((i, *_as_updated(spec, obj, values, validate_as)))
        except ValidationError as exc:
            out[i] = exc
    merged_rows = [m for _i, _b, m in prepared]
    with uow.session.no_autoflush:
        found = spec.validate_many(uow.session, merged_rows) if spec.validate_many is not None \
            else [spec.validate(uow.session, m) for m in merged_rows]
    # set-wise: the changed fields of every record set, then one flush and one update event each, in
    # order; row by row (a write per record) for a kind with cross-entity rules (after_write) or a
    # record given twice (its second change is written over its first)
    one_by_one = spec.after_write is not None or len({id(obj) for obj, _v in items}) < len(items)
    written = []
    for (i, before, merged), errors in zip(prepared, found):
        if errors:
            out[i] = ValidationError(errors)
            continue
        obj, values = items[i]
        try:
            if one_by_one:
                out[i] = _write_update(uow, spec, obj, values, before, merged, only_changes=True)
            else:
                fields = _changed_fields(spec, obj, values, merged)
                if fields:
                    written.append((i, before, fields))
        except ValidationError as exc:
            out[i] = exc
    if written:
        flush_versioned_many(uow, [(items[i][0], fields) for i, _b, fields in written], spec.kind)
        for i, before, _fields in written:
            out[i] = _audit_update(uow, spec, items[i][0], before)
    return out


def _changed_fields(spec: EntitySpec, obj, values: dict, merged: dict) -> dict:
    """The validated update's fields that differ from what is stored, with their new values (empty:
    none differs). Raises ValidationError for a value that validation made unstorable."""
    refuse_unstorable(spec.model, {k: merged[k] for k in values if k in merged})
    return {k: merged[k] for k in values if not k.startswith("_") and k != "id" and getattr(obj, k) != merged[k]}


def _audit_update(uow: UnitOfWork, spec: EntitySpec, obj, before: dict, reason: str | None = None):
    """The update event of a written record: what changed, before and after."""
    after = snapshot(obj)
    changed = [k for k in after if after[k] != before[k]]
    uow.audit(f"{spec.kind}.update", spec.kind, pk_of(obj), str(getattr(obj, spec.label_attr)),
              before={k: before[k] for k in changed}, after={k: after[k] for k in changed}, reason=reason)
    return obj


def _as_updated(spec: EntitySpec, obj, values: dict, validate_as: dict | None) -> tuple[dict, dict]:
    """(the record's snapshot, its fields as they would be) for _update's rules; refuses what a generic
    update may not change and values no column can hold."""
    before = snapshot(obj)
    merged = {k: getattr(obj, k) for k in before}  # typed values, not their text
    refused = protected_problems(spec.model, values, obj)
    if refused:
        raise ValidationError(refused)
    refuse_unstorable(spec.model, values)
    merged.update(values)
    merged.update(validate_as or {})
    if spec.normalise:
        spec.normalise(merged)
    merged["_id"] = pk_of(obj)
    return before, merged


def _write_update(uow: UnitOfWork, spec: EntitySpec, obj, values: dict, before: dict, merged: dict, *,
                  reason: str | None = None, only_changes: bool = False):
    """The validated update written (see _update): raises ValidationError for a value that validation
    made unstorable, before anything is written."""
    kind = spec.kind
    label = f"{kind} {getattr(obj, spec.label_attr)}"
    refuse_unstorable(spec.model, {k: merged[k] for k in values if k in merged})
    keys = [k for k in values if not k.startswith("_")]
    if only_changes:
        keys = [k for k in keys if k != "id" and getattr(obj, k) != merged[k]]
        if not keys:
            return None
    for k in keys:
        setattr(obj, k, merged[k])
    flush_versioned(uow, obj, label)
    if spec.after_write:
        spec.after_write(uow, obj, merged)
    return _audit_update(uow, spec, obj, before, reason)


def pk_of(obj):
    key = _PK_KEY.get(type(obj), _ABSENT)
    if key is _ABSENT:
        pk = inspect(type(obj)).primary_key
        key = _PK_KEY[type(obj)] = inspect(type(obj)).get_property_by_column(pk[0]).key if len(pk) == 1 else None
    if key is not None:
        value = getattr(obj, key)
        if value is not None:
            return value
    ident = inspect(obj).identity
    return ident[0] if ident and len(ident) == 1 else ident


_PK_KEY: dict[type, str | None] = {}   # a model's single primary-key attribute (None: a composite key)


def next_document_number(session: Session, subsidiary_id: int, kind: str, scope: str, count: int = 1) -> int:
    """Take the next value (or the next `count` values: the last is returned) of a per-subsidiary
    counter in the caller's transaction.

    One INSERT … ON CONFLICT DO UPDATE … RETURNING: the counter row stays locked until the
    transaction ends, so concurrent takers queue and a rolled-back taker leaves no gap.
    """
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert
    from models import DocumentCounter

    table = DocumentCounter.__table__
    stmt = upsert(table).values(subsidiary_id=subsidiary_id, kind=kind, scope=scope, last_value=count)
    stmt = stmt.on_conflict_do_update(index_elements=[table.c.subsidiary_id, table.c.kind, table.c.scope],
                                      set_={"last_value": table.c.last_value + count})
    return session.execute(stmt.returning(table.c.last_value)).scalar_one()

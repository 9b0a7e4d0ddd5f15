"""Preview and run an import: all or nothing, every bad row listed."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Callable

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import DomainError, PermissionDenied, ValidationError
from app.domain.runs import logged_run
from app.importexport.kinds.core import _refuse_unstorable, _Row, _row_key
from app.importexport.reading import _load
from app.importexport.schema import (
    BULK_WRITE,
    FIELD_COLUMN,
    HANDLERS,
    LOOKUPS,
    OBJECT_TYPE,
    PERMISSION,
    VERDICT,
    ImportFailed,
    ImportPreview,
    ImportResult,
    ImportRow,
    RowError,
    _Cancelled,
    _check_kind,
    _RowRefused,
    batch_size,
)
from app.store.db import Database, storage_full
from app.store.uow import UnitOfWork


def _rule_column(kind: str, exc: DomainError) -> str | None:
    if exc.field:
        return FIELD_COLUMN.get(kind, {}).get(exc.field, exc.field)
    if kind == "gpus":
        msg = exc.message
        if "GPU cannot be in a server slot" in msg or "leased GPU is" in msg:
            return "state"
        return "slot" if "slot" in msg else "model" if " takes " in msg else "device"
    if kind == "devices":
        msg = exc.message
        if "overlap" in msg or "would reach" in msg or "position" in msg:
            return "position"
        if "rack" in msg:
            return "rack"
    return None


def _quoted(r: _Row, column: str | None, reason: str) -> str:
    """The reason, with the cell's value quoted when the reason does not show it already."""
    raw = r.v.get(column) if column and r.file is None else None
    if not isinstance(raw, str) or not raw.strip() or raw.strip() in reason:
        return reason
    return f"{reason} (the cell holds {raw.strip()!r})"


def _errors_of(kind: str, r: _Row, exc: Exception) -> list[RowError]:
    cols = FIELD_COLUMN.get(kind, {})
    if isinstance(exc, _RowRefused):
        return [RowError(r.line, c, _quoted(r, c, reason), r.file) for c, reason in exc.problems]
    if isinstance(exc, ValidationError):
        return [RowError(r.line, cols.get(k, k) or None, _quoted(r, cols.get(k, k), reason), r.file)
                for k, reason in exc.errors.items()]
    assert isinstance(exc, DomainError)
    column = _rule_column(kind, exc)
    return [RowError(r.line, column, _quoted(r, column, exc.message), r.file)]


# --- public: preview and import --------------------------------------------------------------

PREVIEW_ACTOR = Actor(None, "preview", "Import preview", "admin")


def preview_import(db: Database, kind: str, path: str | Path, actor: Actor | None = None, *,
                   rules: bool = True) -> ImportPreview:
    """Every row with its line number, and every problem, without writing anything.

    With `rules` (the default) the rows also go through the full import checks in a
    transaction that is always rolled back (a dry run), so overlaps with existing devices
    or between rows, duplicates and every service rule show up here too. Given an `actor`,
    the dry run acts as them (a PermissionDenied says they may not import); without one it
    uses a preview identity whose writes are never committed.
    With rules=False only the file's shape, values and references are read.
    """
    kind = _check_kind(kind)
    notices: list[str] = []
    columns, rows, errors = _load(kind, path, notices)
    first_row = rows[0].line if rows else None
    shape_ok = not any(e.file is None and (first_row is None or e.line < first_row) for e in errors)
    if shape_ok and rows and rules:
        try:
            run_import(db, actor or PREVIEW_ACTOR, kind, path, dry_run=True)
        except ImportFailed as exc:
            errors = exc.row_errors
        else:
            errors = []
    elif shape_ok:
        resolve, _write = HANDLERS[kind]
        with db.session() as s:
            for row in rows:
                r = _Row(row)
                resolve(s, r)
                errors.extend(RowError(r.line, c, reason, r.file) for c, reason in r.problems)
            s.rollback()
    return ImportPreview(kind, str(path), columns, rows, sorted(errors, key=lambda e: (e.file or "", e.line)),
                         notices)




class _Replay(Exception):
    """A row failed while writing in a batch without per-row SAVEPOINTs: check the batch again row by row."""


class _Run:
    """The state of one import that rows add to: every bad row, the keys seen, counts and notes."""

    def __init__(self, uow: UnitOfWork, kind: str, seen: dict, counts: Counter, notes: list, errors: list):
        self.uow, self.kind = uow, kind
        self.resolve, self.write = HANDLERS[kind]
        self.seen, self.counts, self.notes, self.errors = seen, counts, notes, errors

    def state(self) -> tuple:
        contracts = self.uow.__dict__.get("_imported_contracts")
        return (dict(self.seen), Counter(self.counts), len(self.notes), len(self.errors),
                None if contracts is None else set(contracts), self.uow.audit_mark())

    def restore(self, state: tuple) -> None:
        seen, counts, n_notes, n_errors, contracts, mark = state
        self.seen.clear()
        self.seen.update(seen)
        self.counts.clear()
        self.counts.update(counts)
        del self.notes[n_notes:]
        del self.errors[n_errors:]
        if contracts is not None:
            self.uow.__dict__["_imported_contracts"] = contracts
        else:
            self.uow.__dict__.pop("_imported_contracts", None)
        self.uow.drop_audit(mark)
        self.uow.session.info[LOOKUPS] = {}  # a rolled-back write may have been looked up

    def check(self, row: ImportRow) -> tuple[_Row, dict] | None:
        """Resolve and check one row without writing anything: (row, values), or None when the row is
        refused (its problems are listed)."""
        kind = self.kind
        r = _Row(row)
        try:
            values = self.resolve(self.uow.session, r)  # read-only
            r.check()
            _refuse_unstorable(kind, r, values)
            key = _row_key(kind, values)
            if key is not None and key in self.seen:
                raise _RowRefused([(None, f"the same record as line {self.seen[key]}; each record once per file")])
        except (_RowRefused, DomainError) as exc:
            if isinstance(exc, PermissionDenied):
                raise
            self.errors.extend(_errors_of(kind, r, exc))
            return None
        if key is not None:
            self.seen[key] = r.line
        return r, values

    def written(self, values: dict, outcome: str) -> None:
        self.counts[outcome] += 1
        if self.kind == "users" and outcome == "created":
            self.notes.append(f"{values['login']}: imported without a password; an administrator sets one "
                              "before they can log in")
        if self.kind == "device-types" and values.get("power_flag"):
            self.notes.append(f"{values.get('slug')}: {values['power_flag']}")

    def rows_at_once(self, items: list[tuple[_Row, dict]], write_many: Callable) -> None:
        """Write a batch's checked rows through the kind's set-wise writer (BULK_WRITE). A row it refuses
        before writing is listed; a failure while writing raises _Replay (the caller rolls the batch back
        and checks it again row by row)."""
        try:
            results = write_many(self.uow, items)
        except PermissionDenied:
            raise
        except (_RowRefused, DomainError, DBAPIError, OverflowError) as exc:
            raise _Replay() from exc
        for (r, values), result in zip(items, results):
            if isinstance(result, PermissionDenied):
                raise result
            if isinstance(result, Exception):
                self.errors.extend(_errors_of(self.kind, r, result))
            else:
                self.written(values, result)

    def row(self, row: ImportRow, *, careful: bool) -> None:
        """Check and write one row. Without `careful`, a row whose write fails raises _Replay (the
        caller rolls the batch back); with it, the row has its own SAVEPOINT, as a bad row's
        partial writes must not be seen by the rows after it."""
        uow, kind = self.uow, self.kind
        s = uow.session
        savepoint = s.begin_nested() if careful else None
        mark = uow.audit_mark()
        try:
            checked = self.check(row)
            if checked is None:
                if savepoint is not None:
                    savepoint.rollback()
                uow.drop_audit(mark)
                return
            r, values = checked
            outcome = self.write(uow, r, values)
        except PermissionDenied:
            if savepoint is not None:
                savepoint.rollback()
            raise
        except (_RowRefused, DomainError, DBAPIError, OverflowError) as exc:
            if isinstance(exc, DBAPIError) and storage_full(exc):
                raise  # not this row's fault: the unit of work says the disk is full
            if savepoint is None:
                raise _Replay() from exc
            savepoint.rollback()
            uow.drop_audit(mark)
            s.info[LOOKUPS] = {}
            if isinstance(exc, (DBAPIError, OverflowError)):
                # What the checks above missed: the row's SAVEPOINT is rolled back (on PostgreSQL the
                # transaction goes on), the row is reported and the remaining rows are still checked.
                text_ = str(getattr(exc, "orig", exc)).strip().splitlines()
                self.errors.append(RowError(r.line, None, "the database refused this row: "
                                            + (text_[0] if text_ else type(exc).__name__), r.file))
            else:
                self.errors.extend(_errors_of(kind, r, exc))
            return
        if savepoint is not None:
            savepoint.commit()
        self.written(values, outcome)


def _import_asked(db, actor, kind, path, dry_run=False, **kw) -> dict:
    return dict(kind=kind, file=Path(path).name, dry_run=dry_run)


def _import_counts(r) -> dict:
    return dict(kind=r.kind, rows=r.rows, created=r.created, updated=r.updated, unchanged=r.unchanged,
                dry_run=r.dry_run)


def _import_batches(uow: UnitOfWork, run: _Run, rows: list, write_many: Callable | None,
                    progress: Callable[[int, int], None] | None, cancelled: Callable[[], bool] | None) -> bool:
    """The rows in batches, each in a SAVEPOINT: checked and written (set-wise by write_many, if the
    kind has one), a batch whose write fails checked again row by row. False: cancelled (the unit of
    work rolled back)."""
    s = uow.session
    total = len(rows)
    done = 0
    size = batch_size(total)
    for start in range(0, total, size):
        batch = rows[start:start + size]
        state = run.state()
        savepoint = s.begin_nested()
        try:
            checked = []
            for row in batch:
                if cancelled is not None and cancelled():
                    raise _Cancelled()
                if write_many is None:
                    run.row(row, careful=False)
                else:
                    item = run.check(row)
                    if item is not None:
                        checked.append(item)
                done += 1
                if progress is not None:
                    progress(done, total)
            if write_many is not None:
                run.rows_at_once(checked, write_many)
            try:
                uow.flush_audit()  # the batch's audit events
            except (DomainError, DBAPIError, OverflowError) as exc:
                if isinstance(exc, PermissionDenied):
                    raise
                raise _Replay() from exc
            savepoint.commit()
        except _Cancelled:
            savepoint.rollback()
            uow.rollback()
            return False
        except _Replay:
            # A row failed while writing: the batch is rolled back and checked again row by row,
            # each in its own SAVEPOINT, so that the rows after it see exactly what they would have.
            savepoint.rollback()
            run.restore(state)
            done = start
            for row in batch:
                if cancelled is not None and cancelled():
                    uow.rollback()
                    return False
                run.row(row, careful=True)
                done += 1
                if progress is not None:
                    progress(done, total)
            uow.flush_audit()
        except BaseException:
            savepoint.rollback()
            raise
    return True


@logged_run("import", start=_import_asked, end=_import_counts)
def run_import(db: Database, actor: Actor, kind: str, path: str | Path, dry_run: bool = False,
               progress: Callable[[int, int], None] | None = None,
               cancelled: Callable[[], bool] | None = None) -> ImportResult:
    """All or nothing: every row valid, or ImportFailed listing every bad row and nothing written."""
    kind = _check_kind(kind)
    require(actor, "import")
    require(actor, PERMISSION[kind])
    path = Path(path)
    notices: list[str] = []
    columns, rows, errors = _load(kind, path, notices)
    first_row = rows[0].line if rows else None
    if any(e.file is None and (first_row is None or e.line < first_row) for e in errors):
        raise ImportFailed(kind, path, errors, notices)  # the header is wrong: the rows cannot be read
    if not rows and not errors:   # an empty export read back (a scripted migration of an empty kind)
        return ImportResult(kind, path.name, 0, dry_run=dry_run,
                            notices=tuple(notices) + (f"{path.name} has no rows: nothing to import",))
    counts: Counter[str] = Counter()
    notes: list[str] = []
    seen: dict[Any, int] = {}
    total = len(rows)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        uow.defer_audit()  # appended once per batch: one audit_head update per batch, not per row
        s.info[LOOKUPS] = {}
        if db.is_sqlite:
            # pysqlite begins a transaction only at the first write; start it now so that
            # releasing the first batch's SAVEPOINT cannot commit anything on its own.
            s.execute(text("UPDATE audit_head SET seq = seq WHERE id = 1"))
        run = _Run(uow, kind, seen, counts, notes, errors)
        # the kind's set-wise writer (BULK_WRITE), if it has one
        if not _import_batches(uow, run, rows, BULK_WRITE.get(kind), progress, cancelled):
            return ImportResult(kind, path.name, total, dry_run=dry_run, cancelled=True)
        if errors:
            uow.rollback()
            raise ImportFailed(kind, path, sorted(errors, key=lambda e: (e.file or "", e.line)), notices)
        failing = tuple(VERDICT[kind](uow)) if kind in VERDICT else ()
        uow.audit("import", OBJECT_TYPE[kind], None, path.name,
                  after={"kind": kind, "file": path.name, "rows": total, "created": counts["created"],
                         "updated": counts["updated"], "unchanged": counts["unchanged"], "dry_run": dry_run})
        changes = frozenset(uow.changes)
        if dry_run:
            uow.rollback()
        else:
            uow.commit()
    return ImportResult(kind, path.name, total, counts["created"], counts["updated"], counts["unchanged"],
                        dry_run, False, tuple(notes), changes, tuple(notices), failing)

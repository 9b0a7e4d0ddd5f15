"""Export: rows streamed from the database in file order, written to CSV or XLSX."""
from __future__ import annotations

import csv
import datetime as dt
import re
from contextlib import contextmanager
from decimal import Decimal
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import CompileError
from sqlalchemy.orm import Session

from app.audit.query import EXPORT_HEADERS, AuditFilter, event_row, iter_events, parse_date
from app.audit.trail import format_ts
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.clock import TZ
from app.domain.errors import DomainError, NotFound, ValidationError
from app.importexport import schema
from app.importexport.schema import (
    COLUMNS,
    EXPORT_QUERY,
    FORMATS,
    FORMULA_STARTS,
    LOCAL_TIME_COLUMNS,
    LOCAL_TIME_SUFFIX,
    MONEY_COLUMNS,
    MONEY_FORMAT,
    OBJECT_TYPE,
    STREAM_BATCH,
    ExportResult,
    _Cancelled,
    _check_kind,
    neutralise_cell,
    table_format,
)
from app.services.exports import record_export
from app.store.db import Database
from models import (
    AuditEvent,
    Cage,
    Contact,
    Contract,
    ContractItem,
    Customer,
    Device,
    DeviceType,
    GpuAsset,
    GpuModel,
    Rack,
    Region,
    Room,
    Site,
    Subsidiary,
    User,
)

# --- export ----------------------------------------------------------------------------------

def _export_query(kind: str):
    if kind == "regions":
        return select(Region.code, Region.name, Region.parent_code).order_by(Region.level, Region.code)
    if kind == "subsidiaries":
        return select(Subsidiary.code, Subsidiary.name, Subsidiary.name_en, Subsidiary.credit_code,
                      Subsidiary.region_code, Subsidiary.address, Subsidiary.address_en, Subsidiary.phone,
                      Subsidiary.bank_name, Subsidiary.bank_name_en, Subsidiary.bank_account).order_by(Subsidiary.code)
    if kind == "rooms":
        return (select(Site.code, Room.name, Room.cooling, Room.power_capacity_kw, Room.cooling_capacity_kw,
                       Room.grid_rows, Room.grid_cols, Room.notes)
                .join(Site, Site.id == Room.site_id).order_by(Site.code, Room.name))
    if kind == "sites":
        return (select(Site.code, Site.name, Subsidiary.code, Site.region_code, Site.address, Site.latitude,
                       Site.longitude, Site.status, Site.cooling, Site.power_capacity_kw, Site.slug)
                .join(Subsidiary, Subsidiary.id == Site.subsidiary_id).order_by(Site.code))
    if kind == "racks":
        return (select(Site.code, Room.name, Rack.name, Rack.u_height, Rack.power_capacity_kw, Rack.status,
                       Rack.asset_tag, Customer.name, Cage.name)
                .join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
                .outerjoin(Customer, Customer.id == Rack.customer_id).outerjoin(Cage, Cage.id == Rack.cage_id).order_by(Site.code, Room.name, Rack.name))
    if kind == "devices":
        return (select(Device.name, DeviceType.manufacturer, DeviceType.slug, Device.status, Site.code, Room.name, Rack.name, Device.position,
                       Device.face, Device.serial, Device.asset_tag, Customer.name, Device.notes)
                .join(DeviceType, DeviceType.id == Device.device_type_id)
                .outerjoin(Rack, Rack.id == Device.rack_id).outerjoin(Room, Room.id == Rack.room_id)
                .outerjoin(Site, Site.id == Room.site_id)
                .outerjoin(Customer, Customer.id == Device.owner_customer_id).order_by(Device.id))
    if kind == "gpus":
        return (select(GpuAsset.serial, GpuModel.name, GpuAsset.state, Device.name, GpuAsset.slot,
                       GpuAsset.purchase_date, GpuAsset.purchase_cost, GpuAsset.warranty_end,
                       GpuAsset.depreciation_months, Customer.name)
                .join(GpuModel, GpuModel.id == GpuAsset.gpu_model_id)
                .outerjoin(Customer, Customer.id == GpuAsset.customer_id)
                .outerjoin(Device, Device.id == GpuAsset.device_id).order_by(GpuAsset.id))
    if kind == "customers":
        # one row per contact (the customer's columns repeated), one row for a customer without any
        return (select(Customer.name, Customer.credit_code, Customer.region_code, Customer.address, User.login,
                       Customer.status, Contact.name, Contact.phone, Contact.email, Contact.role)
                .outerjoin(User, User.id == Customer.account_manager_id)
                .outerjoin(Contact, Contact.customer_id == Customer.id).order_by(Customer.id, Contact.id))
    if kind == "device-types":
        return (select(DeviceType.manufacturer, DeviceType.model, DeviceType.slug, DeviceType.part_number,
                       DeviceType.u_height, DeviceType.is_full_depth, DeviceType.airflow, DeviceType.weight_kg,
                       DeviceType.max_power_w, DeviceType.typical_power_w, DeviceType.gpu_slots, GpuModel.name,
                       DeviceType.role, DeviceType.power_flag, DeviceType.comments)
                .outerjoin(GpuModel, GpuModel.id == DeviceType.gpu_model_id).order_by(DeviceType.slug))
    if kind == "users":
        return select(User.login, User.display_name, User.role, User.active, User.created_at).order_by(User.login)
    if kind == "contracts":
        return _contracts_export_query()
    if kind in EXPORT_QUERY:
        return EXPORT_QUERY[kind]()
    if kind == "audit":
        return select(*[getattr(AuditEvent, f) for f in COLUMNS["audit"]]).order_by(AuditEvent.seq)
    raise ValidationError({"kind": f"{kind!r} cannot be exported"})


def _contracts_export_query():
    """One row per contract item, the contract's columns repeated."""
    from sqlalchemy.orm import aliased

    renewal, amended = aliased(Contract), aliased(Contract)
    isite, iroom, irack = aliased(Site), aliased(Room), aliased(Rack)
    csite, croom = aliased(Site), aliased(Room)
    return (select(Contract.number, Subsidiary.code, Customer.name, Customer.credit_code, Contract.title,
                   Contract.status, Contract.start_date, Contract.end_date, Contract.revision,
                   Contract.effective_date, Contract.language, renewal.number, amended.number,
                   Contract.service_level, Contract.terms, ContractItem.kind, ContractItem.description,
                   isite.code + "/" + iroom.name + "/" + irack.name, ContractItem.u_from, ContractItem.u_to,
                   ContractItem.face, csite.code + "/" + croom.name + "/" + Cage.name,
                   func.coalesce(Device.asset_tag, Device.name), GpuModel.name, ContractItem.id,
                   ContractItem.quantity, ContractItem.unit_price, ContractItem.price_unit,
                   ContractItem.tax_category, ContractItem.service_start, ContractItem.service_end,
                   ContractItem.power_allowance_kw, ContractItem.kwh_price, ContractItem.included_hours,
                   ContractItem.hourly_rate, ContractItem.mbps, ContractItem.handover_at,
                   ContractItem.handover_by, ContractItem.handover_note, ContractItem.setup_price,
                   ContractItem.description_en)
            .join(Subsidiary, Subsidiary.id == Contract.subsidiary_id)
            .join(Customer, Customer.id == Contract.customer_id)
            .join(ContractItem, ContractItem.contract_id == Contract.id)
            .outerjoin(renewal, renewal.id == Contract.renewal_of_id)
            .outerjoin(amended, amended.id == Contract.amends_id)
            .outerjoin(irack, irack.id == ContractItem.rack_id).outerjoin(iroom, iroom.id == irack.room_id)
            .outerjoin(isite, isite.id == iroom.site_id)
            .outerjoin(Cage, Cage.id == ContractItem.cage_id).outerjoin(croom, croom.id == Cage.room_id)
            .outerjoin(csite, csite.id == croom.site_id)
            .outerjoin(Device, Device.id == ContractItem.device_id)
            .outerjoin(GpuModel, GpuModel.id == ContractItem.gpu_model_id)
            .order_by(Contract.id, ContractItem.id))  # a contract after the ones it renews or amends


def _cell_functions(conn: Connection, kind: str, headers: list[str], *, lookups: bool = True
                    ) -> dict[int, Callable[[Any], Any]]:
    """Column number -> what its database value becomes in the file, for the columns that change.
    lookups=False: a column that needs a table read first (a contract item's GPU serials) is named
    by a function that refuses, without the read."""
    fns = {i: f for i, f in ((i, _converter(kind, h)) for i, h in enumerate(headers)) if f is not None}
    if kind == "contracts":  # the item's id -> its GPUs' serials
        fns[headers.index("gpus")] = _item_gpu_serials(conn).get if lookups else _not_looked_up
    return fns


def _not_looked_up(value: Any) -> Any:
    raise AssertionError("a column whose lookup was not read")


def driver_sql(dialect, stmt) -> str | None:
    """The statement as the driver runs it, its values written in (None: one cannot be written so).
    Nothing in it is a placeholder, so a doubled percent sign (pyformat's escape) is a single one."""
    try:
        sql = str(stmt.compile(dialect=dialect, compile_kwargs={"literal_binds": True}))
    except CompileError:
        return None
    if dialect.paramstyle in ("format", "pyformat"):
        sql = sql.replace("%%", "%")
    return sql


def _driver_rows(conn: Connection, stmt, fns: dict[int, Callable[[Any], Any]]) -> Iterator[list]:
    """The rows of `stmt` as lists, in its order, from the driver's own cursor (server-side on
    PostgreSQL) in batches of STREAM_BATCH. Each value passes through SQLAlchemy's result processor
    of its column's type where there is one (on SQLite: text to date, number to Decimal), then
    through fns: the values of a Core result, without its per-row cost (profile in
    docs/performance.md: Core rows were 2.1 s of a 400k-GPU export whose sqlite3 floor is 0.8 s)."""
    dialect = conn.dialect
    sql = driver_sql(dialect, stmt)
    if sql is None:  # a value with no literal form: through SQLAlchemy's result
        result = conn.execution_options(stream_results=True, max_row_buffer=STREAM_BATCH).execute(stmt)
        for part in result.partitions(STREAM_BATCH):
            for rec in part:
                row = list(rec)
                for i, f in fns.items():
                    row[i] = f(row[i])
                yield row
        return
    raw = conn.connection.driver_connection
    cur = raw.cursor() if dialect.name == "sqlite" else raw.cursor(name=f"idc_export_{id(stmt):x}")
    try:
        cur.execute(sql)
        steps = []
        for i, (col, desc) in enumerate(zip(stmt.selected_columns, cur.description)):
            proc = col.type.dialect_impl(dialect).result_processor(dialect, desc[1])
            conv = fns.get(i)
            if proc is not None and conv is not None:
                steps.append((i, lambda v, p=proc, c=conv: c(p(v))))
            elif proc is not None or conv is not None:
                steps.append((i, proc or conv))
        while True:
            batch = cur.fetchmany(STREAM_BATCH)
            if not batch:
                break
            if not steps:
                yield from map(list, batch)
                continue
            for rec in batch:
                row = list(rec)
                for i, f in steps:
                    row[i] = f(row[i])
                yield row
    finally:
        cur.close()


def _export_value(kind: str, header: str, value: Any) -> Any:
    convert = _converter(kind, header)
    return value if convert is None else convert(value)


def _converter(kind: str, header: str) -> Callable[[Any], Any] | None:
    """What a column's database value becomes in the file (None: itself). Decided once per column,
    so that the rows of a large export go from the cursor to the file without a call per cell."""
    if kind == "audit" and header == "ts":
        return lambda v: format_ts(v) if isinstance(v, dt.datetime) else v  # exactly the text the hash covers
    if (kind, header) in LOCAL_TIME_COLUMNS:
        return lambda v: v.astimezone(TZ).strftime("%Y-%m-%d %H:%M:%S") if isinstance(v, dt.datetime) else v
    if header in ("position", "u_height"):
        return _whole_units
    return None


def _whole_units(value: Any) -> Any:
    if isinstance(value, Decimal) and value == value.to_integral_value():
        return value.quantize(Decimal(1))  # U10, not U10.0
    return value


def _matches(row: list, needle: str) -> bool:
    return any(needle in str(c).lower() for c in row if c is not None)


def _statement_rows(db: Database) -> tuple[list[str], Iterable]:
    try:
        from app.services import billing as billing_service
        hook = billing_service.export_statements_rows
    except (ImportError, AttributeError):
        raise NotFound("statements cannot be exported yet: the billing module does not provide "
                       "app.services.billing.export_statements_rows") from None
    headers, rows = hook(db)
    return list(headers), rows


def export_rows(db: Database, kind: str, filter: str | dict | None = None) -> tuple[list[str], Iterator[list]]:
    """Headers and a lazy iterator of rows, streamed from the database in batches.

    `filter` is either a text that some cell must contain (case-insensitive), or a dict
    column -> value that the row must equal.
    """
    kind = _check_kind(kind, schema.EXPORT_KINDS)
    if kind == "payments":  # receivables (app/services/receivables.py)
        from app.services.receivables import export_payments_rows
        headers, source = export_payments_rows(db)
        return headers, (list(r) for r in source if _keep_row(headers, list(r), filter))
    if kind == "statements":
        headers, source = _statement_rows(db)

        def statement_iter():
            for row in source:
                row = list(row)
                if _keep_row(headers, row, filter):
                    yield row
        return headers, statement_iter()
    headers = list(COLUMNS[kind])
    stmt = _export_query(kind)

    def rows() -> Iterator[list]:
        with db.engine.connect() as conn:
            for row in _driver_rows(conn, stmt, _cell_functions(conn, kind, headers)):
                if filter and not _keep_row(headers, row, filter):
                    continue
                yield row
    shown = [h + LOCAL_TIME_SUFFIX if (kind, h) in LOCAL_TIME_COLUMNS else h for h in headers]
    return shown, rows()


def export_total(db: Database, kind: str) -> int | None:
    """How many rows an unfiltered export of `kind` will write (for a progress's time left), or None."""
    kind = _check_kind(kind, schema.EXPORT_KINDS)
    if kind in ("payments", "statements"):
        return None
    with db.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(_export_query(kind).order_by(None).subquery())
                            ).scalar_one()


def _item_gpu_serials(s: Session | Connection) -> dict[int, str]:
    """Contract item id -> the serials of the GPUs named on it, space-separated."""
    from models.contracts import contract_item_gpu as link

    out: dict[int, list[str]] = {}
    for item_id, serial in s.execute(select(link.c.item_id, GpuAsset.serial).join(GpuAsset, GpuAsset.id == link.c.gpu_id)
                                     .order_by(link.c.item_id, GpuAsset.serial)):
        out.setdefault(item_id, []).append(serial)
    return {k: " ".join(v) for k, v in out.items()}


def _keep_row(headers: list[str], row: list, filter) -> bool:
    if not filter:
        return True
    if isinstance(filter, dict):
        return all(str(row[headers.index(k)] if row[headers.index(k)] is not None else "") == str(v)
                   for k, v in filter.items() if k in headers)
    return _matches(row, str(filter).lower())


BOM = "\ufeff"  # UTF-8 with BOM, so that Excel reads Chinese right
_CSV_PLAIN = frozenset({int, float, Decimal, dt.date, type(None)})  # str() of each is what _csv_value writes
_RISKY_FIRST = frozenset(FORMULA_STARTS + ("'",))


def _csv_value(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dt.date, dt.datetime)):
        return v.isoformat()
    if isinstance(v, str):
        return neutralise_cell(v)
    return str(v)


def _csv_text(v: Any) -> str | None:
    """What the CSV export writes for a value (None: an empty field): the write loop below, then csv."""
    if v is None:
        return None
    t = type(v)
    if t in _CSV_PLAIN or (t is str and v[:1] not in _RISKY_FIRST):
        return str(v)
    return _csv_value(v)


def export_csv_in_sql(db: Database, kind: str, headers: list[str], path: Path, progress, cancelled) -> int | None:
    """A whole kind to CSV with its cells written by the database (export_sql.py): the same bytes as
    write_export over export_rows. None: this kind has a column the database cannot write so here."""
    from app.importexport import export_sql

    stmt = _export_query(kind)
    with db.engine.connect() as conn:
        dialect = conn.dialect
        # on PostgreSQL a column with a lookup is not written by SQL: do not read the lookup for nothing
        fns = _cell_functions(conn, kind, list(COLUMNS[kind]), lookups=dialect.name == "sqlite")
        whole = {i for i, f in fns.items() if f is _whole_units}
        if dialect.name == "sqlite":
            select_, udfs, failure = export_sql.sqlite_select(stmt, dialect, fns, whole, _csv_text)
        elif dialect.name == "postgresql" and conn.connection.driver_connection.info.encoding == "utf-8":
            select_ = export_sql.postgresql_select(stmt, dialect, fns, whole)
        else:
            select_ = None
        sql = None if select_ is None else driver_sql(dialect, select_)
        if sql is None:
            return None
        raw = conn.connection.driver_connection
        with _whole_file(path, progress) as (tmp, done):
            if dialect.name == "sqlite":
                with open(tmp, "w", encoding="utf-8", newline="", buffering=1 << 20) as f:
                    f.write(BOM)
                    csv.writer(f).writerow(headers)
                    done.append(export_sql.write_sqlite(raw, sql, udfs, failure, f, progress, cancelled))
            else:
                with open(tmp, "wb", buffering=1 << 20) as f:
                    f.write(export_sql.header_bytes(headers, BOM))
                    done.append(export_sql.copy_postgresql(raw, sql, f, progress, cancelled))
    return done[0]


@contextmanager
def _whole_file(path: Path, progress):
    """(PATH.part, []) to write into and to append the row count to; the part becomes PATH only when
    the block completes, so a failed or cancelled export leaves no file. The count is the last progress."""
    tmp, done = path.with_name(path.name + ".part"), []
    try:
        yield tmp, done
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if progress is not None:
        progress(done[0])


def write_export(headers: list[str], rows: Iterable[list], path: str | Path, fmt: str | None = None,
                 *, sheet: str = "export", progress: Callable[[int], None] | None = None,
                 cancelled: Callable[[], bool] | None = None) -> int:
    """Write CSV (UTF-8 with BOM, so Excel shows Chinese) or XLSX (write-only, streamed).

    Returns the number of data rows. An XLSX sheet holds at most 1,048,575 rows; more
    continue on further sheets, each with the header.
    """
    path = Path(path)
    fmt = (fmt or table_format(path)).lower()
    if fmt not in FORMATS:
        raise ValidationError({"format": f"format is csv or xlsx, not {fmt!r}"})
    with _whole_file(path, progress) as (tmp, done):
        count = 0
        if fmt == "csv":
            # the BOM by hand: the utf-8-sig codec encodes each row in Python (0.37 s of 400k rows)
            with open(tmp, "w", encoding="utf-8", newline="", buffering=1 << 20) as f:
                f.write(BOM)
                w = csv.writer(f)
                w.writerow(headers)
                plain, risky, csv_value = _CSV_PLAIN, _RISKY_FIRST, _csv_value
                source = iter(rows)
                while True:  # a thousand rows per writerows call, then progress and cancel
                    if cancelled is not None and cancelled():
                        raise _Cancelled()
                    # numbers, dates and None are written by csv as they are; text is neutralised only
                    # when its first character could start a formula (neutralise_cell decides)
                    chunk = [[v if type(v) in plain or (type(v) is str and v[:1] not in risky)
                              else csv_value(v) for v in row] for row in islice(source, 1000)]
                    if not chunk:
                        break
                    w.writerows(chunk)
                    count += len(chunk)
                    if progress is not None:
                        progress(count)
        else:
            count = _write_xlsx(headers, rows, tmp, sheet, progress, cancelled)
        done.append(count)
    return count


def _write_xlsx(headers, rows, path: Path, sheet: str, progress, cancelled) -> int:
    """XLSX through our streaming writer (app/importexport/xlsx.py): each row goes to the file as it
    comes, memory stays flat. Text is always written as text, never as a formula (neutralise_cell
    first); money columns get MONEY_FORMAT, dates a date format. Measured against xlsxwriter's
    constant-memory mode and openpyxl's write-only mode with lxml in docs/performance.md."""
    max_rows = schema.XLSX_MAX_ROWS  # read now (a test lowers it)
    from app.importexport.xlsx import XlsxWriter

    book = XlsxWriter(path, neutralise=neutralise_cell, money=(i for i, h in enumerate(headers) if h in MONEY_COLUMNS),
                      money_format=MONEY_FORMAT)
    try:
        title = re.sub(r"[\[\]:*?/\\]", "-", sheet)[:28] or "export"
        book.add_sheet(title)
        book.write_rows([headers])
        in_sheet, count, sheets = 1, 0, 1
        source = iter(rows)
        while True:
            if cancelled is not None and cancelled():
                raise _Cancelled()
            # a thousand rows at a time, never past the sheet's last row
            chunk = list(islice(source, min(1000, max_rows - in_sheet)))
            if not chunk:
                if in_sheet < max_rows:
                    break
                probe = list(islice(source, 1))   # the sheet is full: is there a next row?
                if not probe:
                    break
                sheets += 1
                book.add_sheet(f"{title[:24]} ({sheets})")
                book.write_rows([headers])
                in_sheet = 1
                chunk = probe
            book.write_rows(chunk)
            in_sheet += len(chunk)
            count += len(chunk)
            if progress is not None:
                progress(count)
        book.close()
    except BaseException:
        book.abort()
        raise
    return count


def run_export(db: Database, actor: Actor, kind: str, path: str | Path, fmt: str | None = None,
               filter_text: str | None = None, *, progress: Callable[[int], None] | None = None,
               cancelled: Callable[[], bool] | None = None) -> ExportResult:
    """Export a kind to a file and record the export in the audit trail.

    A cancelled export leaves no file and raises DomainError("export cancelled").
    """
    require(actor, "export")
    kind = _check_kind(kind, schema.EXPORT_KINDS)
    path = Path(path)
    fmt = (fmt or table_format(path)).lower()
    if fmt not in FORMATS:
        raise ValidationError({"format": f"format is csv or xlsx, not {fmt!r}"})
    headers, rows = export_rows(db, kind, filter_text)  # lazy: nothing is read before the first row
    try:
        count = None
        if fmt == "csv" and not filter_text and kind in COLUMNS and kind not in ("payments", "statements"):
            count = export_csv_in_sql(db, kind, headers, path, progress, cancelled)
        if count is None:
            count = write_export(headers, rows, path, fmt, sheet=kind, progress=progress, cancelled=cancelled)
    except _Cancelled:
        raise DomainError(f"export of {kind} cancelled; no file was written") from None
    record_export(db, actor, OBJECT_TYPE[kind], path.name, {"kind": kind, "format": fmt, "rows": count,
                                                           "file": path.name, "filter": filter_text or None})
    return ExportResult(kind, str(path), fmt, count)


# --- the audit trail's export (the command line and the console's audit page) --------------

def export_audit(db: Database, actor: Actor, date_from: str, date_to: str, path: Path, fmt: str = "csv", *,
                 actor_login: str | None = None, action: str | None = None, language: str = "zh") -> str:
    require(actor, "export")
    flt = AuditFilter(parse_date(date_from, "from"), parse_date(date_to, "to"), actor_login or None, action or None)
    n = write_audit_export(db, actor, flt, path, fmt, language=language)
    return f"wrote {n} audit events ({flt.describe()}) to {path}"


def write_audit_export(db: Database, actor: Actor, flt: AuditFilter, path: Path, fmt: str = "csv", *,
                       language: str = "zh") -> int:
    """The events `flt` selects to CSV/XLSX, recorded as an export; returns how many were written.
    The command line and the console both export through here. Action and object names are in
    `language` ('zh' or 'en'), beside their codes."""
    require(actor, "export")
    if language not in ("zh", "en"):
        raise ValidationError({"lang": f"the export language is zh or en, not {language!r}"})
    if flt.date_from is None or flt.date_to is None:
        raise ValidationError({"from": "an export needs a period (from and to)"})
    if flt.date_to < flt.date_from:
        raise ValidationError({"to": "the period ends before it starts"})
    n = write_export(EXPORT_HEADERS, (event_row(ev, language) for ev in iter_events(db, flt)), path, fmt, sheet="audit")
    record_export(db, actor, "audit", flt.describe(), {"rows": n, "file": Path(path).name, "format": fmt})
    return n

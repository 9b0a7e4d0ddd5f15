"""Bulk import and export: CSV (UTF-8 with BOM) and XLSX, plus device types from YAML.

Import is all or nothing. Every row goes through the same service rules as a form (the
EntitySpec validators, and for devices the rack placement rules), each inside its own
SAVEPOINT so that one bad row does not hide the next: every bad row is reported with its
line number, column and reason, and then nothing at all is written. Rows are matched to
existing records by their natural key (region code, site code, rack name in its room,
GPU serial, credit code, device-type slug, device asset tag / serial / name in its rack),
so importing what `export` wrote is repeatable and changes nothing.

Exports stream (yield_per, openpyxl write-only) and append one `export` audit event.
Column names follow NetBox's bulk import where the concept exists; `tenant` is a customer,
`location` a room.
"""
from __future__ import annotations

import csv
import datetime as dt
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from sqlalchemy import func, or_, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from models import (AuditEvent, Cage, Contact, Contract, ContractItem, Coverage, Customer, Device, DeviceType, GpuAsset,
                    GpuModel, Rack, Region, Room, Site, SpaceLease, Subsidiary, User)
from models.choices import DeviceRole, DeviceStatus, GpuState, RackStatus, SiteStatus

from .audit import Actor, HASHED_FIELDS, format_ts
from .auth import KIND_PERMISSION, require
from .clock import TZ
from .db import Database
from .errors import DomainError, NotFound, PermissionDenied, ValidationError
from .services.gpus import import_gpu_in, install_gpu_in
from .services.common import create_in, flush_or_refuse, flush_versioned, snapshot, upsert_in
from .uow import UnitOfWork
from .importexport_leases import COLUMNS as LEASE_COLUMNS, FIELD_COLUMN as LEASE_FIELD_COLUMN  # noqa: I001
from .importexport_leases import REQUIRED as LEASE_REQUIRED, export_leases_query, resolve_leases, write_leases
from .validators import column_problems, email_problem, parse_date_strict, phone_problem, region_level, uscc_problem

# --- kinds and their columns ---------------------------------------------------------

KINDS = ("regions", "subsidiaries", "users", "sites", "rooms", "racks", "devices", "gpus", "customers",
         "device-types", "contracts", "leases")
EXPORT_ONLY_KINDS = ("audit", "payments", "statements")
EXPORT_KINDS = KINDS + EXPORT_ONLY_KINDS
FORMATS = ("csv", "xlsx")

COLUMNS: dict[str, tuple[str, ...]] = {
    "regions": ("code", "name", "parent"),
    "sites": ("code", "name", "subsidiary", "region", "address", "latitude", "longitude", "status", "cooling",
              "power_capacity_kw"),
    "subsidiaries": ("code", "name", "name_en", "credit_code", "region", "address", "phone", "bank_name",
                     "bank_account"),
    "rooms": ("site", "name", "cooling", "power_capacity_kw", "cooling_capacity_kw", "grid_rows", "grid_cols",
              "notes"),
    "racks": ("site", "location", "name", "u_height", "power_capacity_kw", "status", "asset_tag", "tenant", "cage"),
    "devices": ("name", "manufacturer", "device_type", "status", "site", "location", "rack", "position", "face", "serial",
                "asset_tag", "tenant", "comments"),
    "gpus": ("serial", "model", "state", "device", "slot", "purchase_date", "purchase_cost", "warranty_end",
             "depreciation_months", "tenant"),
    "customers": ("name", "credit_code", "region", "address", "account_manager", "status", "contact_name",
                  "contact_phone", "contact_email", "contact_role"),
    "device-types": ("manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth", "airflow",
                     "weight_kg", "max_power_w", "typical_power_w", "gpu_slots", "gpu_model", "role", "power_flag",
                     "comments"),
    "users": ("login", "display_name", "role", "active", "created_at"),
    # one row per item, the contract's columns repeated
    "contracts": ("number", "subsidiary", "tenant", "credit_code", "title", "status", "start_date", "end_date",
                  "revision", "effective_date", "language", "renewal_of", "amends", "service_level", "terms",
                  "item_kind", "item_description", "rack", "u_from", "u_to", "face", "cage", "device", "gpu_model", "gpus",
                  "quantity", "unit_price", "price_unit", "tax_category", "service_start", "service_end",
                  "power_allowance_kw", "kwh_price", "included_hours", "hourly_rate", "mbps", "handover_at",
                  "handover_by", "handover_note"),
    "audit": HASHED_FIELDS + ("hash",),
    "leases": LEASE_COLUMNS,
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "regions": ("code", "name"),
    "sites": ("code", "name", "region"),  # the subsidiary: from coverage when not given
    "subsidiaries": ("code", "name", "credit_code"),
    "rooms": ("site", "name"),
    "racks": ("site", "location", "name"),
    "devices": ("device_type",),
    "gpus": ("serial", "model"),
    "customers": ("name", "credit_code"),
    "device-types": ("manufacturer", "model", "slug"),
    "users": ("login", "role"),
    "contracts": ("number", "subsidiary", "status", "start_date", "end_date", "item_kind", "item_description",
                  "unit_price", "price_unit"),
    "leases": LEASE_REQUIRED,
}
# Date-time columns: exported in Shanghai local time, which the header says; read back as such.
LOCAL_TIME_ZONE = TZ.key  # Asia/Shanghai, from app.clock
LOCAL_TIME_COLUMNS = {("users", "created_at"), ("contracts", "handover_at")}
LOCAL_TIME_SUFFIX = f" ({LOCAL_TIME_ZONE})"
# Amounts of money: a number format in XLSX (CSV has none).
MONEY_COLUMNS = frozenset({"purchase_cost", "unit_price", "amount", "subtotal", "tax", "total", "kwh_price",
                           "hourly_rate"})
MONEY_FORMAT = "#,##0.00"
# Audit object type of each kind and the permission its writes need (besides "import").
OBJECT_TYPE = {"regions": "region", "subsidiaries": "subsidiary", "rooms": "room", "sites": "site", "racks": "rack", "devices": "device", "gpus": "gpu",
               "customers": "customer", "device-types": "device_type", "users": "user", "contracts": "contract",
               "audit": "audit", "statements": "statement", "leases": "space_lease", "payments": "payment"}
PERMISSION = {kind: KIND_PERMISSION[OBJECT_TYPE[kind]]  # declared once, in app.auth
              for kind in ("regions", "subsidiaries", "rooms", "sites", "racks", "devices", "gpus", "customers",
                           "device-types", "users", "contracts", "leases")}
# Service field name -> file column, to point a validator's complaint at the right column.
FIELD_COLUMN: dict[str, dict[str, str]] = {
    "regions": {"parent_code": "parent"},
    "sites": {"subsidiary_id": "subsidiary", "region_code": "region"},
    "subsidiaries": {"region_code": "region"},
    "rooms": {"site_id": "site"},
    "racks": {"room_id": "location", "customer_id": "tenant"},
    "devices": {"device_type_id": "device_type", "rack_id": "rack", "owner_customer_id": "tenant",
                "notes": "comments"},
    "gpus": {"gpu_model_id": "model", "device_id": "device"},
    "customers": {"region_code": "region", "account_manager_id": "account_manager"},
    "device-types": {"gpu_model_id": "gpu_model"},
    "contracts": {"subsidiary_id": "subsidiary", "customer_id": "tenant",
                  **{f"items[1].{f}": c for f, c in (("kind", "item_kind"), ("description", "item_description"),
                                                     ("rack_id", "rack"), ("device_id", "device"),
                                                     ("gpu_model_id", "gpu_model"), ("gpu_ids", "gpus"))},
                  **{f"items[1].{f}": f for f in ("u_from", "u_to", "quantity", "unit_price", "price_unit",
                                                  "tax_category", "service_start", "service_end",
                                                  "power_allowance_kw", "kwh_price", "included_hours",
                                                  "hourly_rate", "mbps")}},
    "leases": LEASE_FIELD_COLUMN,
}
# NetBox's bulk-import column names (netbox/dcim/forms/bulk_import.py: SiteImportForm, LocationImportForm,
# RackImportForm, DeviceImportForm) read as ours. Where several give one column the first listed wins
# (a site's code: our `code`, else NetBox's `facility`, else its `slug`); the others are ignored with a
# notice, like every column a kind does not use (NetBox's `role`, `platform`, `time_zone`, …).
ALIASES: dict[str, dict[str, str]] = {
    "sites": {"facility": "code", "slug": "code", "physical_address": "address"},
    "rooms": {"comments": "notes", "description": "notes"},
    "racks": {},
    "devices": {"description": "comments", "device_type_slug": "device_type"},
}
# NetBox status values (netbox/dcim/choices.py) that are not ours, and what they become.
NETBOX_STATUS: dict[str, dict[str, str]] = {
    "sites": {"staging": "planned"},
    "racks": {"active": "leased", "deprecated": "decommissioned"},  # active without a tenant: available
    "devices": {"staged": "planned"},
}
TABLE_SUFFIXES = {".csv": "csv", ".xlsx": "xlsx", ".xlsm": "xlsx"}
YAML_SUFFIXES = (".yaml", ".yml")
XLSX_MAX_ROWS = 1_048_576
STREAM_BATCH = 2000


# --- results ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RowError:
    line: int
    column: str | None
    reason: str
    file: str | None = None  # for a folder of YAML files

    def __str__(self) -> str:
        where = f"{self.file}, " if self.file else ""
        col = f", column {self.column}" if self.column else ""
        return f"{where}line {self.line}{col}: {self.reason}"


@dataclass(frozen=True)
class ImportRow:
    line: int
    values: dict[str, Any]
    file: str | None = None


@dataclass
class ImportPreview:
    kind: str
    path: str
    columns: list[str]
    rows: list[ImportRow]
    errors: list[RowError]
    notices: list[str] = field(default_factory=list)  # columns ignored or read as, the encoding guessed

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True)
class ImportResult:
    kind: str
    file: str
    rows: int
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    dry_run: bool = False
    cancelled: bool = False
    notes: tuple[str, ...] = ()       # e.g. device types whose power needs a person's look
    changes: frozenset[str] = frozenset()
    notices: tuple[str, ...] = ()     # about the file: columns ignored or read as, the encoding guessed

    def summary(self) -> str:
        if self.cancelled:
            return f"{self.kind} import of {self.file} cancelled; nothing was imported"
        verb = "would import" if self.dry_run else "imported"
        text = (f"{verb} {self.rows} {self.kind} row(s) from {self.file}: {self.created} new, "
                f"{self.updated} updated, {self.unchanged} unchanged")
        if self.notices:
            text += "\n" + "\n".join(f"note: {n}" for n in self.notices)
        if self.notes:
            text += "\nto check by a person:\n" + "\n".join(f"  {n}" for n in self.notes)
        return text


class ImportFailed(ValidationError):
    """The file had bad rows; nothing was imported. `row_errors` lists every one."""

    def __init__(self, kind: str, path: str | Path, row_errors: list[RowError], notices: Iterable[str] = ()):
        self.kind = kind
        self.notices = tuple(notices)
        self.path = str(path)
        self.row_errors = list(row_errors)
        errors: dict[str, str] = {}
        for e in self.row_errors:
            key = (f"{e.file}, " if e.file else "") + f"line {e.line}" + (f", column {e.column}" if e.column else "")
            errors[key] = f"{errors[key]}; {e.reason}" if key in errors else e.reason
        super().__init__(errors)
        bad_lines = len({(e.file, e.line) for e in self.row_errors})
        self.message = (f"nothing was imported from {Path(path).name}: {bad_lines} bad row(s)\n"
                        + "\n".join(str(e) for e in self.row_errors)
                        + "".join(f"\nnote: {n}" for n in self.notices))
        self.args = (self.message,)


@dataclass(frozen=True)
class ExportResult:
    kind: str
    path: str
    format: str
    rows: int

    def summary(self) -> str:
        return f"exported {self.rows} {self.kind} row(s) to {self.path} ({self.format})"


class _RowRefused(Exception):
    """Problems found while reading or resolving one row: [(column, reason)]."""

    def __init__(self, problems: list[tuple[str | None, str]]):
        super().__init__("; ".join(r for _c, r in problems))
        self.problems = problems


# --- reading files -----------------------------------------------------------------------

def _check_kind(kind: str, kinds: Iterable[str] = KINDS) -> str:
    k = kind.strip().lower().replace("_", "-")
    k = {"device-type": "device-types", "devicetypes": "device-types", "region": "regions", "site": "sites",
         "rack": "racks", "device": "devices", "gpu": "gpus", "customer": "customers"}.get(k, k)
    if k not in kinds:
        raise ValidationError({"kind": f"{kind!r} cannot be used here; choose one of {', '.join(kinds)}"})
    return k


def table_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise ValidationError({"file": f"{Path(path).name}: use a .csv or .xlsx file"})
    return TABLE_SUFFIXES[suffix]


def _cell_text(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dt.datetime):
        return v.date().isoformat() if v.time() == dt.time() else v.isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else repr(v)
    s = _unneutralise(str(v)).strip()
    return s or None


def _decode_csv(path: Path, notices: list[str] | None) -> str:
    """The CSV's text: UTF-8 (with or without BOM), else GBK/GB18030 as Excel saves it on Chinese Windows."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        try:
            text_ = data.decode("gb18030")
        except UnicodeDecodeError:
            raise exc from None
        if notices is not None:
            notices.append(f"{path.name} is not UTF-8; it was read as GBK (GB18030), the encoding Excel uses on "
                           "Chinese Windows. Check the Chinese text in the preview")
        return text_


def _raw_rows(path: Path, fmt: str, notices: list[str] | None = None) -> Iterator[tuple[int, list]]:
    """(row, cells) for every record, numbered as Excel numbers them (the header is row 1; a quoted
    cell that spans several lines is still one row)."""
    if fmt == "csv":
        import io

        reader = csv.reader(io.StringIO(_decode_csv(path, notices), newline=""))
        for row_no, record in enumerate(reader, start=1):
            yield row_no, record
        return
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    try:
        ws = wb.worksheets[0]
        for line, record in enumerate(ws.iter_rows(values_only=True), start=1):
            yield line, list(record)
    finally:
        wb.close()


def _header_name(kind: str, cell: str) -> tuple[str, str | None]:
    """(our column, NetBox header it came from or None) for one header cell.

    NetBox headers may name a related object's field (`site.slug`, `device_type.model`): the
    part before the dot is the column; lookups here try every natural key anyway."""
    name = cell.strip().lower()
    if name.endswith(LOCAL_TIME_SUFFIX.lower()):
        name = name[:-len(LOCAL_TIME_SUFFIX)]
    name = name.strip().replace(" ", "_").replace("-", "_")
    allowed = COLUMNS[kind]
    if name in allowed:
        return name, None
    if "." in name:
        base = name.split(".", 1)[0]
        if base in allowed:
            return base, cell
        if ALIASES.get(kind, {}).get(base):
            return ALIASES[kind][base], cell
    alias = ALIASES.get(kind, {}).get(name)
    if alias:
        return alias, cell
    return name, None


def _alias_rank(kind: str, header: str) -> int:
    base = header.strip().lower().replace(" ", "_").split(".", 1)[0]
    names = list(ALIASES.get(kind, {}))
    return names.index(base) if base in names else len(names)


def read_table(kind: str, path: str | Path, notices: list[str] | None = None
               ) -> tuple[list[str], list[ImportRow], list[RowError]]:
    """Columns, rows (values as text or None) and the problems with the file's shape.

    NetBox's column names are accepted as aliases (`physical_address` for address, …); columns
    this kind does not use are ignored, each with a notice appended to `notices`."""
    path = Path(path)
    fmt = table_format(path)
    columns: list[str] = []
    rows: list[ImportRow] = []
    errors: list[RowError] = []
    allowed = COLUMNS[kind]
    notices = notices if notices is not None else []
    try:
        raw = _raw_rows(path, fmt, notices)
        header = next(((ln, cells) for ln, cells in raw if any(_cell_text(c) for c in cells)), None)
        if header is None:
            return [], [], [RowError(1, None, "the file is empty; the first row names the columns")]
        header_line, cells = header
        named: dict[str, str | None] = {}  # our column -> the alias header that gave it (None: ours)
        fallbacks: list[tuple[int, str, str]] = []  # (cell index, our column, header) read where it is empty
        ignored: list[str] = []
        for i, c in enumerate(cells):
            text_ = _cell_text(c) or ""
            name, source = _header_name(kind, text_)
            if not name:
                columns.append("")
                continue
            if name not in allowed:
                ignored.append(text_)
                columns.append("")
                continue
            if name in named:
                if source is None and named[name] is None:
                    errors.append(RowError(header_line, name, "this column appears twice"))
                    columns.append(name)
                    continue
                # Ours, or the alias listed first, gives the value; the other fills it where it is empty
                # (NetBox's `facility` is often blank: then the site code is its `slug`).
                if source is None or (named[name] is not None and _alias_rank(kind, source)
                                      < _alias_rank(kind, named[name])):
                    old = columns.index(name)
                    columns[old] = ""
                    fallbacks.append((old, name, named[name]))
                else:
                    fallbacks.append((i, name, text_))
                    columns.append("")
                    continue
            named[name] = source
            columns.append(name)
        fallbacks.sort(key=lambda f: _alias_rank(kind, f[2]))
        if ignored:
            notices.append(f"{path.name}: column(s) {', '.join(ignored)} ignored: not used by {kind} "
                           f"(its columns are {', '.join(allowed)})")
        for alias_col, source in named.items():
            if source is not None and "." not in source:
                notices.append(f"{path.name}: column {source} read as {alias_col}")
        for _i, alias_col, source in fallbacks:
            notices.append(f"{path.name}: column {source} read as {alias_col} where {named[alias_col] or alias_col} "
                           "is empty")
        for req in REQUIRED.get(kind, ()):
            if req not in columns:
                errors.append(RowError(header_line, req, "required column is missing"))
        for line, cells in raw:
            texts = [_cell_text(c) for c in cells]
            if not any(texts):
                continue
            if len(texts) > len(columns) and any(texts[len(columns):]):
                errors.append(RowError(line, None, f"{len(texts)} cells but only {len(columns)} named columns"))
            values = {col: (texts[i] if i < len(texts) else None) for i, col in enumerate(columns)
                      if col in allowed}
            for i, col, _source in fallbacks:
                if not values.get(col) and i < len(texts) and texts[i]:
                    values[col] = texts[i]
            rows.append(ImportRow(line, values))
    except UnicodeDecodeError as exc:
        errors.append(RowError(1, None, f"neither UTF-8 nor GBK text ({exc.reason}); save the CSV as UTF-8"))
    except (csv.Error, OSError, KeyError, ValueError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise NotFound(f"{path} does not exist") from None
        errors.append(RowError(1, None, f"cannot read {path.name}: {exc}"))
    except Exception as exc:  # openpyxl raises assorted errors for a file that is not a workbook
        if type(exc).__module__.startswith(("openpyxl", "zipfile")):
            errors.append(RowError(1, None, f"cannot read {path.name} as an Excel workbook: {exc}"))
        else:
            raise
    return columns, rows, errors


def _read_yaml_rows(path: str | Path) -> tuple[list[ImportRow], list[RowError]]:
    from .devicetypes import DeviceTypeFileError, find_yaml_files, read_device_type_file

    base = Path(path)
    files = find_yaml_files(base)
    if not files:
        raise ValidationError({"file": f"{base} holds no .yaml or .yml files"})
    rows, errors = [], []
    for f in files:
        name = str(f.relative_to(base)) if base.is_dir() else f.name
        try:
            values = read_device_type_file(f)
        except DeviceTypeFileError as exc:
            errors.extend(RowError(ln, col, reason, name) for ln, col, reason in exc.problems)
            continue
        except (OSError, UnicodeDecodeError) as exc:
            errors.append(RowError(1, None, f"cannot read: {exc}", name))
            continue
        rows.append(ImportRow(1, values, name))
    return rows, errors


def _is_yaml_source(path: str | Path) -> bool:
    p = Path(path)
    return p.is_dir() or p.suffix.lower() in YAML_SUFFIXES


# --- typed cells ------------------------------------------------------------------------

class _Row:
    """One row being resolved: typed getters that collect problems instead of raising."""

    def __init__(self, row: ImportRow):
        self.line = row.line
        self.file = row.file
        self.v = row.values
        self.problems: list[tuple[str | None, str]] = []

    def has(self, col: str) -> bool:
        return col in self.v

    def get(self, col: str) -> str | None:
        value = self.v.get(col)
        return value.strip() if isinstance(value, str) else value

    def err(self, col: str | None, reason: str) -> None:
        self.problems.append((col, reason))

    def decimal(self, col: str) -> Decimal | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        try:
            value = Decimal(str(raw).replace(",", ""))
        except InvalidOperation:
            self.err(col, f"{raw!r} is not a number")
            return None
        if not value.is_finite():
            self.err(col, f"{raw!r} is not a finite number")
            return None
        return value

    def integer(self, col: str) -> int | None:
        d = self.decimal(col)
        if d is None:
            return None
        if d != d.to_integral_value():
            self.err(col, f"{self.get(col)!r} is not a whole number")
            return None
        return int(d)

    def date(self, col: str) -> dt.date | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        text_ = str(raw)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}[ T]00:00(:00(\.0+)?)?", text_):
            text_ = text_[:10]  # pandas writes a date column as date-times at midnight
        value = parse_date_strict(text_)
        if value is None:
            self.err(col, f"{raw!r} is not a date (write YYYY-MM-DD)")
        return value

    def boolean(self, col: str) -> bool | None:
        raw = self.get(col)
        if raw in (None, ""):
            return None
        word = str(raw).lower()
        if word in ("true", "yes", "1", "y", "是"):
            return True
        if word in ("false", "no", "0", "n", "否"):
            return False
        self.err(col, f"{raw!r} is not true or false")
        return None

    def check(self) -> None:
        if self.problems:
            raise _RowRefused(self.problems)


# --- lookups -------------------------------------------------------------------------------

def _memo(s: Session, key: tuple, fetch: Callable[[], Any]) -> Any:
    """fetch(), remembered for the rest of this import (session.info[LOOKUPS]): a file names the same
    model, type, room or customer on thousands of rows, and references of another kind do not change
    while it is imported (the cache is dropped when a batch is rolled back)."""
    cache = s.info.get(LOOKUPS)
    if cache is None:
        return fetch()
    if key not in cache:
        cache[key] = fetch()
    return cache[key]


def _customer(s: Session, r: _Row, col: str = "tenant") -> int | None:
    ref = r.get(col)
    if not ref:
        return None
    hits = _memo(s, ("customer", ref), lambda: s.execute(
        select(Customer.id).where(or_(Customer.credit_code == ref.upper(), Customer.name == ref))
        .limit(3)).scalars().all())
    if not hits:
        r.err(col, f"no customer is named {ref!r} or has that credit code; add the customer first (kind "
                   "customers: a new customer needs its unified social credit code)")
    elif len(hits) > 1:
        r.err(col, f"several customers are named {ref!r}; give the credit code instead")
    else:
        return hits[0]
    return None


def _site(s: Session, r: _Row, col: str = "site") -> Site | None:
    """A site by its code, its name, or NetBox's slug (which an import from NetBox made the code)."""
    ref = r.get(col)
    if not ref:
        return None
    site, problem = _memo(s, ("site", ref), lambda: _find_site(s, ref))
    if problem:
        r.err(col, problem)
    return site


def _find_site(s: Session, ref: str) -> tuple[Site | None, str | None]:
    site = s.execute(select(Site).where(Site.code == ref)).scalar_one_or_none()
    if site is None:
        hits = s.execute(select(Site).where(or_(Site.name == ref, func.lower(Site.code) == ref.lower()))
                         .limit(3)).scalars().all()
        if len(hits) > 1:
            return None, f"several sites are named {ref!r}; give the site code instead"
        site = hits[0] if hits else None
    if site is None:
        return None, f"no site has the code, name or slug {ref!r}"
    return site, None


def _room(s: Session, r: _Row, site_col: str = "site", room_col: str = "location") -> Room | None:
    room_name = r.get(room_col)
    site = _site(s, r, site_col)
    if site is None:
        return None
    if not room_name:
        r.err(room_col, f"name the room (location) in site {site.code}")
        return None
    room = _memo(s, ("room", site.id, room_name), lambda: s.execute(
        select(Room).where(Room.site_id == site.id, Room.name == room_name)).scalar_one_or_none())
    if room is None:
        r.err(room_col, f"site {site.code} has no room (location) named {room_name!r}")
    return room


def _status(kind: str, r: _Row, values: list[str], labels: Callable[[str], str], *, tenant: bool = False
            ) -> str | None:
    """Our status for the cell: our value or label, or NetBox's value or label (NETBOX_STATUS)."""
    raw = r.get("status")
    if not raw:
        return None
    word = raw.strip().lower().replace(" ", "_").replace("-", "_")
    by_label = {labels(v).lower().replace(" ", "_").replace("-", "_"): v for v in values}
    if word in values:
        return word
    if word in by_label:
        return by_label[word]
    mapped = NETBOX_STATUS.get(kind, {}).get(word)
    if kind == "racks" and word == "active" and not tenant:
        mapped = "available"
    if mapped:
        return mapped
    netbox = ", ".join(NETBOX_STATUS.get(kind, {}))
    r.err("status", f"{raw!r} is not a status; use one of {', '.join(values)}"
          + (f" (or NetBox's {netbox})" if netbox else ""))
    return None


def _region_code(s: Session, r: _Row, col: str) -> str | None:
    """A GB/T 2260 code, also as pandas or Excel wrote it (110000.0), or a region's exact name."""
    ref = r.get(col)
    if not ref:
        return None
    m = re.fullmatch(r"(\d{6})\.0*", ref)
    if m:
        ref = m.group(1)
    if re.fullmatch(r"\d{6}", ref):
        if s.get(Region, ref) is None:
            r.err(col, f"no region has the code {ref!r}")
        return ref
    hits = s.execute(select(Region.code).where(Region.name == ref).limit(3)).scalars().all()
    if len(hits) == 1:
        return hits[0]
    r.err(col, f"{ref!r} is not a region: give its six-digit GB/T 2260 code" if not hits else
          f"several regions are named {ref!r}; give the six-digit code")
    return None


def _find_devices(s: Session, ref: str) -> list[Device]:
    hit = s.execute(select(Device).where(Device.asset_tag == ref)).scalar_one_or_none()
    if hit is not None:
        return [hit]
    return s.execute(select(Device).where(Device.name == ref).limit(3)).scalars().all()


def _device_ref(s: Session, r: _Row, col: str = "device") -> Device | None:
    ref = r.get(col)
    if not ref:
        return None
    hits = _memo(s, ("device", ref), lambda: _find_devices(s, ref))
    if not hits:
        r.err(col, f"no device is named {ref!r} or has that asset tag")
    elif len(hits) > 1:
        r.err(col, f"several devices are named {ref!r}; give its asset tag instead")
    else:
        return hits[0]
    return None


# --- one upsert for the EntitySpec kinds -----------------------------------------------------

def _upsert(uow: UnitOfWork, kind: str, existing, values: dict, label: str, *,
            validate_as: dict | None = None) -> str:
    """Create, or update only what differs, through the service (services.common.upsert_in);
    returns 'created', 'updated' or 'unchanged'."""
    return upsert_in(uow, kind, existing, values, validate_as=validate_as)[1]


def _keep(values: dict, *keys: str) -> None:
    """Empty cells in columns with a default mean 'the default' (new) or 'unchanged' (existing)."""
    for k in keys:
        if values.get(k) in (None, ""):
            values.pop(k, None)


# --- per-kind import: resolve (read-only) then write --------------------------------------------

def _resolve_regions(s: Session, r: _Row) -> dict:
    code = r.get("code") or ""
    if not re.fullmatch(r"\d{6}", code):
        r.err("code", f"{code!r} is not a six-digit GB/T 2260 code")
    name = r.get("name") or ""
    if not name:
        r.err("name", "required")
    elif len(name) > 64:
        r.err("name", "longer than 64 characters")
    parent = r.get("parent") or None
    level = 1
    if parent:
        p = s.get(Region, parent)
        if p is None:
            r.err("parent", f"no region has the code {parent!r} (list parents before their children)")
        elif parent == code:
            r.err("parent", "a region cannot be its own parent")
        elif p.level >= 3:
            r.err("parent", f"{p.name} ({parent}) is a district; it has no sub-regions")
        else:   # GB/T 2260 says the level: 东城区 110101 is county level right under 北京市
            level = max(p.level + 1, region_level(code) if len(code) == 6 else 0)
    return {"code": code, "name": name, "parent_code": parent, "level": level}


def _write_regions(uow: UnitOfWork, r: _Row, v: dict) -> str:
    s = uow.session
    existing = s.get(Region, v["code"])
    if existing is None:
        region = Region(**v, updated_by=uow.actor.login)
        s.add(region)
        flush_or_refuse(s)
        uow.audit("region.create", "region", region.code, region.name, after=snapshot(region))
        return "created"
    before = snapshot(existing)
    changed = [k for k in ("name", "parent_code", "level") if getattr(existing, k) != v[k]]
    if not changed:
        return "unchanged"
    if "level" in changed:
        children = s.execute(select(func.count()).select_from(Region)
                             .where(Region.parent_code == existing.code)).scalar_one()
        if children:
            raise ValidationError({"parent_code": f"{existing.name} has {children} sub-region(s); "
                                                  "it cannot move to another level"})
    for k in changed:
        setattr(existing, k, v[k])
    flush_versioned(uow, existing, f"region {existing.code}")
    uow.audit("region.update", "region", existing.code, existing.name,
              before={k: before[k] for k in changed}, after={k: v[k] for k in changed})
    return "updated"


def _resolve_sites(s: Session, r: _Row) -> dict:
    v = {"code": r.get("code"), "name": r.get("name")}
    for col in ("address", "latitude", "longitude", "cooling", "power_capacity_kw"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("status"):
        v["status"] = _status("sites", r, SiteStatus.values(), SiteStatus.label)
    if r.has("region"):
        v["region_code"] = _region_code(s, r, "region")
    sub = r.get("subsidiary")
    if sub:
        sid = s.execute(select(Subsidiary.id).where(or_(Subsidiary.code == sub, Subsidiary.name == sub))
                        ).scalar_one_or_none()
        if sid is None:
            r.err("subsidiary", f"no subsidiary has the code {sub!r}")
        v["subsidiary_id"] = sid
    elif v.get("region_code") and not s.execute(select(Site.id).where(Site.code == v["code"])).first():
        v["subsidiary_id"] = _serving_subsidiary(s, r, v["region_code"])
    _keep(v, "status", "cooling", "power_capacity_kw")
    return v


def _serving_subsidiary(s: Session, r: _Row, region_code: str) -> int | None:
    """A new site without a subsidiary column (NetBox has none): the only subsidiary, or the one whose
    coverage holds the site's region or the nearest region above it."""
    subs = s.execute(select(Subsidiary.id, Subsidiary.code)).all()
    if len(subs) == 1:
        return subs[0][0]
    code: str | None = region_code
    while code:
        ids = sorted(set(s.execute(select(Coverage.subsidiary_id).where(Coverage.region_code == code)).scalars()))
        if len(ids) == 1:
            return ids[0]
        if len(ids) > 1:
            break
        code = s.execute(select(Region.parent_code).where(Region.code == code)).scalar_one_or_none()
    r.err("subsidiary", f"say which subsidiary operates this site (column subsidiary, one of "
          f"{', '.join(c for _i, c in subs) or 'none yet'}): region {region_code} is covered by "
          + ("several" if code else "none"))
    return None


def _write_sites(uow: UnitOfWork, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Site).where(Site.code == v["code"])).scalar_one_or_none()
    return _upsert(uow, "site", existing, v, v["code"])


def _resolve_subsidiaries(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"code": r.get("code"), "name": r.get("name"),
                         "credit_code": _credit_code(r)}
    for col in ("name_en", "address", "phone", "bank_name", "bank_account"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("region"):
        v["region_code"] = _region_code(s, r, "region")
    return v


def _write_subsidiaries(uow: UnitOfWork, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Subsidiary).where(Subsidiary.code == v["code"])).scalar_one_or_none()
    return _upsert(uow, "subsidiary", existing, v, v["code"] or "")


def _resolve_rooms(s: Session, r: _Row) -> dict:
    site = _site(s, r)
    v: dict[str, Any] = {"site_id": site.id if site else None, "name": r.get("name")}
    if r.has("cooling"):
        v["cooling"] = (r.get("cooling") or "").lower() or None
    for col in ("power_capacity_kw", "cooling_capacity_kw"):
        if r.has(col):
            v[col] = r.decimal(col)
    for col in ("grid_rows", "grid_cols"):
        if r.has(col):
            v[col] = r.integer(col)
    if r.has("notes"):
        v["notes"] = r.get("notes")
    _keep(v, "cooling", "power_capacity_kw", "cooling_capacity_kw", "grid_rows", "grid_cols")
    return v


def _write_rooms(uow: UnitOfWork, r: _Row, v: dict) -> str:
    existing = uow.session.execute(select(Room).where(Room.site_id == v["site_id"], Room.name == v["name"])
                                   ).scalar_one_or_none()
    return _upsert(uow, "room", existing, v, v["name"] or "")


def _resolve_racks(s: Session, r: _Row) -> dict:
    room = _room(s, r)
    v = {"room_id": room.id if room else None, "name": r.get("name")}
    for col in ("u_height", "power_capacity_kw", "asset_tag"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("status"):
        v["status"] = _status("racks", r, RackStatus.values(), RackStatus.label, tenant=bool(r.get("tenant")))
    if r.has("tenant"):
        v["customer_id"] = _customer(s, r)
    if r.has("cage"):
        v["_cage"] = r.get("cage") or None  # the cage (of this room) the rack belongs to; made when new
    _keep(v, "u_height", "power_capacity_kw", "status")
    return v


def _write_racks(uow: UnitOfWork, r: _Row, v: dict) -> str:
    s = uow.session
    if "_cage" in v:
        name = v.pop("_cage")
        cage_id = None
        if name:
            cage_id = s.execute(select(Cage.id).where(Cage.room_id == v["room_id"], Cage.name == name)).scalar()
            if cage_id is None:
                cage = Cage(room_id=v["room_id"], name=name, updated_by=uow.actor.login)
                s.add(cage)
                flush_or_refuse(s)
                cage_id = cage.id
                uow.audit("cage.create", "cage", cage.id, name, after=snapshot(cage))
        v["cage_id"] = cage_id
    existing = s.execute(select(Rack).where(Rack.room_id == v["room_id"], Rack.name == v["name"])
                         ).scalar_one_or_none()
    return _upsert(uow, "rack", existing, v, v["name"] or "")


def _device_type(s: Session, r: _Row) -> DeviceType | None:
    """By slug, or by model (NetBox's `device_type`) within `manufacturer` when that column is given."""
    ref, maker = r.get("device_type"), r.get("manufacturer")
    if not ref:
        return None
    hit, problem = _memo(s, ("device_type", ref, maker), lambda: _find_device_type(s, ref, maker))
    if problem:
        r.err("device_type", problem)
    return hit


def _find_device_type(s: Session, ref: str, maker: str | None) -> tuple[DeviceType | None, str | None]:
    if not maker:
        hit = s.execute(select(DeviceType).where(DeviceType.slug == ref)).scalar_one_or_none()
        if hit is not None:
            return hit, None
    q = select(DeviceType).where(func.lower(DeviceType.model) == ref.lower())
    if maker:
        q = q.where(func.lower(DeviceType.manufacturer) == maker.lower())
    hits = s.execute(q.limit(3)).scalars().all()
    if len(hits) == 1:
        return hits[0], None
    if maker and not hits:
        hit = s.execute(select(DeviceType).where(DeviceType.slug == ref)).scalar_one_or_none()
        if hit is not None and hit.manufacturer.lower() == maker.lower():
            return hit, None
    if hits:
        return None, f"several device types are called {ref!r}; add the manufacturer column or give the slug"
    return None, (f"no device type has the slug or model {ref!r}"
                  + (f" by manufacturer {maker!r}" if maker else "") + "; import the device type first")


def _resolve_devices(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"name": r.get("name")}
    dtype = _device_type(s, r)
    if r.get("device_type"):
        v["device_type_id"] = dtype.id if dtype else None
    rack_name = r.get("rack")
    known = len(r.problems)
    room = None
    site = None
    if r.get("site") and r.get("location"):
        room = _room(s, r)
    elif r.get("site"):
        site = _site(s, r)
    if rack_name and len(r.problems) > known:
        v["rack_id"] = None  # the site or room is already wrong
    elif rack_name:
        q = select(Rack.id).join(Room, Room.id == Rack.room_id).where(Rack.name == rack_name)
        if room is not None:
            q = q.where(Rack.room_id == room.id)
        else:
            if site is not None:
                q = q.where(Room.site_id == site.id)
            if r.get("location"):
                q = q.where(Room.name == r.get("location"))
        hits = _memo(s, ("rack", room.id if room is not None else None, site.id if site is not None else None,
                         r.get("location"), rack_name), lambda: s.execute(q.limit(3)).scalars().all())
        if not hits:
            where = " in ".join(x for x in (r.get("location"), r.get("site")) if x)
            r.err("rack", f"no rack is named {rack_name!r}" + (f" in {where}" if where else ""))
        elif len(hits) > 1:
            r.err("rack", f"several racks are named {rack_name!r}; give the site and location too")
        v["rack_id"] = hits[0] if len(hits) == 1 else None
    elif r.get("position"):
        r.err("rack", "a position needs a rack")
    else:
        v["rack_id"] = None
    for col in ("position", "face", "serial", "asset_tag"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("status"):
        v["status"] = _status("devices", r, DeviceStatus.values(), DeviceStatus.label)
    if v.get("face"):
        v["face"] = v["face"].lower()
    if r.has("comments"):
        v["notes"] = r.get("comments")
    if r.has("tenant"):
        v["owner_customer_id"] = _customer(s, r)
    if not v["name"] and dtype is not None:
        if dtype.role in PASSIVE_ROLES:
            # NetBox leaves patch panels and blanks unnamed; ours get a name from what and where they are
            where = f" {rack_name} U{_u_text(r.get('position'))}" if rack_name and r.get("position") else ""
            v["name"] = f"{dtype.model}{where}" if where else \
                f"{dtype.model} {r.get('asset_tag') or r.get('serial') or ''}".strip()
        else:
            r.err("name", f"a {DeviceRole.label(dtype.role).lower()} needs a name; only passive devices "
                          "(patch panels, blanks, shelves) may be unnamed")
    elif not v["name"] and r.get("device_type"):
        pass  # the device type is already wrong
    elif not v["name"]:
        r.err("name", "a device name is required")
    _keep(v, "status")
    return v


PASSIVE_ROLES = (DeviceRole.PATCH_PANEL, DeviceRole.BLANK, DeviceRole.SHELF)


def _u_text(position: str | None) -> str:
    try:
        d = Decimal(str(position))
    except (InvalidOperation, TypeError):
        return str(position)
    return str(d.quantize(Decimal(1))) if d == d.to_integral_value() else str(d)


def _write_devices(uow: UnitOfWork, r: _Row, v: dict) -> str:
    s = uow.session
    existing = None
    if v.get("asset_tag"):
        existing = s.execute(select(Device).where(Device.asset_tag == v["asset_tag"])).scalar_one_or_none()
    if existing is None and v.get("serial"):
        hits = s.execute(select(Device).where(Device.serial == v["serial"]).limit(2)).scalars().all()
        existing = hits[0] if len(hits) == 1 else None
    if existing is None:
        q = select(Device).where(Device.name == v["name"])
        q = q.where(Device.rack_id == v["rack_id"]) if v.get("rack_id") else q.where(Device.rack_id.is_(None))
        hits = s.execute(q.limit(2)).scalars().all()
        existing = hits[0] if len(hits) == 1 else None
    from .services.dcim import write_device_in

    if existing is None:
        write_device_in(uow, None, v)
        return "created"
    return "unchanged" if write_device_in(uow, existing.id, v, only_changes=True) is None else "updated"


def _resolve_gpus(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"serial": r.get("serial")}
    model = r.get("model")
    if model:
        # the model itself is remembered: the session holds loaded objects only weakly, and the
        # service's validator looks it up by id on every row
        found = _memo(s, ("gpu_model", model.lower()), lambda: s.execute(
            select(GpuModel).where(func.lower(GpuModel.name) == model.lower())).scalar_one_or_none())
        mid = found.id if found is not None else None
        if mid is None:
            names = ", ".join(s.execute(select(GpuModel.name).order_by(GpuModel.name)).scalars())
            r.err("model", f"{model!r} is not in the GPU catalogue ({names})")
        v["gpu_model_id"] = mid
    if r.get("state"):
        state = r.get("state").lower().replace("-", "_").replace(" ", "_")
        if state not in GpuState.values():
            r.err("state", f"{r.get('state')!r} is not a GPU state ({', '.join(GpuState.values())})")
        v["state"] = state
    for col in ("purchase_date", "warranty_end"):
        if r.has(col):
            v[col] = r.date(col)
    if r.has("purchase_cost"):
        v["purchase_cost"] = r.decimal("purchase_cost")
    if r.get("depreciation_months"):
        v["depreciation_months"] = r.integer("depreciation_months")
    if r.has("device") or r.has("slot"):
        device = _device_ref(s, r)
        slot = r.integer("slot") if r.get("slot") else None
        if device is not None and slot is None:
            r.err("slot", f"say which GPU slot of {device.name}")
        if device is None and slot is not None and not r.get("device"):
            r.err("device", "a slot needs the device it is in")
        v["_device_id"] = device.id if device else None
        v["_slot"] = slot
    if r.has("tenant"):
        v["_customer_id"] = _customer(s, r)
    return v


def _existing_gpu(s: Session, serial: str) -> GpuAsset | None:
    """The fleet's GPU with this serial; looked up for the next IMPORT_BATCH rows of the file at once."""
    cache = s.info.get(LOOKUPS)
    found = cache.get("gpu_serials") if cache is not None else None
    if found is None or serial not in found:
        rows = s.info.get(BATCH_ROWS)
        if cache is None or not rows:
            return s.execute(select(GpuAsset).where(GpuAsset.serial == serial)).scalar_one_or_none()
        serials = {x.strip() for x in (row.values.get("serial") for row in rows) if isinstance(x, str)}
        serials = {x for x in serials if x} | {serial}
        found = cache["gpu_serials"] = dict.fromkeys(serials)
        for gpu in s.execute(select(GpuAsset).where(GpuAsset.serial.in_(serials))).scalars():
            found[gpu.serial] = gpu
    return found[serial]


def _write_gpus(uow: UnitOfWork, r: _Row, v: dict) -> str:
    s = uow.session
    placing = "_device_id" in v
    device_id, slot = v.pop("_device_id", None), v.pop("_slot", None)
    customer_id = v.pop("_customer_id", None)
    existing = _existing_gpu(s, v["serial"])
    if existing is None and (v.get("state") or device_id is not None):
        v["state"] = v.get("state") or GpuState.ORDERED  # no state column: ordered, which no slot can hold
        # a migration: the GPU comes in the state it is in, with one history row "imported as …"
        import_gpu_in(uow, {k: val for k, val in v.items() if k != "state"}, v["state"], device_id, slot,
                      customer_id)
        return "created"
    if existing is not None:
        if v.get("state") and v["state"] != existing.state:
            raise ValidationError({"state": f"GPU {existing.serial} is {GpuState.label(existing.state)}; an import "
                                            "does not move GPUs through their lifecycle. Use a lifecycle move"})
        v.pop("state", None)
        outcome = _upsert(uow, "gpu", existing, v, existing.serial, validate_as={"device_id": None, "slot": None})
        gpu = existing
    else:
        gpu = create_in(uow, "gpu", v)
        outcome = "created"
    if placing and (gpu.device_id, gpu.slot) != (device_id, slot):
        install_gpu_in(uow, gpu.id, device_id, slot, reason="bulk import")  # the service's own slot rules
        outcome = "updated" if outcome == "unchanged" else outcome
    return outcome


def _credit_code(r: _Row, col: str = "credit_code") -> str:
    """The code as text; one that Excel turned into a number (all digits, 1.2E+17, 110000.0) gets a hint."""
    raw = (r.get(col) or "").strip()
    code = raw.upper()
    m = re.fullmatch(r"(\d+)\.0+", code)
    if m:  # pandas wrote an all-digit code as a float
        code = m.group(1)
    if code and (re.fullmatch(r"[\d.]+E\+?\d+", code) or (code.isdigit() and uscc_problem(code))):
        r.err(col, f"{raw!r} is not a valid credit code ({uscc_problem(code) if code.isdigit() else 'a number'}); "
                   "Excel stores an all-digit code as a number and drops its last digits: format the column as "
                   "Text and type the code again")
    return code


def _resolve_customers(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"name": r.get("name"), "credit_code": _credit_code(r)}
    if r.has("region"):
        v["region_code"] = r.get("region")
    for col in ("address", "status"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("account_manager"):
        login = r.get("account_manager")
        uid = None
        if login:
            uid = s.execute(select(User.id).where(User.login == login)).scalar_one_or_none()
            if uid is None:
                r.err("account_manager", f"no user has the login {login!r}")
        v["account_manager_id"] = uid
    contact = {k: r.get(f"contact_{k}") for k in ("name", "phone", "email", "role") if r.has(f"contact_{k}")}
    if contact.get("phone") and re.fullmatch(r"\d+\.0", contact["phone"]):
        contact["phone"] = contact["phone"][:-2]  # pandas read the phone column as numbers
    if any(contact.values()):
        if not contact.get("name"):
            r.err("contact_name", "a contact needs a name")
        for key, check in (("phone", phone_problem), ("email", email_problem)):
            problem = check(contact.get(key))
            if problem:
                r.err(f"contact_{key}", problem)
        v["_contact"] = contact
    _keep(v, "status")
    return v


def _write_customers(uow: UnitOfWork, r: _Row, v: dict) -> str:
    s = uow.session
    contact = v.pop("_contact", None)
    existing = s.execute(select(Customer).where(Customer.credit_code == v["credit_code"])).scalar_one_or_none()
    outcome = _upsert(uow, "customer", existing, v, v["name"] or "")
    customer = existing or s.execute(select(Customer).where(Customer.credit_code == v["credit_code"])).scalar_one()
    if contact:
        # the row's contact, added or changed by name, through the customer's contacts use case
        from .services.customers import CONTACT_FIELDS, replace_contacts_in

        contacts = [{k: getattr(c, k) for k in CONTACT_FIELDS} for c in customer.contacts]
        current = next((c for c in contacts if c["name"] == contact["name"]), None)
        if current is None:
            contacts.append({k: contact.get(k) for k in CONTACT_FIELDS})
        else:
            current.update(contact)
        if replace_contacts_in(uow, customer, contacts):
            outcome = "updated" if outcome == "unchanged" else outcome
    return outcome


def _resolve_device_types(s: Session, r: _Row) -> dict:
    if r.file is not None:  # from YAML: already parsed and checked by devicetypes
        return dict(r.v)
    v: dict[str, Any] = {}
    for col in ("manufacturer", "model", "slug", "part_number", "airflow", "role", "power_flag", "comments"):
        if r.has(col):
            v[col] = r.get(col)
    for col in ("u_height", "weight_kg"):
        if r.has(col):
            v[col] = r.decimal(col)
    for col in ("max_power_w", "typical_power_w", "gpu_slots"):
        if r.has(col):
            v[col] = r.integer(col)
    if r.has("is_full_depth"):
        v["is_full_depth"] = r.boolean("is_full_depth")
    if r.has("gpu_model"):
        name = r.get("gpu_model")
        mid = None
        if name:
            mid = s.execute(select(GpuModel.id).where(func.lower(GpuModel.name) == name.lower())).scalar_one_or_none()
            if mid is None:
                r.err("gpu_model", f"{name!r} is not in the GPU catalogue")
        v["gpu_model_id"] = mid
    _keep(v, "u_height", "is_full_depth", "gpu_slots", "role")
    return v


def _resolve_users(s: Session, r: _Row) -> dict:
    from models.choices import Role

    v: dict[str, Any] = {"login": r.get("login"), "display_name": r.get("display_name")}
    role = (r.get("role") or "").lower().replace(" ", "_")
    by_label = {Role.label(x).lower().replace(" ", "_"): x for x in Role.values()}
    v["role"] = by_label.get(role, role)
    if v["role"] not in Role.values():
        r.err("role", f"{r.get('role')!r} is not a role ({', '.join(Role.values())})")
    active = r.boolean("active") if r.get("active") else None
    v["active"] = True if active is None else active
    v["created_at"] = _local_datetime(r, "created_at") if r.get("created_at") else None
    return v


def _local_datetime(r: _Row, col: str) -> dt.datetime | None:
    """A date-time as exported (Shanghai local time) or with its own offset, as UTC."""
    raw = r.get(col) or ""
    try:
        value = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        r.err(col, f"{raw!r} is not a date and time (write YYYY-MM-DD HH:MM:SS, {LOCAL_TIME_ZONE} time)")
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=TZ)
    return value.astimezone(dt.timezone.utc)


def _write_users(uow: UnitOfWork, r: _Row, v: dict) -> str:
    from .services.users import import_user_in

    return import_user_in(uow, v["login"], v["display_name"], v["role"], v["active"], v["created_at"])


def _resolve_contracts(s: Session, r: _Row) -> dict:
    from models.choices import ContractStatus, ItemKind

    from .services.contracts import ItemSpec
    from .services.migration import gpu_ids_by_serial

    h: dict[str, Any] = {}
    sub = r.get("subsidiary")
    h["subsidiary_id"] = s.execute(select(Subsidiary.id).where(Subsidiary.code == sub)).scalar_one_or_none() \
        if sub else None
    if sub and h["subsidiary_id"] is None:
        r.err("subsidiary", f"no subsidiary has the code {sub!r}")
    if r.get("credit_code"):
        h["customer_id"] = _customer(s, r, "credit_code")
    else:
        h["customer_id"] = _customer(s, r, "tenant")
        if not r.get("tenant"):
            r.err("tenant", "name the customer (tenant) or give its credit code")
    status = (r.get("status") or "").lower().replace(" ", "_")
    by_label = {ContractStatus.label(x).lower().replace(" ", "_"): x for x in ContractStatus.values()}
    h["status"] = by_label.get(status, status)
    if h["status"] not in ContractStatus.values():
        r.err("status", f"{r.get('status')!r} is not a contract status ({', '.join(ContractStatus.values())})")
    h["title"] = r.get("title")
    for col in ("start_date", "end_date", "effective_date"):
        h[col] = r.date(col)
    h["revision"] = r.integer("revision") if r.get("revision") else 1
    h["language"] = (r.get("language") or "zh").lower()
    h["service_level"], h["terms"] = r.get("service_level"), r.get("terms")
    for col, key in (("renewal_of", "renewal_of_id"), ("amends", "amends_id")):
        ref = r.get(col)
        h[key] = s.execute(select(Contract.id).where(Contract.number == ref)).scalar_one_or_none() if ref else None
        if ref and h[key] is None:
            r.err(col, f"no contract has the number {ref!r} (list it before the contracts that refer to it)")
    kind = (r.get("item_kind") or "").lower()
    if kind not in ItemKind.values():
        r.err("item_kind", f"{r.get('item_kind')!r} is not an item kind ({', '.join(ItemKind.values())})")
    rack_id = None
    if r.get("rack"):
        ref = r.get("rack")
        parts = ref.split("/")
        q = select(Rack.id).join(Room, Room.id == Rack.room_id).join(Site, Site.id == Room.site_id)
        if len(parts) == 3:
            q = q.where(Site.code == parts[0], Room.name == parts[1], Rack.name == parts[2])
        else:
            q = q.where(or_(Rack.asset_tag == ref, Rack.name == ref))
        hits = s.execute(q.limit(2)).scalars().all()
        if len(hits) != 1:
            r.err("rack", f"no rack {ref!r} (write site/room/rack or its asset tag)" if not hits else
                  f"several racks are named {ref!r}; write site/room/rack")
        rack_id = hits[0] if len(hits) == 1 else None
    cage_id = None
    if r.get("cage"):
        ref = r.get("cage")
        parts = ref.split("/")
        q = select(Cage.id).join(Room, Room.id == Cage.room_id).join(Site, Site.id == Room.site_id)
        q = q.where(Site.code == parts[0], Room.name == parts[1], Cage.name == parts[2]) if len(parts) == 3 \
            else q.where(Cage.name == ref)
        hits = s.execute(q.limit(2)).scalars().all()
        if len(hits) != 1:
            r.err("cage", f"no cage {ref!r} (write site/room/cage)" if not hits else
                  f"several cages are named {ref!r}; write site/room/cage")
        cage_id = hits[0] if len(hits) == 1 else None
    face = (r.get("face") or "").lower() or None
    device = _device_ref(s, r, "device")
    gpu_model_id = None
    if r.get("gpu_model"):
        gpu_model_id = s.execute(select(GpuModel.id).where(func.lower(GpuModel.name) == r.get("gpu_model").lower())
                                 ).scalar_one_or_none()
        if gpu_model_id is None:
            r.err("gpu_model", f"{r.get('gpu_model')!r} is not in the GPU catalogue")
    serials = re.split(r"[\s,;]+", r.get("gpus") or "")
    gpu_ids, missing = gpu_ids_by_serial(s, [x for x in serials if x])
    if missing:
        r.err("gpus", f"GPU(s) {', '.join(repr(x) for x in missing)} are not in the fleet; import the GPUs first")
    dec = {c: r.decimal(c) for c in ("quantity", "unit_price", "power_allowance_kw", "kwh_price", "included_hours",
                                     "hourly_rate")}
    item = None
    if not r.problems:
        item = ItemSpec(kind=kind, description=r.get("item_description") or "", unit_price=dec["unit_price"],
                        price_unit=(r.get("price_unit") or "").lower(),
                        quantity=dec["quantity"] if dec["quantity"] is not None else Decimal(1),
                        tax_category=(r.get("tax_category") or "").lower() or None, rack_id=rack_id,
                        u_from=r.integer("u_from"), u_to=r.integer("u_to"), cage_id=cage_id, face=face,
                        device_id=device.id if device else None, gpu_model_id=gpu_model_id, gpu_ids=tuple(gpu_ids),
                        service_start=r.date("service_start"), service_end=r.date("service_end"),
                        power_allowance_kw=dec["power_allowance_kw"], kwh_price=dec["kwh_price"],
                        included_hours=dec["included_hours"], hourly_rate=dec["hourly_rate"], mbps=r.integer("mbps"))
    handover = {"handover_at": _local_datetime(r, "handover_at") if r.get("handover_at") else None,
                "handover_by": r.get("handover_by"), "handover_note": r.get("handover_note")}
    return {"number": r.get("number"), "_header": h, "_item": item, "_handover": handover}


def _write_contracts(uow: UnitOfWork, r: _Row, v: dict) -> str:
    from .services.migration import import_contract_item_in

    if not v["number"]:
        raise _RowRefused([("number", "a contract number is required")])
    new = uow.__dict__.setdefault("_imported_contracts", set())
    return import_contract_item_in(uow, v["number"], v["_header"], v["_item"], v["_handover"], new)


def _write_device_types(uow: UnitOfWork, r: _Row, v: dict) -> str:
    from .devicetypes import upsert_device_type

    return upsert_device_type(uow, v, from_library=r.file is not None)


MODEL = {"contracts": Contract, "users": User, "regions": Region, "subsidiaries": Subsidiary, "rooms": Room, "sites": Site, "racks": Rack, "devices": Device, "gpus": GpuAsset,
         "customers": Customer, "device-types": DeviceType, "leases": SpaceLease}


def _refuse_unstorable(kind: str, r: _Row, values: dict) -> None:
    """Values their column cannot hold (1e400, Infinity, NaN, a NUL, too long), as row errors."""
    cols = FIELD_COLUMN.get(kind, {})
    problems = [(cols.get(k, k), why) for k, why in column_problems(MODEL[kind], values).items()]
    contact = values.get("_contact")
    if contact:
        problems += [(f"contact_{k}", why) for k, why in column_problems(Contact, contact).items()]
    if problems:
        raise _RowRefused(problems)


def _row_key(kind: str, v: dict) -> Any:
    """What makes two rows of one file the same record (duplicates are refused)."""
    return {"regions": lambda: v.get("code"), "sites": lambda: v.get("code"),
            "subsidiaries": lambda: v.get("code"), "users": lambda: v.get("login"), "contracts": lambda: None,
            "rooms": lambda: (v.get("site_id"), v.get("name")) if v.get("site_id") else None,
            "racks": lambda: (v.get("room_id"), v.get("name")) if v.get("room_id") else None,
            "gpus": lambda: v.get("serial"),
            "customers": lambda: (v.get("credit_code"), (v.get("_contact") or {}).get("name")),
            "device-types": lambda: v.get("slug"),
            "devices": lambda: v.get("asset_tag") and ("tag", v["asset_tag"]), "leases": lambda: None}[kind]()


HANDLERS: dict[str, tuple[Callable[[Session, _Row], dict], Callable[[UnitOfWork, _Row, dict], str]]] = {
    "regions": (_resolve_regions, _write_regions),
    "subsidiaries": (_resolve_subsidiaries, _write_subsidiaries),
    "rooms": (_resolve_rooms, _write_rooms),
    "users": (_resolve_users, _write_users),
    "contracts": (_resolve_contracts, _write_contracts),
    "sites": (_resolve_sites, _write_sites),
    "racks": (_resolve_racks, _write_racks),
    "devices": (_resolve_devices, _write_devices),
    "gpus": (_resolve_gpus, _write_gpus),
    "customers": (_resolve_customers, _write_customers),
    "device-types": (_resolve_device_types, _write_device_types),
    "leases": (resolve_leases, write_leases),
}


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


def _load(kind: str, path: str | Path, notices: list[str] | None = None
          ) -> tuple[list[str], list[ImportRow], list[RowError]]:
    if kind == "device-types" and _is_yaml_source(path):
        rows, errors = _read_yaml_rows(path)
        return list(COLUMNS["device-types"]), rows, errors
    if kind != "device-types" and _is_yaml_source(path):
        raise ValidationError({"file": f"{Path(path).name}: YAML is for device types; use .csv or .xlsx"})
    if not Path(path).exists():
        raise NotFound(f"{path} does not exist")
    return read_table(kind, path, notices)


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


IMPORT_BATCH = 500  # rows per SAVEPOINT and per audit append
LOOKUPS = "import_lookups"  # session.info key: references already looked up during this import
BATCH_ROWS = "import_batch"  # session.info key: the rows of the batch being imported (looked up at once)


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

    def row(self, row: ImportRow, *, careful: bool) -> None:
        """Check and write one row. Without `careful`, a row whose write fails raises _Replay (the
        caller rolls the batch back); with it, the row has its own SAVEPOINT, as a bad row's
        partial writes must not be seen by the rows after it."""
        uow, kind = self.uow, self.kind
        s = uow.session
        r = _Row(row)
        savepoint = s.begin_nested() if careful else None
        mark = uow.audit_mark()
        try:
            try:
                values = self.resolve(s, r)  # read-only
                r.check()
                _refuse_unstorable(kind, r, values)
                key = _row_key(kind, values)
                if key is not None and key in self.seen:
                    raise _RowRefused([(None, f"the same record as line {self.seen[key]}; each record once per file")])
            except (_RowRefused, DomainError) as exc:
                if isinstance(exc, PermissionDenied):
                    raise
                if savepoint is not None:
                    savepoint.rollback()
                uow.drop_audit(mark)
                self.errors.extend(_errors_of(kind, r, exc))
                return
            if key is not None:
                self.seen[key] = r.line
            outcome = self.write(uow, r, values)
        except PermissionDenied:
            if savepoint is not None:
                savepoint.rollback()
            raise
        except (_RowRefused, DomainError, DBAPIError, OverflowError) as exc:
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
        self.counts[outcome] += 1
        if kind == "users" and outcome == "created":
            self.notes.append(f"{values['login']}: imported without a password; an administrator sets one "
                              "before they can log in")
        if kind == "device-types" and values.get("power_flag"):
            self.notes.append(f"{values.get('slug')}: {values['power_flag']}")


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
    if not rows and not errors:
        raise ImportFailed(kind, path, [RowError(2, None, "the file has no rows to import")], notices)
    counts: Counter[str] = Counter()
    notes: list[str] = []
    seen: dict[Any, int] = {}
    total = len(rows)
    done = 0
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        uow.defer_audit()  # appended once per batch: one audit_head update per batch, not per row
        s.info[LOOKUPS] = {}
        if db.is_sqlite:
            # pysqlite begins a transaction only at the first write; start it now so that
            # releasing the first batch's SAVEPOINT cannot commit anything on its own.
            s.execute(text("UPDATE audit_head SET seq = seq WHERE id = 1"))
        run = _Run(uow, kind, seen, counts, notes, errors)
        for start in range(0, total, IMPORT_BATCH):
            batch = rows[start:start + IMPORT_BATCH]
            state = run.state()
            s.info[BATCH_ROWS] = batch
            s.info[LOOKUPS].pop("gpu_serials", None)
            savepoint = s.begin_nested()
            try:
                for row in batch:
                    if cancelled is not None and cancelled():
                        raise _Cancelled()
                    run.row(row, careful=False)
                    done += 1
                    if progress is not None:
                        progress(done, total)
                uow.flush_audit()
                savepoint.commit()
            except _Cancelled:
                savepoint.rollback()
                uow.rollback()
                return ImportResult(kind, path.name, total, dry_run=dry_run, cancelled=True)
            except _Replay:
                # A row failed while writing: the batch is rolled back and checked again row by row,
                # each in its own SAVEPOINT, so that the rows after it see exactly what they would have.
                savepoint.rollback()
                run.restore(state)
                done = start
                for row in batch:
                    if cancelled is not None and cancelled():
                        uow.rollback()
                        return ImportResult(kind, path.name, total, dry_run=dry_run, cancelled=True)
                    run.row(row, careful=True)
                    done += 1
                    if progress is not None:
                        progress(done, total)
                uow.flush_audit()
            except BaseException:
                savepoint.rollback()
                raise
        if errors:
            uow.rollback()
            raise ImportFailed(kind, path, sorted(errors, key=lambda e: (e.file or "", e.line)), notices)
        uow.audit("import", OBJECT_TYPE[kind], None, path.name,
                  after={"kind": kind, "file": path.name, "rows": total, "created": counts["created"],
                         "updated": counts["updated"], "unchanged": counts["unchanged"], "dry_run": dry_run})
        changes = frozenset(uow.changes)
        if dry_run:
            uow.rollback()
        else:
            uow.commit()
    return ImportResult(kind, path.name, total, counts["created"], counts["updated"], counts["unchanged"],
                        dry_run, False, tuple(notes), changes, tuple(notices))


# --- export ----------------------------------------------------------------------------------

def _export_query(kind: str):
    if kind == "regions":
        return select(Region.code, Region.name, Region.parent_code).order_by(Region.level, Region.code)
    if kind == "subsidiaries":
        return select(Subsidiary.code, Subsidiary.name, Subsidiary.name_en, Subsidiary.credit_code,
                      Subsidiary.region_code, Subsidiary.address, Subsidiary.phone, Subsidiary.bank_name,
                      Subsidiary.bank_account).order_by(Subsidiary.code)
    if kind == "rooms":
        return (select(Site.code, Room.name, Room.cooling, Room.power_capacity_kw, Room.cooling_capacity_kw,
                       Room.grid_rows, Room.grid_cols, Room.notes)
                .join(Site, Site.id == Room.site_id).order_by(Site.code, Room.name))
    if kind == "sites":
        return (select(Site.code, Site.name, Subsidiary.code, Site.region_code, Site.address, Site.latitude,
                       Site.longitude, Site.status, Site.cooling, Site.power_capacity_kw)
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
                       ContractItem.handover_by, ContractItem.handover_note)
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
    if kind == "leases":
        return export_leases_query()
    if kind == "audit":
        return select(*[getattr(AuditEvent, f) for f in COLUMNS["audit"]]).order_by(AuditEvent.seq)
    raise ValidationError({"kind": f"{kind!r} cannot be exported"})


def _export_value(kind: str, header: str, value: Any) -> Any:
    if kind == "audit" and header == "ts" and isinstance(value, dt.datetime):
        return format_ts(value)  # exactly the text the hash covers
    if (kind, header) in LOCAL_TIME_COLUMNS and isinstance(value, dt.datetime):
        return value.astimezone(TZ).strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, Decimal) and header in ("position", "u_height"):
        return value.quantize(Decimal(1)) if value == value.to_integral_value() else value  # U10, not U10.0
    return value


def _matches(row: list, needle: str) -> bool:
    return any(needle in str(c).lower() for c in row if c is not None)


def _statement_rows(db: Database) -> tuple[list[str], Iterable]:
    try:
        from .services import billing as billing_service
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
    kind = _check_kind(kind, EXPORT_KINDS)
    if kind == "payments":  # receivables (app/services/receivables.py)
        from .services.receivables import export_payments_rows
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
        with db.session() as s:
            serials = _item_gpu_serials(s) if kind == "contracts" else {}
            result = s.execute(stmt.execution_options(yield_per=STREAM_BATCH))
            for part in result.partitions():
                for rec in part:
                    row = [_export_value(kind, h, v) for h, v in zip(headers, rec)]
                    if kind == "contracts":
                        at = headers.index("gpus")
                        row[at] = serials.get(row[at])
                    if _keep_row(headers, row, filter):
                        yield row
    shown = [h + LOCAL_TIME_SUFFIX if (kind, h) in LOCAL_TIME_COLUMNS else h for h in headers]
    return shown, rows()


def _item_gpu_serials(s: Session) -> dict[int, str]:
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


# OWASP "CSV injection": a spreadsheet runs a cell that starts with one of these as a formula
# (=HYPERLINK(…), +cmd|…, @SUM(…); tab and CR hide such a start). Text cells that start so are
# written with a leading apostrophe, which the import strips again; numbers (and text that is only a
# number, e.g. "-1,234.50") are left as they are.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d[\d,]*(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?")


def neutralise_cell(value: Any) -> Any:
    """The value to write into an exported cell: text a spreadsheet would run is made inert."""
    if not isinstance(value, str) or not value:
        return value
    first = value.lstrip("'")[:1]
    if first in FORMULA_STARTS and first and not (value[0] != "'" and _PLAIN_NUMBER.fullmatch(value)):
        return "'" + value
    return value


def _unneutralise(text: str) -> str:
    """Undo neutralise_cell on a cell read back by an import."""
    if text[:1] == "'" and text.lstrip("'")[:1] in FORMULA_STARTS and text.lstrip("'")[:1]:
        return text[1:]
    return text


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
    count = 0
    tmp = path.with_name(path.name + ".part")
    try:
        if fmt == "csv":
            with open(tmp, "w", encoding="utf-8-sig", newline="") as f:
                w = csv.writer(f)
                w.writerow(headers)
                for row in rows:
                    if cancelled is not None and count % 1000 == 0 and cancelled():
                        raise _Cancelled()
                    w.writerow([_csv_value(v) for v in row])
                    count += 1
                    if progress is not None and count % 1000 == 0:
                        progress(count)
        else:
            count = _write_xlsx(headers, rows, tmp, sheet, progress, cancelled)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if progress is not None:
        progress(count)
    return count


class _Cancelled(Exception):
    pass


def _write_xlsx(headers, rows, path: Path, sheet: str, progress, cancelled) -> int:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    wb = Workbook(write_only=True)
    title = re.sub(r"[\[\]:*?/\\]", "-", sheet)[:28] or "export"
    ws = wb.create_sheet(title)
    ws.append(headers)
    in_sheet, count, sheets = 1, 0, 1
    money = [i for i, h in enumerate(headers) if h in MONEY_COLUMNS]
    for row in rows:
        if in_sheet >= XLSX_MAX_ROWS:
            sheets += 1
            ws = wb.create_sheet(f"{title[:24]} ({sheets})")
            ws.append(headers)
            in_sheet = 1
        if cancelled is not None and count % 1000 == 0 and cancelled():
            raise _Cancelled()
        cells = list(row)
        for i, v in enumerate(cells):
            if isinstance(v, dt.datetime):
                v = cells[i] = v.isoformat()  # Excel has no time zones; keep the exact instant as text
            if isinstance(v, str):
                if ILLEGAL_CHARACTERS_RE.search(v):
                    v = ILLEGAL_CHARACTERS_RE.sub("", v)
                v = cells[i] = neutralise_cell(v)
                if v.startswith("="):  # only if neutralise_cell ever lets one through: text, never a formula
                    cell = WriteOnlyCell(ws, value=v)
                    cell.data_type = "s"
                    cells[i] = cell
        for i in money:
            if i < len(cells) and isinstance(cells[i], (Decimal, int, float)) and not isinstance(cells[i], bool):
                cell = WriteOnlyCell(ws, value=cells[i])
                cell.number_format = MONEY_FORMAT
                cells[i] = cell
        ws.append(cells)
        in_sheet += 1
        count += 1
        if progress is not None and count % 1000 == 0:
            progress(count)
    wb.save(path)
    return count


def run_export(db: Database, actor: Actor, kind: str, path: str | Path, fmt: str | None = None,
               filter_text: str | None = None, *, progress: Callable[[int], None] | None = None,
               cancelled: Callable[[], bool] | None = None) -> ExportResult:
    """Export a kind to a file and record the export in the audit trail.

    A cancelled export leaves no file and raises DomainError("export cancelled").
    """
    require(actor, "export")
    kind = _check_kind(kind, EXPORT_KINDS)
    path = Path(path)
    fmt = (fmt or table_format(path)).lower()
    if fmt not in FORMATS:
        raise ValidationError({"format": f"format is csv or xlsx, not {fmt!r}"})
    headers, rows = export_rows(db, kind, filter_text)
    try:
        count = write_export(headers, rows, path, fmt, sheet=kind, progress=progress, cancelled=cancelled)
    except _Cancelled:
        raise DomainError(f"export of {kind} cancelled; no file was written") from None
    with UnitOfWork(db, actor) as uow:
        uow.audit("export", OBJECT_TYPE[kind], None, path.name,
                  after={"kind": kind, "format": fmt, "rows": count, "file": path.name,
                         "filter": filter_text or None})
        uow.commit()
    return ExportResult(kind, str(path), fmt, count)


def template_headers(kind: str) -> list[str]:
    """The columns a file for `kind` may have (for an 'empty template' button)."""
    return list(COLUMNS[_check_kind(kind, EXPORT_KINDS[:-1])])

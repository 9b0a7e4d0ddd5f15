"""Kinds, their columns and the results of an import or export; the registry of kinds."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from app.audit.trail import HASHED_FIELDS
from app.domain.auth import KIND_PERMISSION
from app.domain.clock import TZ
from app.domain.errors import ValidationError

# --- kinds and their columns ---------------------------------------------------------

# Kinds declared in their own modules (leases, …) are added by register_kind() below.
KINDS = ("regions", "subsidiaries", "users", "sites", "rooms", "racks", "devices", "gpus", "customers",
         "device-types", "contracts")
EXPORT_ONLY_KINDS = ("audit", "payments", "statements")
EXPORT_KINDS = KINDS + EXPORT_ONLY_KINDS
FORMATS = ("csv", "xlsx")

COLUMNS: dict[str, tuple[str, ...]] = {
    "regions": ("code", "name", "parent"),
    "sites": ("code", "name", "subsidiary", "region", "address", "latitude", "longitude", "status", "cooling",
              "power_capacity_kw", "slug"),
    "subsidiaries": ("code", "name", "name_en", "credit_code", "region", "address", "address_en", "phone",
                     "bank_name", "bank_name_en", "bank_account"),
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
                  "handover_by", "handover_note", "setup_price", "item_description_en"),
    "audit": HASHED_FIELDS + ("hash",),
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "regions": ("code", "name"),
    "sites": ("name", "region"),  # a code (or NetBox's facility or slug); the subsidiary: from coverage
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
}
# Date-time columns: exported in Shanghai local time, which the header says; read back as such.
LOCAL_TIME_ZONE = TZ.key  # Asia/Shanghai, from app.domain.clock
LOCAL_TIME_COLUMNS = {("users", "created_at"), ("contracts", "handover_at")}
LOCAL_TIME_SUFFIX = f" ({LOCAL_TIME_ZONE})"
# Amounts of money: a number format in XLSX (CSV has none). Two decimals at least and up to four, the
# most any amount is stored with (unit prices, kWh prices, hourly rates: Numeric(…, 4)): a sheet saved
# as CSV keeps 0.8523 rather than rounding it to 0.85, and a fen amount still reads 1,234.50.
MONEY_COLUMNS = frozenset({"purchase_cost", "unit_price", "amount", "subtotal", "tax", "total", "kwh_price",
                           "setup_price", "hourly_rate"})
MONEY_FORMAT = "#,##0.00##"
# Audit object type of each kind and the permission its writes need (besides "import").
OBJECT_TYPE = {"regions": "region", "subsidiaries": "subsidiary", "rooms": "room", "sites": "site", "racks": "rack", "devices": "device", "gpus": "gpu",
               "customers": "customer", "device-types": "device_type", "users": "user", "contracts": "contract",
               "audit": "audit", "statements": "statement", "payments": "payment"}
PERMISSION = {kind: KIND_PERMISSION[OBJECT_TYPE[kind]]  # declared once, in app.domain.auth
              for kind in ("regions", "subsidiaries", "rooms", "sites", "racks", "devices", "gpus", "customers",
                           "device-types", "users", "contracts")}
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
                                                     ("description_en", "item_description_en"),
                                                     ("rack_id", "rack"), ("device_id", "device"),
                                                     ("gpu_model_id", "gpu_model"), ("gpu_ids", "gpus"))},
                  **{f"items[1].{f}": f for f in ("u_from", "u_to", "quantity", "unit_price", "price_unit",
                                                  "tax_category", "service_start", "service_end",
                                                  "power_allowance_kw", "kwh_price", "included_hours",
                                                  "hourly_rate", "mbps", "setup_price")}},
}
# NetBox's bulk-import column names (netbox/dcim/forms/bulk_import.py: SiteImportForm, LocationImportForm,
# RackImportForm, DeviceImportForm) read as ours. Where several give one column the first listed wins
# (a site's code: our `code`, else NetBox's `facility`; where both are empty its `slug`, which is also kept
# as the site's slug); the others are ignored with a notice, like every column a kind does not use
# (NetBox's `role`, `platform`, `time_zone`, …).
ALIASES: dict[str, dict[str, str]] = {
    "sites": {"facility": "code", "physical_address": "address"},
    "rooms": {"comments": "notes", "description": "notes"},
    "racks": {},
    # `type`: the device list's column title in NetBox's UI table export (Export → Current view)
    "devices": {"description": "comments", "device_type_slug": "device_type", "type": "device_type"},
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
IMPORT_BATCH = 500  # rows per SAVEPOINT and per audit append (at least; see batch_size)
MAX_BATCHES = 50  # PostgreSQL caches 64 subtransactions per transaction; past that every snapshot slows


def batch_size(rows: int) -> int:
    """Rows per batch: IMPORT_BATCH, or more for a file so large that it would need more than
    MAX_BATCHES SAVEPOINTs (each batch has one, which PostgreSQL keeps until the commit)."""
    return max(IMPORT_BATCH, -(-rows // MAX_BATCHES))
LOOKUPS = "import_lookups"  # session.info key: references already looked up during this import


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
    failing: tuple[str, ...] = ()     # a check the imported records fail (e.g. power check): kept, said, exit 1

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
        if self.failing:
            text += "\nimported, but failing its check:\n" + "\n".join(f"  ! {n}" for n in self.failing)
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


def _check_kind(kind: str, kinds: Iterable[str] | None = None) -> str:
    kinds = KINDS if kinds is None else kinds
    k = kind.strip().lower().replace("_", "-")
    k = {"device-type": "device-types", "devicetypes": "device-types", "region": "regions", "site": "sites",
         "rack": "racks", "device": "devices", "gpu": "gpus", "customer": "customers"}.get(k, k)
    if k not in kinds:
        raise ValidationError({"kind": f"{kind!r} cannot be used here; choose one of {', '.join(kinds)}"})
    return k


def output_format(path: str | Path) -> str:
    """The format an export writes to `path` when none is named: its suffix's, else CSV."""
    return TABLE_SUFFIXES.get(Path(path).suffix.lower(), "csv")


def table_format(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise ValidationError({"file": f"{Path(path).name}: use a .csv or .xlsx file"})
    return TABLE_SUFFIXES[suffix]


# OWASP "CSV injection": a spreadsheet runs a cell that starts with one of these as a formula
# (=HYPERLINK(…), +cmd|…, @SUM(…); tab and CR hide such a start). Text cells that start so are
# written with a leading apostrophe, which the import strips again; numbers (and text that is only a
# number, e.g. "-1,234.50") are left as they are.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# ASCII digits only (re.ASCII): the rule then has the same meaning as its PostgreSQL twin in
# export_sql.py, which writes CSV exports in the database; a number in other digits is neutralised.
_PLAIN_NUMBER = re.compile(r"[+-]?(\d[\d,]*(\.\d*)?|\.\d+)([eE][+-]?\d+)?%?", re.ASCII)


def neutralise_cell(value: Any) -> Any:
    """The value to write into an exported cell: text a spreadsheet would run is made inert."""
    if not isinstance(value, str) or not value:
        return value
    first = value.lstrip("'")[:1]
    if first in FORMULA_STARTS and first and not (value[0] != "'" and _PLAIN_NUMBER.fullmatch(value)):
        return "'" + value
    return value


def unneutralise(text: str) -> str:
    """Undo neutralise_cell on a cell read back by an import."""
    if text[:1] == "'" and text.lstrip("'")[:1] in FORMULA_STARTS and text.lstrip("'")[:1]:
        return text[1:]
    return text


class _Cancelled(Exception):
    pass


# --- kinds declared in their own modules ---------------------------------------------------------
# A new kind (power panels, PDUs, cables, …) lives in its own module, app/importexport_<kind>.py,
# and is registered with ONE line in app/importexport/__init__.py (see docs/import.md). Every table
# above (KINDS, COLUMNS, REQUIRED, OBJECT_TYPE, PERMISSION, FIELD_COLUMN) and the handlers below
# then know it; nothing else in the package names it.

MODEL: dict[str, type] = {}  # kind -> the table whose column limits a row's values are checked against
HANDLERS: dict[str, tuple[Callable, Callable]] = {}  # kind -> (resolve, write)
# kind -> write_many(uow, [(row, values)]) -> [outcome, or the error that refused the row before it was
# written], for the batch's resolved rows in order; a failure while writing is raised. A kind without
# one is written row by row (write).
BULK_WRITE: dict[str, Callable[[Any, list], list]] = {}
ROW_KEY: dict[str, Callable[[dict], Any]] = {}  # kind -> what makes two rows of one file the same record
EXPORT_QUERY: dict[str, Callable[[], Any]] = {}  # kind -> a select of its columns in file order
# kind -> verdict(uow) -> lines of the check the file's records fail once all are written (kept, reported)
VERDICT: dict[str, Callable[[Any], list[str]]] = {}


@dataclass(frozen=True)
class ImportKind:
    """A kind of rows that `import` and `export` handle, declared by its own module."""

    name: str                    # the command's word: idc-console import NAME file
    columns: tuple[str, ...]     # the file's columns, in export order
    required: tuple[str, ...]    # columns the header must have
    object_type: str             # audit object type; the write permission is app.domain.auth.KIND_PERMISSION's
    model: type                  # the table whose column limits are checked before writing
    resolve: Callable[[Any, Any], dict]     # (session, row) -> values; read-only, problems via row.err
    write: Callable[[Any, Any, dict], str]  # (uow, row, values) -> 'created'|'updated'|'unchanged', via services
    export_query: Callable[[], Any] | None = None  # () -> select of `columns`, in file order
    field_column: dict[str, str] = field(default_factory=dict)  # service field -> column, for errors
    row_key: Callable[[dict], Any] | None = None  # values -> same record twice in one file (None: no check)
    write_many: Callable[[Any, list], list] | None = None  # set-wise writer (BULK_WRITE); None: row by row
    verdict: Callable[[Any], list[str]] | None = None  # uow -> what the written records fail (VERDICT)


def register_kind(kind: ImportKind) -> ImportKind:
    """Make `kind` importable (and exportable when it has an export_query)."""
    global KINDS, EXPORT_KINDS
    if kind.name in KINDS or kind.name in EXPORT_ONLY_KINDS:
        raise ValueError(f"import kind {kind.name!r} is registered twice")
    KINDS = KINDS + (kind.name,)
    EXPORT_KINDS = KINDS + EXPORT_ONLY_KINDS
    COLUMNS[kind.name] = tuple(kind.columns)
    REQUIRED[kind.name] = tuple(kind.required)
    OBJECT_TYPE[kind.name] = kind.object_type
    PERMISSION[kind.name] = KIND_PERMISSION[kind.object_type]
    FIELD_COLUMN[kind.name] = dict(kind.field_column)
    MODEL[kind.name] = kind.model
    HANDLERS[kind.name] = (kind.resolve, kind.write)
    if kind.row_key is not None:
        ROW_KEY[kind.name] = kind.row_key
    if kind.write_many is not None:
        BULK_WRITE[kind.name] = kind.write_many
    if kind.verdict is not None:
        VERDICT[kind.name] = kind.verdict
    if kind.export_query is not None:
        EXPORT_QUERY[kind.name] = kind.export_query
    return kind

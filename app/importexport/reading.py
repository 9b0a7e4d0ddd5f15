"""Reading files: CSV (UTF-8 or GBK) and XLSX into rows of text, device types from YAML."""
from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any, Iterator

from app.domain.errors import NotFound, ValidationError
from app.importexport.devicetypes import DeviceTypeFileError, find_yaml_files, read_device_type_file
from app.importexport.schema import (
    ALIASES,
    COLUMNS,
    LOCAL_TIME_SUFFIX,
    REQUIRED,
    YAML_SUFFIXES,
    ImportRow,
    RowError,
    table_format,
    unneutralise,
)

# --- reading files -----------------------------------------------------------------------


def _cell_text(v: Any) -> str | None:
    if v is None:
        return None
    if type(v) is str:  # every CSV cell
        s = (unneutralise(v) if v[:1] == "'" else v).strip()
        return s or None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dt.datetime):
        return v.date().isoformat() if v.time() == dt.time() else v.isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() else repr(v)
    s = unneutralise(str(v)).strip()
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


def _map_header(kind: str, cells: list, header_line: int, columns: list[str], errors: list[RowError]
                ) -> tuple[dict[str, str | None], list[tuple[int, str, str]], list[str]]:
    """The header's cells as our columns (appended to `columns`; "" for a cell not read), with the
    alias each came from, the alias cells read where the chosen one is empty, and the ignored headers."""
    allowed = COLUMNS[kind]
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
    return named, fallbacks, ignored


def _data_rows(raw, columns: list[str], allowed, fallbacks: list[tuple[int, str, str]],
               rows: list[ImportRow], errors: list[RowError]) -> None:
    """The rows after the header appended to `rows`, as values by column (blank rows skipped; those read
    before a failure to read the file stay)."""
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
        if header is None:   # not even a header: nothing to import (as a header with no rows)
            return [], [], []
        header_line, cells = header
        named, fallbacks, ignored = _map_header(kind, cells, header_line, columns, errors)
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
        _data_rows(raw, columns, allowed, fallbacks, rows, errors)
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

"""A small table file (CSV or XLSX) read into dicts by its header row, for the use cases that read
their own files (bank receipts, invoicing profiles, a customer's contacts).

A file that cannot be read is a ValidationError on "file" with a sentence, never a traceback: bytes
that are not a workbook, a CSV that is neither UTF-8 nor GBK, a cell beyond the CSV reader's limit.
"""
from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

from app.domain import messages as M
from app.domain.errors import NotFound, ValidationError

XLSX_SUFFIXES = (".xlsx", ".xlsm")


def read_records(path: str | Path) -> list[dict]:
    """The rows under the header, blank rows left out; values as the file holds them (CSV: text)."""
    path = Path(path)
    if not path.is_file():
        raise NotFound(f"there is no file {path}")
    if path.suffix.lower() in XLSX_SUFFIXES:
        return _read_xlsx(path)
    try:
        data = path.read_bytes()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            try:
                text = data.decode("gb18030")
            except UnicodeDecodeError:
                raise ValidationError({"file": f"{path.name} is neither UTF-8 nor GBK text; save it as CSV "
                                               "(UTF-8)"}) from None
        reader = csv.DictReader(io.StringIO(text, newline=""))
        rows = []
        try:
            for r in reader:
                if any((v or "").strip() for v in r.values() if isinstance(v, str)):
                    rows.append(r)
        except csv.Error as exc:
            limit = csv.field_size_limit()
            if "field limit" in str(exc):
                raise ValidationError({"file": M.CELL_TOO_LONG(path.name, reader.line_num, f"{limit:,}")}) from None
            raise ValidationError({"file": f"cannot read {path.name}: line {reader.line_num}: {exc}"}) from None
        return rows
    except OSError as exc:
        raise ValidationError({"file": f"cannot read {path.name}: {exc.strerror or exc}"}) from None


def _read_xlsx(path: Path) -> list[dict]:
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
        try:
            it = wb.active.iter_rows(values_only=True)
            header = [str(h or "").strip() for h in next(it, [])]
            return [dict(zip(header, r)) for r in it if any(v not in (None, "") for v in r)]
        finally:
            wb.close()
    except Exception as exc:  # zipfile.BadZipFile, KeyError, openpyxl's and the XML parser's own errors
        if isinstance(exc, (zipfile.BadZipFile, KeyError, ValueError, EOFError)) or \
                type(exc).__module__.startswith(("openpyxl", "zipfile", "xml")):
            raise ValidationError({"file": M.NOT_XLSX(path.name, exc)}) from None
        raise

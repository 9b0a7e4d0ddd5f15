"""CSV and XLSX writing that streams: one row at a time, any number of rows."""
from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Iterable


def write_table(path: Path, fmt: str, headers: list[str], rows: Iterable[list]) -> int:
    """Write rows to CSV (UTF-8 with BOM, so Excel shows Chinese) or XLSX; return the count."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    if fmt == "csv":
        with open(path, "w", newline="", encoding="utf-8-sig") as f:
            w = csv.writer(f)
            w.writerow(headers)
            for row in rows:
                w.writerow(["" if v is None else v for v in row])
                n += 1
        return n
    if fmt == "xlsx":
        from openpyxl import Workbook

        wb = Workbook(write_only=True)
        ws = wb.create_sheet()
        ws.append(headers)
        for row in rows:
            ws.append([_cell(v) for v in row])
            n += 1
        wb.save(path)
        return n
    raise ValueError(f"unknown format {fmt!r}: csv or xlsx")


def _cell(v):
    # openpyxl writes Decimal as an exact number; Excel cannot hold time zones.
    if isinstance(v, dt.datetime) and v.tzinfo is not None:
        return v.replace(tzinfo=None)
    return v

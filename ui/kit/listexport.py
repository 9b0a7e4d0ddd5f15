"""A list page's export: the filtered, sorted list written to CSV or XLSX, cells as the list shows them."""
from __future__ import annotations

import csv

from app.read import queries
from app.store.db import Database

from ui.kit.tables import format_value


def export_rows(db: Database, spec: queries.ListSpec, path: str, *, text: str, sort: str, desc: bool,
                keys: list[str], labels: list[str], progress=None) -> int:
    """Write the filtered, sorted list to CSV or XLSX; returns the number of rows. No Qt objects."""
    from app.importexport import neutralise_cell  # OWASP CSV injection: text that a spreadsheet would run

    cols = [spec.column(k) for k in keys]
    idx = [spec.keys().index(k) + 1 for k in keys]
    total = queries.count(db, spec, text)
    done = 0
    if path.lower().endswith(".xlsx"):
        from openpyxl import Workbook
        wb = Workbook(write_only=True)
        ws = wb.create_sheet(spec.kind)
        ws.append(labels)
        for batch in queries.fetch_all(db, spec, text=text, sort=sort, desc=desc):
            for r in batch:
                ws.append([neutralise_cell(_cell(c, r[i])) for c, i in zip(cols, idx)])
            done += len(batch)
            if progress:
                progress(done, total)
        wb.save(path)
    else:
        with open(path, "w", newline="", encoding="utf-8-sig") as f:  # BOM: Excel opens UTF-8 Chinese right
            w = csv.writer(f)
            w.writerow(labels)
            for batch in queries.fetch_all(db, spec, text=text, sort=sort, desc=desc):
                w.writerows([neutralise_cell(format_value(c, r[i])) for c, i in zip(cols, idx)] for r in batch)
                done += len(batch)
                if progress:
                    progress(done, total)
    return done


def _cell(col, value):
    from decimal import Decimal
    import datetime as dt
    if value is None:
        return None
    if col.kind in ("money", "decimal") and isinstance(value, Decimal):
        return float(value)
    if col.kind == "datetime" and isinstance(value, dt.datetime):
        return format_value(col, value)
    if col.kind in ("choice", "bool", "audit_action", "audit_object"):
        return format_value(col, value)
    return value

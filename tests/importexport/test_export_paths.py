"""The fast export paths write what the Python export writes.

CSV of a whole kind is written by the database (app/importexport/export_sql.py: COPY on PostgreSQL,
sqlite3's cursor straight into csv.writer on SQLite): byte for byte the file of `write_export`
over `export_rows`, on the demo data and on awkward values put into it. XLSX is written by our own
streaming writer (app/importexport/xlsx.py): it reads back cell for cell as xlsxwriter's file did.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from sqlalchemy import text

from app.audit.trail import Actor
from app.domain.errors import DomainError
from app.importexport import (COLUMNS, EXPORT_KINDS, MONEY_COLUMNS, MONEY_FORMAT, export_rows, neutralise_cell, run_export,
                              write_export)
from app.importexport.export import export_csv_in_sql
from app.importexport.export_sql import to_crlf

# Texts a spreadsheet or a CSV reader could take for something else.
AWKWARD = [
    "=1+1", "+86 10 1234 5678", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "'=x", "''=x", "'plain", "'", "=", "-",
    "-1,234.50", "+5", "42%", "-1e5", "-1E+5%", ".5", "-.5", "1,2,3", "-1.2.3", "--1", "+-1", "1e", "-12a",
    "-１２", "-٣", "a,b", 'say "hi"', '"', "line\nbreak", "cr\r\nlf", "lone\rcr", "trail\n", " lead", "trail ",
    "tab\tin", "福州云算科技有限公司", "\\.", "x\x01y", "_x0041_", "a&b<c>",
]
PYTHON_ONLY_ON_POSTGRESQL = {"users", "contracts", "audit"}  # a local time, the items' GPU serials, a timestamp


def _kinds():
    return [k for k in EXPORT_KINDS if k in COLUMNS and k not in ("payments", "statements")]


def _python_csv(db, kind, path):
    headers, rows = export_rows(db, kind)
    write_export(headers, rows, path, "csv")
    return path.read_bytes()


def _sql_csv(db, kind, path):
    headers, _ = export_rows(db, kind)
    count = export_csv_in_sql(db, kind, headers, path, None, None)
    return count, (path.read_bytes() if count is not None else None)


def _assert_same_files(db, tmp_path):
    by_sql = set()
    for kind in _kinds():
        count, got = _sql_csv(db, kind, tmp_path / f"{kind}.sql.csv")
        if count is None:
            continue
        by_sql.add(kind)
        want = _python_csv(db, kind, tmp_path / f"{kind}.py.csv")
        if got != want:
            a, b = got.decode("utf-8").splitlines(True), want.decode("utf-8").splitlines(True)
            diff = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y][:3]
            pytest.fail(f"{kind}: {len(a)} vs {len(b)} lines; first differences {diff}")
        assert count == len(list(csv.reader(io.StringIO(want.decode("utf-8-sig"), newline="")))) - 1
    return by_sql


def test_every_kind_written_by_the_database_is_the_python_export(demo_db, tmp_path):
    by_sql = _assert_same_files(demo_db, tmp_path)
    if demo_db.is_sqlite:
        assert by_sql == set(_kinds())
    else:   # the big kinds go by COPY; a kind with a local time, GPU serials or a timestamp does not
        assert {"gpus", "devices", "racks", "customers", "regions", "device-types"} <= by_sql
        assert not by_sql & PYTHON_ONLY_ON_POSTGRESQL


def test_awkward_values_are_written_the_same(demo_db, tmp_path):
    db = demo_db
    with db.engine.begin() as c:
        gpus = c.execute(text("SELECT id FROM gpu_asset ORDER BY id LIMIT :n"), {"n": len(AWKWARD)}).scalars().all()
        for gid, value in zip(gpus, AWKWARD):
            c.execute(text("UPDATE gpu_asset SET serial = :v WHERE id = :i"), {"v": value, "i": gid})
        devices = c.execute(text("SELECT id FROM device ORDER BY id LIMIT :n"), {"n": len(AWKWARD)}).scalars().all()
        for did, value in zip(devices, AWKWARD):
            c.execute(text("UPDATE device SET name = :v, serial = :v WHERE id = :i"), {"v": value, "i": did})
        customers = c.execute(text("SELECT id FROM customer ORDER BY id LIMIT 6")).scalars().all()
        for cid, value in zip(customers, ["", "=cmd|' /C calc'!A0", "a,\"b\"\n", "-1,5", "''", "x"]):
            c.execute(text("UPDATE customer SET address = :v WHERE id = :i"), {"v": value, "i": cid})
        if db.is_sqlite:
            # SQLite keeps what it is given: numbers as reals, whole numbers, big ones, dates in other forms
            odd = [1234.56, 0.1, 1.005, 1e13, -5, 10**16, 220000, 7.5, -0.5, 123456789012.34]
            for gid, value in zip(gpus, odd):
                c.execute(text("UPDATE gpu_asset SET purchase_cost = :v WHERE id = :i"), {"v": value, "i": gid})
            c.execute(text("UPDATE gpu_asset SET purchase_date = '2026-W02-1' WHERE id = :i"), {"i": gpus[0]})
            c.execute(text("UPDATE device SET position = 10.5 WHERE id = :i AND position IS NOT NULL"), {"i": devices[1]})
        else:
            c.execute(text("UPDATE gpu_asset SET purchase_cost = 0.1 WHERE id = :i"), {"i": gpus[1]})
            c.execute(text("UPDATE gpu_asset SET purchase_cost = -123456789012.34 WHERE id = :i"), {"i": gpus[2]})
    _assert_same_files(db, tmp_path)
    # and what those are: neutralised where a spreadsheet would run them, numbers in other digits included
    with open(tmp_path / "gpus.sql.csv", encoding="utf-8-sig", newline="") as f:
        serials = {row[0] for row in list(csv.reader(f))[1:]}
    for value in AWKWARD:
        assert neutralise_cell(value) in serials or (value == "" and "" in serials), value
    assert neutralise_cell("-１２") == "'-１２" and neutralise_cell("-12") == "-12"


def test_copy_line_ends_become_crlf_outside_quoted_fields():
    rows = [["a", "b\nc", 'say "hi"'], ["", "x\r\ny", ""], ['"', "\n", "end"], ["1", "2", "3"]]
    lf, crlf = io.StringIO(), io.StringIO()
    csv.writer(lf, lineterminator="\n").writerows(rows)
    csv.writer(crlf).writerows(rows)
    data, want = lf.getvalue().encode(), crlf.getvalue().encode()
    for i in range(len(data) + 1):          # COPY's blocks can end anywhere: split at every two places
        for j in range(i, len(data) + 1, 3):
            out, inside, count = [], False, 0
            for block in (data[:i], data[i:j], data[j:]):
                b, inside, n = to_crlf(block, inside)
                out.append(b)
                count += n
            assert b"".join(out) == want and count == len(rows) and not inside


def test_a_cancelled_export_by_the_database_leaves_no_file_and_the_next_one_runs(demo_db, tmp_path):
    out = tmp_path / "gpus.csv"
    seen = []
    with pytest.raises(DomainError, match="cancelled"):
        run_export(demo_db, Actor.system(), "gpus", out, "csv", progress=seen.append, cancelled=lambda: True)
    assert not out.exists() and not (tmp_path / "gpus.csv.part").exists()
    result = run_export(demo_db, Actor.system(), "gpus", out, "csv", progress=seen.append)
    assert result.rows > 0 and seen[-1] == result.rows
    assert out.read_bytes() == _python_csv(demo_db, "gpus", tmp_path / "py.csv")


def test_export_format_follows_the_output_suffix(demo_db, tmp_path, capsys):
    from openpyxl import load_workbook

    from app.cli.main import main

    assert main(["--db", demo_db.url, "export", "gpus", "-o", str(tmp_path / "g.xlsx")]) == 0
    assert "(xlsx)" in capsys.readouterr().out
    ws = load_workbook(tmp_path / "g.xlsx", read_only=True).worksheets[0]
    assert next(ws.iter_rows(max_row=1, values_only=True))[0] == "serial"
    assert main(["--db", demo_db.url, "export", "gpus", "-o", str(tmp_path / "g.txt")]) == 0
    assert (tmp_path / "g.txt").read_bytes().startswith(b"\xef\xbb\xbfserial,")


# --- XLSX ---------------------------------------------------------------------------------------

def _xlsxwriter_reference(headers, rows, path):
    """The export's XLSX as xlsxwriter wrote it before (constant memory), for comparison."""
    import re

    import xlsxwriter
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True, "strings_to_numbers": False,
                                         "strings_to_formulas": False, "strings_to_urls": False,
                                         "nan_inf_to_errors": True})
    money_fmt, date_fmt = wb.add_format({"num_format": MONEY_FORMAT}), wb.add_format({"num_format": "yyyy-mm-dd"})
    ws = wb.add_worksheet(re.sub(r"[\[\]:*?/\\]", "-", "gpus"))
    ws.write_row(0, 0, headers)
    for r, row in enumerate(rows, 1):
        for i, v in enumerate(row):
            t = type(v)
            if v is None:
                continue
            if t is str:
                ws.write_string(r, i, neutralise_cell(ILLEGAL_CHARACTERS_RE.sub("", v)))
            elif t is bool:
                ws.write_boolean(r, i, v)
            elif t in (int, float, Decimal):
                ws.write_number(r, i, v, money_fmt if headers[i] in MONEY_COLUMNS else None)
            elif t is dt.datetime:
                ws.write_string(r, i, neutralise_cell(v.isoformat()))
            elif t is dt.date:
                ws.write_datetime(r, i, v, date_fmt)
    wb.close()


def _cells(path):
    from openpyxl import load_workbook

    wb = load_workbook(path)
    try:
        return [[(c.value, c.number_format if c.value is not None else None) for c in row]
                for row in wb.worksheets[0].iter_rows()]
    finally:
        wb.close()


def test_xlsx_reads_back_as_the_xlsxwriter_file_did(tmp_path):
    headers = ["serial", "n", "purchase_cost", "when", "flag", "at", "ratio"]
    texts = AWKWARD + ["", "   ", "x" * 40_000, "\u3000全角", "end\u3000", "a\ufffeb", "emoji 😀" * 3]
    rows = []
    for k, s in enumerate(texts):
        rows.append([s, k - 3, Decimal("1234.50") if k % 2 else Decimal("-0.10"), dt.date(2026, 1, 1) + dt.timedelta(k * 40),
                     k % 3 == 0, dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc) if k % 4 == 0 else None,
                     k / 7 if k % 5 else None])
    rows.append([None, 10**17, Decimal("99999999999999.99"), dt.date(1900, 1, 15), False, None, 1e300])
    rows.append(["last", None, None, dt.date(1900, 3, 1), None, None, None])
    write_export(headers, iter(rows), tmp_path / "ours.xlsx", "xlsx", sheet="gpus")
    _xlsxwriter_reference(headers, rows, tmp_path / "theirs.xlsx")
    assert _cells(tmp_path / "ours.xlsx") == _cells(tmp_path / "theirs.xlsx")


def test_xlsx_of_the_demo_reads_back_as_the_xlsxwriter_file_did(demo_db, tmp_path):
    for kind in ("gpus", "devices", "device-types"):
        headers, rows = export_rows(demo_db, kind)
        rows = list(rows)
        write_export(headers, iter(rows), tmp_path / f"{kind}.xlsx", "xlsx", sheet="gpus")
        _xlsxwriter_reference(headers, rows, tmp_path / f"{kind}.ref.xlsx")
        assert _cells(tmp_path / f"{kind}.xlsx") == _cells(tmp_path / f"{kind}.ref.xlsx"), kind


def _as_excel_shows(value: Decimal, fmt: str) -> str:
    """What Excel displays (and writes when the sheet is saved as CSV) for a number with a format like
    #,##0.00##: at least as many decimals as zeros after the point, at most as many as 0s and #s."""
    decimals = fmt.split(".", 1)[1]
    most, least = len(decimals), decimals.count("0")
    text = f"{value.quantize(Decimal(1).scaleb(-most)):,.{most}f}"
    whole, frac = text.split(".")
    frac = frac.rstrip("0").ljust(least, "0")
    return f"{whole}.{frac}" if frac else whole


def test_xlsx_money_shows_the_stored_precision(demo_db, tmp_path):
    """Prices are stored with four decimals (unit_price, kwh_price, hourly_rate: Numeric(…, 4)); the XLSX
    number format shows them all, so a spreadsheet saved as CSV keeps 0.8523, and fen amounts keep two."""
    from openpyxl import load_workbook
    assert [_as_excel_shows(Decimal(v), MONEY_FORMAT) for v in ("0.8523", "1234.5", "0.85", "6800")] == \
        ["0.8523", "1,234.50", "0.85", "6,800.00"]
    assert _as_excel_shows(Decimal("0.8523"), "#,##0.00") == "0.85"            # the format before: a loss
    write_export(["unit_price", "kwh_price"], [[Decimal("0.8523"), Decimal("1.15")]], tmp_path / "p.xlsx", "xlsx")
    ws = load_workbook(tmp_path / "p.xlsx").worksheets[0]
    assert [(c.value, c.number_format) for c in ws[2]] == [(0.8523, MONEY_FORMAT), (1.15, MONEY_FORMAT)]
    # the demo's contracts: every money cell carries the format, each value as stored
    from app.services.users import login
    actor = login(demo_db, "admin", "demo1234")
    run_export(demo_db, actor, "contracts", tmp_path / "contracts.xlsx")
    headers, rows = export_rows(demo_db, "contracts")
    stored = list(rows)
    ws = load_workbook(tmp_path / "contracts.xlsx").worksheets[0]
    money = [i for i, h in enumerate(headers) if h in MONEY_COLUMNS]
    assert money and ws.max_row == len(stored) + 1
    for r, row in enumerate(ws.iter_rows(min_row=2), start=0):
        for i in money:
            if stored[r][i] is not None:
                assert row[i].number_format == MONEY_FORMAT
                assert _as_excel_shows(Decimal(str(row[i].value)), MONEY_FORMAT) == \
                    _as_excel_shows(Decimal(stored[r][i]), MONEY_FORMAT)

"""A write-only XLSX writer: rows of Python values streamed as sheet XML into a zip.

An XLSX workbook is a zip of a few XML parts (ECMA-376): the content types, two relationship
parts, the workbook, the styles and one part per sheet. The sheet part is written as the rows
come, each row one string, into a deflate stream at level 1, so memory stays flat whatever the
row count. Measured on 400,000 GPUs (docs/performance.md): xlsxwriter's constant-memory mode
spent ~25 CPU seconds in its per-cell calls; this writer needs a few.

Cells are encoded as xlsxwriter encodes them, so that the files read the same as before:
numbers as `.16G` (money columns in `#,##0.00`), dates as Excel serial days in `yyyy-mm-dd`,
booleans as booleans, text as inline strings escaped as Excel escapes them (`_xHHHH_` for control
characters and for literal `_xHHHH_`, `xml:space="preserve"` for leading or trailing blanks),
cut at 32,767 UTF-16 units. What is not written: shared strings (a table of every distinct text
would grow with the rows) and the sheet's `<dimension>` (not known until the last row; it is
optional, and readers count the rows; a row's last cell is written even when empty, so that a
reader sizing rows by their cells sees every row as wide as the header). Not zip64: a sheet part
over 2 GiB of XML is refused with a message to export CSV instead.
"""
from __future__ import annotations

import datetime as dt
import logging
import re
import zipfile
from decimal import Decimal
from pathlib import Path
from typing import Callable, Iterable

from app.domain.errors import DomainError

COMPRESSION_LEVEL = 1   # zlib: level 1 is ~2× faster than 6 for ~20 % more bytes (measured on the GPU sheet)
MAX_TEXT = 32_767       # Excel's limit for a cell, in UTF-16 units
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

# openpyxl's ILLEGAL_CHARACTERS_RE: characters XML 1.0 cannot hold (removed, as before)
_ILLEGAL = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")
# Anything in a text that needs more than copying: markup, control characters (tab, newline and CR
# included: they go the careful way), literal _xHHHH_, the two non-characters, blanks at either end.
_SPECIAL = re.compile("[&<>\x00-\x1f\ufffe\uffff]|_x[0-9a-fA-F]{4}_|^\\s|\\s$").search
_ESCAPED_ESCAPE = re.compile("(_x[0-9a-fA-F]{4}_)")
_CONTROL = re.compile("([\x00-\x08\x0b-\x1f])")
_LEADING, _TRAILING = re.compile(r"^\s").search, re.compile(r"\s$").search
_EPOCH = dt.date(1899, 12, 31).toordinal()
_EXACT = 10**15  # below this str(int) is what .16G writes
_SHORT = MAX_TEXT // 2  # shorter texts cannot pass the limit
# schema.FORMULA_STARTS, the apostrophe (neutralise_cell looks at those) and the space (xml:space)
_RISKY_OR_BLANK = frozenset(("=", "+", "-", "@", "\t", "\r", "'", " "))



def _utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _utf16_cut(s: str, limit: int) -> str:
    n = 0
    for i, ch in enumerate(s):
        n += 2 if ord(ch) > 0xFFFF else 1
        if n > limit:
            return s[:i]
    return s


def text_xml(s: str) -> tuple[str, bool]:
    """(escaped text, whether <t> needs xml:space="preserve") for a text that is already neutralised."""
    if len(s) > MAX_TEXT // 2 and _utf16_len(s) > MAX_TEXT:
        s = _utf16_cut(s, MAX_TEXT)
    if not _SPECIAL(s):
        return s, False
    s = _ESCAPED_ESCAPE.sub(r"_x005F\1", s)
    s = _CONTROL.sub(lambda m: f"_x{ord(m.group(1)):04X}_", s)
    s = s.replace("\ufffe", "_xFFFE_").replace("\uffff", "_xFFFF_")
    preserve = bool(_LEADING(s) or _TRAILING(s))
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return s, preserve


def column_letter(i: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    out = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        out = chr(65 + r) + out
    return out


def _attr(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


class XlsxWriter:
    """Sheets of rows into an .xlsx file: add_sheet(title), then rows, then close().

    `neutralise` is applied to every text cell (formula injection); `illegal` characters are
    removed first, as before. `money` holds the column numbers written in the money format."""

    def __init__(self, path: str | Path, *, neutralise: Callable[[str], str], money: Iterable[int] = (),
                 money_format: str = "#,##0.00"):
        self.zip = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=COMPRESSION_LEVEL)
        self.neutralise = neutralise
        self.money = frozenset(money)
        self.money_format = money_format
        self.titles: list[str] = []
        self.part = None
        self.row = 0
        self.zip.writestr("[Content_Types].xml", _HEAD + (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            # every other .xml part is a worksheet: the sheet count is not known when this part is written
            '<Default Extension="xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            '</Types>'))
        self.zip.writestr("_rels/.rels", _HEAD + (
            f'<Relationships xmlns="{_PKG_REL}"><Relationship Id="rId1" Type="{_REL}/officeDocument" '
            'Target="xl/workbook.xml"/></Relationships>'))
        self._refs: list[str] = []

    # --- sheets ----------------------------------------------------------------------------------

    def add_sheet(self, title: str) -> None:
        self._end_sheet()
        self.titles.append(title)
        n = len(self.titles)
        # not zip64: Excel reads only its own narrow variant of zip64 local headers; a sheet part
        # over 2 GiB of XML is refused when it ends (_end_sheet)
        self.part = self.zip.open(f"xl/worksheets/sheet{n}.xml", "w")
        self.part.write((_HEAD + f'<worksheet xmlns="{_MAIN}" xmlns:r="{_REL}"><sheetViews><sheetView '
                         + ('tabSelected="1" ' if n == 1 else "") + 'workbookViewId="0"/></sheetViews>'
                         '<sheetFormatPr defaultRowHeight="15"/><sheetData>').encode())
        self.row = 0

    def _end_sheet(self) -> None:
        if self.part is not None:
            self.part.write(b'</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" '
                            b'header="0.3" footer="0.3"/></worksheet>')
            part, self.part = self.part, None
            try:
                part.close()
            except RuntimeError as exc:  # zipfile: the part passed 2 GiB, and it is not zip64 (see add_sheet)
                raise DomainError("a sheet of this export is over 2 GiB of XML, more than this XLSX writer "
                                  "holds; export it as CSV, or filter it") from exc

    # --- rows ------------------------------------------------------------------------------------

    def _cell_refs(self, width: int) -> list[str]:
        while len(self._refs) < width:
            self._refs.append(f'<c r="{column_letter(len(self._refs))}')
        return self._refs

    def row_xml(self, values: list | tuple, r: int) -> str:
        """The <row> element of one row of values (row number r, 1-based)."""
        n = str(r)
        refs = self._cell_refs(len(values))
        money = self.money
        out = [f'<row r="{n}">']
        ap = out.append
        for i, v in enumerate(values):
            if v is None:
                continue
            t = type(v)
            if t is str:
                # plain text is copied: printable (so the only blank it can hold is the ASCII space), no
                # markup, no _x escape, not risky nor blank at its start, not blank at its end, not long
                if (v and v.isprintable() and v[0] not in _RISKY_OR_BLANK and v[-1] != " " and "&" not in v
                        and "<" not in v and ">" not in v and "_x" not in v and len(v) <= _SHORT):
                    ap(f'{refs[i]}{n}" t="inlineStr"><is><t>{v}</t></is></c>')
                else:
                    ap(self._text_cell(refs[i], n, v))
            elif t is int:
                s = str(v) if -_EXACT < v < _EXACT else format(v, ".16G")
                ap(f'{refs[i]}{n}" s="1"><v>{s}</v></c>' if i in money else f'{refs[i]}{n}"><v>{s}</v></c>')
            elif t is Decimal or t is float:
                s = format(v, ".16G")
                if s[-1] in "NFY":  # NAN, INF, INFINITY: Excel has no such number
                    ap(f'{refs[i]}{n}" t="e"><v>{"#NUM!" if s[-1] == "N" else "#DIV/0!"}</v></c>')
                else:
                    ap(f'{refs[i]}{n}" s="1"><v>{s}</v></c>' if i in money else f'{refs[i]}{n}"><v>{s}</v></c>')
            elif t is dt.date:
                # Excel's serial day (1900 system, with its phantom 29 February 1900), as xlsxwriter counts
                k = v.toordinal() - _EPOCH
                ap(f'{refs[i]}{n}" s="2"><v>{k + 1 if k > 59 else k}</v></c>')
            elif t is bool:
                ap(f'{refs[i]}{n}" t="b"><v>{1 if v else 0}</v></c>')
            else:
                # an instant (Excel has no time zones: the exact ISO text) or anything else: as text
                ap(self._text_cell(refs[i], n, v.isoformat() if t is dt.datetime else str(v)))
        if values and values[-1] is None:
            # an empty last cell keeps the row as wide as the header for readers that size a row by its
            # cells (openpyxl's read-only mode, without a <dimension>)
            ap(f'{refs[len(values) - 1]}{n}"/>')
        ap("</row>")
        return "".join(out)

    def _text_cell(self, ref: str, n: str, v: str) -> str:
        """A text cell the careful way, in the order of the writer before (docs/performance.md): illegal
        characters removed, then neutralised, then cut and escaped."""
        if _ILLEGAL.search(v):
            v = _ILLEGAL.sub("", v)
        v, keep = text_xml(self.neutralise(v))
        if keep:
            return f'{ref}{n}" t="inlineStr"><is><t xml:space="preserve">{v}</t></is></c>'
        return f'{ref}{n}" t="inlineStr"><is><t>{v}</t></is></c>'

    def write_rows(self, rows: Iterable[list | tuple]) -> int:
        """Append rows to the current sheet; returns how many."""
        r0 = self.row
        row_xml = self.row_xml
        r = r0
        chunk = []
        for values in rows:
            r += 1
            chunk.append(row_xml(values, r))
        self.row = r
        if chunk:
            self.part.write("".join(chunk).encode())
        return r - r0

    # --- the end ---------------------------------------------------------------------------------

    def close(self) -> None:
        self._end_sheet()
        sheets = "".join(f'<sheet name="{_attr(t)}" sheetId="{i}" r:id="rId{i}"/>' for i, t in enumerate(self.titles, 1))
        self.zip.writestr("xl/workbook.xml", _HEAD + (
            f'<workbook xmlns="{_MAIN}" xmlns:r="{_REL}"><bookViews><workbookView/></bookViews>'
            f'<sheets>{sheets}</sheets></workbook>'))
        n = len(self.titles)
        rels = "".join(f'<Relationship Id="rId{i}" Type="{_REL}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                       for i in range(1, n + 1))
        self.zip.writestr("xl/_rels/workbook.xml.rels", _HEAD + (
            f'<Relationships xmlns="{_PKG_REL}">{rels}'
            f'<Relationship Id="rId{n + 1}" Type="{_REL}/styles" Target="styles.xml"/></Relationships>'))
        self.zip.writestr("xl/styles.xml", _HEAD + _styles(self.money_format))
        self.zip.close()

    def abort(self) -> None:
        """Close the file after a failure (the caller removes it)."""
        part, self.part = self.part, None
        try:
            if part is not None:
                part.close()
        except RuntimeError:   # the part too big: the file is removed anyway
            logging.getLogger(__name__).debug("closing a failed workbook's part", exc_info=True)
        finally:
            self.zip.close()


def _styles(money_format: str) -> str:
    """xf 0 General, 1 money, 2 dates (yyyy-mm-dd): xlsxwriter's stylesheet. "#,##0.00" is Excel's
    built-in number format 4 (as xlsxwriter writes it); any other money format is a custom one."""
    money_id = 4 if money_format == "#,##0.00" else 165
    custom = '<numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>' + (
        "" if money_id == 4 else f'<numFmt numFmtId="165" formatCode="{_attr(money_format)}"/>')
    return (
        f'<styleSheet xmlns="{_MAIN}"><numFmts count="{1 if money_id == 4 else 2}">{custom}</numFmts>'
        '<fonts count="1"><font><sz val="11"/><color theme="1"/><name val="Calibri"/><family val="2"/>'
        '<scheme val="minor"/></font></fonts>'
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/>'
        '</fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
        '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
        f'<xf numFmtId="{money_id}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
        '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
        '<dxfs count="0"/><tableStyles count="0" defaultTableStyle="TableStyleMedium9" '
        'defaultPivotStyle="PivotStyleLight16"/></styleSheet>')

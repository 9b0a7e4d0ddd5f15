"""One table model over a paged SQL list (app.read.queries.ListSpec); its view is ui/kit/tableview.py.

Rows come in windows of PAGE_SIZE through canFetchMore/fetchMore as the view scrolls;
sort and filter are pushed into SQL. The total is cached until refresh(); the filtered
count is one SQL count per (debounced) filter change.
"""
from __future__ import annotations

import datetime as dt
from array import array
from collections import OrderedDict
from dataclasses import replace
from decimal import Decimal

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor

from app.read import queries
from app.domain.rating import local_today
from app.domain.clock import local_text
from app.store.db import Database
from app.read.list_filters import sort_key as queries_sort_key
from app.domain.warranty import WARRANTY_WARN_DAYS, warranty_state   # the rule lives in app/

from ui.kit.auditevent import action_name, object_name
from ui.shell.i18n import choice_label, column_label
from ui.shell.operations import Latest

from ui.kit.roles import ALIGN as _ALIGN, BACKGROUND as _BACKGROUND, DECORATION as _DECORATION
from ui.kit.roles import DISPLAY as _DISPLAY, FONT as _FONT, FOREGROUND as _FOREGROUND, TOOLTIP as _TOOLTIP
from ui.kit.roles import HORIZONTAL, USER as _USER

_ROLES = frozenset({_DISPLAY, _ALIGN, _TOOLTIP, _DECORATION, _BACKGROUND, _FOREGROUND, _FONT, _USER, _USER + 1})
ALIGN = {"left": Qt.AlignLeft | Qt.AlignVCenter, "right": Qt.AlignRight | Qt.AlignVCenter,
         "center": Qt.AlignCenter}
_ALIGN_INT = {k: int(v) for k, v in ALIGN.items()}


def _BOLD():
    from PySide6.QtGui import QFont
    f = QFont()
    f.setBold(True)
    return f


# (background, text): expired is a darker red with dark red bold text, ending soon is amber
WARRANTY_COLOURS = {"expired": ("#ef9a9a", "#b71c1c"), "ending": ("#ffe0b2", "#e65100")}


def format_value(col: queries.Column, value) -> str:
    if value is None:
        return ""
    if col.kind == "choice" and col.choices is not None:
        return choice_label(col.choices, value)
    if col.kind in ("audit_action", "audit_object"):     # audit codes named in the reader's language
        return action_name(str(value)) if col.kind == "audit_action" else object_name(str(value))
    if col.kind == "bool":
        return "✓" if value else "—"
    if col.kind == "money":
        from app.domain.money import format_cny  # the one money formatter: half-up, never through a float

        return format_cny(Decimal(str(value))) if isinstance(value, (Decimal, float, int)) else str(value)
    if col.kind == "decimal" and isinstance(value, Decimal):
        text = format(value.normalize(), "f")
        return text
    if col.kind == "datetime" and isinstance(value, dt.datetime):
        return local_text(value)
    if col.kind == "date" and isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()[:10]
    if col.kind == "int":
        return str(value)
    return str(value)


# Rows kept in memory per model. Beyond this many fetched rows, the least recently used windows
# of page_size rows are dropped and read again (one keyset query of page_size rows, from the
# cursor saved at that window's start) when the view comes back to them. The ids of
# every fetched row stay (8 bytes each) so row_of(id), id_at(row) and selection keep working.
WINDOW_ROWS = 20_000


class _Rows:
    """`model.rows` as a sequence over the windowed rows (reads may refetch; writes patch a
    cached window, for tests)."""

    def __init__(self, model: "PagedTableModel"):
        self.model = model

    def __len__(self) -> int:
        return self.model._n

    def _pos(self, i: int) -> int:
        n = self.model._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return i

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.model._row(j) for j in range(*i.indices(self.model._n))]
        return self.model._row(self._pos(i))

    def __setitem__(self, i, row) -> None:
        i = self._pos(i)
        ps = self.model.page_size
        self.model._chunk(i // ps)[i % ps] = tuple(row)

    def __iter__(self):
        for i in range(self.model._n):
            yield self.model._row(i)

    def __bool__(self) -> bool:
        return self.model._n > 0


# A big list's filtered or non-keyset read runs on the thread pool: sorting 400,000 GPUs by
# customer takes 0.5-1.3 s, during which the view keeps its rows and says it is sorting.
ORDER_SYNC_ROWS = queries.BACKGROUND_ROWS


class PagedTableModel(QAbstractTableModel):
    """Rows of a ListSpec in one of two shapes:
    - keyset: windows of page_size rows appended as the view scrolls (canFetchMore/fetchMore),
      each evicted window read again from the cursor saved at its start;
    - ordered ids: every id of the list in order (read once, in the background for a big list),
      every row there at once for the view and read in windows of those ids as they are shown.
    """

    countsChanged = Signal(int, int)   # filtered, total
    busyChanged = Signal(bool)         # an order is being read in the background
    reloaded = Signal()                # new rows are in (after a background read too)
    loadFailed = Signal(str)

    def __init__(self, db: Database, spec: queries.ListSpec, parent=None, page_size: int = queries.PAGE_SIZE,
                 *, lazy: bool = False, window_rows: int = WINDOW_ROWS, order_sync_rows: int = ORDER_SYNC_ROWS):
        super().__init__(parent)
        self.db, self.spec, self.page_size = db, spec, page_size
        self.columns = list(spec.columns)
        self.max_chunks = max(2, -(-window_rows // page_size))
        self.order_sync_rows = order_sync_rows
        self.filter_text = ""
        self.sort_key = spec.default_sort
        self.sort_desc = spec.default_desc
        self._params = (self.filter_text, self.sort_key, self.sort_desc)   # of the rows held
        self._clear()
        self.done = False
        self._fetching = False
        self.loaded = False
        self.busy = False
        self._latest = Latest(self)
        self.refetches = 0            # windows read again after eviction (for tests and the bench)
        self._total: int | None = None
        self.filtered_count: int = 0
        self.today = local_today()
        if not lazy:
            self.reload()

    def _clear(self) -> None:
        self.cursor = queries.Cursor()
        self._n = 0                                   # rows the view has: rowCount()
        self._ids: array | list = array("q")          # id of every row (fetched, or the whole order)
        self._ordered = False                         # _ids is the whole list's order
        self._starts: list[queries.Cursor] = []       # keyset: cursor at the start of each window
        self._chunks: OrderedDict[int, list] = OrderedDict()   # window index -> rows (LRU)
        self._hot_k, self._hot = -1, None

    @property
    def rows(self) -> _Rows:
        return _Rows(self)

    # --- loading -----------------------------------------------------------------
    def ensure_loaded(self) -> None:
        """A lazy model reads its first window when first needed (page shown, id asked for)."""
        if not self.loaded:
            self.reload()

    def reload(self, *, recount_total: bool = True) -> None:
        """Read the list again with the current filter and sort. A big list (more than
        `order_sync_rows` rows) with a filter, or sorted by a column that cannot page by keyset,
        is read on the thread pool: `busy` until `reloaded`, its old rows shown meanwhile."""
        self._latest.invalidate()          # a read still running is superseded
        self.loaded = True
        self.today = local_today()
        params = (self.filter_text, self.sort_key, self.sort_desc)
        keyset = queries.pages_by_keyset(self.spec, self.sort_key)
        if recount_total or self._total is None:
            if keyset and not self.filter_text:
                # read at once whatever the total (issue 26): the count and the first window side by side
                self._total, first = self.db.read_together(
                    lambda: queries.total(self.db, self.spec),
                    lambda: queries.read_list(self.db, self.spec, params, self.page_size))
                self._set_busy(False)
                self._apply(params, first)
                return
            self._total = queries.total(self.db, self.spec)
        big = self._total > self.order_sync_rows
        if not big or (keyset and not self.filter_text):
            self._set_busy(False)
            self._apply(params, queries.read_list(self.db, self.spec, params, self.page_size))
            return
        self._set_busy(True)
        db, spec, page_size = self.db, self.spec, self.page_size
        self._latest.run(lambda check: queries.read_list(db, spec, params, page_size, with_count=False, check=check),
                         lambda result: self._read_done(params, result), self._read_failed)

    def _read_done(self, params, result) -> None:
        self._set_busy(False)
        self._apply(params, result)

    def _read_failed(self, exc: BaseException) -> None:
        self._set_busy(False)
        # what is asked for goes back to what is shown, so the same sort or filter can be asked again
        self.filter_text, self.sort_key, self.sort_desc = self._params
        if self.filtered_count < 0:    # the count failed: the rows held are what is known
            self.filtered_count = self._n
            self.countsChanged.emit(self._n, self._total or 0)
        self.loadFailed.emit(str(exc) or type(exc).__name__)

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busyChanged.emit(busy)

    def _apply(self, params, result: queries.ListRead) -> None:
        self.beginResetModel()
        self._clear()
        self._params = params
        if result.order is not None:
            self._ids, self._ordered, self._n = result.order, True, len(result.order)
            self.done = True
        else:
            self._append(queries.Cursor(), result.page.rows)
            self.cursor = result.cursor
            self.done = result.page.done
        self.endResetModel()
        if result.count is None:   # a broad filter on a big list: its rows are in, now count them
            self._count_in_background(params)
        else:
            self.filtered_count = result.count if params[0] else (self._total or 0)
            self.countsChanged.emit(self.filtered_count, self._total or 0)
        self.reloaded.emit()

    def _count_in_background(self, params) -> None:
        db, spec = self.db, self.spec
        self.filtered_count = -1
        self.countsChanged.emit(-1, self._total or 0)

        def done(n: int) -> None:
            self.filtered_count = n
            self.countsChanged.emit(n, self._total or 0)
        self._latest.run(lambda _check: queries.count(db, spec, params[0]), done, self._read_failed)

    def _query(self, cursor: queries.Cursor) -> queries.Page:
        text, sort, desc = self._params
        return queries.fetch_page(self.db, self.spec, cursor, text=text, sort=sort, desc=desc,
                                  limit=self.page_size)

    def _append(self, start: queries.Cursor, rows: list[tuple]) -> None:
        if not rows:
            return
        k = len(self._starts)
        self._starts.append(start)
        ids = [r[0] for r in rows]
        try:
            ids = array("q", ids)                # whole or not at all
        except (TypeError, OverflowError):       # ids that are not 64-bit integers
            self._ids = list(self._ids)
        self._ids.extend(ids)
        self._n += len(rows)
        self._store(k, list(rows))
        if len(rows) < self.page_size:           # windows stay aligned on page_size
            self.done = True

    def _store(self, k: int, rows: list) -> list:
        self._chunks[k] = rows
        while len(self._chunks) > self.max_chunks:
            old, _rows = self._chunks.popitem(last=False)
            if old == self._hot_k:
                self._hot_k, self._hot = -1, None
        self._hot_k, self._hot = k, rows
        return rows

    def _chunk(self, k: int) -> list:
        """Window k's rows: cached, or read (again) by its ids or from the cursor saved at its start."""
        if k == self._hot_k:
            return self._hot
        rows = self._chunks.get(k)
        if rows is None:
            first, want = k * self.page_size, min(self.page_size, self._n - k * self.page_size)
            ids = self._ids[first:first + want]
            if self._ordered:
                rows = queries.fetch_rows(self.db, self.spec, ids)
            else:
                rows = self._query(replace(self._starts[k])).rows[:want]
                self.refetches += 1
            if len(rows) < want or any(r[0] != i for r, i in zip(rows, ids)):
                # rows deleted since: their cells read empty until a reload
                have = {r[0]: r for r in rows}
                rows = [have.get(i) or (i,) + (None,) * len(self.columns) for i in ids]
            return self._store(k, list(rows))
        self._chunks.move_to_end(k)
        self._hot_k, self._hot = k, rows
        return rows

    def _row(self, i: int) -> tuple:
        k = i // self.page_size
        return self._chunk(k)[i - k * self.page_size]

    @property
    def total(self) -> int:
        self.ensure_loaded()
        return self._total or 0

    def set_filter(self, text: str) -> None:
        text = text.strip()
        if text == self.filter_text and self.loaded:
            return
        self.filter_text = text
        self.reload(recount_total=False)

    def canFetchMore(self, parent=QModelIndex()) -> bool:
        # a lazy model not yet loaded offers nothing (hidden views must not load it), nor does one
        # reading in the background (its next rows come from that read)
        return not parent.isValid() and self.loaded and not self.done and not self._fetching and not self.busy

    def fetchMore(self, parent=QModelIndex()) -> None:
        if parent.isValid() or self._fetching:
            return
        if not self.loaded:
            self.reload()
            return
        if self.done:
            return
        self._fetching = True   # views may ask again from inside the insert signals
        try:
            first = self._n
            start = replace(self.cursor)
            page = self._query(self.cursor)
            self.done = page.done
            if not page.rows:
                return
            self.beginInsertRows(QModelIndex(), first, first + len(page.rows) - 1)
            self._append(start, page.rows)
            self.endInsertRows()
        finally:
            self._fetching = False

    # --- Qt model ---------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self._n

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=_DISPLAY):
        role = int(role)
        if role in _ROLES and orientation == HORIZONTAL and 0 <= section < len(self.columns):
            col = self.columns[section]
            if role == _DISPLAY:
                return column_label(col.label)
            if role == _ALIGN:
                return _ALIGN_INT[col.align]
            if role == _USER:
                return col.key
        return None

    def data(self, index: QModelIndex, role=_DISPLAY):
        role = int(role)   # compared as plain ints (ui/kit/roles.py)
        if role not in _ROLES:
            return None
        r, c = index.row(), index.column()
        if not (0 <= r < self._n) or not (0 <= c < len(self.columns)):
            return None
        k = r // self.page_size
        row = (self._hot if k == self._hot_k else self._chunk(k))[r - k * self.page_size]
        col = self.columns[c]
        value = row[c + 1]
        if role == _DISPLAY:
            return format_value(col, value)
        if role == _ALIGN:
            return _ALIGN_INT[col.align]
        warranty = col.key == "warranty_end" and isinstance(value, dt.date)
        if role == _TOOLTIP:
            if warranty:
                state = self.warranty_state(value)
                if state == "expired":
                    return self.tr("Warranty expired %1 (%2 days ago)").replace("%1", value.isoformat()).replace(
                        "%2", str((self.today - value).days))
                if state == "ending":
                    return self.tr("Warranty ends %1, in %2 days (highlighted within %3 days)").replace(
                        "%1", value.isoformat()).replace("%2", str((value - self.today).days)).replace(
                        "%3", str(WARRANTY_WARN_DAYS))
            return format_value(col, value)
        if role == _DECORATION:
            if col.kind == "choice" and col.choices is not None and value:
                return QColor(col.choices.colour(value))
            return None
        if role in (_BACKGROUND, _FOREGROUND):
            state = self.warranty_state(value) if warranty else None
            if state is not None:
                return QBrush(QColor(WARRANTY_COLOURS[state][0 if role == _BACKGROUND else 1]))
            return None
        if role == _FONT:
            if warranty and self.warranty_state(value) == "expired":
                return _BOLD()
            return None
        if role == _USER:
            return row[0]
        return value          # _USER + 1: the raw value

    def warranty_state(self, end: dt.date) -> str | None:
        """'expired', 'ending' or None: app.domain.warranty decides, as of the model's today."""
        return warranty_state(end, self.today)

    def flags(self, index):
        if not index.isValid():
            return Qt.NoItemFlags
        return Qt.ItemIsEnabled | Qt.ItemIsSelectable

    def sort(self, column: int, order=Qt.AscendingOrder) -> None:
        if not (0 <= column < len(self.columns)) or not self.columns[column].sortable:
            return
        key, desc = self.sort_key_of(column), order == Qt.DescendingOrder
        if not self.loaded:          # a lazy model: the sort applies when it loads
            self.sort_key, self.sort_desc = key, desc
            return
        if (key, desc) == (self.sort_key, self.sort_desc) and self._n:
            return
        self.sort_key, self.sort_desc = key, desc
        self.reload(recount_total=False)

    # --- helpers ----------------------------------------------------------------
    def id_at(self, row: int):
        self.ensure_loaded()
        return self._ids[row] if 0 <= row < self._n else None

    def row_of(self, id_) -> int:
        """The row of `id_` among the fetched rows (evicted windows included), or -1."""
        self.ensure_loaded()
        try:
            return self._ids.index(id_)
        except (ValueError, TypeError, OverflowError):
            return -1

    def value(self, row: int, key: str):
        self.ensure_loaded()
        return self._row(row)[self.spec.keys().index(key) + 1]

    def sort_column(self) -> int:
        return self.spec.keys().index(self.sort_key.partition("@")[0])

    def sort_key_of(self, column: int) -> str:
        """A choice column sorts by its labels as the reader sees them (collated in the console's
        language), so 已退役 and Retired each fall where they read; others by their value."""
        col = self.columns[column]
        if col.kind != "choice" or col.choices is None:
            return col.key
        from PySide6.QtCore import QCollator, QLocale
        collator = QCollator(QLocale())
        values = sorted(col.choices.values(), key=lambda v: collator.sortKey(choice_label(col.choices, v)))
        return queries_sort_key(col.key, values)

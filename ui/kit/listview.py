"""A list page: filter box (debounced), count label, table, and the actions of its entity."""
from __future__ import annotations

import csv
import json
import logging

from PySide6.QtCore import QEvent, QLocale, QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QApplication, QComboBox, QFileDialog, QHBoxLayout,
                               QInputDialog, QLabel, QLineEdit, QMenu, QMessageBox,
                               QPushButton, QToolBar, QVBoxLayout, QWidget)

from app.read import list_filters

from app.read import queries
from app.domain.actor import Actor
from app.domain.auth import can
from app.store.db import Database
from app.services.registry import RETIRABLE, retire_record

from ui.kit.history import HistoryDialog, has_history
from ui.kit.dialogs import why_not_text
from ui.kit.formfields import FORMS, PERMISSION
from ui.kit.forms import TransitionDialog, open_form
from ui.shell.i18n import choice_label, column_label
from ui.shell.operations import Cancelled, Debouncer, listen, run_op
from ui.kit.tables import PagedTableModel
from ui.kit.listexport import export_rows
from ui.kit.listfilters import STATUS_KEYS, ChoiceFilterDialog
from ui.kit.tableview import PagedTableView

log = logging.getLogger(__name__)

FILTER_DEBOUNCE_MS = 250


class ListPage(QWidget):
    openRecord = Signal(str, object)

    def __init__(self, db: Database, actor: Actor, kind: str, parent=None):
        super().__init__(parent)
        self.db, self.actor, self.kind = db, actor, kind
        self.spec = queries.SPECS[kind]
        self.setObjectName(f"page_{kind}")
        # lazy: the first window, the total and the count are read when the page is first shown
        # (or a record in it is asked for), so a console with ten lists starts with one
        self.model = PagedTableModel(db, self.spec, self, lazy=True)
        self.view = PagedTableView(self.model, self)
        self.view.doubleClicked.connect(lambda idx: self.open_current())
        self.view.openRequested.connect(self.open_current)     # Enter on a row, as a double-click
        self._make_filter_bar()
        self.empty_label = QLabel()
        self.empty_label.setObjectName("emptyState")
        self.empty_label.setAlignment(Qt.AlignCenter)
        self.empty_label.setStyleSheet("color: #757575; font-size: 11pt; padding: 24px;")
        self.empty_label.setWordWrap(True)
        self.empty_label.hide()
        self.count_label = QLabel()
        self.count_label.setObjectName("countLabel")
        self.model.countsChanged.connect(self.show_counts)
        self.model.busyChanged.connect(self.show_busy)
        self.model.loadFailed.connect(self.show_load_failed)
        self.model.reloaded.connect(self._after_reload)
        self._reselect = None
        self.toolbar = QToolBar()
        self.toolbar.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.actions_: dict[str, QAction] = {}
        self._build_actions()
        self._lay_out()
        self.view.filterRequested.connect(self.ask_column_filter)
        self.view.setContextMenuPolicy(Qt.CustomContextMenu)
        self.view.customContextMenuRequested.connect(lambda pos: self.row_menu().exec(
            self.view.viewport().mapToGlobal(pos)))
        self.model.reloaded.connect(self.show_empty_state)
        self.restore_filters()
        if self.model.loaded:
            self.show_counts(self.model.filtered_count, self.model.total)
        self.view.selectionModel().selectionChanged.connect(self.update_actions)
        self.update_actions()
        listen(self, self.on_changed)

    def _make_filter_bar(self) -> None:
        """The filter box (debounced), the status filter of a list with a status column, the column filters' chips."""
        self.filter = QLineEdit()
        self.filter.setObjectName("filter")
        self.filter.setClearButtonEnabled(True)
        self.filter.setPlaceholderText(self.tr("Filter (Ctrl+F): code, name, serial, customer…"))
        self.extra_filter = None        # () -> str, see filter_text()
        self.extra_row_actions: list[tuple] = []   # (object name, text, slot) added to the row menu
        self.debounce = Debouncer(FILTER_DEBOUNCE_MS, self.apply_filter, self)
        self.filter.textChanged.connect(self.debounce.poke)
        self.filter.returnPressed.connect(self.apply_filter)
        self.column_filters: dict[str, str] = {}      # column key -> value (app.read.list_filters)
        self.status_key = next((c.key for c in self.spec.columns if c.kind == "choice"
                                and c.key in STATUS_KEYS), None)
        self.status_filter = None
        if self.status_key is not None:
            self.status_filter = QComboBox()
            self.status_filter.setObjectName("statusFilter")
            col = self.spec.column(self.status_key)
            self.status_filter.addItem(self.tr("%1: all").replace("%1", column_label(col.label)), None)
            for value in col.choices.values():
                self.status_filter.addItem(choice_label(col.choices, value), value)
            self.status_filter.activated.connect(self._status_chosen)
        self.filters_label = QLabel()
        self.filters_label.setObjectName("columnFilters")
        self.filters_label.setWordWrap(True)
        self.clear_filters_button = QPushButton(self.tr("Clear filters"))
        self.clear_filters_button.setObjectName("clearFilters")
        self.clear_filters_button.clicked.connect(self.clear_filters)

    def _lay_out(self) -> None:
        """Toolbar, status filter, filter box and count on top; the chips; the empty state or the table."""
        top = QHBoxLayout()
        top.addWidget(self.toolbar)
        top.addStretch(1)
        if self.status_filter is not None:
            top.addWidget(self.status_filter)
        top.addWidget(self.filter, 2)
        top.addWidget(self.count_label)
        chips = QHBoxLayout()
        chips.addWidget(self.filters_label, 1)
        chips.addWidget(self.clear_filters_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addLayout(chips)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.view)

    # --- actions ----------------------------------------------------------------
    def _action(self, key: str, text: str, slot, permission: str | None = None) -> QAction:
        act = QAction(text, self)
        act.setObjectName(f"act_{key}")
        act.triggered.connect(slot)
        act.setData(permission)
        self.toolbar.addAction(act)
        self.actions_[key] = act
        return act

    def _build_actions(self) -> None:
        perm = PERMISSION.get(self.kind)
        editable = self.kind in FORMS
        if editable:
            self._action("new", self.tr("New"), self.new_record, perm)
            self._action("open", self.tr("Open"), self.open_current, None)
        if self.kind in RETIRABLE:
            self._action("retire", self.tr("Retire"), self.retire_selected, perm)
        if self.kind == "gpu":
            self._action("move", self.tr("Lifecycle move…"), self.lifecycle_move, "manage_gpus")
        self._action("export", self.tr("Export…"), self.export, "export")
        if self.kind in IMPORT_KINDS:
            self._action("import", self.tr("Import…"), self.import_file, "import")
        self._action("refresh", self.tr("Refresh"), self.refresh, None)

    def update_actions(self, *_):
        has_sel = bool(self.view.selectionModel().selectedRows())
        for key, act in self.actions_.items():
            perm = act.data()
            reason = why_not_text(self.actor, perm) if perm else None
            needs_sel = key in ("open", "retire", "move", "ticket")
            act.setEnabled(reason is None and (has_sel or not needs_sel))
            act.setToolTip(reason or act.text())
        if "open" in self.actions_:
            self.actions_["open"].setEnabled(has_sel)

    def can_do(self, key: str) -> bool:
        act = self.actions_.get(key)
        return act is not None and act.isEnabled()

    # --- data -------------------------------------------------------------------
    def show_counts(self, filtered: int, total: int) -> None:
        loc = QLocale(QLocale.English)
        if self.model.filter_text and filtered < 0:      # rows shown, the count still running
            text = self.tr("%1+ of %2, counting…").replace("%1", loc.toString(self.model.rowCount())).replace(
                "%2", loc.toString(total))
        elif self.model.filter_text:
            text = self.tr("%1 of %2").replace("%1", loc.toString(filtered)).replace("%2", loc.toString(total))
        else:
            text = self.tr("%1 rows").replace("%1", loc.toString(total))
        self.count_label.setText(text)

    def show_busy(self, busy: bool) -> None:
        """A big list being sorted in the background: its rows stay until the new order is in."""
        if busy:
            text = self.tr("Filtering %1 rows…") if self.model.filter_text else self.tr("Sorting %1 rows…")
            self.count_label.setText(text.replace("%1", QLocale(QLocale.English).toString(self.model.total)))
            self.view.setCursor(Qt.BusyCursor)
        else:
            self.view.unsetCursor()

    def show_load_failed(self, message: str) -> None:
        """The rows shown stay; the header shows their sort again (the model went back to it)."""
        self._reselect = None
        header = self.view.horizontalHeader()
        header.blockSignals(True)
        header.setSortIndicator(self.model.sort_column(), Qt.DescendingOrder if self.model.sort_desc else Qt.AscendingOrder)
        header.blockSignals(False)
        self.count_label.setText(self.tr("Could not read the list: %1").replace("%1", message))

    def _select(self, id_) -> bool:
        """Select a record now, or, while a background read is pending, once its rows are in."""
        if self.model.busy:
            self._reselect = id_
            return True
        return self.view.select_id(id_)

    def _after_reload(self) -> None:
        keep, self._reselect = self._reselect, None
        shown, self._shown_params = getattr(self, "_shown_params", None), self.model._params
        if keep is not None:
            self.view.select_id(keep)
        elif shown != self.model._params:   # another filter or sort: from its first row
            self.view.scrollToTop()
        self.update_actions()

    def apply_filter(self) -> None:
        self.debounce.timer.stop()
        self.model.set_filter(self.filter_text())
        self.update_actions()
        self.show_filters()
        self.save_filters()

    # --- column filters, the status filter, remembered per page ------------------------
    def set_column_filter(self, key: str, value: str | None) -> None:
        if value:
            self.column_filters[key] = value
        else:
            self.column_filters.pop(key, None)
        if key == self.status_key and self.status_filter is not None:
            self.status_filter.setCurrentIndex(max(0, self.status_filter.findData(value)) if value and
                                               "," not in value else 0)
        self.apply_filter()

    def clear_filters(self) -> None:
        self.column_filters.clear()
        if self.status_filter is not None:
            self.status_filter.setCurrentIndex(0)
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.blockSignals(False)
        self.apply_filter()

    def _status_chosen(self, _index: int) -> None:
        self.set_column_filter(self.status_key, self.status_filter.currentData())

    def value_text(self, key: str, value: str) -> str:
        col = self.spec.column(key)
        if col.kind == "choice" and col.choices is not None:
            return " / ".join(choice_label(col.choices, v) for v in value.split(","))
        return value

    def show_filters(self) -> None:
        parts = [f"{column_label(self.spec.column(k).label)}: {self.value_text(k, v)}"
                 for k, v in self.column_filters.items()]
        self.filters_label.setText(self.tr("Filtered by %1").replace("%1", "; ".join(parts)) if parts else "")
        self.filters_label.setVisible(bool(parts))
        self.clear_filters_button.setVisible(bool(parts) or bool(self.filter.text().strip()))

    def save_filters(self) -> None:
        from ui.shell.settings import FILTER_PREFIX, settings
        settings().set(FILTER_PREFIX + self.kind, json.dumps({"columns": self.column_filters,
                                                              "text": self.filter.text().strip()},
                                                             ensure_ascii=False))

    def restore_filters(self) -> None:
        """The page's filters as the user left them (this computer's settings, not the database)."""
        from ui.shell.settings import FILTER_PREFIX, settings
        try:
            saved = json.loads(settings().get(FILTER_PREFIX + self.kind) or "{}")
        except ValueError:
            log.warning("the saved filters of the %s list could not be read: none restored", self.kind, exc_info=True)
            saved = {}
        keys = set(self.spec.keys())
        self.column_filters = {k: str(v) for k, v in (saved.get("columns") or {}).items() if k in keys and v}
        self.filter.blockSignals(True)
        self.filter.setText(str(saved.get("text") or ""))
        self.filter.blockSignals(False)
        if self.status_filter is not None:
            value = self.column_filters.get(self.status_key)
            self.status_filter.setCurrentIndex(max(0, self.status_filter.findData(value)) if value else 0)
        if self.column_filters or self.filter.text():
            self.model.filter_text = self.filter_text()   # a lazy model reads it when first shown
            if self.model.loaded:
                self.model.reload(recount_total=False)
        self.show_filters()

    def ask_column_filter(self, column: int):
        """A column's filter: the labels to keep for a choice column, else the text it contains."""
        col = self.model.columns[column]
        name = column_label(col.label)
        current = self.column_filters.get(col.key, "")
        if col.kind == "choice" and col.choices is not None:
            dlg = ChoiceFilterDialog(name, col.choices, current.split(",") if current else [], self)
            self.choice_dialog = dlg
            if not dlg.exec():
                return
            chosen = dlg.values()
            self.set_column_filter(col.key, ",".join(chosen) if chosen and len(chosen) < len(col.choices.values())
                                   else None)
            return
        text, ok = QInputDialog.getText(self, self.tr("Filter by %1").replace("%1", name),
                                        self.tr("%1 contains (empty: no filter):").replace("%1", name), text=current)
        if ok:
            self.set_column_filter(col.key, text.strip() or None)

    def show_empty_state(self) -> None:
        empty = self.model.rowCount() == 0
        if empty:
            filtered = bool(self.model.filter_text)
            self.empty_label.setText(self.tr("No records match these filters. Clear or change them to see more.")
                                     if filtered else self.tr("Nothing here yet."))
        self.empty_label.setVisible(empty)

    # --- a row's menu ---------------------------------------------------------------
    def row_menu(self) -> QMenu:
        menu = QMenu(self)
        menu.setObjectName("rowMenu")
        ids = self.view.selected_ids()
        one = len(ids) == 1

        def add(name, text, slot, enabled=True):
            act = menu.addAction(text)
            act.setObjectName(name)
            act.setEnabled(enabled)
            act.triggered.connect(slot)
            return act
        add("menuOpen", self.tr("Open"), self.open_current, one)
        if has_history(self.kind):
            add("menuHistory", self.tr("History…"), self.show_history, one)
        add("menuCopy", self.tr("Copy"), self.copy_selection, bool(ids))
        add("menuExportSelection", self.tr("Export selection…"), lambda: self.export_selection(), bool(ids)
            and self.can_do("export"))
        for name, text, slot in self.extra_row_actions:   # a page's own row actions (e.g. open a ticket)
            add(name, text, slot, one)
        return menu

    def visible_columns(self) -> list[int]:
        header = self.view.horizontalHeader()
        return [i for i in sorted(range(self.model.columnCount()), key=header.visualIndex)
                if not self.view.isColumnHidden(i)]

    def selection_rows(self) -> list[list[str]]:
        """The selected rows' visible cells as shown, header first."""
        cols = self.visible_columns()
        rows = [[column_label(self.model.columns[c].label) for c in cols]]
        for r in sorted({i.row() for i in self.view.selectionModel().selectedRows()}):
            rows.append([self.model.data(self.model.index(r, c)) or "" for c in cols])
        return rows

    def copy_selection(self) -> str:
        text = "\n".join("\t".join(row) for row in self.selection_rows())
        QApplication.clipboard().setText(text)
        return text

    def export_selection(self, path: str | None = None) -> int:
        if not self.can_do("export"):
            return 0
        if not path:
            path, _f = QFileDialog.getSaveFileName(self, self.tr("Export selection"), f"{self.kind}-selection.csv",
                                                   self.tr("CSV (*.csv)"))
            if not path:
                return 0
        from app.importexport import neutralise_cell
        rows = self.selection_rows()
        with open(path, "w", newline="", encoding="utf-8-sig") as f:
            csv.writer(f).writerows([rows[0]] + [[neutralise_cell(v) for v in row] for row in rows[1:]])
        return len(rows) - 1

    def show_history(self):
        id_ = self.view.current_id()
        if id_ is None:
            return None
        row = self.model.row_of(id_)
        title = str(self.model.data(self.model.index(row, 0))) if row >= 0 else f"#{id_}"
        dlg = HistoryDialog(self.db, self.kind, id_, title, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        self.history_dialog = dlg
        dlg.open()
        return dlg

    def filter_text(self) -> str:
        """The model's filter: the box's text, after what `extra_filter()` adds (the audit page's
        filter bar, as app.audit.query filter tokens)."""
        extra = self.extra_filter() if self.extra_filter is not None else ""
        own = list_filters.filter_text(self.column_filters, self.filter.text().strip())
        return " ".join(t for t in (extra, own) if t)

    def refresh(self) -> None:
        self._reselect = self.view.current_id()
        self.model.reload()        # `reloaded` selects the same record again (at once, or when read)

    def on_changed(self, kinds) -> None:
        if "*" in kinds or "*" in self.spec.watches or kinds & (self.spec.watches | {self.kind}):
            if not self.model.loaded:
                return          # read fresh when first shown
            if self.isVisible():
                self.refresh()
            else:               # refreshed when shown: a change costs one query, not one per list
                self.stale = True

    def showEvent(self, event) -> None:
        if not self.model.loaded:
            self.stale = False
            self.model.ensure_loaded()
        elif getattr(self, "stale", False):
            self.stale = False
            self.refresh()
        super().showEvent(event)

    def focus_filter(self) -> None:
        self.filter.setFocus()
        self.filter.selectAll()

    def select_record(self, id_) -> bool:
        if self._select(id_):
            return True
        # not in the loaded windows: clear the filters (the box and the columns') and try again
        self.filter.blockSignals(True)
        self.filter.clear()
        self.filter.blockSignals(False)
        self.column_filters.clear()
        if self.status_filter is not None:
            self.status_filter.setCurrentIndex(0)
        self.show_filters()
        self.save_filters()
        self.model.set_filter("")
        return self._select(id_)

    # --- records ----------------------------------------------------------------
    def new_record(self) -> None:
        if not self.can_do("new"):
            return
        dlg = open_form(self.db, self.actor, self.kind, None, self)
        if dlg.exec():
            self._select(dlg.saved_id)

    def open_current(self) -> None:
        id_ = self.view.current_id()
        if id_ is None:
            return
        self.open_id(id_)

    def open_id(self, id_) -> None:
        if self.kind not in FORMS:
            self.openRecord.emit(self.kind, id_)
            return
        perm = PERMISSION.get(self.kind)
        dlg = open_form(self.db, self.actor, self.kind, id_, self, read_only=bool(perm and not can(self.actor, perm)))
        dlg.exec()

    def retire_selected(self) -> None:
        if not self.can_do("retire"):
            return
        ids = self.view.selected_ids()
        if not ids:
            return
        reason, ok = QInputDialog.getText(
            self, self.tr("Retire"),
            self.tr("Retire %1 selected record(s)? This is recorded in the audit trail.\nReason:")
            .replace("%1", str(len(ids))))
        if not ok:
            return
        if not reason.strip():
            QMessageBox.information(self, self.tr("Retire"), self.tr("A reason is required."))
            return
        db, actor, kind = self.db, self.actor, self.kind

        def work(progress):
            for i, id_ in enumerate(ids):
                progress(i, len(ids))
                retire_record(db, actor, kind, id_, reason)
            return len(ids)
        run_op(self, work, label=self.tr("Retiring…"), changes={kind})

    def lifecycle_move(self) -> None:
        if not self.can_do("move"):
            return
        ids = self.view.selected_ids()
        if not ids:
            return
        states = queries.gpu_states(self.db, ids)
        dlg = TransitionDialog(list(states.values()), len(ids), self)
        if not dlg.exec():
            return
        to_state, reason = dlg.choice()
        self.run_moves(ids, to_state, reason)

    def run_moves(self, ids, to_state, reason):
        from app.services.gpus import transition_gpu, transition_gpus
        db, actor = self.db, self.actor

        def work(progress):
            if len(ids) == 1:
                transition_gpu(db, actor, ids[0], to_state, reason)
                return None
            cancelled = [False]

            def prog(done, total):
                try:
                    progress(done, total)
                except Cancelled:  # the person cancelled: the service stops between GPUs
                    cancelled[0] = True
            return transition_gpus(db, actor, ids, to_state, reason, progress=prog,
                                   cancelled=lambda: cancelled[0])

        def done(result):
            if result is not None and getattr(result, "refused", None):
                log.info("lifecycle move to %s: %s moved, %s refused: %s", to_state, result.moved, len(result.refused),
                         result.refused[:20])
                lines = "\n".join(f"#{i}: {m}" for i, m in result.refused[:20])
                QMessageBox.warning(self, self.tr("Some GPUs were not moved"),
                                    self.tr("%1 moved, %2 refused:").replace("%1", str(result.moved))
                                    .replace("%2", str(len(result.refused))) + "\n" + lines)
        return run_op(self, work, label=self.tr("Moving GPUs…"), changes={"gpu"}, on_success=done)

    def export(self, path: str | None = None):
        if not self.can_do("export"):
            return None
        if not path:
            from pathlib import Path
            from ui.shell.settings import settings
            folder = settings().get("last_save_dir")
            start = str(Path(folder) / f"{self.kind}.xlsx") if folder and Path(folder).is_dir() else f"{self.kind}.xlsx"
            path, _f = QFileDialog.getSaveFileName(self, self.tr("Export"), start,
                                                   self.tr("Excel (*.xlsx);;CSV (*.csv)"))
            if not path:
                return None
            settings().set("last_save_dir", str(Path(path).parent))
        header = self.view.horizontalHeader()
        order = sorted(range(self.model.columnCount()), key=header.visualIndex)
        keys = [self.model.columns[i].key for i in order if not self.view.isColumnHidden(i)]
        labels = [column_label(self.spec.column(k).label) for k in keys]
        db, spec = self.db, self.spec
        text, sort, desc = self.model.filter_text, self.model.sort_key, self.model.sort_desc
        return run_op(self, lambda progress: export_rows(db, spec, path, text=text, sort=sort, desc=desc,
                                                          keys=keys, labels=labels, progress=progress),
                      label=self.tr("Exporting…"))

    def import_file(self):
        if not self.can_do("import"):
            return
        from ui.kit.importdialog import ImportDialog
        dlg = ImportDialog(self.db, self.actor, IMPORT_KINDS[self.kind], self)
        dlg.exec()


# list kind -> importexport kind
IMPORT_KINDS = {"site": "sites", "rack": "racks", "device": "devices", "gpu": "gpus", "customer": "customers"}


class _FirstShowSizes(QObject):
    """On a splitter's first real show: the list gets the width its columns want, up to `share` of
    the splitter (at least `least`), the panel the rest; the list's text columns shrink to fit."""

    def __init__(self, splitter, page: "ListPage", index: int, share: float, least: float):
        super().__init__(splitter)
        self.splitter, self.page, self.index, self.share, self.least = splitter, page, index, share, least
        splitter.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if obj is self.splitter and event.type() in (QEvent.Show, QEvent.Resize) and self.splitter.isVisible() \
                and self.splitter.width() > 400:
            self.splitter.removeEventFilter(self)
            from PySide6.QtCore import QTimer
            QTimer.singleShot(0, self, self.apply)   # after the layout has sized it; not after it was deleted
        return False

    def apply(self) -> None:
        sp = self.splitter
        total = sum(sp.sizes()) or sp.width()
        view = self.page.view
        want = view.columns_width() + 12
        width = int(min(max(want, self.least * total), self.share * total))
        sizes = [0] * sp.count()
        sizes[self.index] = width
        others = [i for i in range(sp.count()) if i != self.index]
        for i in others:
            sizes[i] = (total - width) // len(others)
        sp.setSizes(sizes)
        if not view.has_saved_header():
            view.fit_columns(width - 12)


def size_list_in_splitter(splitter, page: "ListPage", index: int = 0, share: float = 0.6,
                          least: float = 0.4) -> None:
    _FirstShowSizes(splitter, page, index, share, least)

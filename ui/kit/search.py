"""Ctrl+K: the global search over racks, devices, GPUs, customers, contracts and statements."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout

from app.read import queries
from app.store.db import Database

from ui.shell.i18n import kind_label
from ui.shell.operations import Latest

# the page that lists each kind a search can find
SEARCH_PAGE = {"rack": "racks", "device": "devices", "gpu": "gpus", "customer": "customers",
               "contract": "contracts", "statement": "billing"}


class SearchDialog(QDialog):
    """Ctrl+K: type, pick, jump. The search runs on the thread pool (63-123 ms over 400,000 GPUs,
    100,000 devices and 20,000 contracts): typing never waits for it, an older search's results
    are dropped, and Enter before the results are in picks the first of them when they arrive."""

    chosen = Signal(str, object)

    def __init__(self, db: Database, parent=None):
        super().__init__(parent)
        self.db = db
        self.setObjectName("searchDialog")
        self.setWindowTitle(self.tr("Search"))
        self.edit = QLineEdit()
        self.edit.setObjectName("searchEdit")
        self.edit.setPlaceholderText(self.tr("Rack, device, GPU serial, customer, contract, statement…"))
        self.results = QListWidget()
        self.results.setObjectName("searchResults")
        layout = QVBoxLayout(self)
        layout.addWidget(self.edit)
        layout.addWidget(self.results)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.run)
        self.edit.textChanged.connect(lambda _t: self.timer.start())
        self.edit.returnPressed.connect(self.pick)
        self._latest = Latest(self)
        self.pending = False            # a search is running
        self._pick_when_done = False
        self.results.itemActivated.connect(lambda _i: self.pick())
        self.resize(560, 420)

    def keyPressEvent(self, e):
        if e.key() in (Qt.Key_Down, Qt.Key_Up) and self.edit.hasFocus():
            self.results.setFocus()
            row = self.results.currentRow() + (1 if e.key() == Qt.Key_Down else -1)
            self.results.setCurrentRow(max(0, min(row, self.results.count() - 1)))
            return
        super().keyPressEvent(e)

    def run(self) -> None:
        self.timer.stop()
        db, text = self.db, self.edit.text()
        self.pending = True
        self._latest.run(lambda _check: queries.search(db, text), self._show, self._failed)

    def _show(self, hits) -> None:
        self.pending = False
        self.results.clear()
        for hit in hits:
            item = QListWidgetItem(f"{kind_label(hit.kind)}  ·  {hit.label}    {hit.detail}")
            item.setData(Qt.UserRole, (hit.kind, hit.id))
            self.results.addItem(item)
        if self.results.count():
            self.results.setCurrentRow(0)
        if self._pick_when_done:
            self._pick_when_done = False
            self.pick()

    def _failed(self, exc: BaseException) -> None:
        self.pending = self._pick_when_done = False
        self.results.clear()
        self.results.addItem(self.tr("Search failed: %1").replace("%1", str(exc) or type(exc).__name__))

    def pick(self) -> None:
        if self.timer.isActive():
            self.run()
        if self.pending:                # Enter before the results: the first one, when they are in
            self._pick_when_done = True
            return
        item = self.results.currentItem()
        if item is None or item.data(Qt.UserRole) is None:
            return
        kind, id_ = item.data(Qt.UserRole)
        self.chosen.emit(kind, id_)
        self.accept()

"""Contracts: the list beside the selected contract (ui/pages/contracts/panel.py), New contract…
and Capacity search… on its toolbar."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QSplitter

from app.domain.actor import Actor
from app.store.db import Database

from ui.kit.listview import ListPage
from ui.pages.contracts.editor import ContractDialog
from ui.pages.contracts.panel import ContractPanel
from ui.shell.operations import listen


class ContractsPage(QSplitter):
    """The contract list beside the selected contract."""

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(Qt.Horizontal, parent)
        self.db, self.actor = db, actor
        self.setObjectName("page_contracts")
        self.list = ListPage(db, actor, "contract", self)
        self.list.new_record = self.new_contract          # Ctrl+N
        act = self.list._action("new", self.tr("New contract…"), self.new_contract, "draft_contracts")
        first = self.list.toolbar.actions()[0]
        self.list.toolbar.removeAction(act)
        self.list.toolbar.insertAction(first, act)
        cap = self.list._action("capacity", self.tr("Capacity search…"), self.capacity_search, "draft_contracts")
        cap.setShortcut(QKeySequence("Ctrl+Shift+F"))
        self.list.update_actions()
        self.list.openRecord.connect(lambda _k, id_: self.open_contract(id_))
        self.panel = ContractPanel(db, actor, self)
        self.panel.opened.connect(self.open_new)
        self.addWidget(self.list)
        self.addWidget(self.panel)
        self.setStretchFactor(0, 1)
        self.setStretchFactor(1, 1)
        self.setSizes([830, 440])
        from ui.kit.listview import size_list_in_splitter
        size_list_in_splitter(self, self.list, 0, share=0.58, least=0.45)
        self.list.view.selectionModel().selectionChanged.connect(lambda *_: self.follow())
        listen(self, self.on_changed)

    def open_contract(self, contract_id: int) -> None:
        """Enter or a double-click: the row's first click has already shown it; read it once, not twice."""
        if self.panel.info is None or self.panel.info.id != contract_id:
            self.panel.show_contract(contract_id)

    def follow(self) -> None:
        self.panel.show_contract(self.list.view.current_id())

    def on_changed(self, kinds) -> None:
        if self.panel.info is not None and ("*" in kinds or "contract" in kinds):
            self.panel.show_contract(self.panel.info.id)

    def new_contract(self) -> ContractDialog | None:
        if not self.list.can_do("new"):
            return None
        dlg = ContractDialog(self.db, self.actor, None, self)
        if dlg.exec() and dlg.saved is not None:
            self.open_new(dlg.saved.id)
        return dlg

    def capacity_search(self):
        """GPU capacity for a deal: search, hold, quote, draft contract (ui/pages/capacity.py)."""
        from ui.pages.capacity import open_capacity_dialog

        return open_capacity_dialog(self, self.db, self.actor, on_contract=self.open_new)

    def open_new(self, contract_id: int) -> None:
        self.list.refresh()
        self.list.select_record(contract_id)
        self.panel.show_contract(contract_id)

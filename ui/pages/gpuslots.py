"""A server's GPU slots as a grid: install a GPU from stock, remove it, move it to another slot.

Every action goes through app.services.gpus (permission, slot rules, audit); the grid only asks
and shows the refusal beside the buttons.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QButtonGroup, QComboBox, QGridLayout, QHBoxLayout, QLabel, QLineEdit,
                               QPushButton, QSizePolicy, QToolButton, QVBoxLayout, QWidget)

from app.read import queries
from app.domain.actor import Actor
from app.domain.auth import can
from app.store.db import Database
from app.domain.errors import Conflict, DomainError, ValidationError
from app.services import gpus as gpu_service
from models.choices import GpuState

from ui.shell.i18n import choice_label
from ui.shell.operations import apply
from ui.kit.dialogs import refused_text

COLUMNS = 4


class GpuSlotGrid(QWidget):
    changed = Signal()

    def __init__(self, db: Database, actor: Actor, device_id: int, parent=None):
        super().__init__(parent)
        self.setObjectName("gpuSlotGrid")
        self.db, self.actor, self.device_id = db, actor, device_id
        self.data: queries.GpuSlots | None = None
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.grid = QGridLayout()
        self.grid.setSpacing(6)
        layout.addLayout(self.grid)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.group.idClicked.connect(lambda _i: self._update_buttons())
        self.buttons: list[QToolButton] = []

        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("From stock")))
        self.stock = QComboBox()
        self.stock.setObjectName("stockGpu")
        self.stock.setMinimumContentsLength(24)
        self.stock.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        row.addWidget(self.stock, 1)
        self.install_btn = QPushButton(self.tr("Install into slot"))
        self.install_btn.setObjectName("installGpu")
        self.install_btn.clicked.connect(self.install)
        row.addWidget(self.install_btn)
        layout.addLayout(row)

        row = QHBoxLayout()
        self.remove_btn = QPushButton(self.tr("Remove to stock"))
        self.remove_btn.setObjectName("removeGpu")
        self.remove_btn.clicked.connect(self.remove)
        row.addWidget(self.remove_btn)
        row.addSpacing(12)
        row.addWidget(QLabel(self.tr("Move to slot")))
        self.target = QComboBox()
        self.target.setObjectName("targetSlot")
        row.addWidget(self.target)
        self.move_btn = QPushButton(self.tr("Move"))
        self.move_btn.setObjectName("moveGpu")
        self.move_btn.clicked.connect(self.move)
        row.addWidget(self.move_btn)
        row.addStretch(1)
        layout.addLayout(row)

        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Reason")))
        self.reason = QLineEdit()
        self.reason.setObjectName("slotReason")
        self.reason.setPlaceholderText(self.tr("goes into the audit trail"))
        row.addWidget(self.reason, 1)
        layout.addLayout(row)

        self.message = QLabel()
        self.message.setObjectName("slotMessage")
        self.message.setWordWrap(True)
        self.message.hide()
        layout.addWidget(self.message)
        layout.addStretch(1)
        self.may_edit = can(actor, "manage_gpus")
        self.reload()

    # --- data -----------------------------------------------------------------
    def reload(self, keep: int | None = None) -> None:
        self.data = queries.gpu_slots(self.db, self.device_id)
        for b in self.buttons:
            self.group.removeButton(b)
            b.deleteLater()
        self.buttons = []
        if self.data is None:
            self.heading.setText(self.tr("This device no longer exists."))
            self._update_buttons()
            return
        filled = sum(1 for s in self.data.slots if s.gpu_id)
        text = self.tr("%1 of %2 slots hold a GPU.").replace("%1", str(filled)).replace("%2", str(len(self.data.slots)))
        if self.data.gpu_model:
            text += " " + self.tr("This server takes %1 GPUs.").replace("%1", self.data.gpu_model)
        self.heading.setText(text)
        for i, s in enumerate(self.data.slots):
            b = QToolButton()
            b.setObjectName(f"slot_{s.slot}")
            b.setCheckable(True)
            b.setToolButtonStyle(Qt.ToolButtonTextOnly)
            b.setMinimumSize(132, 64)
            b.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Preferred)
            if s.gpu_id:
                b.setText(f"{self.tr('Slot %1').replace('%1', str(s.slot))}\n{s.serial}\n{choice_label(GpuState, s.state)}")
                colour = GpuState.colour(s.state)
                b.setStyleSheet(f"QToolButton {{ border: 1px solid #555; border-left: 8px solid {colour}; "
                                "border-radius: 3px; background: #fafafa; padding: 4px; }"
                                "QToolButton:checked { background: #bbdefb; border-color: #1565c0; }")
                b.setToolTip(f"{s.serial} · {s.model} · {choice_label(GpuState, s.state)}")
            else:
                b.setText(f"{self.tr('Slot %1').replace('%1', str(s.slot))}\n{self.tr('(empty)')}")
                b.setStyleSheet("QToolButton { border: 1px dashed #999; border-radius: 3px; background: #ffffff; "
                                "color: #666; padding: 4px; }"
                                "QToolButton:checked { background: #bbdefb; border: 1px solid #1565c0; }")
            self.group.addButton(b, s.slot)
            self.grid.addWidget(b, i // COLUMNS, i % COLUMNS)
            self.buttons.append(b)
        if keep is not None and self.group.button(keep) is not None:
            self.group.button(keep).setChecked(True)
        self.stock.clear()
        for gid, serial, model, state, version in queries.stock_gpus(self.db, self.device_id):
            self.stock.addItem(f"{serial} · {model} · {choice_label(GpuState, state)}", (gid, version))
        self._update_buttons()

    def selected(self) -> queries.GpuSlot | None:
        n = self.group.checkedId()
        if self.data is None or n < 1:
            return None
        return self.data.slots[n - 1]

    def select_slot(self, n: int) -> None:
        self.group.button(n).setChecked(True)
        self._update_buttons()

    def _update_buttons(self) -> None:
        s = self.selected()
        self.install_btn.setEnabled(self.may_edit and s is not None and s.gpu_id is None and self.stock.count() > 0)
        self.remove_btn.setEnabled(self.may_edit and s is not None and s.gpu_id is not None)
        self.target.clear()
        if s is not None and s.gpu_id is not None and self.data is not None:
            for o in self.data.slots:
                if o.gpu_id is None:
                    self.target.addItem(self.tr("Slot %1").replace("%1", str(o.slot)), o.slot)
        self.move_btn.setEnabled(self.may_edit and self.target.count() > 0)
        self.target.setEnabled(self.target.count() > 0)

    # --- actions (each one service call) --------------------------------------
    def _run(self, call, keep: int | None, done: str) -> bool:
        try:
            apply(call)
        except ValidationError as exc:
            self._show(refused_text(exc), error=True)
            return False
        except Conflict as exc:
            self._show(self.tr("Changed by someone else: %1 The slots were reloaded.").replace("%1", exc.message),
                       error=True)
            self.reload(keep)
            return False
        except DomainError as exc:
            self._show(refused_text(exc), error=True)
            return False
        self.reason.clear()
        self.reload(keep)
        self._show(done, error=False)
        self.changed.emit()
        return True

    def _reason(self) -> str | None:
        return self.reason.text().strip() or None

    def install(self) -> bool:
        s = self.selected()
        if s is None or self.stock.currentData() is None:
            return False
        gid, version = self.stock.currentData()
        serial = self.stock.currentText().split(" · ")[0]
        return self._run(lambda: gpu_service.install_gpu(self.db, self.actor, gid, self.device_id, s.slot,
                                                         self._reason(), version), s.slot,
                         self.tr("%1 installed into slot %2.").replace("%1", serial).replace("%2", str(s.slot)))

    def remove(self) -> bool:
        s = self.selected()
        if s is None or s.gpu_id is None:
            return False
        return self._run(lambda: gpu_service.install_gpu(self.db, self.actor, s.gpu_id, None, None,
                                                         self._reason(), s.version), s.slot,
                         self.tr("%1 removed from slot %2 to stock.").replace("%1", s.serial)
                         .replace("%2", str(s.slot)))

    def move(self) -> bool:
        s = self.selected()
        to = self.target.currentData()
        if s is None or s.gpu_id is None or to is None:
            return False
        return self._run(lambda: gpu_service.move_gpu_slot(self.db, self.actor, s.gpu_id, to, self._reason(),
                                                           s.version), to,
                         self.tr("%1 moved from slot %2 to slot %3.").replace("%1", s.serial)
                         .replace("%2", str(s.slot)).replace("%3", str(to)))

    def _show(self, text: str, error: bool) -> None:
        self.message.setStyleSheet("color: #c62828;" if error else "color: #2e7d32;")
        self.message.setText(text)
        self.message.show()

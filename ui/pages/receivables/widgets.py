"""The pieces the receivables tabs share: small tables, fields, and a form section that shows its refusal."""
from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (QComboBox, QFormLayout, QGroupBox, QLabel, QLineEdit, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import DomainError
from app.domain.money import format_amount

from ui.kit.dialogs import error_label, guard, refused_text
from ui.shell.i18n import choice_label
from ui.shell.operations import apply
from ui.widgets.plain_table import plain_table

log = logging.getLogger(__name__)


def _table(headers: list[str], name: str) -> QTableWidget:
    return plain_table(headers, name, single=True, fit=True)


def _fill(t: QTableWidget, rows: list[list]) -> None:
    from decimal import Decimal
    t.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for c, v in enumerate(cells):
            text = format_amount(v) if isinstance(v, Decimal) else ("" if v is None else str(v))
            item = QTableWidgetItem(text)
            if isinstance(v, Decimal):
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            t.setItem(r, c, item)


def _edit(name: str, placeholder: str = "", text: str = "") -> QLineEdit:
    e = QLineEdit(text)
    e.setObjectName(name)
    e.setPlaceholderText(placeholder)
    return e


def _lang(widget: QWidget) -> str:
    """The language the console shows (a translated word tells), for the reports it writes."""
    return "en" if QCoreApplication.translate("ReceivablesTabs", "&Payments") == "&Payments" else "zh"


def _choice(name: str, choices, values=None) -> QComboBox:
    box = QComboBox()
    box.setObjectName(name)
    for v in values or choices.values():
        box.addItem(choice_label(choices, v), v)
    return box


class _Section(QWidget):
    """A tab: forms with their buttons and error lines, a table below. Subclasses fill `reload`."""

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.v = QVBoxLayout(self)
        self.errors: dict[str, QLabel] = {}
        self.buttons: dict[str, QPushButton] = {}

    def form(self, key: str, title: str, fields: list[tuple[str, QWidget]], button: str, slot,
             permission: str = "run_billing") -> QGroupBox:
        box = QGroupBox(title)
        box.setObjectName(f"form_{key}")
        f = QFormLayout(box)
        for label, w in fields:
            f.addRow(label, w)
            if isinstance(w, QLineEdit):
                w.returnPressed.connect(lambda k=key: self.buttons[k].click())
        b = QPushButton(button)
        b.setObjectName(f"button_{key}")
        b.clicked.connect(lambda *_: self.attempt(key, slot))
        guard(b, self.actor, permission)
        self.buttons[key] = b
        err = error_label(f"error_{key}")
        self.errors[key] = err
        f.addRow(b)
        f.addRow(err)
        return box

    def attempt(self, key: str, slot) -> bool:
        """Run a form's action: its refusal in red under the form, or a reload when done."""
        err = self.errors[key]
        err.hide()
        err.setStyleSheet("color: #c62828;")
        try:
            message = apply(slot)
        except DomainError as exc:  # the service's refusal, shown under the form
            err.setText(refused_text(exc))
            err.show()
            return False
        except Exception as exc:  # any other failure is shown too, and logged with its traceback
            log.exception("a receivables form failed")
            err.setText(refused_text(exc, logged=True))
            err.show()
            return False
        if message:
            err.setStyleSheet("color: #2e7d32;")
            err.setText(message)
            err.show()
        self.reload()
        return True

    def reload(self) -> None:  # pragma: no cover - overridden
        pass

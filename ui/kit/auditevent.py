"""One audit event in full (the dialog the audit page, a record's History tab and the lists open) and
the action and object codes by name in the reader's language (app.audit.query holds the words)."""
from __future__ import annotations

import json

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QDialogButtonBox, QFormLayout, QLabel, QTableWidget,
                               QTableWidgetItem, QVBoxLayout)

from app.audit import query as audit_query
from app.audit.query import EventDetail, field_choices
from models.choices import Outcome, Role

from ui.shell.i18n import choice_label, ui_language

def object_name(object_type: str | None) -> str:
    """An object type by name in the console's language (app.audit.query holds the words)."""
    return audit_query.object_name(object_type, ui_language())


def action_name(action: str, object_type: str | None = None) -> str:
    """An action by name: statement.issue -> Issue statement / 开具账单; the code when unknown."""
    return audit_query.action_name(action, object_type, ui_language())


def named(code: str, name: str) -> str:
    return code if name == code else f"{name}  ({code})"


def _value_text(value, choices=None) -> str:
    """A recorded value; a choice's code by its name in the reader's language, the code beside it."""
    if value is None:
        return "—"
    if isinstance(value, str):
        if choices is not None and value in choices.values():
            return named(value, choice_label(choices, value))
        return value
    return json.dumps(value, ensure_ascii=False)


class AuditEventDialog(QDialog):
    """One event in full: who, where, what, why, the outcome, every changed field's before and
    after, and the event's place in the chain (its hash and the previous one)."""

    openObject = Signal(str, str)     # object type, object id

    def __init__(self, ev: EventDetail, parent=None):
        super().__init__(parent)
        self.detail = ev
        self.setObjectName("auditEventDialog")
        self.setWindowTitle(self.tr("Audit event %1").replace("%1", str(ev.seq)))
        layout = QVBoxLayout(self)
        form = QFormLayout()
        layout.addLayout(form)
        mono = QFontDatabase.systemFont(QFontDatabase.FixedFont)
        self.fields: dict[str, QLabel] = {}

        def add(key, label, text, fixed=False):
            lbl = QLabel(text)
            lbl.setObjectName(f"event_{key}")
            lbl.setTextInteractionFlags(Qt.TextSelectableByMouse)
            lbl.setWordWrap(not fixed)
            if fixed:
                lbl.setFont(mono)
            form.addRow(label, lbl)
            self.fields[key] = lbl
        outcome = choice_label(Outcome, ev.outcome)
        add("seq", self.tr("No."), str(ev.seq))
        add("time", self.tr("Time"), f"{ev.local_time} (Asia/Shanghai)")
        add("actor", self.tr("User"), f"{ev.actor_name} ({ev.actor_login}, {choice_label(Role, ev.actor_role)})")
        add("action", self.tr("Action"), named(ev.action, action_name(ev.action, ev.object_type)))
        obj = " · ".join(x for x in (named(ev.object_type, object_name(ev.object_type)), ev.object_id or "",
                                     ev.object_label or "") if x)
        add("object", self.tr("Object"), obj)
        add("outcome", self.tr("Outcome"), outcome)
        add("reason", self.tr("Reason"), ev.reason or "—")
        add("host", self.tr("Host"), ev.host)
        add("app_version", self.tr("App version"), ev.app_version)
        add("request_id", self.tr("Request id"), ev.request_id, fixed=True)
        add("hash", self.tr("Hash"), ev.hash, fixed=True)
        add("prev_hash", self.tr("Previous hash"), ev.prev_hash, fixed=True)
        if ev.outcome != Outcome.SUCCESS:
            self.fields["outcome"].setStyleSheet("color: #c62828; font-weight: bold;")
        self.changes = QTableWidget(len(ev.changes), 3)
        self.changes.setObjectName("eventChanges")
        self.changes.setHorizontalHeaderLabels([self.tr("Field"), self.tr("Before"), self.tr("After")])
        self.changes.verticalHeader().setVisible(False)
        self.changes.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.changes.setWordWrap(True)
        for r, ch in enumerate(ev.changes):
            choices = field_choices(ev.object_type, ch.field)
            for c, text in enumerate((ch.field, _value_text(ch.before, choices), _value_text(ch.after, choices))):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.changes.setItem(r, c, item)
        self.changes.resizeColumnToContents(0)
        self.changes.horizontalHeader().setStretchLastSection(True)
        self.changes.setColumnWidth(1, 260)
        caption = QLabel(self.tr("Changed fields: %1").replace("%1", str(len(ev.changes))) if ev.changes
                         else self.tr("No field values recorded with this event."))
        caption.setObjectName("changesCaption")
        layout.addWidget(caption)
        layout.addWidget(self.changes, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.Close)
        buttons.button(QDialogButtonBox.Close).setText(self.tr("Close"))
        buttons.rejected.connect(self.reject)
        self.open_button = None
        if ev.object_id and ev.object_type in OPENABLE:
            self.open_button = buttons.addButton(self.tr("Open %1").replace("%1", object_name(ev.object_type)),
                                                 QDialogButtonBox.ActionRole)
            self.open_button.setObjectName("openObject")
            self.open_button.clicked.connect(lambda: (self.openObject.emit(ev.object_type, ev.object_id),
                                                      self.accept()))
        layout.addWidget(buttons)
        self.resize(760, 620)


# object types whose record the main window can show (its search targets)
OPENABLE = frozenset({"rack", "device", "gpu", "customer", "contract", "statement"})

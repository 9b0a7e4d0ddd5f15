"""Detail dialogs: one form per entity, declared as data (ui/kit/formfields.py), saving through the services.

Validation errors appear beside their field (ValidationError.errors maps field -> message);
any other refusal is shown above the buttons and the input stays; a Conflict offers reload.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal, InvalidOperation

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QHBoxLayout, QLabel, QLineEdit, QMessageBox, QPlainTextEdit, QPushButton, QTabWidget, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from app.read import queries
from app.domain.actor import Actor
from app.store.db import Database
from app.domain.errors import Conflict, DomainError, ValidationError
from models.choices import GpuState

from ui.kit.formfields import FORMS, Field, save_record
from ui.kit.history import HistoryView, has_history
from ui.kit.dialogs import OptionalDateEdit, date_edit, field_box, log_failure, options_combo, refused_text
from ui.shell.i18n import choice_label
from ui.shell.messages import translate_message
from ui.shell.operations import apply


TR_CONTEXT = "forms"


def tr(text: str) -> str:
    return QCoreApplication.translate(TR_CONTEXT, text)


class FormDialog(QDialog):
    def __init__(self, db: Database, actor: Actor, kind: str, id_=None, parent=None, read_only: bool = False):
        super().__init__(parent)
        self.db, self.actor, self.kind, self.id = db, actor, kind, id_
        self.setObjectName(f"form_{kind}")
        self.fields = FORMS[kind]
        self.editors: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        self.version: int | None = None
        self.saved_id = None
        from ui.shell.i18n import kind_label
        self.setWindowTitle((self.tr("New %1") if id_ is None else self.tr("Edit %1")).replace("%1", kind_label(kind)))
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs)
        page = QWidget()
        form = QFormLayout(page)
        form.setFieldGrowthPolicy(QFormLayout.ExpandingFieldsGrow)
        for f in self.fields:
            editor = self._editor(f)
            if f.on_create_only and id_ is not None:
                editor.setEnabled(False)
            self.editors[f.key] = editor
            err = QLabel()
            err.setObjectName(f"error_{f.key}")
            err.setStyleSheet("color: #c62828;")
            err.setWordWrap(True)
            err.hide()
            self.errors[f.key] = err
            self._clear_when_edited(editor, err)
            label = tr(f.label) + (" *" if f.required else "")
            form.addRow(label, field_box(editor, err))
        self.tabs.addTab(page, self.tr("Details"))
        self.message = QLabel()
        self.message.setObjectName("formMessage")
        self.message.setStyleSheet("color: #c62828;")
        self.message.setWordWrap(True)
        self.message.hide()
        layout.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Save).setText(self.tr("Save"))
        self.buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        if id_ is not None:
            self.load()
        if read_only:
            for e in self.editors.values():
                e.setEnabled(False)
            self.buttons.button(QDialogButtonBox.Save).setEnabled(False)
        self.resize(520, self.sizeHint().height())

    def add_history(self) -> None:
        """The record's History tab (its audit events), last; read when first shown."""
        self.history_view = None
        if self.id is None or not has_history(self.kind):
            return
        self.history_view = HistoryView(self.db, self.kind, self.id, self)
        index = self.tabs.addTab(self.history_view, self.tr("History"))
        self.history_view.loaded.connect(
            lambda n: self.tabs.setTabText(index, self.tr("History (%1)").replace("%1", str(n))))

    @staticmethod
    def _clear_when_edited(editor: QWidget, err: QLabel) -> None:
        """A field's message goes as soon as the field is changed; the save checks it again."""
        if isinstance(editor, QComboBox):
            editor.currentIndexChanged.connect(err.hide)
            editor.editTextChanged.connect(err.hide)
        elif isinstance(editor, QCheckBox):
            editor.toggled.connect(err.hide)
        elif isinstance(editor, OptionalDateEdit):
            editor.dateChanged.connect(err.hide)
        elif isinstance(editor, (QLineEdit, QPlainTextEdit)):
            editor.textChanged.connect(err.hide)

    def _editor(self, f: Field) -> QWidget:
        if f.kind in ("choice", "option"):
            none = self.tr("(none)") if f.optional else None
            if f.kind == "choice":
                w = QComboBox()
                if none is not None:
                    w.addItem(none, None)
                for v in f.choices.values():
                    w.addItem(choice_label(f.choices, v), v)
            else:
                w = options_combo(self.db, f.option, none)
            w.setObjectName(f"edit_{f.key}")
            return w
        if f.kind == "bool":
            w = QCheckBox()
            w.setChecked(True)
        elif f.kind == "date":
            w = date_edit(optional=True, default=self._date_default(f.key))
        elif f.kind == "memo":
            w = QPlainTextEdit()
            w.setTabChangesFocus(True)
            w.setFixedHeight(70)
        else:
            w = QLineEdit()
            if f.kind == "password":
                w.setEchoMode(QLineEdit.Password)
                w.setPlaceholderText(self.tr("leave empty to keep") if self.id is not None else "")
        w.setObjectName(f"edit_{f.key}")
        return w

    # --- values ---------------------------------------------------------------
    def load(self) -> None:
        rec = queries.record(self.db, self.kind, self.id)
        if rec is None:
            self.show_message(self.tr("This record no longer exists."))
            return
        self.version = rec.get("version")
        for f in self.fields:
            self.set_value(f, rec.get(f.key))

    def set_value(self, f: Field, value) -> None:
        w = self.editors[f.key]
        if isinstance(w, QComboBox):
            i = w.findData(value)
            w.setCurrentIndex(i if i >= 0 else 0)
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, OptionalDateEdit):
            w.set_date(value)
        elif isinstance(w, QPlainTextEdit):
            w.setPlainText(value or "")
        else:
            w.setText("" if value is None else (format(value, "f") if isinstance(value, Decimal) else str(value)))

    def values(self) -> tuple[dict, dict]:
        out, errors = {}, {}
        for f in self.fields:
            w = self.editors[f.key]
            if f.on_create_only and self.id is not None:
                continue
            if isinstance(w, QComboBox):
                data = w.currentData()
                if f.kind == "option" and w.isEditable() and w.currentText() and w.findText(w.currentText()) < 0:
                    errors[f.key] = self.tr("choose one of the listed entries")
                out[f.key] = data
            elif isinstance(w, QCheckBox):
                out[f.key] = w.isChecked()
            elif isinstance(w, OptionalDateEdit):
                if w.is_valid():
                    out[f.key] = w.date_value()
                else:
                    errors[f.key] = w.problem()
            elif isinstance(w, QPlainTextEdit):
                out[f.key] = w.toPlainText().strip() or None
            else:
                text = w.text().strip()
                if f.kind == "int":
                    if text:
                        try:
                            out[f.key] = int(text)
                        except ValueError:
                            errors[f.key] = self.tr("a whole number")
                    else:
                        out[f.key] = None
                elif f.kind == "decimal":
                    if text:
                        try:
                            out[f.key] = Decimal(text)
                        except InvalidOperation:
                            errors[f.key] = self.tr("a number, e.g. 12.5")
                    else:
                        out[f.key] = None
                elif f.kind == "password":
                    out[f.key] = text
                else:
                    out[f.key] = text or None
            if f.required and out.get(f.key) in (None, "") and f.key not in errors:
                errors[f.key] = self.tr("required")
        return out, errors

    def _date_default(self, key: str):
        """Where an empty date's calendar opens: a warranty's end at the purchase date when there
        is one, else today (Asia/Shanghai)."""
        if key == "warranty_end" and any(f.key == "purchase_date" for f in self.fields):
            return lambda: self.editors["purchase_date"].date_value() if "purchase_date" in self.editors else None
        return None

    def clear_errors(self) -> None:
        for lbl in self.errors.values():
            lbl.hide()
        for w in self.editors.values():
            if isinstance(w, OptionalDateEdit) and w.is_valid():
                w.show_error("")
        self.message.hide()

    def show_errors(self, errors: dict[str, str]) -> None:
        unplaced = []
        first = None
        for key, msg in errors.items():
            lbl = self.errors.get(key)
            if lbl is None:
                unplaced.append(f"{key}: {translate_message(msg)}" if key else translate_message(msg))
                continue
            editor = self.editors[key]
            if isinstance(editor, OptionalDateEdit):   # its reason shows beside it
                editor.show_error(translate_message(msg))
            else:
                lbl.setText(translate_message(msg))
                lbl.show()
            first = first or editor
        if unplaced:
            self.show_message("; ".join(unplaced))
        if first is not None:
            first.setFocus()

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()

    def save(self) -> None:
        self.clear_errors()
        values, errors = self.values()
        if errors:
            self.show_errors(errors)
            return
        try:
            self.saved_id = apply(lambda: save_record(self.db, self.actor, self.kind, self.id, values, self.version))
        except ValidationError as exc:
            log_failure(exc)
            self.show_errors(exc.errors)
            return
        except Conflict as exc:
            log_failure(exc)
            answer = QMessageBox.question(self, self.tr("Changed by someone else"),
                                          exc.message + "\n\n" + self.tr("Reload the record now? Your edits will be lost."))
            if answer == QMessageBox.Yes:
                self.load()
            else:
                self.show_message(exc.message)
            return
        except DomainError as exc:
            self.show_message(refused_text(exc))
            return
        self.accept()


class GpuDialog(FormDialog):
    """A GPU's details plus its lifecycle history tab."""

    def __init__(self, db, actor, kind, id_=None, parent=None, read_only=False):
        super().__init__(db, actor, kind, id_, parent, read_only)
        if id_ is not None:
            self.history = QTableWidget(0, 5)
            self.history.setObjectName("gpuHistory")
            self.history.setHorizontalHeaderLabels([self.tr("Time"), self.tr("From"), self.tr("To"),
                                                    self.tr("User"), self.tr("Reason")])
            self.history.horizontalHeader().setStretchLastSection(True)
            self.history.verticalHeader().setVisible(False)
            self.history.setEditTriggers(QTableWidget.NoEditTriggers)
            from app.domain.clock import TZ as SHANGHAI
            rows = queries.gpu_history(db, id_)
            self.history.setRowCount(len(rows))
            for r, (at, frm, to, who, reason) in enumerate(rows):
                at = at if at.tzinfo else at.replace(tzinfo=dt.timezone.utc)
                cells = [at.astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M"), choice_label(GpuState, frm),
                         choice_label(GpuState, to), who, reason]
                for c, text in enumerate(cells):
                    self.history.setItem(r, c, QTableWidgetItem(text))
            self.history.resizeColumnsToContents()
            self.tabs.addTab(self.history, self.tr("Lifecycle (%1)").replace("%1", str(len(rows))))


class DeviceDialog(FormDialog):
    """A device's details plus, for a server with GPU slots, the slot grid."""

    def __init__(self, db, actor, kind, id_=None, parent=None, read_only=False):
        super().__init__(db, actor, kind, id_, parent, read_only)
        self.slots = None
        if id_ is not None:
            data = queries.gpu_slots(db, id_)
            if data is not None and data.slots:
                from ui.pages.gpuslots import GpuSlotGrid
                self.slots = GpuSlotGrid(db, actor, id_, self)
                self.tabs.addTab(self.slots, self.tr("GPU slots (%1)").replace("%1", str(len(data.slots))))
                self.tabs.currentChanged.connect(self._slot_tab_buttons)

    def _slot_tab_buttons(self, _index=None) -> None:
        """Each slot action is saved as it is done: on the slot tab there is nothing to save or to
        cancel, only Close; the details tab keeps Save and Cancel for its own fields."""
        on_slots = self.slots is not None and self.tabs.currentWidget() is self.slots
        save, cancel = self.buttons.button(QDialogButtonBox.Save), self.buttons.button(QDialogButtonBox.Cancel)
        save.setVisible(not on_slots)
        cancel.setText(self.tr("Close") if on_slots else self.tr("Cancel"))
        cancel.setToolTip(self.tr("The slot changes are already saved (see History)") if on_slots else "")


class CustomerDialog(FormDialog):
    """A customer's details plus its contacts (several: name, role, phone, email), saved together."""

    CONTACT_COLUMNS = (("name", "Name"), ("role", "Position"), ("phone", "Phone"), ("email", "E-mail"))

    def __init__(self, db, actor, kind, id_=None, parent=None, read_only=False):
        self.contacts_loaded: list[dict] = []
        super().__init__(db, actor, kind, id_, parent, read_only)
        page = QWidget()
        v = QVBoxLayout(page)
        self.contacts = QTableWidget(0, len(self.CONTACT_COLUMNS))
        self.contacts.setObjectName("contacts")
        self.contacts.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Position"), self.tr("Phone"),
                                                  self.tr("E-mail")])
        self.contacts.horizontalHeader().setStretchLastSection(True)
        self.contacts.verticalHeader().setVisible(False)
        self.contacts.itemChanged.connect(self._contact_edited)
        v.addWidget(self.contacts)
        row = QHBoxLayout()
        self.add_contact = QPushButton(self.tr("Add contact"))
        self.add_contact.setObjectName("addContact")
        self.add_contact.clicked.connect(lambda: self.append_contact({}, edit=True))
        self.remove_contact = QPushButton(self.tr("Remove contact"))
        self.remove_contact.setObjectName("removeContact")
        self.remove_contact.clicked.connect(self._remove_contact)
        row.addWidget(self.add_contact)
        row.addWidget(self.remove_contact)
        row.addStretch(1)
        v.addLayout(row)
        self.contact_error = QLabel()
        self.contact_error.setObjectName("error_contacts")
        self.contact_error.setStyleSheet("color: #c62828;")
        self.contact_error.setWordWrap(True)
        self.contact_error.hide()
        v.addWidget(self.contact_error)
        self.contacts_tab = self.tabs.addTab(page, "")
        for c in self.contacts_loaded:
            self.append_contact(c)
        self._update_tab_title()
        from ui.pages.receivables.profile import attach_profile_tab
        self.profile_tab = attach_profile_tab(self, read_only)  # 开票信息 (ui/pages/receivables/profile.py)
        if read_only:
            for w in (self.contacts, self.add_contact, self.remove_contact):
                w.setEnabled(False)
        self.resize(640, max(self.sizeHint().height(), 420))

    def load(self) -> None:
        super().load()
        self.contacts_loaded = queries.customer_contacts(self.db, self.id)

    def append_contact(self, contact: dict, edit: bool = False) -> None:
        r = self.contacts.rowCount()
        self.contacts.insertRow(r)
        for c, (key, _label) in enumerate(self.CONTACT_COLUMNS):
            self.contacts.setItem(r, c, QTableWidgetItem(contact.get(key) or ""))
        self._update_tab_title()
        if edit:
            self.tabs.setCurrentIndex(self.contacts_tab)
            self.contacts.setCurrentCell(r, 0)
            self.contacts.editItem(self.contacts.item(r, 0))

    def _remove_contact(self) -> None:
        rows = sorted({i.row() for i in self.contacts.selectedIndexes()} or
                      ({self.contacts.currentRow()} if self.contacts.currentRow() >= 0 else set()), reverse=True)
        for r in rows:
            self.contacts.removeRow(r)
        self._update_tab_title()

    def _update_tab_title(self) -> None:
        if hasattr(self, "contacts_tab"):
            self.tabs.setTabText(self.contacts_tab, self.tr("Contacts (%1)").replace("%1", str(self.contacts.rowCount())))

    def _contact_edited(self, item: QTableWidgetItem) -> None:
        """A fixed cell loses its mark; the message goes when no cell is marked any more."""
        if item.toolTip():
            blocked = self.contacts.blockSignals(True)
            item.setToolTip("")
            item.setBackground(QBrush())
            self.contacts.blockSignals(blocked)
            if not any(self.contacts.item(r, c) and self.contacts.item(r, c).toolTip()
                       for r in range(self.contacts.rowCount()) for c in range(self.contacts.columnCount())):
                self.contact_error.hide()

    def contact_values(self) -> list[dict]:
        out = []
        for r in range(self.contacts.rowCount()):
            c = {key: (self.contacts.item(r, i).text().strip() if self.contacts.item(r, i) else "") or None
                 for i, (key, _label) in enumerate(self.CONTACT_COLUMNS)}
            if any(c.values()):
                out.append(c)
        return out

    def clear_errors(self) -> None:
        super().clear_errors()
        if hasattr(self, "contact_error"):
            self.contact_error.hide()

    def show_errors(self, errors: dict[str, str]) -> None:
        import re
        mine, rest, lines = {}, {}, []
        for key, msg in errors.items():
            m = re.fullmatch(r"contacts\[(\d+)\]\.(\w+)", key or "")
            (mine if m else rest)[key] = msg
            if m:
                r, col = int(m.group(1)), [k for k, _l in self.CONTACT_COLUMNS].index(m.group(2))
                item = self.contacts.item(self._row_of_value(r), col)
                text = translate_message(msg)
                if item is not None:
                    blocked = self.contacts.blockSignals(True)   # marking is no edit
                    item.setToolTip(text)
                    item.setBackground(QBrush(QColor("#fde0dc")))
                    self.contacts.blockSignals(blocked)
                lines.append(self.tr("Contact %1: %2").replace("%1", str(r + 1)).replace("%2", text))
        if lines:
            self.contact_error.setText("\n".join(lines))
            self.contact_error.show()
        super().show_errors(rest)
        if mine and not rest:
            self.tabs.setCurrentIndex(self.contacts_tab)

    def _row_of_value(self, index: int) -> int:
        """The table row of the index-th non-empty contact (empty rows are not sent)."""
        seen = -1
        for r in range(self.contacts.rowCount()):
            if any(self.contacts.item(r, c) and self.contacts.item(r, c).text().strip()
                   for c in range(self.contacts.columnCount())):
                seen += 1
                if seen == index:
                    return r
        return index

    def save(self) -> None:
        from app.services.customers import save_customer
        self.clear_errors()
        values, errors = self.values()
        if errors:
            self.show_errors(errors)
            return
        try:
            self.saved_id = apply(lambda: save_customer(self.db, self.actor, self.id, values, self.contact_values(),
                                                        self.version))
        except ValidationError as exc:
            log_failure(exc)
            self.show_errors(exc.errors)
            return
        except Conflict as exc:
            log_failure(exc)
            answer = QMessageBox.question(self, self.tr("Changed by someone else"),
                                          exc.message + "\n\n" + self.tr("Reload the record now? Your edits will be lost."))
            if answer == QMessageBox.Yes:
                self.load()
                self.contacts.setRowCount(0)
                for c in self.contacts_loaded:
                    self.append_contact(c)
            else:
                self.show_message(exc.message)
            return
        except DomainError as exc:
            self.show_message(refused_text(exc))
            return
        self.accept()


def open_form(db, actor, kind, id_=None, parent=None, read_only=False) -> FormDialog:
    cls = {"gpu": GpuDialog, "device": DeviceDialog, "customer": CustomerDialog}.get(kind, FormDialog)
    dlg = cls(db, actor, kind, id_, parent, read_only)
    dlg.add_history()
    return dlg


class TransitionDialog(QDialog):
    """Choose one allowed lifecycle move and give a reason."""

    def __init__(self, states: list[str], count: int, parent=None):
        super().__init__(parent)
        self.setObjectName("transitionDialog")
        self.setWindowTitle(self.tr("Lifecycle move"))
        layout = QFormLayout(self)
        current = sorted(set(states))
        allowed = None
        for s in current:
            moves = GpuState.TRANSITIONS.get(s, frozenset())
            allowed = set(moves) if allowed is None else allowed & moves
        allowed = [s for s in GpuState.values() if s in (allowed or set())]
        info = QLabel(self.tr("%1 GPU(s), now: %2").replace("%1", str(count))
                      .replace("%2", ", ".join(choice_label(GpuState, s) for s in current)))
        layout.addRow(info)
        self.target = QComboBox()
        self.target.setObjectName("targetState")
        for s in allowed:
            self.target.addItem(choice_label(GpuState, s), s)
        layout.addRow(self.tr("Move to"), self.target)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        layout.addRow(self.tr("Reason *"), self.reason)
        self.error = QLabel()
        self.error.setStyleSheet("color: #c62828;")
        self.error.hide()
        layout.addRow(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText(self.tr("Move"))
        buttons.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.Ok)
        layout.addRow(buttons)
        if not allowed:
            self.error.setText(self.tr("No move is allowed from these states together."))
            self.error.show()
            self.ok.setEnabled(False)

    def _accept(self):
        if not self.reason.text().strip():
            self.error.setText(self.tr("Give a reason: it goes into the GPU's history and the audit trail."))
            self.error.show()
            return
        self.accept()

    def choice(self) -> tuple[str, str]:
        return self.target.currentData(), self.reason.text().strip()

"""Request a site visit (issue 24): the customer and which of its contacts asks, the visitors (real
name, ID type and number, company), the purpose, the window (Asia/Shanghai), an escort, and the
cage or racks to visit, chosen from the space the customer leases. The service refuses space not
leased and contacts not authorised; Enter saves, Esc leaves, Ctrl+Shift+A adds a visitor."""
from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDateTime, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDateTimeEdit, QDialog, QDialogButtonBox, QFormLayout,
                               QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout)

from app.domain.clock import TZ, local_today
from app.domain.errors import DomainError, ValidationError
from models.choices import IdType

from ui.kit.dialogs import error_label, options_combo, refused_text
from ui.shell.i18n import choice_label
from ui.shell.operations import apply


def _when(at: dt.datetime) -> QDateTimeEdit:
    w = QDateTimeEdit(QDateTime(at.date(), at.time()))
    w.setDisplayFormat("yyyy-MM-dd HH:mm")
    w.setCalendarPopup(True)
    return w


class VisitRequestDialog(QDialog):
    requested = Signal(int)

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("visitRequestDialog")
        self.setWindowTitle(self.tr("Request a site visit"))
        self.customer = options_combo(db, "customer", self.tr("(choose the customer)"))
        self.customer.setObjectName("customer")
        self.contact = QComboBox()
        self.contact.setObjectName("contact")
        self.contacts = []
        self.space = QListWidget()
        self.space.setObjectName("space")
        self.space.setMaximumHeight(90)
        self.visitors = QTableWidget(0, 4)
        self.visitors.setObjectName("visitors")
        self.visitors.setHorizontalHeaderLabels([self.tr("Real name"), self.tr("ID type"), self.tr("ID number"),
                                                 self.tr("Company")])
        self.visitors.horizontalHeader().setStretchLastSection(True)
        for col, width in ((0, 110), (1, 150), (2, 170)):
            self.visitors.setColumnWidth(col, width)
        self.setMinimumWidth(640)      # an 18-character ID number and the ID type shown whole
        self.visitors.setMaximumHeight(130)
        add, remove = QPushButton(self.tr("Add visitor")), QPushButton(self.tr("Remove visitor"))
        add.setObjectName("addVisitor")
        remove.setObjectName("removeVisitor")
        add.setToolTip("Ctrl+Shift+A")
        add.clicked.connect(self.add_visitor)
        remove.clicked.connect(self.remove_visitor)
        QShortcut(QKeySequence("Ctrl+Shift+A"), self, activated=self.add_visitor)
        start = (dt.datetime.now(TZ) + dt.timedelta(days=1)).replace(hour=10, minute=0, second=0, microsecond=0)
        self.start, self.end = _when(start), _when(start + dt.timedelta(hours=3))
        self.start.setObjectName("windowStart")
        self.end.setObjectName("windowEnd")
        self.purpose = QLineEdit()
        self.purpose.setObjectName("purpose")
        self.purpose.setPlaceholderText(self.tr("e.g. install two servers in rack A05"))
        self.escort = QCheckBox(self.tr("Escort needed"))
        self.escort.setObjectName("escort")
        self.error = error_label("formError")
        rows = QHBoxLayout()
        rows.addWidget(add)
        rows.addWidget(remove)
        rows.addStretch(1)
        form = QFormLayout()
        form.addRow(self.tr("Customer"), self.customer)
        form.addRow(self.tr("Requested by"), self.contact)
        form.addRow(self.tr("Cage or racks"), self.space)
        form.addRow(self.tr("Visitors"), self.visitors)
        form.addRow("", rows)
        form.addRow(self.tr("Purpose"), self.purpose)
        form.addRow(self.tr("From"), self.start)
        form.addRow(self.tr("To"), self.end)
        form.addRow("", self.escort)
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self.customer.currentIndexChanged.connect(self.load_customer)
        self.add_visitor()
        self.load_customer()

    def load_customer(self) -> None:
        from app.services.operations.targets import visit_spaces
        from app.services.operations.tickets import ticket_contacts
        cid = self.customer.currentData()
        self.contacts = ticket_contacts(self.db, cid)
        self.contact.clear()
        for c in self.contacts:
            self.contact.addItem(c.name, c.id)
        self.space.clear()
        for kind, sid, label in visit_spaces(self.db, cid, local_today()):
            item = QListWidgetItem((self.tr("Cage %1") if kind == "cage" else self.tr("Rack %1")).replace("%1", label))
            item.setData(Qt.UserRole, (kind, sid))
            item.setFlags(item.flags() | Qt.ItemIsUserCheckable)
            item.setCheckState(Qt.Unchecked)
            self.space.addItem(item)

    def add_visitor(self) -> None:
        r = self.visitors.rowCount()
        self.visitors.insertRow(r)
        kind = QComboBox()
        for v in IdType.values():
            kind.addItem(choice_label(IdType, v), v)
        self.visitors.setCellWidget(r, 1, kind)
        for c in (0, 2, 3):
            self.visitors.setItem(r, c, QTableWidgetItem(""))
        self.visitors.setCurrentCell(r, 0)

    def remove_visitor(self) -> None:
        if self.visitors.currentRow() >= 0:
            self.visitors.removeRow(self.visitors.currentRow())

    def chosen_space(self) -> tuple[int | None, list[int]]:
        chosen = [self.space.item(i).data(Qt.UserRole) for i in range(self.space.count())
                  if self.space.item(i).checkState() == Qt.Checked]
        cages = [sid for kind, sid in chosen if kind == "cage"]
        if len(cages) > 1 or (cages and len(chosen) > 1):
            raise ValidationError({"space": self.tr("a visit goes to one cage, or to racks outside a cage")})
        return (cages[0] if cages else None), [sid for kind, sid in chosen if kind == "rack"]

    def visitor_rows(self) -> list:
        from app.services.operations.visits import VisitorIn
        out = []
        for r in range(self.visitors.rowCount()):
            name, number, company = (self.visitors.item(r, c).text().strip() if self.visitors.item(r, c) else ""
                                     for c in (0, 2, 3))
            if name or number:
                out.append(VisitorIn(name=name, id_number=number, id_type=self.visitors.cellWidget(r, 1).currentData(),
                                     company=company or None))
        return out

    def write(self) -> int:
        from app.services.operations.visits import request_visit
        if self.customer.currentData() is None or self.contact.currentData() is None:
            raise ValidationError({"customer_id": self.tr("choose the customer and which contact asks")})
        cage_id, rack_ids = self.chosen_space()
        return request_visit(self.db, self.actor, customer_id=self.customer.currentData(),
                             contact_id=self.contact.currentData(), visitors=self.visitor_rows(),
                             purpose=self.purpose.text(), window_start=self.start.dateTime().toPython().replace(tzinfo=TZ),
                             window_end=self.end.dateTime().toPython().replace(tzinfo=TZ),
                             escort_needed=self.escort.isChecked(), cage_id=cage_id, rack_ids=rack_ids)

    def save(self) -> int | None:
        try:
            vid = apply(self.write)
        except DomainError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            return None
        self.requested.emit(vid)
        self.accept()
        return vid

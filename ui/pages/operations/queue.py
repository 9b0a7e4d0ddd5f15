"""The queue of tickets by SLA due with countdowns, per-column filters, my tickets; the ticket panel
(details, SLA clocks, the timeline, the moves the service allows) and the new-ticket form."""
from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout,
                               QInputDialog, QLabel, QLineEdit, QPlainTextEdit, QPushButton,
                               QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.domain.clock import local_text
from app.domain.errors import DomainError, ValidationError
from models.choices import (ContactChannel, NoteVisibility, SlaMetric, SlaState, TicketKind, TicketPriority,
                            TicketState)

from ui.kit.dialogs import error_label, guard, options_combo, refused_text
from ui.shell.i18n import choice_label
from ui.shell.operations import apply, listen
from ui.kit.shown import ReadWhenShown
from ui.kit.tableview import select_only_row
from ui.widgets.plain_table import fit_contents

UTC = dt.timezone.utc
COUNTDOWN_MS = 1000       # the countdowns tick every second (no database read)
RELOAD_MS = 60_000        # the queue is read again every minute (and on every change)
FILTER_MS = 250           # a filter is applied this long after the last key
PAGE_ROWS = 50            # the queue shows its first rows by SLA due; the summary counts them all


def apply_or_show(fn, message: QLabel) -> bool:
    """Run a short write (ui.shell.operations.apply); a refusal is shown in `message`, else it is hidden."""
    try:
        apply(fn)
    except DomainError as exc:
        message.setText(refused_text(exc))
        message.show()
        return False
    message.hide()
    return True


def countdown(seconds: int) -> str:
    sign = "−" if seconds < 0 else ""
    s = abs(int(seconds))
    return f"{sign}{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class QueueTab(ReadWhenShown, QWidget):
    """The open tickets, the one whose SLA runs out first on top."""

    ticketChosen = Signal(int)

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("queueTab")
        self.rows = []
        top = QHBoxLayout()
        self.new_btn = QPushButton(self.tr("New ticket…"))
        self.new_btn.setObjectName("newTicket")
        self.new_btn.setShortcut(QKeySequence("Ctrl+Shift+N"))
        guard(self.new_btn, actor, "raise_tickets")
        self.mine = QCheckBox(self.tr("My tickets"))
        self.mine.setObjectName("myTickets")
        self.mine.setShortcut(QKeySequence("Ctrl+Shift+M"))
        self.closed = QCheckBox(self.tr("Also resolved and closed"))
        self.closed.setObjectName("showClosed")
        refresh = QPushButton(self.tr("Refresh"))
        self.summary = QLabel()
        self.summary.setObjectName("queueSummary")
        for w in (self.new_btn, self.mine, self.closed, refresh):
            top.addWidget(w)
        top.addWidget(self.summary, 1)
        self.headers = [self.tr("Ticket"), self.tr("Priority"), self.tr("State"), self.tr("SLA"),
                        self.tr("Due"), self.tr("Time left"), self.tr("Customer"), self.tr("Site"),
                        self.tr("Assignee"), self.tr("Title")]
        self.refilter = self._timer(FILTER_MS, self.load, single=True)   # the filters are read once typing stops
        filters = QHBoxLayout()
        filters.setSpacing(2)
        self.filters: list[QLineEdit] = []
        for i, h in enumerate(self.headers):
            f = QLineEdit()
            f.setObjectName(f"filter_{i}")
            f.setPlaceholderText(h)
            f.setClearButtonEnabled(True)
            f.textChanged.connect(self.refilter.start)
            if i in (4, 5):      # the due time and the countdown move on by themselves: not filters
                f.setEnabled(False)
                f.setPlaceholderText("")
            filters.addWidget(f)
            self.filters.append(f)
        self.table = QTableWidget(0, len(self.headers))
        self.table.setObjectName("ticketQueue")
        self.table.setHorizontalHeaderLabels(self.headers)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectRows)
        self.table.setSelectionMode(QTableWidget.SingleSelection)
        fit_contents(self.table.horizontalHeader())
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._chosen)
        self.panel = TicketPanel(db, actor, self)
        split = QSplitter(Qt.Vertical)   # the queue across the window, the ticket below it (1280×800)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addLayout(filters)
        lv.addWidget(self.table, 1)
        split.addWidget(left)
        split.addWidget(self.panel)
        split.setObjectName("queueSplit")
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        self.new_btn.clicked.connect(lambda: self.new_ticket())
        refresh.clicked.connect(self.load)
        self.mine.toggled.connect(self.load)
        self.closed.toggled.connect(self.load)
        QShortcut(QKeySequence("Ctrl+Shift+F"), self, activated=lambda: self.filters[0].setFocus())
        self.tick = QTimer(self)
        self.tick.setObjectName("countdown")
        self.tick.setInterval(COUNTDOWN_MS)
        self.tick.timeout.connect(self.update_countdowns)
        self.reload = self._timer(RELOAD_MS, self.load)
        listen(self, self._changed)
        self.loaded = False

    def _timer(self, ms: int, slot, single: bool = False) -> QTimer:
        t = QTimer(self)
        t.setSingleShot(single)
        t.setInterval(ms)
        t.timeout.connect(slot)
        return t

    watches = frozenset({"ticket", "sla_credit"})

    def showEvent(self, event):
        super().showEvent(event)      # ReadWhenShown: the first show reads
        self.tick.start()
        self.reload.start()

    def hideEvent(self, event):
        super().hideEvent(event)
        self.tick.stop()
        self.reload.stop()

    def where(self):
        """The column filters as the service reads them: the coded columns by their shown labels."""
        from app.services.operations.queue import QueueFilter
        text = [f.text().strip().lower() for f in self.filters]

        def matching(choices, typed: str, label=lambda c, v: choice_label(c, v)):
            return frozenset(v for v in choices.values() if typed in label(choices, v).lower()) if typed else None
        if not any(text):
            return None
        return QueueFilter(number=text[0], priorities=matching(TicketPriority, text[1], lambda _c, v: v.lower()),
                           states=matching(TicketState, text[2]), sla_states=matching(SlaState, text[3]),
                           customer=text[6], site=text[7], assignee=text[8], title=text[9])

    def load(self) -> None:
        from app.services.operations.queue import queue_view
        self.refilter.stop()
        self.loaded = True
        keep = self.current_id()
        view = queue_view(self.db, limit=PAGE_ROWS, include_closed=self.closed.isChecked(),
                          assignee_id=self.actor.id if self.mine.isChecked() else None, where=self.where())
        self.rows = view.rows
        self.table.setRowCount(len(self.rows))
        for i, r in enumerate(self.rows):
            cells = [r.number, r.priority, choice_label(TicketState, r.state),
                     choice_label(SlaState, r.sla_state) + (f" ↑{r.escalation}" if r.escalation else ""),
                     (local_text(r.due_at)[5:16] + " " + choice_label(SlaMetric, r.metric)) if r.due_at else "",
                     "", r.customer or "", r.site or "", r.assignee or "", r.title]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 0:
                    item.setData(Qt.UserRole, r.id)
                if c == 1:
                    item.setForeground(QColor(TicketPriority.colour(r.priority)))
                    item.setToolTip(choice_label(TicketPriority, r.priority))
                if c == 3:
                    colour = QColor(SlaState.colour(r.sla_state))
                    item.setBackground(colour)
                    item.setForeground(Qt.white if colour.lightness() < 140 else Qt.black)
                self.table.setItem(i, c, item)
            if r.id == keep:
                select_only_row(self.table, i)
        self.update_countdowns()
        text = self.tr("%1 tickets, %2 P1, %3 breached").replace("%1", str(view.total)) \
            .replace("%2", str(view.p1)).replace("%3", str(view.breached))
        if view.total > len(self.rows):
            text += self.tr(" · the first %1 by SLA due").replace("%1", str(len(self.rows)))
        self.summary.setText(text)
        if keep:
            self.panel.show_ticket(keep)

    def update_countdowns(self) -> None:
        now = dt.datetime.now(UTC)
        for i, r in enumerate(self.rows):
            item = self.table.item(i, 5)
            if item is None:
                continue
            if r.due_at is None:
                item.setText(self.tr("paused") if r.state in TicketState.PAUSED else "")
                continue
            left = int((r.due_at - now).total_seconds())
            item.setText(countdown(left))
            item.setForeground(QColor("#d32f2f") if left < 0 else QColor("#000000"))

    def current_id(self) -> int | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        return item.data(Qt.UserRole) if item else None

    def select(self, ticket_id: int) -> None:
        for i in range(self.table.rowCount()):
            if self.table.item(i, 0) and self.table.item(i, 0).data(Qt.UserRole) == ticket_id:
                select_only_row(self.table, i)
                return

    def _chosen(self) -> None:
        tid = self.current_id()
        if tid is not None:
            self.panel.show_ticket(tid)
            self.ticketChosen.emit(tid)

    def new_ticket(self, prefill=None) -> "NewTicketDialog":
        dlg = NewTicketDialog(self.db, self.actor, self, prefill=prefill)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        dlg.opened.connect(self._opened)
        self.form = dlg
        dlg.open()
        return dlg

    def _opened(self, ticket_id: int) -> None:
        self.load()
        self.select(ticket_id)
        self.panel.show_ticket(ticket_id)


class TicketPanel(QWidget):
    """One ticket: what it is about, its SLA clocks, its timeline and the moves it allows."""

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("ticketPanel")
        self.view = None
        self.head = QLabel(self.tr("Choose a ticket"))
        self.head.setObjectName("ticketHead")
        self.head.setWordWrap(True)
        self.head.setStyleSheet("font-size: 12pt; font-weight: bold;")
        self.details = QLabel()
        self.details.setObjectName("ticketDetails")
        self.details.setWordWrap(True)
        self.clocks = QLabel()
        self.clocks.setObjectName("ticketClocks")
        self.clocks.setWordWrap(True)
        self.timeline = QTableWidget(0, 4)
        self.timeline.setObjectName("timeline")
        self.timeline.setHorizontalHeaderLabels([self.tr("When"), self.tr("Who"), self.tr("What"), self.tr("Note")])
        self.timeline.verticalHeader().setVisible(False)
        self.timeline.setEditTriggers(QTableWidget.NoEditTriggers)
        fit_contents(self.timeline.horizontalHeader())
        self.timeline.horizontalHeader().setStretchLastSection(True)
        self.buttons: dict[str, QPushButton] = {}
        row1, row2 = QHBoxLayout(), QHBoxLayout()
        moves = [(TicketState.ACKNOWLEDGED, self.tr("Acknowledge"), "Ctrl+Shift+K"),
                 (TicketState.ON_SITE, self.tr("On site"), "Ctrl+Shift+O"),
                 (TicketState.IN_PROGRESS, self.tr("In progress"), "Ctrl+Shift+I"),
                 (TicketState.WAITING_CUSTOMER, self.tr("Waiting for customer"), None),
                 (TicketState.WAITING_VENDOR, self.tr("Waiting for vendor"), None),
                 (TicketState.RESOLVED, self.tr("Resolve…"), "Ctrl+Shift+R"),
                 (TicketState.CLOSED, self.tr("Close"), None)]
        for state, label, key in moves:
            b = QPushButton(label)
            b.setObjectName(f"move_{state}")
            if key:
                b.setShortcut(QKeySequence(key))
                b.setToolTip(key)
            b.clicked.connect(lambda _c=False, s=state: self.move(s))
            self.buttons[state] = b
            row1.addWidget(b)
        for key, label, slot in (("note", self.tr("Note…"), self.note), ("priority", self.tr("Priority…"), self.priority),
                                 ("reopen", self.tr("Reopen…"), self.reopen),
                                 ("downtime", self.tr("Record down hours…"), self.downtime)):
            b = QPushButton(label)
            b.setObjectName(f"ticket_{key}")
            b.clicked.connect(slot)
            self.buttons[key] = b
            row2.addWidget(b)
        self.buttons["note"].setShortcut(QKeySequence("Ctrl+Shift+T"))
        self.message = error_label("ticketMessage")
        lay = QVBoxLayout(self)
        lay.addWidget(self.head)
        lay.addWidget(self.details)
        lay.addWidget(self.clocks)
        lay.addLayout(row1)
        lay.addLayout(row2)
        lay.addWidget(self.message)
        lay.addWidget(self.timeline, 1)
        self.update_actions()

    def show_ticket(self, ticket_id: int) -> None:
        from app.services.operations.sla import ticket_sla
        from app.services.operations.tickets import get_ticket
        self.view = v = get_ticket(self.db, ticket_id)
        sla = ticket_sla(self.db, ticket_id)
        self.head.setText(f"{v.number} · {choice_label(TicketPriority, v.priority)} · {v.title}")
        objs = ", ".join(label for _t, _i, label in v.objects) or "—"
        esc = (self.tr(" · escalated to level %1").replace("%1", str(v.escalation)) if v.escalation else "")
        self.details.setText(
            self.tr("%1 · %2 · customer %3 · contract %4 · assignee %5 · opened %6 · concerns %7")
            .replace("%1", choice_label(TicketKind, v.kind)).replace("%2", choice_label(TicketState, v.state))
            .replace("%3", v.customer or "—").replace("%4", v.contract or "—").replace("%5", v.assignee or "—")
            .replace("%6", local_text(v.opened_at)[:16]).replace("%7", objs) + esc)
        parts = []
        for metric, c in sla.clocks.items():
            text = (f"{choice_label(SlaMetric, metric)}: {choice_label(SlaState, c.state)} "
                    f"{c.elapsed_minutes}/{c.target_minutes} min")
            if c.paused_minutes:
                text += self.tr(", paused %1 min").replace("%1", str(c.paused_minutes))
            if c.due_at and c.state != "breached":
                text += self.tr(", due %1").replace("%1", local_text(c.due_at)[11:16])
            colour = SlaState.colour(c.state)
            parts.append(f"<span style='color:{colour}'>{text}</span>")
        self.clocks.setText(" · ".join(parts))
        self.timeline.setRowCount(len(v.events))
        for i, e in enumerate(reversed(v.events)):
            if e.kind == "state":
                what = f"{choice_label(TicketState, e.from_value) if e.from_value else ''} → {choice_label(TicketState, e.to_value)}"
            elif e.kind == "priority":
                what = f"{e.from_value} → {e.to_value}"
            elif e.kind == "open":
                what = self.tr("Opened")
            else:
                what = {"note": self.tr("Note"), "assign": self.tr("Assigned"), "attach": self.tr("Attachment"),
                        "escalate": self.tr("Escalated"), "sla": self.tr("SLA breach"),
                        "downtime": self.tr("Down hours")}.get(e.kind, e.kind)
                if e.kind == "sla" and e.to_value:
                    what += " " + choice_label(SlaMetric, e.to_value)
            if e.visibility == NoteVisibility.CUSTOMER:
                what += " " + self.tr("(for the customer)")
            for c, text in enumerate((local_text(e.at)[5:16], e.actor or "", what, e.note or "")):
                self.timeline.setItem(i, c, QTableWidgetItem(text))
        self.message.hide()
        self.update_actions()

    def update_actions(self) -> None:
        v = self.view
        moves = set(v.moves) if v else set()
        for state in TicketState.values():
            if state in self.buttons:
                guard(self.buttons[state], self.actor, "work_tickets", allowed=state in moves)
        guard(self.buttons["note"], self.actor, "raise_tickets", allowed=v is not None)
        guard(self.buttons["priority"], self.actor, "work_tickets", allowed=v is not None and v.state != "closed")
        guard(self.buttons["reopen"], self.actor, "work_tickets",
              allowed=v is not None and v.state in (TicketState.RESOLVED, TicketState.CLOSED))
        guard(self.buttons["downtime"], self.actor, "work_tickets",
              allowed=v is not None and any(t in ("gpu", "device") for t, _i, _l in v.objects))

    def _do(self, fn) -> bool:
        if not apply_or_show(fn, self.message):
            return False
        if self.view:
            self.show_ticket(self.view.id)
        return True

    def move(self, state: str) -> bool:
        from app.services.operations.tickets import acknowledge, move_ticket
        if self.view is None:
            return False
        tid = self.view.id
        if state == TicketState.ACKNOWLEDGED:
            return self._do(lambda: acknowledge(self.db, self.actor, tid))
        note = None
        if state == TicketState.RESOLVED:
            note, ok = QInputDialog.getMultiLineText(self, self.tr("Resolve"),
                                                     self.tr("What was done (the customer reads it):"))
            if not ok:
                return False
        return self._do(lambda: move_ticket(self.db, self.actor, tid, state, note=note))

    def note(self) -> bool:
        from app.services.operations.tickets import add_note
        if self.view is None:
            return False
        text, ok = QInputDialog.getMultiLineText(self, self.tr("Note"), self.tr("Note (internal):"))
        if not ok:
            return False
        tid = self.view.id
        return self._do(lambda: add_note(self.db, self.actor, tid, text))

    def priority(self) -> bool:
        from app.services.operations.tickets import change_priority
        if self.view is None:
            return False
        values = TicketPriority.values()
        labels = [choice_label(TicketPriority, p) for p in values]
        label, ok = QInputDialog.getItem(self, self.tr("Priority"), self.tr("New priority:"), labels,
                                         values.index(self.view.priority), False)
        if not ok:
            return False
        reason, ok = QInputDialog.getText(self, self.tr("Priority"), self.tr("Why:"))
        if not ok:
            return False
        tid, p = self.view.id, values[labels.index(label)]
        return self._do(lambda: change_priority(self.db, self.actor, tid, p, reason))

    def reopen(self) -> bool:
        from app.services.operations.tickets import reopen_ticket
        if self.view is None:
            return False
        reason, ok = QInputDialog.getText(self, self.tr("Reopen"), self.tr("Why is it reopened:"))
        if not ok:
            return False
        tid = self.view.id
        return self._do(lambda: reopen_ticket(self.db, self.actor, tid, reason))

    def downtime(self) -> bool:
        from app.domain.clock import TZ
        from app.services.operations.tickets import record_ticket_downtime
        if self.view is None:
            return False
        start_default = local_text(self.view.opened_at)[:16]
        text, ok = QInputDialog.getText(self, self.tr("Record down hours"),
                                        self.tr("Down from – to (YYYY-MM-DD HH:MM – YYYY-MM-DD HH:MM; leave the end "
                                                "empty while it is still down):"), text=f"{start_default} – ")
        if not ok:
            return False
        try:
            a, _, b = text.partition("–")
            start = dt.datetime.fromisoformat(a.strip()).replace(tzinfo=TZ)
            end = dt.datetime.fromisoformat(b.strip()).replace(tzinfo=TZ) if b.strip() else None
        except ValueError:
            self.message.setText(self.tr("Write the times as YYYY-MM-DD HH:MM"))
            self.message.show()
            return False
        tid = self.view.id
        return self._do(lambda: record_ticket_downtime(self.db, self.actor, tid, start=start, end=end))


class NewTicketDialog(QDialog):
    """Open a ticket; from "Open a ticket for this" the object, customer, contract and site are filled in."""

    opened = Signal(int)

    def __init__(self, db, actor, parent=None, prefill=None):
        super().__init__(parent)
        self.db, self.actor, self.prefill = db, actor, prefill
        self.setObjectName("newTicketDialog")
        self.setWindowTitle(self.tr("New ticket"))
        from models.choices import TicketObjectType
        self.title = QLineEdit(f"{choice_label(TicketObjectType, prefill.object_type)} {prefill.label}" if prefill else "")
        self.title.setObjectName("title")
        self.kind = QComboBox()
        self.kind.setObjectName("kind")
        for v in TicketKind.values():
            if v != TicketKind.SITE_VISIT:   # site visits are requested on their own tab
                self.kind.addItem(choice_label(TicketKind, v), v)
        self.priority = QComboBox()
        self.priority.setObjectName("priority")
        for v in TicketPriority.values():
            self.priority.addItem(choice_label(TicketPriority, v), v)
        self.priority.setCurrentIndex(2)
        self.customer = options_combo(db, "customer", self.tr("(none)"))
        self.customer.setObjectName("customer")
        self.channel = QComboBox()
        self.channel.setObjectName("channel")
        for v in ContactChannel.values():
            self.channel.addItem(choice_label(ContactChannel, v), v)
        self.contact = QComboBox()       # who of the customer raised it (issue 24)
        self.contact.setObjectName("contact")
        self.contact_info = QLabel()
        self.contact_info.setObjectName("contactInfo")
        self.contacts = []
        self.task = QComboBox()
        self.task.setObjectName("task")
        from models.choices import RemoteTask
        self.task.addItem(self.tr("(none)"), None)
        for v in RemoteTask.values():
            self.task.addItem(choice_label(RemoteTask, v), v)
        self.description = QPlainTextEdit()
        self.description.setObjectName("description")
        self.description.setMaximumHeight(90)
        self.reported = QLineEdit(local_text(dt.datetime.now(UTC))[:16])
        self.reported.setObjectName("reportedAt")
        self.reported.setToolTip(self.tr("When the customer reported it (YYYY-MM-DD HH:MM): the SLA clocks start there"))
        self.concerns = QLabel(f"{prefill.label}" if prefill else "—")
        self.concerns.setObjectName("concerns")
        if prefill and prefill.customer_id is not None:
            i = self.customer.findData(prefill.customer_id)
            if i >= 0:
                self.customer.setCurrentIndex(i)
        self.customer.currentIndexChanged.connect(self.load_contacts)
        self.contact.currentIndexChanged.connect(self.show_contact)
        self.channel.currentIndexChanged.connect(self.show_contact)
        self.load_contacts()
        self.error = error_label("formError")
        form = QFormLayout()
        form.addRow(self.tr("Title"), self.title)
        form.addRow(self.tr("Kind"), self.kind)
        form.addRow(self.tr("Priority"), self.priority)
        form.addRow(self.tr("Customer"), self.customer)
        form.addRow(self.tr("Reported by"), self.channel)
        form.addRow(self.tr("Contact"), self.contact)
        form.addRow("", self.contact_info)
        form.addRow(self.tr("Reported at"), self.reported)
        form.addRow(self.tr("Remote-hands task"), self.task)
        form.addRow(self.tr("Concerns"), self.concerns)
        form.addRow(self.tr("Description"), self.description)
        buttons = QDialogButtonBox(QDialogButtonBox.Save | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.error)
        lay.addWidget(buttons)

    def load_contacts(self) -> None:
        from app.services.operations.tickets import ticket_contacts
        self.contacts = ticket_contacts(self.db, self.customer.currentData())
        self.contact.clear()
        self.contact.addItem(self.tr("(choose who raised it)") if self.contacts else self.tr("(no contacts)"), None)
        for c in self.contacts:
            self.contact.addItem(f"{c.name} · {c.role}" if c.role else c.name, c.id)
        self.contact.setEnabled(bool(self.contacts))
        self.show_contact()

    def chosen_contact(self):
        return next((c for c in self.contacts if c.id == self.contact.currentData()), None)

    def show_contact(self) -> None:
        c = self.chosen_contact()
        self.contact_info.setText(" · ".join(x for x in (c.phone, c.email) if x) if c else "")

    def contact_id(self) -> int | None:
        """The contact chosen, checked against how they reached us: a call needs their phone on file,
        an e-mail their address; a customer with contacts names one."""
        c = self.chosen_contact()
        if c is None:
            if self.contacts:
                raise ValidationError({"contact_id": self.tr("choose which of the customer's contacts raised it")})
            return None
        channel = self.channel.currentData()
        if channel == ContactChannel.PHONE and not c.phone:
            raise ValidationError({"contact_id": self.tr("%1 has no phone number on file").replace("%1", c.name)})
        if channel == ContactChannel.EMAIL and not c.email:
            raise ValidationError({"contact_id": self.tr("%1 has no e-mail address on file").replace("%1", c.name)})
        return c.id

    def reported_at(self) -> dt.datetime:
        from app.domain.clock import TZ
        try:
            at = dt.datetime.fromisoformat(self.reported.text().strip()).replace(tzinfo=TZ)
        except ValueError:
            raise ValidationError({"at": self.tr("write when it was reported as YYYY-MM-DD HH:MM")}) from None
        if at > dt.datetime.now(UTC) + dt.timedelta(minutes=1):
            raise ValidationError({"at": self.tr("a report cannot come from the future")})
        return at

    def write(self) -> int:
        from app.services.operations.tickets import open_ticket
        p = self.prefill
        at = self.reported_at()
        contact_id = self.contact_id()
        kind = self.kind.currentData()
        t = open_ticket(self.db, self.actor, title=self.title.text(), kind=kind, priority=self.priority.currentData(),
                        customer_id=self.customer.currentData(), contact_id=contact_id,
                        channel=self.channel.currentData(),
                        contract_id=p.contract_id if p else None, site_id=p.site_id if p else None,
                        objects=[(p.object_type, p.object_id)] if p else [],
                        task=self.task.currentData() if kind == TicketKind.REMOTE_HANDS else None,
                        urgency="standard" if kind == TicketKind.REMOTE_HANDS else None,
                        description=self.description.toPlainText(), at=at)
        return t.id

    def save(self) -> int | None:
        try:
            tid = apply(self.write)
        except ValidationError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            return None
        except DomainError as exc:
            self.error.setText(refused_text(exc))
            self.error.show()
            return None
        self.opened.emit(tid)
        self.accept()
        return tid

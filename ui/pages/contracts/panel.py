"""The selected contract: header, items, the lifecycle buttons (which ones a contract offers, and
why one is disabled, is the service's answer: available_actions), renew, amend, Print / PDF."""
from __future__ import annotations

import datetime as dt
import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QMessageBox, QTableWidgetItem

from app.domain.actor import Actor
from app.domain.errors import Conflict, DomainError
from app.domain.rating import local_today
from app.services import contracts as svc
from app.services.contracts.detail import contract_detail
from app.store.db import Database
from models.choices import ContractStatus, ItemKind, PriceUnit

from ui.kit.dialogs import ReasonDialog, date_edit, get_date, refused_text, why_not_text
from ui.kit.recordpanel import RecordPanel
from ui.pages.contracts.editor import ContractDialog
from ui.pages.contracts.figures import money, plain, totals_html
from ui.shell.i18n import choice_label
from ui.shell.operations import apply, run_op


# The buttons' words. Which of them a contract offers, and why one is refused, is the contract
# service's answer (app.services.contracts.available_actions); no rule lives here.
MOVES = [
    ("submit", "Submit for approval"),
    ("reject", "Reject…"),
    ("approve", "Approve"),
    ("activate", "Activate"),
    ("suspend", "Suspend…"),
    ("resume", "Resume"),
    ("expire", "Expire"),
    ("terminate", "Terminate…"),
]


class ContractPanel(RecordPanel):
    """The selected contract: header, items, lifecycle buttons, renew/amend, Print / PDF."""

    opened = Signal(int)     # a contract to select (e.g. a new renewal)

    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(db, actor, "contract", self.tr("Choose a contract"),
                         [self.tr("Kind"), self.tr("Description"), self.tr("Quantity"), self.tr("Price"),
                          self.tr("Service start")], "contractItems", parent=parent)
        self.items = self.table
        self.actions: dict[str, svc.ContractAction] = {}
        self.totals = QLabel()
        self.totals.setObjectName("contractPanelTotals")
        self.totals.setTextFormat(Qt.RichText)
        self.totals.setWordWrap(True)
        self.body.addWidget(self.totals)
        self.add_buttons([("edit", self.tr("Edit draft…"), self.edit)]
                         + [(key, self.tr(label), lambda _=False, k=key: self.ask_move(k)) for key, label in MOVES]
                         + [("renew", self.tr("Renew…"), self.ask_renew), ("amend", self.tr("Amend…"), self.ask_amend),
                            ("print", self.tr("Print / PDF…"), self.print_pdf)], per_row=4)

    def show_contract(self, contract_id: int | None) -> None:
        # one read for the whole panel (app.services.contracts.detail): a click from a subsidiary pays per statement
        detail = {}

        def fetch(db, key):
            detail["d"] = contract_detail(db, key)
            return detail["d"].info
        info = self.read(fetch, contract_id)
        if info is None:
            return
        detail = detail["d"]
        colour = ContractStatus.colour(info.status) if hasattr(ContractStatus, "colour") else "#333"
        self.title.setText(f"{info.number}  {info.title or ''}")
        facts = [
            self.tr("Customer: %1").replace("%1", info.customer_name),
            self.tr("Status: %1").replace("%1", f"<b style='color:{colour}'>{choice_label(ContractStatus, info.status)}</b>"),
            self.tr("Term: %1 – %2").replace("%1", info.start_date.isoformat()).replace("%2", info.end_date.isoformat()),
            self.tr("Language: %1").replace("%1", self.tr("Chinese") if info.language == "zh" else self.tr("English")),
        ]
        if info.revision > 1:
            facts.append(self.tr("Revision %1, effective %2").replace("%1", str(info.revision))
                         .replace("%2", info.effective_date.isoformat() if info.effective_date else "—"))
        if info.renewal_of_id:
            facts.append(self.tr("Renews %1").replace("%1", detail.renews_number or "?"))
        self.facts.setText(" · ".join(facts))
        self.items.setRowCount(len(info.items))
        for r, it in enumerate(info.items):
            cells = [choice_label(ItemKind, it.kind), it.description, plain(it.quantity),
                     f"{money(it.unit_price)} {choice_label(PriceUnit, it.price_unit)}",
                     (it.service_start or info.start_date).isoformat()]
            for c, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setToolTip(text)
                if c in (2, 3):
                    cell.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
                self.items.setItem(r, c, cell)
        if detail.refused is None:
            self.totals.setText(totals_html(detail.totals))
        else:   # no VAT rate for a line: said, as billing says it (never 0 %)
            self.totals.setText(f"<span style='color:#c62828'>{html.escape(refused_text(detail.refused))}</span>")
        self.update_buttons()

    def cleared(self) -> None:
        self.totals.setText("")

    def update_buttons(self) -> None:
        """Offer what the contract's status starts from; enable what the service allows, else say why."""
        self.actions = {a.key: a for a in svc.available_actions(self.info, self.actor)}
        for key, button in self.buttons.items():
            a = self.actions.get(key)
            if a is None:
                continue
            button.setVisible(a.applies)
            button.setEnabled(a.allowed)
            button.setToolTip("" if a.allowed else (why_not_text(self.actor, a.permission) or a.reason or ""))

    # --- actions --------------------------------------------------------------------
    def edit(self) -> None:
        if self.info is None:
            return
        dlg = ContractDialog(self.db, self.actor, self.info.id, self)
        if dlg.exec():
            self.show_contract(self.info.id)

    def ask_move(self, key: str):
        if self.info is None:
            return None
        reason = last_day = None
        if key in ("reject", "suspend", "terminate"):
            title = self.buttons[key].text().rstrip("…")
            prompt = self.tr("%1 contract %2. The reason goes into the audit trail.").replace("%1", title) \
                .replace("%2", self.info.number)
            dlg = ReasonDialog(title, prompt, self,
                               date_label=self.tr("Last day of service") if key == "terminate" else None,
                               date_value=min(local_today(), self.info.end_date))
            if not dlg.exec():
                return None
            reason, last_day = dlg.value()
        elif key in ("activate", "expire", "approve"):
            text = {"activate": self.tr("Activate %1? Its racks and GPUs are leased to %2 now."),
                    "expire": self.tr("Expire %1? Its racks and GPUs are released to %2's end date."),
                    "approve": self.tr("Approve %1 for %2?")}[key]
            if QMessageBox.question(self, self.buttons[key].text(),
                                    text.replace("%1", self.info.number).replace("%2", self.info.customer_name)
                                    ) != QMessageBox.Yes:
                return None
        return self.do_move(key, reason=reason, last_day=last_day)

    def do_move(self, key: str, *, reason: str | None = None, last_day: dt.date | None = None):
        info = self.info
        db, actor = self.db, self.actor
        fns = {"submit": lambda: svc.submit_contract(db, actor, info.id, info.version),
               "reject": lambda: svc.reject_contract(db, actor, info.id, reason, info.version),
               "approve": lambda: svc.approve_contract(db, actor, info.id, info.version),
               "activate": lambda: svc.activate_contract(db, actor, info.id, expected_version=info.version),
               "suspend": lambda: svc.suspend_contract(db, actor, info.id, reason, info.version),
               "resume": lambda: svc.resume_contract(db, actor, info.id, info.version),
               "expire": lambda: svc.expire_contract(db, actor, info.id, expected_version=info.version),
               "terminate": lambda: svc.terminate_contract(db, actor, info.id, reason, last_day=last_day,
                                                           expected_version=info.version)}
        fn = fns[key]
        return run_op(self, lambda progress: fn(), label=self.tr("Updating the contract…"),
                      on_success=lambda i: self.show_contract(i.id),
                      on_failure=self.refused)

    def refused(self, exc: BaseException) -> None:
        if isinstance(exc, Conflict):
            answer = QMessageBox.question(self, self.tr("Changed by someone else"),
                                          exc.message + "\n\n" + self.tr("Reload the contract now?"))
            if answer == QMessageBox.Yes and self.info is not None:
                self.show_contract(self.info.id)
                return
        self.message.setText(refused_text(exc))
        self.message.show()

    def ask_renew(self) -> None:
        if self.info is None:
            return
        dlg = QDialog(self)
        dlg.setObjectName("renewDialog")
        dlg.setWindowTitle(self.tr("Renew %1").replace("%1", self.info.number))
        form = QFormLayout(dlg)
        start = date_edit(self.info.end_date + dt.timedelta(days=1), name="renewStart")
        end = date_edit(self.info.end_date.replace(year=self.info.end_date.year + 1), name="renewEnd")
        form.addRow(self.tr("Start"), start)
        form.addRow(self.tr("End"), end)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.button(QDialogButtonBox.Ok).setText(self.tr("Renew"))
        bb.button(QDialogButtonBox.Cancel).setText(self.tr("Cancel"))
        bb.accepted.connect(dlg.accept)
        bb.rejected.connect(dlg.reject)
        form.addRow(bb)
        if dlg.exec():
            self.renew(get_date(start), get_date(end))

    def renew(self, start: dt.date, end: dt.date) -> svc.ContractInfo | None:
        return self._follow_on(lambda: svc.renew_contract(self.db, self.actor, self.info.id,
                                                          start_date=start, end_date=end))

    def _follow_on(self, make) -> svc.ContractInfo | None:
        """A contract made from this one (renewal, amendment): opened, or the refusal shown."""
        try:
            new = apply(make)
        except DomainError as exc:
            self.refused(exc)
            return None
        self.opened.emit(new.id)
        return new

    def ask_amend(self) -> None:
        if self.info is None:
            return
        dlg = ReasonDialog(self.tr("Amend %1").replace("%1", self.info.number),
                           self.tr("A new revision takes over on its effective date; edit its items, then submit it."),
                           self, date_label=self.tr("Effective date"),
                           date_value=max(local_today(), self.info.start_date + dt.timedelta(days=1)))
        if dlg.exec():
            reason, eff = dlg.value()
            self.amend(eff, reason)

    def amend(self, effective: dt.date, reason: str) -> svc.ContractInfo | None:
        return self._follow_on(lambda: svc.amend_contract(self.db, self.actor, self.info.id,
                                                          effective_date=effective, reason=reason))

    def print_pdf(self):
        if self.info is None or not self.actions.get("print") or not self.actions["print"].allowed:
            return None
        from ui.kit.pdfpreview import print_document_preview
        return print_document_preview(self, self.db, self.actor, "contract", self.info.id,
                                      title=self.tr("Contract %1").replace("%1", self.info.number),
                                      on_ready=lambda d: setattr(self, "preview", d))

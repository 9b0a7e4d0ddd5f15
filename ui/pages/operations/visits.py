"""The Operations page's site-access tab for the guard desk: who is on site now (overstays first,
in red), who is expected today, check-in with a badge and check-out, and the daily visitor list PDF.
ID numbers come masked from app/services/operations/visits.py unless the user may see them."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from app.domain.clock import local_text, local_today
from app.domain.errors import DomainError
from models.choices import IdType, VisitState

from ui.kit.dialogs import guard, refused_text
from ui.kit.shown import ReadWhenShown
from ui.shell.i18n import choice_label
from ui.shell.operations import apply, listen
from ui.pages.operations.maintenance import _table


def _hm(t) -> str:
    return local_text(t)[5:16] if t else ""


class VisitsTab(ReadWhenShown, QWidget):
    """Visitors on site now and expected today, check-in/out, the daily list. `deferred` (a tab of the
    Operations page): read when first shown, not when the page is made."""

    watches = frozenset({"visit", "visitor"})

    def __init__(self, db, actor, parent=None, *, deferred: bool = False):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("visitsTab")
        self.here, self.expected = [], []
        self.loaded = False
        self.last_pdf: Path | None = None
        top = QHBoxLayout()
        self.site = QComboBox()
        self.site.setObjectName("siteFilter")
        self.site.addItem(self.tr("All sites"), None)   # the sites come with the first read (load)
        refresh = QPushButton(self.tr("Refresh"))
        refresh.setShortcut(QKeySequence.Refresh)
        self.request_btn = QPushButton(self.tr("Request a visit…"))
        self.request_btn.setObjectName("requestVisitButton")
        self.request_btn.setShortcut(QKeySequence("Ctrl+Shift+V"))
        self.request_btn.setToolTip("Ctrl+Shift+V")
        guard(self.request_btn, actor, "request_visits")
        self.request_btn.clicked.connect(self.request_visit)
        self.list_btn = QPushButton(self.tr("Daily visitor list…"))
        self.list_btn.setObjectName("dailyListButton")
        self.lang = QComboBox()
        self.lang.setObjectName("listLanguage")
        self.lang.addItem("中文", "zh")
        self.lang.addItem("English", "en")
        top.addWidget(QLabel(self.tr("Site")))
        top.addWidget(self.site)
        top.addStretch(1)
        top.addWidget(self.request_btn)
        top.addWidget(self.list_btn)
        top.addWidget(self.lang)
        top.addWidget(refresh)
        headers = [self.tr("Visit"), self.tr("Customer"), self.tr("Visitor"), self.tr("ID"), self.tr("ID number"),
                   self.tr("Company"), self.tr("Space"), self.tr("Escort"), self.tr("Window"), self.tr("Badge"),
                   self.tr("In"), self.tr("Overstay")]
        self.on_site = _table(headers, "onSiteTable")
        self.today = _table(headers[:9] + [self.tr("State")], "expectedTable")
        self.here_title = QLabel()
        self.here_title.setObjectName("onSiteTitle")
        bar = QHBoxLayout()
        self.badge = QLineEdit()
        self.badge.setObjectName("badge")
        self.badge.setPlaceholderText(self.tr("Badge number"))
        self.in_btn = QPushButton(self.tr("Check in"))
        self.in_btn.setObjectName("checkInButton")
        self.out_btn = QPushButton(self.tr("Check out"))
        self.out_btn.setObjectName("checkOutButton")
        self.out_btn.setToolTip(self.tr("The visitor chosen above hands the badge back (Ctrl+O)"))
        QShortcut(QKeySequence("Ctrl+O"), self, activated=self.check_out)
        self.badge.returnPressed.connect(self.check_in)
        self.message = QLabel()
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #c62828")
        bar.addWidget(QLabel(self.tr("Expected today: the chosen visitor")))
        bar.addWidget(self.badge)
        bar.addWidget(self.in_btn)
        bar.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.here_title)
        lay.addWidget(self.on_site, 3)
        lay.addWidget(self.out_btn)
        lay.addWidget(QLabel(self.tr("Expected today")))
        lay.addWidget(self.today, 2)
        lay.addLayout(bar)
        lay.addWidget(self.message)
        refresh.clicked.connect(self.load)
        self.site.currentIndexChanged.connect(self.load)
        self.in_btn.clicked.connect(self.check_in)
        self.out_btn.clicked.connect(self.check_out)
        self.list_btn.clicked.connect(self.daily_list)
        self.on_site.itemSelectionChanged.connect(self.update_actions)
        self.today.itemSelectionChanged.connect(self.update_actions)
        listen(self, self._changed)
        if not deferred:
            self.load()

    def _cells(self, r) -> list[str]:
        return [r.reference, r.customer, r.name, choice_label(IdType, r.id_type), r.id_number, r.company, r.space,
                self.tr("yes") if r.escort_needed else "", f"{_hm(r.window_start)} – {_hm(r.window_end)}"]

    def load(self) -> None:
        """Who is on site and who is expected today in one read (the sites too, the first time)."""
        from app.services.operations.visits import guard_desk
        site = self.site.currentData()
        desk = guard_desk(self.db, self.actor, local_today(), site_id=site, with_sites=not self.loaded)
        if desk.sites is not None:
            self.site.blockSignals(True)
            for sid, code, name in desk.sites:
                self.site.addItem(f"{code} {name}", sid)
            self.site.blockSignals(False)
        self.loaded = True
        self.here = desk.here
        self.expected = [r for r in desk.day
                         if r.checked_in_at is None and r.state in (VisitState.APPROVED, VisitState.REQUESTED)]
        over = sum(1 for r in self.here if r.overstayed)
        self.here_title.setText(self.tr("On site now: %1 visitor(s), %2 overstayed").replace("%1", str(len(self.here)))
                                .replace("%2", str(over)))
        self.on_site.setRowCount(len(self.here))
        for i, r in enumerate(self.here):
            over_text = self.tr("%1 min").replace("%1", str(r.overstay_min)) if r.overstayed else ""
            for c, text in enumerate(self._cells(r) + [r.badge, _hm(r.checked_in_at), over_text]):
                item = QTableWidgetItem(text)
                if r.overstayed:
                    item.setForeground(QColor("#c62828"))
                self.on_site.setItem(i, c, item)
        self.today.setRowCount(len(self.expected))
        for i, r in enumerate(self.expected):
            for c, text in enumerate(self._cells(r) + [choice_label(VisitState, r.state)]):
                self.today.setItem(i, c, QTableWidgetItem(text))
        self.update_actions()

    @staticmethod
    def _chosen(table, rows):
        sel = table.selectionModel().selectedRows() if table.selectionModel() else []
        return rows[sel[0].row()] if sel and sel[0].row() < len(rows) else None

    def update_actions(self) -> None:
        arriving, leaving = self._chosen(self.today, self.expected), self._chosen(self.on_site, self.here)
        guard(self.in_btn, self.actor, "guard_desk", allowed=arriving is not None,
              tooltip="" if arriving else self.tr("Choose an expected visitor first"))
        guard(self.out_btn, self.actor, "guard_desk", allowed=leaving is not None,
              tooltip="" if leaving else self.tr("Choose a visitor on site first"))
        self.badge.setEnabled(self.in_btn.isEnabled())
        guard(self.list_btn, self.actor, "print", allowed=self.site.currentData() is not None,
              tooltip="" if self.site.currentData() else self.tr("Choose a site first"))

    def request_visit(self):
        from ui.pages.operations.visitform import VisitRequestDialog
        if getattr(self, "form", None) is not None:
            self.form.deleteLater()      # the last one, closed (not on close: its visitor rows' widgets go with it)
        dlg = VisitRequestDialog(self.db, self.actor, self)
        dlg.requested.connect(lambda _vid: self.load())
        self.form = dlg
        dlg.open()
        return dlg

    def _write(self, fn) -> bool:
        self.message.clear()
        try:
            apply(fn)
        except DomainError as exc:
            self.message.setText(refused_text(exc))
            return False
        return True

    def check_in(self) -> bool:
        from app.services.operations.visits import check_in
        r = self._chosen(self.today, self.expected)
        if r is None:
            return False
        badge = self.badge.text()
        ok = self._write(lambda: check_in(self.db, self.actor, r.visitor_id, badge))
        if ok:
            self.badge.clear()
        return ok

    def check_out(self) -> bool:
        from app.services.operations.visits import check_out
        r = self._chosen(self.on_site, self.here)
        if r is None:
            return False
        return self._write(lambda: check_out(self.db, self.actor, r.visitor_id))

    def daily_list(self, on_ready=None):
        """The day's visitor list of the chosen site, built on a background thread, then previewed."""
        from app.documents.visitors import VisitorListKey
        from ui.kit.pdfpreview import print_document_preview
        site, day = self.site.currentData(), local_today()
        if site is None:
            return None

        def ready(dialog) -> None:
            self.last_pdf = dialog.path
            if on_ready:
                on_ready(dialog)
        return print_document_preview(self, self.db, self.actor, "visitors", VisitorListKey(site, day, self.actor),
                                      language=self.lang.currentData(), on_ready=ready,
                                      title=self.tr("Daily visitor list %1").replace("%1", str(day)))

"""The main window: navigation, pages, keyboard, status bar, live refresh.

The page registry is ui/shell/pageregistry.py; the sites and racks pages' pictures and the racks'
actions are ui/shell/sidepanels.py (mixed in)."""
from __future__ import annotations

import gc
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QMainWindow, QMessageBox, QPushButton, QSplitter,
                               QStackedWidget, QVBoxLayout, QWidget)

from app.read import queries
from app.domain.actor import Actor
from app.store.config import describe_url
from app.store.db import Database
from models.choices import Role

from ui.shell.i18n import choice_label, kind_label
from ui.shell.operations import announce, apply, forget_window, listen
from ui.kit.search import SEARCH_PAGE
from ui.shell.pageregistry import LIST_PAGES, PAGE_IDS, PAGES, SCROLLED_PAGES, TICKET_OBJECTS, LazyPages
from ui.shell.settings import settings
from ui.shell.sidepanels import SidePanels

if TYPE_CHECKING:
    from ui.kit.listview import ListPage
    from ui.kit.search import SearchDialog

log = logging.getLogger(__name__)


class MainWindow(SidePanels, QMainWindow):
    def __init__(self, db: Database, actor: Actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("mainWindow")
        self.setWindowTitle(self.tr("IDC console"))
        self.nav = QListWidget()
        self.nav.setObjectName("navigation")
        self.nav.setMaximumWidth(220)
        self.nav.setSpacing(3)
        self.stack = QStackedWidget()
        # every page is made when it is first shown (or asked for): until then an empty stand-in
        self.pages: dict[str, QWidget] = LazyPages(self.ensure_page, set(PAGE_IDS))
        self.lists: dict[str, ListPage] = LazyPages(self.ensure_page, LIST_PAGES)
        for _pid, label, _kind in PAGES:
            self.stack.addWidget(QWidget())
            self.nav.addItem(QListWidgetItem(self.tr(label)))
        self.nav.currentRowChanged.connect(self._go)
        # Lists load lazily: the page made current loads its first window (shown or not yet)
        self.stack.currentChanged.connect(self._load_current)
        splitter = QSplitter()
        splitter.addWidget(self.nav)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([170, 1100])
        self.setCentralWidget(splitter)
        self._shortcuts()
        self._menus()
        self._status()
        geom = settings().get("window/geometry")
        if not (geom and not geom.isEmpty() and self.restoreGeometry(geom)):
            self.place_first_time()
        state = settings().get("window/state")
        if state and not state.isEmpty():
            self.restoreState(state)
        self.nav.setCurrentRow(max(0, min(settings().get("window/page"), len(PAGES) - 1)))
        # Live refresh: another user's change moves the audit head.
        self.head = queries.audit_head(db)
        self.poll = QTimer(self)
        self.poll.setObjectName("livePoll")
        self.poll.setInterval(max(1, settings().get("live_refresh_seconds")) * 1000)
        self.poll.timeout.connect(self.check_head)
        self.poll.start()
        # holds on GPU nodes expire (app/services/capacity/holds.py): recorded every five minutes
        self.hold_sweep = QTimer(self)
        self.hold_sweep.setObjectName("holdSweep")
        self.hold_sweep.setInterval(300_000)
        self.hold_sweep.timeout.connect(self.sweep_holds)
        self.hold_sweep.start()
        listen(self, self._own_change)
        from ui.pages.deskwatch import DeskWatch
        self.desk_watch = DeskWatch(self, db, actor)   # the SLA sweep and one's escalations (issue 24)

    FIRST_START_FRACTION = 0.9

    _froze = False

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not MainWindow._froze:
            # Everything made up to the first show (modules, SQLAlchemy's mappings, Qt wrappers:
            # ~0.5 M objects) lives as long as the program: out of the cyclic garbage collector's
            # sight. Its full collections walked them all, 100-270 ms on the GUI thread at random
            # moments, e.g. while scrolling a list (docs/performance.md); now they walk what came after.
            MainWindow._froze = True
            gc.freeze()

    def ensure_page(self, pid: str) -> QWidget:
        """The page `pid`, made now in place of its stand-in if it was not made yet."""
        if dict.__contains__(self.pages, pid):
            return dict.__getitem__(self.pages, pid)
        index = PAGE_IDS.index(pid)
        page = self._make_page(pid, PAGES[index][2])
        dict.__setitem__(self.pages, pid, page)
        stand_in = self.stack.widget(index)
        current = self.stack.currentIndex()
        self.stack.blockSignals(True)     # no page "shown" while the stand-in is swapped out
        try:
            self.stack.insertWidget(index, self._scrollable(page) if pid in SCROLLED_PAGES else page)
            self.stack.removeWidget(stand_in)
            self.stack.setCurrentIndex(current)
        finally:
            self.stack.blockSignals(False)
        stand_in.deleteLater()
        return page

    def _go(self, row: int) -> None:
        """The navigation's row chosen: its page made if new, then shown."""
        if 0 <= row < len(PAGES):
            self.ensure_page(PAGE_IDS[row])
        self.stack.setCurrentIndex(row)
        self._load_current(row)

    @staticmethod
    def _scrollable(page: QWidget) -> QWidget:
        """A page whose content wants more room than a small screen has (the dashboard's charts):
        it scrolls, so the window still fits the screen with its status bar showing."""
        from PySide6.QtWidgets import QFrame, QScrollArea
        area = QScrollArea()
        area.setObjectName(f"scroll_{page.objectName()}")
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.NoFrame)
        area.setWidget(page)
        return area

    SMALL_SCREEN_WIDTH = 1440   # a laptop's 1280×800 or 1366×768: every pixel is needed (the dashboard)

    @classmethod
    def first_size(cls, width: int, height: int) -> tuple[int, int]:
        """The window's first size in a screen's available area: all of a small screen (at 90 % of
        1280×800 the dashboard scrolled sideways), 90 % of a larger one."""
        if width <= cls.SMALL_SCREEN_WIDTH:
            return width, height
        return int(width * cls.FIRST_START_FRACTION), int(height * cls.FIRST_START_FRACTION)

    def place_first_time(self) -> None:
        """No saved geometry: the first size in the screen's available area, centred (saved geometry wins)."""
        from PySide6.QtGui import QGuiApplication
        screen = self.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            self.resize(1280, 800)
            return
        area = screen.availableGeometry()
        w, h = self.first_size(area.width(), area.height())
        self.resize(w, h)
        self.move(area.x() + (area.width() - w) // 2, area.y() + (area.height() - h) // 2)

    def _make_page(self, pid: str, kind: str | None) -> QWidget:
        if pid == "dashboard":
            from ui.pages.dashboard import DashboardPage
            return DashboardPage(self.db, self, actor=self.actor)
        if pid == "xconnects":
            from ui.pages.xconnects import XconnectsPage
            return XconnectsPage(self.db, self.actor, self)
        if pid == "operations":
            from ui.pages.operations import OperationsPage
            return OperationsPage(self.db, self.actor, self)
        if pid == "clusters":
            from ui.pages.clusters import ClustersPage
            return ClustersPage(self.db, self.actor, self)
        if pid in ("contracts", "billing", "audit"):
            from ui.pages.audit import AuditPage
            from ui.pages.billing.page import BillingPage
            from ui.pages.contracts.list import ContractsPage
            cls = {"contracts": ContractsPage, "billing": BillingPage, "audit": AuditPage}[pid]
            special = cls(self.db, self.actor, self)
            dict.__setitem__(self.lists, pid, special.list)
            if pid == "audit":          # an event's "Open …": the record on its own page
                special.openObject.connect(self.open_object)
            return special
        from ui.kit.listview import ListPage
        page = ListPage(self.db, self.actor, kind, self)
        dict.__setitem__(self.lists, pid, page)
        page.openRecord.connect(self.open_special)
        if pid == "gpus":
            act = page._action("fleet", self.tr("Fleet report PDF…"), self.fleet_report, "print")
            page.toolbar.removeAction(act)
            page.toolbar.insertAction(page.actions_["refresh"], act)
            page.update_actions()
        if pid == "devices":  # device types have no list of their own; they are imported here
            act = page._action("import_types", self.tr("Import device types…"), self.import_device_types, "import")
            page.toolbar.removeAction(act)
            page.toolbar.insertAction(page.actions_["refresh"], act)
            page.update_actions()
        if pid in TICKET_OBJECTS:   # "Open a ticket for this" (toolbar and row menu)
            act = page._action("ticket", self.tr("Open a ticket for this…"),
                               lambda: self.open_ticket_for(TICKET_OBJECTS[pid], page.view.current_id()), "raise_tickets")
            page.toolbar.removeAction(act)
            page.toolbar.insertAction(page.actions_["refresh"], act)
            page.extra_row_actions.append(("menuTicket", self.tr("Open a ticket for this…"),
                                           lambda: self.open_ticket_for(TICKET_OBJECTS[pid], page.view.current_id())))
            page.update_actions()
        if pid == "sites":
            return self._with_sites(page)
        if pid == "racks":
            return self._with_rack(page)
        if pid == "users":
            return self._users_page(page)
        return page

    def open_ticket_for(self, object_type: str, object_id):
        """The Operations page's new-ticket form, filled in from a rack, device, GPU, cross-connect or feed."""
        from app.services.operations.tickets import prefill_for
        if object_id is None:
            return None
        pre = prefill_for(self.db, object_type, object_id)
        self.nav.setCurrentRow(PAGE_IDS.index("operations"))
        return self.ensure_page("operations").open_ticket_for(pre)

    def __getattr__(self, name: str):
        # the pictures beside the sites and racks lists come with their page, made on first use
        page = {"site_panels": "sites", "rack_panel": "racks", "room_panel": "racks"}.get(name)
        pages = self.__dict__.get("pages")
        if page is None or pages is None or dict.__contains__(pages, page):
            raise AttributeError(name)
        self.ensure_page(page)
        return self.__dict__[name] if name in self.__dict__ else object.__getattribute__(self, name)

    def _users_page(self, page: ListPage) -> QWidget:
        w = QWidget()
        w.setObjectName("page_users")
        v = QVBoxLayout(w)
        v.setContentsMargins(0, 0, 0, 0)
        v.addWidget(page, 1)
        row = QHBoxLayout()
        btn = QPushButton(self.tr("Settings…"))
        btn.setObjectName("settingsButton")
        btn.clicked.connect(self.open_settings)
        row.addWidget(btn)
        from ui.shell.installsettings import FourEyesCheck, TaxCodesButton
        row.addWidget(FourEyesCheck(self.db, self.actor, w))
        row.addWidget(TaxCodesButton(self.db, self.actor, w))
        from ui.pages.users import UnlockButton
        row.addWidget(UnlockButton(self.db, self.actor, page, w))
        row.addStretch(1)
        v.addLayout(row)
        return w

    def _shortcuts(self) -> None:
        def sc(seq, slot, name):
            act = QAction(self)
            act.setObjectName(name)
            act.setShortcut(QKeySequence(seq))
            act.setShortcutContext(Qt.WindowShortcut)
            act.triggered.connect(slot)
            self.addAction(act)
            return act
        self.act_filter = sc(QKeySequence.Find, self.focus_filter, "actFilter")
        self.act_search = sc("Ctrl+K", self.open_search, "actSearch")
        self.act_new = sc(QKeySequence.New, lambda: self._on_list("new_record"), "actNew")
        self.act_refresh = sc(QKeySequence.Refresh, self.refresh_all, "actRefresh")
        self.act_retire = sc(QKeySequence.Delete, lambda: self._on_list("retire_selected"), "actRetire")
        self.act_quit = sc("Ctrl+Q", self.close, "actQuit")   # QKeySequence.Quit is empty on Windows
        self.act_users = sc("Ctrl+,", self.users_and_settings, "actUsers")
        self.act_users.setText(self.tr("Users && settings"))
        self.act_operations = sc("Ctrl+J", lambda: self.nav.setCurrentRow(PAGE_IDS.index("operations")), "actOperations")
        for i in range(min(10, len(PAGES))):     # Ctrl+1 … Ctrl+9, then Ctrl+0 (the audit log)
            # triggered(bool checked) would land in a defaulted `i`: take the flag first
            sc(f"Ctrl+{(i + 1) % 10}", lambda _checked=False, i=i: self.nav.setCurrentRow(i), f"actPage{i + 1}")

    def _menus(self) -> None:
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        help_menu.setObjectName("menuHelp")
        self.act_about = help_menu.addAction(self.tr("About IDC console…"))
        self.act_about.setObjectName("actAbout")
        self.act_about.triggered.connect(self.show_about)

    def about_lines(self) -> list[tuple[str, str]]:
        """What Help → About shows: the version, the database (never its password), the log, the data."""
        from app import __version__
        from app.store.config import data_dir, without_password
        from app.store.logs import current_log_path
        return [(self.tr("Version"), __version__),
                (self.tr("Database"), without_password(self.db.url)),
                (self.tr("Log file"), str(current_log_path())),
                (self.tr("Data directory"), str(data_dir()))]

    def show_about(self) -> QMessageBox:
        box = QMessageBox(QMessageBox.Information, self.tr("About IDC console"),
                          "\n".join(f"{k}: {v}" for k, v in self.about_lines()), QMessageBox.Ok, self)
        box.setObjectName("aboutBox")
        box.setTextInteractionFlags(Qt.TextSelectableByMouse)
        box.open()
        return box

    def _status(self) -> None:
        sb = self.statusBar()
        self.db_label = QLabel(self.tr("Database: %1").replace("%1", describe_url(self.db.url)))
        self.db_label.setObjectName("statusDb")
        self.user_label = QLabel(self.tr("User: %1 (%2)").replace("%1", self.actor.name)
                                 .replace("%2", choice_label(Role, self.actor.role)))
        self.user_label.setObjectName("statusUser")
        sb.addWidget(self.db_label, 1)
        self.replica_label = QLabel()      # the read replica's trouble, when there is some (issue 26)
        self.replica_label.setObjectName("statusReplica")
        self.replica_label.hide()
        sb.addWidget(self.replica_label)
        sb.addPermanentWidget(self.user_label)
        # the signed-in user's menu: own password, users & settings, log out / switch user
        from PySide6.QtWidgets import QMenu, QToolButton
        self.account_button = QToolButton()
        self.account_button.setObjectName("accountButton")
        self.account_button.setText(self.tr("Account"))
        self.account_button.setPopupMode(QToolButton.InstantPopup)
        menu = QMenu(self.account_button)
        self.act_password = menu.addAction(self.tr("Change my password…"), self.change_password)
        self.act_password.setObjectName("actPassword")
        menu.addAction(self.act_users)
        menu.addSeparator()
        self.act_logout = menu.addAction(self.tr("Log out / switch user…"), self.log_out)
        self.act_logout.setObjectName("actLogout")
        self.account_button.setMenu(menu)
        sb.addPermanentWidget(self.account_button)

    # --- behaviour ----------------------------------------------------------------
    def _load_current(self, index: int) -> None:
        # only a page already made: the stack shows stand-ins of the others
        page = dict.get(self.lists, PAGES[index][0]) if 0 <= index < len(PAGES) else None
        if page is not None:
            page.model.ensure_loaded()

    def current_list(self) -> ListPage | None:
        pid = PAGES[self.nav.currentRow()][0] if self.nav.currentRow() >= 0 else None
        return self.lists.get(pid) if pid else None

    def _on_list(self, method: str) -> None:
        page = self.current_list()
        if page is not None:
            getattr(page, method)()

    def focus_filter(self) -> None:
        page = self.current_list()
        if page is not None:
            page.focus_filter()

    def refresh_all(self) -> None:
        announce({"*"})

    def show_page(self, pid: str) -> None:
        self.nav.setCurrentRow([p[0] for p in PAGES].index(pid))

    def open_search(self) -> SearchDialog:
        from ui.kit.search import SearchDialog
        dlg = SearchDialog(self.db, self)
        dlg.chosen.connect(self.jump_to)
        dlg.open()
        self.search_dialog = dlg
        return dlg

    def jump_to(self, kind: str, id_) -> None:
        pid = SEARCH_PAGE[kind]
        self.show_page(pid)
        self.lists[pid].select_record(id_)
        self.lists[pid].view.setFocus()

    def open_object(self, kind: str, id_) -> None:
        if kind in SEARCH_PAGE:
            self.jump_to(kind, id_)

    def open_special(self, kind: str, id_) -> None:
        """Records without a form here (contracts, statements, audit events): show what we have."""
        page = self.current_list()
        if page is None:
            return
        row = page.model.row_of(id_)
        if row < 0:
            return
        lines = [f"{page.model.headerData(c, Qt.Horizontal)}: {page.model.data(page.model.index(row, c))}"
                 for c in range(page.model.columnCount())]
        QMessageBox.information(self, kind_label(kind), "\n".join(lines))

    def show_replica_state(self) -> None:
        """The read replica as its last reads found it: down (the primary reads) or lagging; no query here."""
        from app.store.replica import LAG_SHOWN_S
        replica = getattr(self.db, "replica", None)
        text = ""
        if replica is not None and replica.down:
            text = self.tr("Read replica unavailable: reading from the primary")
        elif replica is not None and (replica.lag or 0) > LAG_SHOWN_S:
            text = self.tr("Read replica %1 s behind").replace("%1", f"{replica.lag:.0f}")
        self.replica_label.setText(text)
        self.replica_label.setVisible(bool(text))

    def check_head(self) -> None:
        self.show_replica_state()
        try:
            head = queries.audit_head(self.db)
        except Exception:  # a network hiccup must not kill the window
            log.warning("live refresh: the audit head could not be read", exc_info=True)
            return
        if head != self.head:
            self.head = head
            announce({"*"})

    def sweep_holds(self) -> list[str]:
        from app.services.capacity.holds import expire_holds

        try:
            return apply(lambda: expire_holds(self.db, self.actor))
        except Exception:  # the next sweep tries again; searches already treat an expired hold as gone
            log.warning("the hold sweep failed", exc_info=True)
            return []

    def _own_change(self, kinds) -> None:
        # our own change already refreshed the views; don't refresh again on the next poll
        try:
            self.head = queries.audit_head(self.db)
        except Exception:  # the next poll refreshes once more, no harm
            log.warning("after our own change the audit head could not be read", exc_info=True)

    switch_requested = False

    def users_and_settings(self) -> None:
        """Ctrl+, : the users page for whoever manages users, else the settings dialog."""
        from app.domain.auth import can
        if can(self.actor, "manage_users"):
            self.show_page("users")
        else:
            self.open_settings()

    def change_password(self):
        from ui.shell.account import ChangePasswordDialog
        dlg = ChangePasswordDialog(self.db, self.actor, self)
        if dlg.exec():
            self.statusBar().showMessage(self.tr("Your password was changed."), 8000)
        return dlg

    def log_out(self) -> None:
        """Close this window; the console asks who signs in next (ui.shell.main.run_console)."""
        self.switch_requested = True
        self.close()

    def open_settings(self) -> None:
        from ui.shell.dbdialog import SettingsDialog
        dlg = SettingsDialog(self, in_use=self.db.url)
        dlg.exec()

    def closeEvent(self, event) -> None:
        s = settings()
        s.set("window/geometry", self.saveGeometry())
        s.set("window/state", self.saveState())
        s.set("window/page", self.nav.currentRow())
        for page in self.lists.values():
            page.view.save_header()
        s.sync()
        self.poll.stop()
        forget_window(self)     # log out / switch user: the next window's changes are not this one's
        super().closeEvent(event)

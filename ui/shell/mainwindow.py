"""The main window: navigation, pages, keyboard, status bar, live refresh."""
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
from ui.shell.settings import settings

if TYPE_CHECKING:
    from ui.kit.listview import ListPage
    from ui.kit.search import SearchDialog

log = logging.getLogger(__name__)

# (page id, English label, list kind or None)
PAGES = [
    ("dashboard", "Dashboard", None),
    ("sites", "Sites & coverage", "site"),
    ("racks", "Racks", "rack"),
    ("devices", "Devices", "device"),
    ("gpus", "GPUs", "gpu"),
    ("customers", "Customers", "customer"),
    ("contracts", "Contracts", "contract"),
    ("billing", "Billing", "statement"),
    ("xconnects", "Cross-connects", None),  # ui/pages/xconnects.py
    ("audit", "Audit log", "audit"),
    ("users", "Users & settings", "user"),
    ("operations", "Operations", None),     # ui/pages/operations/: tickets, SLA, on call (issue 24); Ctrl+J
    ("clusters", "GPU clusters", None),  # ui/pages/clusters/ (issue 25)
]
TICKET_OBJECTS = {"racks": "rack", "devices": "device", "gpus": "gpu"}   # list page -> ticket object type
SCROLLED_PAGES = {"dashboard"}   # pages in a scroll area: their minimum size does not bind the window
PAGE_IDS = [p[0] for p in PAGES]
LIST_PAGES = {pid for pid, _label, kind in PAGES if kind is not None}


def _optional_widget(module: str, name: str):
    from ui.pages.dashboard import optional_widget
    return optional_widget(module, name)


class LazyPages(dict):
    """Page id → page, each page made when first shown or first asked for (`window.lists["gpus"]`):
    the window's first paint waits only for the page it shows (cold start, docs/performance.md).
    Iterating gives the pages made so far."""

    def __init__(self, make, ids):
        super().__init__()
        self._make, self._ids = make, ids

    def __missing__(self, pid):
        if pid not in self._ids:
            raise KeyError(pid)
        self._make(pid)
        return dict.__getitem__(self, pid)

    def get(self, pid, default=None):
        try:
            return self[pid]
        except KeyError:
            return default

    def __contains__(self, pid) -> bool:
        return pid in self._ids


class MainWindow(QMainWindow):
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
        from ui.pages.operations import DeskWatch
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
            from ui.pages.billing import BillingPage
            from ui.pages.contracts import ContractsPage
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

    def _with_sites(self, page: ListPage) -> QWidget:
        """Sites: the list above the coverage tree ("who serves …") and the plot of sites."""
        from PySide6.QtWidgets import QTabWidget
        Tree = _optional_widget("ui.widgets.region_tree", "RegionTreePanel")
        Plot = _optional_widget("ui.widgets.site_plot", "SitePlot")
        tabs = QTabWidget()
        tabs.setObjectName("siteTabs")
        self.site_panels = []
        for cls, title in ((Tree, self.tr("Coverage")), (Plot, self.tr("Site map"))):
            if cls is None:
                continue
            try:
                panel = cls(self.db, tabs)
            except Exception:  # a broken picture must not stop the console
                log.exception("the sites page's %s panel could not be made", cls.__name__)
                continue
            if hasattr(panel, "siteActivated"):
                panel.siteActivated.connect(lambda sid: self.lists["sites"].select_record(sid))
            tabs.addTab(panel, title)
            self.site_panels.append(panel)
        if not self.site_panels:
            return page
        split = QSplitter(Qt.Horizontal)
        split.setObjectName("split_site")
        split.addWidget(page)
        split.addWidget(tabs)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        listen(self, self._refresh_site_side)
        return split

    def _refresh_site_side(self, kinds) -> None:
        if not self.isVisible() or not (kinds & {"*", "site", "coverage", "region", "subsidiary"}):
            return
        for panel in self.site_panels:
            try:
                panel.refresh()
            except Exception:  # one panel's failure must not stop the others
                log.exception("the sites page's %s panel could not be refreshed", type(panel).__name__)

    def _with_rack(self, page: ListPage) -> QWidget:
        """Racks: the list beside the selected rack's elevation and its room's floor."""
        from PySide6.QtWidgets import QTabWidget
        Rack = _optional_widget("ui.widgets.rack_elevation", "RackPanel")
        Room = _optional_widget("ui.widgets.room_view", "RoomPanel")
        if Rack is None and Room is None:
            return page
        tabs = QTabWidget()
        tabs.setObjectName("rackTabs")
        self.rack_panel = self.room_panel = None
        try:
            if Rack is not None:
                self.rack_panel = Rack(self.db, self.actor, tabs)
                self.rack_panel.deviceActivated.connect(lambda did: self._open_record("device", did))
                if hasattr(self.rack_panel, "placeRequested"):
                    self.rack_panel.placeRequested.connect(self.place_device)
                    self.rack_panel.reserveRequested.connect(self.reserve_units)
                tabs.addTab(self.rack_panel, self.tr("Elevation"))
            if Room is not None:
                self.room_panel = Room(self.db, tabs)
                self.room_panel.rackActivated.connect(lambda rid: self.lists["racks"].select_record(rid))
                tabs.addTab(self.room_panel, self.tr("Room"))
            Power = _optional_widget("ui.pages.power", "RackPowerPanel")  # feeds, A/B loads, N redundancy
            self.power_panel = Power(self.db, tabs) if Power is not None else None
            if self.power_panel is not None:
                tabs.addTab(self.power_panel, self.tr("Power"))
        except Exception:  # a broken picture must not stop the console
            log.exception("the rack pictures could not be made: the racks list alone")
            return page
        side = QWidget()
        sv = QVBoxLayout(side)
        sv.setContentsMargins(0, 0, 0, 0)
        pdf_row = QHBoxLayout()
        pdf_row.setContentsMargins(6, 6, 6, 0)
        self.rack_sheet_button = QPushButton(self.tr("Rack sheet PDF…"))
        self.rack_sheet_button.setObjectName("rackSheetPdf")
        self.rack_sheet_button.clicked.connect(lambda: self.rack_pdf("rack"))
        self.capacity_button = QPushButton(self.tr("Site capacity PDF…"))
        self.capacity_button.setObjectName("capacityPdf")
        self.capacity_button.clicked.connect(lambda: self.rack_pdf("capacity"))
        self.find_free_button = QPushButton(self.tr("Find free U…"))
        self.find_free_button.setObjectName("findFreeUnits")
        self.find_free_button.clicked.connect(self.find_free_units)
        pdf_row.addWidget(self.find_free_button)
        from ui.kit.dialogs import guard
        for b in (self.rack_sheet_button, self.capacity_button):
            guard(b, self.actor, "print", tooltip=self.tr("Choose a rack in the list first"))
            pdf_row.addWidget(b)
        pdf_row.addStretch(1)
        sv.addLayout(pdf_row)
        sv.addWidget(tabs, 1)
        split = QSplitter(Qt.Horizontal)
        split.setObjectName("split_rack")
        split.addWidget(page)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)

        def follow(*_a):
            rid = page.view.current_id()
            if rid is None:
                return
            try:
                if self.rack_panel is not None:
                    self.rack_panel.load_rack(rid)
                if getattr(self, "power_panel", None) is not None:
                    self.power_panel.load_rack(rid)
                if self.room_panel is not None:
                    rec = queries.record(self.db, "rack", rid)
                    if rec and getattr(self.room_panel, "room_id", None) != rec["room_id"]:
                        self.room_panel.load_room(rec["room_id"])
            except Exception:  # the list still works without its pictures
                log.exception("the rack pictures could not follow rack %s", rid)
        page.view.clicked.connect(follow)
        page.view.selectionModel().selectionChanged.connect(follow)

        listen(self, self._refresh_rack_side)
        return split

    def _refresh_rack_side(self, kinds) -> None:
        if not self.isVisible():
            return
        for panel in (self.rack_panel, self.room_panel, getattr(self, "power_panel", None)):
            if panel is not None and hasattr(panel, "refresh"):
                try:
                    panel.refresh()
                except Exception:  # the list still works without its pictures
                    log.exception("the %s could not be refreshed", type(panel).__name__)

    # --- racks: place, reserve, PDFs; GPUs: fleet report ------------------------------
    def place_device(self, face: str, unit: int):
        from ui.pages.rackforms import PlaceDeviceDialog
        rid = getattr(self.rack_panel, "rack_id", None)
        if rid is None:
            return None
        dlg = PlaceDeviceDialog(self.db, self.actor, rid, face, unit, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        self.rack_form = dlg
        dlg.accepted.connect(self.rack_panel.refresh)
        dlg.open()
        return dlg

    def find_free_units(self):
        from ui.pages.freespace import FindFreeUnitsDialog
        dlg = FindFreeUnitsDialog(self.db, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        dlg.openRange.connect(self.open_rack_range)
        dlg.placeRange.connect(self._place_found)
        self.free_dialog = dlg
        dlg.open()
        return dlg

    def _place_found(self, _rack_id: int, face: str, unit: int, type_id) -> None:
        form = self.place_device(face, unit)
        if form is not None and type_id is not None:
            box = form.editors["device_type_id"]
            box.setCurrentIndex(max(0, box.findData(type_id)))

    def open_rack_range(self, rack_id: int, face: str, u_from: int, u_to: int) -> None:
        """The racks page with `rack_id` chosen and its elevation showing units u_from–u_to."""
        self.show_page("racks")
        self.lists["racks"].select_record(rack_id)
        if getattr(self, "rack_panel", None) is not None:
            if getattr(self.rack_panel, "rack_id", None) != rack_id:
                self.rack_panel.load_rack(rack_id)
            if hasattr(self.rack_panel, "show_units"):
                self.rack_panel.show_units(face, u_from, u_to)

    def reserve_units(self, face: str, u_from: int, u_to: int):
        from ui.pages.rackforms import ReserveDialog
        rid = getattr(self.rack_panel, "rack_id", None)
        if rid is None:
            return None
        dlg = ReserveDialog(self.db, self.actor, rid, face, u_from, u_to, self)
        dlg.setAttribute(Qt.WA_DeleteOnClose)
        self.rack_form = dlg
        dlg.accepted.connect(self.rack_panel.refresh)
        dlg.open()
        return dlg

    def rack_pdf(self, kind: str):
        from ui.kit.pdfpreview import print_document_preview
        rid = self.lists["racks"].view.current_id()
        if rid is None:
            QMessageBox.information(self, self.tr("Racks"), self.tr("Choose a rack in the list first."))
            return None
        where = queries.rack_site(self.db, rid)
        if kind == "rack":
            return print_document_preview(self, self.db, self.actor, "rack", rid,
                                          title=self.tr("Rack sheet %1").replace("%1", " / ".join(where or ())))
        return print_document_preview(self, self.db, self.actor, "capacity", where[0],
                                      title=self.tr("Capacity of %1").replace("%1", where[0]))

    def import_device_types(self):
        from ui.kit.importdialog import DeviceTypeImportDialog
        DeviceTypeImportDialog(self.db, self.actor, self).exec()

    def fleet_report(self):
        from ui.kit.pdfpreview import print_document_preview
        return print_document_preview(self, self.db, self.actor, "fleet", None, title=self.tr("GPU fleet report"))

    def _open_record(self, kind: str, id_) -> None:
        from ui.kit.forms import PERMISSION, open_form
        from app.domain.auth import can
        open_form(self.db, self.actor, kind, id_, self,
                  read_only=not can(self.actor, PERMISSION[kind])).exec()

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

"""The main window's pictures beside the sites and racks lists (coverage, site map, elevation, room,
power) and the racks page's actions: place, reserve, find free units, rack and capacity PDFs."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QMessageBox, QPushButton, QSplitter, QVBoxLayout, QWidget

from app.read import queries

from ui.shell.operations import listen

if TYPE_CHECKING:
    from ui.kit.listview import ListPage

log = logging.getLogger(__name__)


def _optional_widget(module: str, name: str):
    from ui.pages.dashboard import optional_widget
    return optional_widget(module, name)


class SidePanels:
    """Mixed into MainWindow (its `self.tr` context stays MainWindow): the sites and racks pages' pictures."""

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
                self._show_rack_side(rid)
            except Exception:  # the list still works without its pictures
                log.exception("the rack pictures could not follow rack %s", rid)
        page.view.clicked.connect(follow)
        page.view.selectionModel().selectionChanged.connect(follow)

        listen(self, self._refresh_rack_side)
        return split

    def _show_rack_side(self, rid: int) -> None:
        """The rack's elevation, power and room, read together (app/read/viewdata/rackside.py, issue 26)."""
        from app.read.viewdata.rackside import rack_side
        room_panel, power_panel = self.room_panel, getattr(self, "power_panel", None)
        side = rack_side(self.db, rid, shown_room_id=getattr(room_panel, "room_id", None),
                         room=room_panel is not None)
        if self.rack_panel is not None:
            self.rack_panel.rack_id = rid
            self.rack_panel.set_data(side.elevation)
        if power_panel is not None:
            power_panel.load_rack(rid, side.power)
        if room_panel is not None and side.room is not None:
            room_panel.room_id = side.room_id
            room_panel.set_data(side.room)

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
        from ui.kit.formfields import PERMISSION
        from ui.kit.forms import open_form
        from app.domain.auth import can
        open_form(self.db, self.actor, kind, id_, self,
                  read_only=not can(self.actor, PERMISSION[kind])).exec()

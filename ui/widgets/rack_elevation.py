"""Rack elevation: front and rear faces side by side, devices as blocks, drag to move.

`RackElevationView` draws a `RackElevationData` and only reports intentions:
- `deviceActivated(id)` on double-click (and "Open" in the menu), `deviceClicked(id)` on click;
- `deviceMoveRequested(id, Decimal position, face)` when a device is dropped on free units; the
  block stays where it was dropped until the caller reloads (`set_data`) or refuses
  (`snap_back()`);
- `placeRequested(face, u)` and `reserveRequested(face, u_from, u_to)` from the right-click
  menu on free units.
`RackPanel` is the database-aware version: it loads the rack, runs moves through
`app.services.dcim.move_device`, explains a refusal and snaps the device back.
"""
from __future__ import annotations

import logging
from decimal import Decimal

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (QGraphicsScene, QGraphicsView, QMenu)

from app.read.viewdata import ElevationDevice, RackElevationData
from models.choices import RackStatus

from ui.widgets import fmt_decimal, scene_text
from ui.widgets.power_bar import draw_feed_bars
from ui.kit.dialogs import log_failure, refused_text

from ui.widgets.rack_block import FACE_W, FACES, HALF, HEADER_H, NUM_W, UH, DeviceBlock, choice_text, face_x


class RackElevationView(QGraphicsView):
    deviceActivated = Signal(int)
    deviceClicked = Signal(int)
    deviceMoveRequested = Signal(int, object, str)     # device id, Decimal position, face
    placeRequested = Signal(str, int)                  # face, unit
    reserveRequested = Signal(str, int, int)           # face, from unit, to unit
    cancelReservationRequested = Signal(int)            # reservation id

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("rackElevation")
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setAlignment(Qt.AlignHCenter | Qt.AlignTop)
        self.setBackgroundBrush(QColor("#ffffff"))
        self.setMinimumSize(260, 320)
        self._data: RackElevationData | None = None
        self.editable = True
        self.read_only_reason = ""
        self.reserve_reason: str | None = None   # None: reserving follows `editable`
        self.blocks: dict[int, DeviceBlock] = {}
        self.ghosts: dict[int, DeviceBlock] = {}
        from ui.widgets.zoom import Zoom
        self.zoom = Zoom(self, self._fit)
        self._empty()

    # --- public API ---------------------------------------------------------------------
    def set_data(self, data: RackElevationData | None) -> None:
        self._data = data
        self.scene().clear()
        self.blocks.clear()
        self.ghosts.clear()
        if data is None:
            self._empty()
        else:
            self._draw(data)
        self._fit()

    def data(self) -> RackElevationData | None:
        return self._data

    def set_editable(self, editable: bool, reason: str = "") -> None:
        """Auditors and others without the permission see the rack but cannot drag or reserve."""
        self.editable = editable
        self.read_only_reason = reason

    def snap_back(self, device_id: int | None = None) -> None:
        """Put a dropped device (or every pending one) back where the data says it is."""
        for did, block in self.blocks.items():
            if device_id is None or did == device_id:
                block.setOpacity(1.0)
                block.restore()
                self.set_ghost_visible(did, True)

    def block_count(self, face: str | None = None, ghosts: bool = False) -> int:
        items = list(self.blocks.values()) + (list(self.ghosts.values()) if ghosts else [])
        return sum(1 for b in items if face is None or b.face == face)

    def block(self, device_id: int) -> DeviceBlock | None:
        return self.blocks.get(device_id)

    # --- geometry -----------------------------------------------------------------------
    @property
    def rack_top(self) -> float:
        return HEADER_H

    def y_of(self, position: Decimal, height: Decimal) -> float:
        """Scene y of the top edge of a block at `position` with `height` units."""
        u = self._data.u_height if self._data else 42
        return self.rack_top + float(Decimal(u + 1) - position - height) * UH

    def position_at(self, top_y: float, height: Decimal) -> Decimal:
        """The position (0.5 steps, inside the rack) of a block whose top edge is at `top_y`."""
        u = self._data.u_height
        raw = Decimal(u + 1) - height - Decimal(str((top_y - self.rack_top) / UH))
        pos = (raw / HALF).quantize(Decimal(1)) * HALF
        highest = Decimal(u + 1) - max(height, HALF)
        return min(max(pos, Decimal(1)), highest).quantize(HALF)

    def unit_at(self, scene_pos: QPointF) -> tuple[str, int] | None:
        """(face, unit) under a scene point, or None outside both faces."""
        if self._data is None:
            return None
        x, y = scene_pos.x(), scene_pos.y()
        for face in FACES:
            fx = face_x(face)
            if fx <= x < fx + FACE_W:
                u = self._data.u_height - int((y - self.rack_top) // UH)
                if 1 <= u <= self._data.u_height:
                    return face, u
        return None

    def scene_point(self, face: str, unit: float) -> QPointF:
        """The middle of `unit` on `face` in scene coordinates (for tests and menus)."""
        return QPointF(face_x(face) + FACE_W / 2, self.y_of(Decimal(str(unit)), Decimal(1)) + UH / 2)

    def fits(self, device: ElevationDevice, position: Decimal, face: str) -> bool:
        """Would `device` at `position` on `face` stay clear of every other mounted device?"""
        d = self._data
        if d is None or position < 1 or position + device.height - 1 > d.u_height:
            return False
        top = position + device.height
        for o in d.mounted:
            if o.id == device.id:
                continue
            if (device.full_depth or o.full_depth or o.face == face) and position < o.top and o.position < top:
                return False
        return True

    def free_block(self, face: str, unit: int) -> tuple[int, int]:
        """The run of free units on `face` around `unit`."""
        free = set(self._data.free_units(face))
        lo = hi = unit
        while lo - 1 in free:
            lo -= 1
        while hi + 1 in free:
            hi += 1
        return lo, hi

    def set_ghost_visible(self, device_id: int, visible: bool) -> None:
        if device_id in self.ghosts:
            self.ghosts[device_id].setVisible(visible)

    def show_units(self, face: str, u_from: int, u_to: int):
        """Outline units u_from–u_to on `face` (a range found by "find free U") and bring them into view."""
        if self._data is None:
            return None
        top = self.y_of(Decimal(u_from), Decimal(u_to - u_from + 1))
        pen = QPen(QColor("#1565c0"), 3, Qt.DashLine)
        item = self.scene().addRect(face_x(face) + 2, top + 1, FACE_W - 4, (u_to - u_from + 1) * UH - 2, pen,
                                    QBrush(QColor(21, 101, 192, 40)))
        item.setZValue(50)
        self.centerOn(item.rect().center())
        return item

    # --- drawing ------------------------------------------------------------------------
    def _empty(self) -> None:
        f = QFont(self.font())
        f.setPixelSize(14)
        self.scene().addItem(scene_text(None, self.tr("Choose a rack to see its elevation"), f, QColor("#757575"), 0, 0))

    def _draw(self, d: RackElevationData) -> None:
        sc = self.scene()
        base = QFont(self.font())
        width = 2 * (NUM_W + FACE_W)
        self._draw_header(d, base, width)
        # frames, unit rows and numbers
        bottom = self.rack_top + d.u_height * UH
        numf = QFont(base)
        numf.setPixelSize(10)
        for face in FACES:
            fx = face_x(face)
            free = set(d.free_units(face))
            for u in range(1, d.u_height + 1):
                y = self.rack_top + (d.u_height - u) * UH
                row = sc.addRect(fx, y, FACE_W, UH, QPen(QColor("#e0e0e0"), 0.5),
                                 QBrush(QColor("#f1f8e9") if u in free else QColor("#eceff1")))
                row.setZValue(0)
                num = scene_text(None, str(u), numf, QColor("#78909c"), 0, y + 4)
                num.setPos(fx - 4 - num.boundingRect().width(), y + (UH - num.boundingRect().height()) / 2)
                sc.addItem(num)
            frame = sc.addRect(fx - 1, self.rack_top - 1, FACE_W + 2, d.u_height * UH + 2,
                               QPen(QColor("#37474f"), 2), QBrush(Qt.NoBrush))
            frame.setZValue(20)
        rf = QFont(base)
        rf.setPixelSize(11)
        self._leases(d, rf)
        self._draw_reservations(d, rf)
        # devices and the shadows of full-depth ones
        for dev in d.mounted:
            block = DeviceBlock(self, dev)
            sc.addItem(block)
            self.blocks[dev.id] = block
            if dev.full_depth:
                ghost = DeviceBlock(self, dev, ghost=True)
                sc.addItem(ghost)
                self.ghosts[dev.id] = ghost
        y = bottom + 10
        small = QFont(base)
        small.setPixelSize(11)
        if d.unmounted:
            names = ", ".join(x.name for x in d.unmounted)
            sc.addItem(scene_text(None, self.tr("Not mounted (0U or no position): %1").replace("%1", names), small,
                             QColor("#616161"), NUM_W, y, width - NUM_W))
            y += 18
        self._legend(d, NUM_W, y, width - NUM_W, small)

    def _draw_header(self, d: RackElevationData, base: QFont, width: float) -> None:
        """Above the faces: the rack's name, where it is, its status and lessee, the power bar, the space
        figures and each face's title with its free units."""
        sc = self.scene()
        # header: name, where, status and lessee, power bar
        f = QFont(base)
        f.setPixelSize(17)
        f.setBold(True)
        sc.addItem(scene_text(None, d.name, f, QColor("#212121"), NUM_W, 0, FACE_W))
        f = QFont(base)
        f.setPixelSize(12)
        where = f"{d.site_name} ({d.site_code}) / {d.room_name}"
        title_w = QFontMetricsF(QFont(base)).horizontalAdvance(d.name) * 1.6 + 12
        sc.addItem(scene_text(None, where, f, QColor("#616161"), NUM_W + title_w, 5, width - NUM_W - title_w))
        status = choice_text(RackStatus, d.status)
        line2 = status if not d.lessee_name else self.tr("%1 · leased to %2").replace("%1", status).replace(
            "%2", d.lessee_name)
        dot = sc.addEllipse(NUM_W, 30, 10, 10, QPen(Qt.NoPen), QBrush(QColor(RackStatus.colour(d.status))))
        dot.setToolTip(status)
        sc.addItem(scene_text(None, line2, f, QColor("#424242"), NUM_W + 16, 26, width - NUM_W - 16))
        self._power_bar(d, NUM_W, 48, width - NUM_W, f)
        if d.space is not None:
            sp = d.space
            text = (self.tr("Leased %1 U · reserved %2 U · used %3 U · free %4 U")
                    .replace("%1", str(sp.leased_u)).replace("%2", str(sp.reserved_u))
                    .replace("%3", str(sp.used_u)).replace("%4", str(sp.free_u)))
            sf = QFont(base)
            sf.setPixelSize(11)
            sc.addItem(scene_text(None, text, sf, QColor("#37474f"), NUM_W, 70, width - NUM_W))
        # face titles
        tf = QFont(base)
        tf.setPixelSize(13)
        tf.setBold(True)
        for face in FACES:
            label = self.tr("Front") if face == "front" else self.tr("Rear")
            free = len(d.free_units(face))
            t = scene_text(None, label, tf, QColor("#37474f"), face_x(face), HEADER_H - 22)
            sc.addItem(t)
            sf = QFont(base)
            sf.setPixelSize(11)
            sc.addItem(scene_text(None, self.tr("%n U free", "", free), sf, QColor("#2e7d32"),
                             face_x(face) + t.boundingRect().width() + 10, HEADER_H - 20))

    def _draw_reservations(self, d: RackElevationData, rf: QFont) -> None:
        """Each reservation as a hatched, dashed range under the devices, with its customer's name."""
        sc = self.scene()
        # reservations, under the devices
        for r in d.reservations:
            top = self.rack_top + (d.u_height - r.u_to) * UH
            h = (r.u_to - r.u_from + 1) * UH
            colour = QColor(r.colour)
            item = sc.addRect(face_x(r.face) + 1, top + 1, FACE_W - 2, h - 2, QPen(colour, 1.5, Qt.DashLine),
                              QBrush(colour, Qt.BDiagPattern))
            item.setZValue(2)
            item.setData(0, ("reservation", r.id))
            until = r.end_date.isoformat() if r.end_date else self.tr("open-ended")
            item.setToolTip(self.tr("Reserved for %1, U%2–U%3, %4 to %5").replace("%1", r.customer_name)
                            .replace("%2", str(r.u_from)).replace("%3", str(r.u_to))
                            .replace("%4", r.start_date.isoformat()).replace("%5", until))
            label = self.tr("Reserved: %1").replace("%1", r.customer_name)
            fm = QFontMetricsF(rf)
            text = fm.elidedText(label, Qt.ElideRight, FACE_W - 20)
            bg = sc.addRect(0, 0, fm.horizontalAdvance(text) + 8, fm.height() + 2, QPen(Qt.NoPen),
                            QBrush(QColor(255, 255, 255, 225)))
            bg.setPos(face_x(r.face) + 6, top + (min(h, UH * 2) - fm.height()) / 2)
            bg.setZValue(3)
            bg.setToolTip(item.toolTip())
            t = scene_text(bg, text, rf, colour.darker(130), 4, 1)
            t.setToolTip(item.toolTip())

    def _leases(self, d: RackElevationData, font: QFont) -> None:
        """Each customer's leased range in its colour: a band on the unit rows and a bar beside them."""
        sc = self.scene()
        fm = QFontMetricsF(font)
        for lease in d.leases:
            colour = QColor(lease.colour)
            top = self.rack_top + (d.u_height - lease.u_to) * UH
            h = (lease.u_to - lease.u_from + 1) * UH
            until = lease.end_date.isoformat() if lease.end_date else self.tr("open-ended")
            tip = (self.tr("Leased to %1, U%2–U%3, %4 to %5").replace("%1", lease.customer_name)
                   .replace("%2", str(lease.u_from)).replace("%3", str(lease.u_to))
                   .replace("%4", lease.start_date.isoformat()).replace("%5", until))
            if lease.cage:
                tip += " · " + self.tr("cage %1").replace("%1", lease.cage)
            for face in (FACES if lease.face is None else (lease.face,)):
                fx = face_x(face)
                tint = QColor(colour)
                tint.setAlpha(40)
                band = sc.addRect(fx + 1, top + 1, FACE_W - 2, h - 2, QPen(colour, 1.2), QBrush(tint))
                band.setZValue(1)
                band.setToolTip(tip)
                bar = sc.addRect(fx + FACE_W + 2, top + 1, 6, h - 2, QPen(Qt.NoPen), QBrush(colour))
                bar.setZValue(1)
                bar.setToolTip(tip)
                label = self.tr("Leased: %1").replace("%1", lease.customer_name)
                text = fm.elidedText(label, Qt.ElideRight, FACE_W - 20)
                t = scene_text(None, text, font, colour.darker(140), fx + FACE_W - fm.horizontalAdvance(text) - 6,
                          top + 2)  # at the range's top: devices fill ranges from the bottom
                t.setZValue(1.5)
                t.setToolTip(tip)
                sc.addItem(t)

    def _power_bar(self, d: RackElevationData, x: float, y: float, w: float, font: QFont) -> None:
        if d.power is not None and d.power.feeds:
            draw_feed_bars(self.scene(), d.power, x, y, w, font)
            return
        sc = self.scene()
        h = 18.0
        pct = float(d.power_pct)
        colour = "#66bb6a" if pct < 80 else "#ffa726" if pct <= 100 else "#e53935"
        sc.addRect(x, y, w, h, QPen(QColor("#90a4ae"), 1), QBrush(QColor("#eceff1")))
        fill = sc.addRect(x, y, w * min(pct, 100.0) / 100.0, h, QPen(Qt.NoPen), QBrush(QColor(colour)))
        fill.setZValue(1)
        text = self.tr("Power: %1 of %2 kW typical (%3%)").replace("%1", fmt_decimal(d.typical_draw_kw)) \
            .replace("%2", fmt_decimal(d.power_capacity_kw)).replace("%3", fmt_decimal(d.power_pct, 1))
        t = scene_text(None, text, font, QColor("#212121"), x + 6, y + 1, w - 12)
        t.setZValue(2)
        sc.addItem(t)
        fill.setToolTip(text)

    def _legend(self, d: RackElevationData, x: float, y: float, w: float, font: QFont) -> None:
        sc = self.scene()
        owners: dict[str, str] = {}
        for dev in d.mounted:
            owners.setdefault(dev.owner_name or self.tr("Fleet"), dev.colour)
        cx, cy = x, y
        fm = QFontMetricsF(font)
        for name, colour in owners.items():
            item_w = 16 + fm.horizontalAdvance(name) + 14
            if cx + item_w > x + w and cx > x:
                cx, cy = x, cy + 18
            sc.addRect(cx, cy + 2, 11, 11, QPen(QColor(colour).darker(140)), QBrush(QColor(colour)))
            sc.addItem(scene_text(None, name, font, QColor("#424242"), cx + 16, cy, w))
            cx += item_w

    def _fit(self) -> None:
        rect = self.scene().itemsBoundingRect().adjusted(-8, -8, 8, 8)
        self.scene().setSceneRect(rect)
        self.fitInView(rect, Qt.KeepAspectRatio)
        if getattr(self, "zoom", None) is not None and self.zoom.factor != 1.0:
            self.scale(self.zoom.factor, self.zoom.factor)

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._fit()

    # --- right-click --------------------------------------------------------------------
    def menu_for(self, scene_pos: QPointF) -> QMenu | None:
        """The context menu for a scene point: open a device, or place/reserve on free units."""
        if self._data is None:
            return None
        menu = QMenu(self)
        menu.setObjectName("rackMenu")
        item = self.scene().itemAt(scene_pos, self.transform())
        while item is not None and not isinstance(item, DeviceBlock):
            item = item.parentItem()
        if item is not None:
            act = menu.addAction(self.tr("Open %1").replace("%1", item.device.name))
            act.setObjectName("openDevice")
            act.triggered.connect(lambda _=False, i=item.device.id: self.deviceActivated.emit(i))
            return menu
        spot = self.unit_at(scene_pos)
        if spot is None:
            return None
        face, u = spot
        held = [r for r in self._data.reservations if r.face == face and r.u_from <= u <= r.u_to]
        if u not in self._data.free_units(face) and not held:
            return None
        if u not in self._data.free_units(face):
            self._cancel_actions(menu, held)
            return menu
        lo, hi = self.free_block(face, u)
        face_label = self.tr("front") if face == "front" else self.tr("rear")
        # leased units: the lessee's devices only, never reserved (app/services/space.unit_offer decides)
        from app.services.space import unit_offer
        leases = getattr(self._data, "leases", ())
        offer, block_offer = unit_offer(leases, face, u, u), unit_offer(leases, face, lo, hi)
        place_text = (self.tr("Place a device of %3 at U%1 (%2)…").replace("%3", offer.lessee) if offer.lessee
                      else self.tr("Place a device at U%1 (%2)…"))
        actions = [
            ("placeDevice", place_text.replace("%1", str(u)).replace("%2", face_label),
             lambda: self.placeRequested.emit(face, u)),
            ("reserveUnit", self.tr("Reserve U%1 (%2)…").replace("%1", str(u)).replace("%2", face_label),
             lambda: self.reserveRequested.emit(face, u, u)),
        ]
        if hi > lo:
            actions.append(("reserveBlock", self.tr("Reserve the free block U%1–U%2 (%3)…").replace("%1", str(lo))
                            .replace("%2", str(hi)).replace("%3", face_label),
                            lambda: self.reserveRequested.emit(face, lo, hi)))
        for name, text, slot in actions:
            act = menu.addAction(text)
            act.setObjectName(name)
            act.triggered.connect(lambda _=False, s=slot: s())
            # reserving is its own permission (account managers reserve but do not place devices)
            reason = (self.reserve_reason if name.startswith("reserve") and self.reserve_reason is not None
                      else (None if self.editable else self.read_only_reason))
            rule = {"placeDevice": offer.place_refusal, "reserveUnit": offer.reserve_refusal,
                    "reserveBlock": block_offer.reserve_refusal}[name]
            reason = reason or rule
            if reason:
                act.setEnabled(False)
                act.setToolTip(reason)
        self._cancel_actions(menu, held)
        menu.setToolTipsVisible(True)
        return menu

    def _cancel_actions(self, menu: QMenu, held) -> None:
        for r in held:
            act = menu.addAction(self.tr("Cancel the reservation for %1 (U%2–U%3)…").replace("%1", r.customer_name)
                                 .replace("%2", str(r.u_from)).replace("%3", str(r.u_to)))
            act.setObjectName("cancelReservation")
            act.triggered.connect(lambda _=False, rid=r.id: self.cancelReservationRequested.emit(rid))
            reason = self.reserve_reason if self.reserve_reason is not None else (
                None if self.editable else self.read_only_reason)
            if reason:
                act.setEnabled(False)
                act.setToolTip(reason)
        menu.setToolTipsVisible(True)

    def contextMenuEvent(self, event):
        menu = self.menu_for(self.mapToScene(event.pos()))
        if menu is not None:
            menu.exec(event.globalPos())
            menu.deleteLater()


class RackPanel(RackElevationView):
    """The elevation wired to the database: loads a rack, moves devices through the service.

    A refused move is explained in a message box and the device snaps back. Placing and
    reserving need a form, so those signals are left for the main window to answer.
    """

    moved = Signal(int)          # device id, after the service accepted a move

    def __init__(self, db, actor=None, parent=None):
        super().__init__(parent)
        self.db = db
        self.actor = actor
        self.rack_id: int | None = None
        if actor is not None:
            from ui.kit.dialogs import why_not_text
            reason = why_not_text(actor, "manage_dcim")
            self.set_editable(reason is None, reason or "")
            self.reserve_reason = why_not_text(actor, "reserve_racks") or ""
        self.deviceMoveRequested.connect(self._move)
        self.cancelReservationRequested.connect(self._cancel_reservation)

    def load_rack(self, rack_id: int | None) -> None:
        from app.read.viewdata import rack_elevation
        self.rack_id = rack_id
        self.set_data(rack_elevation(self.db, rack_id) if rack_id is not None else None)

    def refresh(self) -> None:
        if self.rack_id is not None:
            self.load_rack(self.rack_id)

    def ask_reason(self, device, position: Decimal, face: str) -> str | None:
        """Confirm the drop and get a reason (None: cancelled); tests replace this."""
        from ui.pages.devicemove import ask_move_reason
        return ask_move_reason(self, device, self.data().name, position, face)

    def _move(self, device_id: int, position: Decimal, face: str) -> None:
        from app.domain.errors import Conflict, DomainError
        from app.services.dcim import move_device
        from ui.shell.operations import apply
        device = self.data().device(device_id) if self.data() else None
        reason = self.ask_reason(device, position, face) if device is not None else None
        if reason is None:
            self.snap_back(device_id)
            return
        try:
            apply(lambda: move_device(self.db, self.actor, device_id, self.rack_id, position, face,
                                      expected_version=device.version, reason=reason))
        except Conflict as exc:
            log_failure(exc)
            self.refresh()
            self._explain(self.tr("Changed by someone else") + ": " + exc.message)
            return
        except DomainError as exc:
            self.snap_back(device_id)
            self._explain(refused_text(exc))
            return
        except Exception as exc:  # whatever went wrong, the device goes back
            logging.getLogger(__name__).exception("moving device %s failed", device_id)
            self.snap_back(device_id)
            self._explain(self.tr("The move failed: %1").replace("%1", str(exc).splitlines()[0] if str(exc)
                                                                  else type(exc).__name__))
            return
        self.refresh()
        self.moved.emit(device_id)

    def _cancel_reservation(self, reservation_id: int) -> None:
        """Ask for the reason, then cancel through the service (which checks permission and state)."""
        from PySide6.QtWidgets import QInputDialog

        from app.domain.errors import DomainError
        from app.services.dcim import cancel_reservation
        from ui.shell.operations import apply
        reason, ok = QInputDialog.getText(self, self.tr("Cancel reservation"),
                                          self.tr("Why is the reservation cancelled?"))
        if not ok:
            return
        try:
            apply(lambda: cancel_reservation(self.db, self.actor, reservation_id, reason.strip()))
        except DomainError as exc:
            self._explain(refused_text(exc), self.tr("Reservation not cancelled"))
            return
        self.refresh()

    def _explain(self, message: str, title: str | None = None) -> None:
        from PySide6.QtWidgets import QMessageBox
        box = QMessageBox(QMessageBox.Warning, title or self.tr("Move refused"), message, QMessageBox.Ok, self)
        box.setObjectName("moveRefused")
        box.open()

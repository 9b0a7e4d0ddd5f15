"""The rack elevation's scene geometry (units, faces) and its device blocks: one mounted device on its
face, dragged to move it. The view that draws them and reports moves is ui/widgets/rack_elevation.py."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QCoreApplication, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QGraphicsView

from app.read.viewdata import ElevationDevice
from models.choices import DeviceStatus

from ui.widgets import fmt_units, scene_text, text_colour_on

UH = 20.0          # scene pixels per rack unit
NUM_W = 30.0       # the column of unit numbers left of each face
FACE_W = 250.0
HEADER_H = 124.0
HALF = Decimal("0.5")
FACES = ("front", "rear")


def _tr(text: str) -> str:
    return QCoreApplication.translate("RackElevationView", text)


def choice_text(choices, value) -> str:
    return QCoreApplication.translate(f"choices/{choices.__name__}", choices.label(value)) if value else ""


def face_x(face: str) -> float:
    return NUM_W if face == "front" else 2 * NUM_W + FACE_W


class DeviceBlock(QGraphicsRectItem):
    """One mounted device on the face it is mounted on; drag it to move it."""

    def __init__(self, view: QGraphicsView, device: ElevationDevice, ghost: bool = False):
        """`view`: the RackElevationView (ui/widgets/rack_elevation.py) the block is drawn in and reports to."""
        super().__init__()
        self.view = view
        self.device = device
        self.ghost = ghost                       # the rear (or front) shadow of a full-depth device
        self.face = device.face if not ghost else ("rear" if device.face == "front" else "front")
        self.position = device.position
        self.pending: tuple[Decimal, str] | None = None   # a drop waiting for the caller's answer
        self._press: QPointF | None = None
        self._target: tuple[Decimal, str] | None = None
        h = float(device.height) * UH
        self.setRect(0, 0, FACE_W - 4, h - 1)
        colour = QColor(device.colour)
        if ghost:
            colour.setAlpha(70)
            self.setBrush(QBrush(colour, Qt.Dense4Pattern))
            self.setPen(QPen(QColor(device.colour), 1, Qt.DashLine))
        else:
            self.setBrush(colour)
            self.setPen(QPen(colour.darker(140), 1))
            self.setCursor(Qt.OpenHandCursor)
        self.setFlag(QGraphicsItem.ItemClipsChildrenToShape, True)
        self.setZValue(10 if not ghost else 5)
        self.setData(0, device.id)
        self._label(h)
        self.setToolTip(self._tooltip())
        self.place(self.position, self.face)

    def _label(self, h: float) -> None:
        d = self.device
        fg = QColor("#455a64") if self.ghost else text_colour_on(d.colour)
        base = QFont(self.view.font())
        width = FACE_W - 16
        x = 6.0
        if not self.ghost and d.status != DeviceStatus.ACTIVE:
            stripe = QGraphicsRectItem(0, 0, 4, h - 1, self)
            stripe.setBrush(QColor(DeviceStatus.colour(d.status)))
            stripe.setPen(Qt.NoPen)
            x = 8.0
        owner = d.owner_name or _tr("Fleet")
        if self.ghost:
            f = QFont(base)
            f.setPixelSize(10 if h < UH else 11)
            f.setItalic(True)
            scene_text(self, _tr("%1 (full depth)").replace("%1", d.name), f, fg, x, max(0.0, (h - 14) / 2), width)
            return
        name_font = QFont(base)
        name_font.setBold(True)
        if h < UH:          # half a unit: the name, small
            name_font.setPixelSize(8)
            scene_text(self, d.name, name_font, fg, x, -1, width)
        elif h < 2 * UH:    # one unit: name · model · owner on one line
            name_font.setPixelSize(12)
            fm = QFontMetricsF(name_font)
            name_w = min(fm.horizontalAdvance(d.name) + 8, width * 0.55)
            scene_text(self, d.name, name_font, fg, x, 2, name_w - 6)
            f = QFont(base)
            f.setPixelSize(10)
            scene_text(self, f"{d.model} · {owner}", f, fg, x + name_w, 4, width - name_w)
        else:               # two units or more: name on top, model and owner below
            name_font.setPixelSize(13)
            top = max(2.0, (h - 38) / 2) if h < 3 * UH else 4.0
            scene_text(self, d.name, name_font, fg, x, top, width)
            f = QFont(base)
            f.setPixelSize(11)
            scene_text(self, f"{d.model}", f, fg, x, top + 17, width)
            if h >= 3 * UH:
                scene_text(self, owner, f, fg, x, top + 32, width)
            else:
                # the model line carries the owner too when there is no third line
                self.childItems()[-1].setText(QFontMetricsF(f).elidedText(f"{d.model} · {owner}", Qt.ElideRight, width))

    def _tooltip(self) -> str:
        d = self.device
        top = d.position + d.height - 1 if d.height >= 1 else d.position
        units = f"U{fmt_units(d.position)}" if top == d.position else f"U{fmt_units(d.position)}–U{fmt_units(top)}"
        lines = [f"<b>{d.name}</b>", d.model,
                 _tr("Owner: %1").replace("%1", d.owner_name or _tr("Fleet")),
                 _tr("%1, %2 face%3").replace("%1", units).replace("%2", _choice_face(d.face))
                 .replace("%3", _tr(", full depth") if d.full_depth else ""),
                 _tr("Status: %1").replace("%1", choice_text(DeviceStatus, d.status)),
                 _tr("Typical power: %1 W").replace("%1", str(d.typical_power_w))]
        return "<br>".join(lines)

    # --- geometry -----------------------------------------------------------------------
    def place(self, position: Decimal, face: str) -> None:
        self.setPos(face_x(face) + 2, self.view.y_of(position, self.device.height) + 0.5)

    def restore(self) -> None:
        self.pending = None
        self._target = None
        self.place(self.position, self.face)
        self._mark(None)
        self.setZValue(10)

    def _mark(self, ok: bool | None) -> None:
        colour = QColor(self.device.colour)
        if ok is None:
            self.setPen(QPen(colour.darker(140), 1))
        else:
            self.setPen(QPen(QColor("#2e7d32" if ok else "#c62828"), 3))

    # --- mouse --------------------------------------------------------------------------
    def mousePressEvent(self, event):
        if event.button() != Qt.LeftButton:
            event.ignore()
            return
        self.view.deviceClicked.emit(self.device.id)
        if self.ghost or not self.view.editable or self.pending is not None:
            event.accept()
            return
        self._press = event.scenePos()
        self.setCursor(Qt.ClosedHandCursor)
        event.accept()

    def mouseMoveEvent(self, event):
        if self._press is None:
            return
        delta = event.scenePos() - self._press
        start = QPointF(face_x(self.face) + 2, self.view.y_of(self.position, self.device.height))
        centre_x = start.x() + delta.x() + FACE_W / 2
        face = "front" if centre_x < 1.5 * NUM_W + FACE_W + NUM_W / 2 else "rear"
        position = self.view.position_at(start.y() + delta.y(), self.device.height)
        self._target = (position, face)
        self.place(position, face)
        self.setZValue(50)
        self.view.set_ghost_visible(self.device.id, False)
        self._mark(self.view.fits(self.device, position, face))

    def mouseReleaseEvent(self, event):
        if self._press is None:
            return
        self._press = None
        self.setCursor(Qt.OpenHandCursor)
        target, self._target = self._target, None
        if target is None or target == (self.position, self.face):
            self.restore()
            self.view.set_ghost_visible(self.device.id, True)
            return
        position, face = target
        if not self.view.fits(self.device, position, face):
            self.restore()
            self.view.set_ghost_visible(self.device.id, True)
            return
        self.pending = target
        self._mark(None)
        self.setOpacity(0.75)
        self.view.deviceMoveRequested.emit(self.device.id, position, face)

    def mouseDoubleClickEvent(self, event):
        self.view.deviceActivated.emit(self.device.id)
        event.accept()


def _choice_face(face: str | None) -> str:
    from models.choices import Face
    return choice_text(Face, face) if face else ""

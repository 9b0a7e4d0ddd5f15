"""Room floor: the racks on the room's grid, coloured by utilisation or by status.

`RoomView` draws a `RoomLayoutData` (grid rows and columns count from 0, row 0 at the top);
racks without a grid position sit in a row below the floor. Click a rack: `rackClicked(id)`;
double-click (or Enter on the selected rack): `rackActivated(id)`.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPointF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (QButtonGroup, QGraphicsItem, QGraphicsRectItem, QGraphicsScene,
                               QGraphicsSimpleTextItem, QGraphicsView, QHBoxLayout, QLabel, QRadioButton,
                               QStyle, QVBoxLayout, QWidget)

from app.read.viewdata import RoomLayoutData, RoomRack, utilisation_colour
from models.choices import RackStatus

from ui.widgets import fmt_decimal, text_colour_on

CELL_W, CELL_H, GAP = 96.0, 64.0, 8.0
LABEL_W = 26.0
MODES = ("utilisation", "status")


def _tr(text: str) -> str:
    return QCoreApplication.translate("RoomView", text)


class RackCell(QGraphicsRectItem):
    def __init__(self, view: "RoomFloorView", rack: RoomRack, x: float, y: float):
        super().__init__(0, 0, CELL_W, CELL_H)
        self.view = view
        self.rack = rack
        self.setPos(x, y)
        self.setData(0, rack.id)
        self.setFlag(QGraphicsItem.ItemIsSelectable, True)
        self.setCursor(Qt.PointingHandCursor)
        self.setToolTip(self._tooltip())
        self.name = QGraphicsSimpleTextItem(self)
        self.line1 = QGraphicsSimpleTextItem(self)
        self.line2 = QGraphicsSimpleTextItem(self)
        self.setFlag(QGraphicsItem.ItemClipsChildrenToShape, True)

    def colour(self, mode: str) -> QColor:
        if mode == "status":
            return QColor(self.rack.status_colour)
        return QColor(utilisation_colour(self.rack.utilisation_pct))

    def paint_mode(self, mode: str, base: QFont) -> None:
        bg = self.colour(mode)
        fg = text_colour_on(bg)
        self.setBrush(bg)
        self.setPen(QPen(bg.darker(150), 1.5))
        f = QFont(base)
        f.setPixelSize(14)
        f.setBold(True)
        small = QFont(base)
        small.setPixelSize(11)
        r = self.rack
        self._set(self.name, r.name, f, fg, 6, 4)
        self._set(self.line1, _tr("%1% of %2U").replace("%1", fmt_decimal(r.utilisation_pct, 0))
                  .replace("%2", str(r.u_height)), small, fg, 6, 24)
        if mode == "status" and r.lessees and not r.lessee_name and r.leased_u < r.u_height:
            second = _tr("Shared: %1 U leased").replace("%1", str(r.leased_u))
        elif mode == "status":
            second = QCoreApplication.translate("choices/RackStatus", RackStatus.label(r.status))
        else:
            second = _tr("%1 / %2 kW").replace("%1", fmt_decimal(r.typical_draw_kw, 1)) \
                .replace("%2", fmt_decimal(r.power_capacity_kw, 1))
        self._set(self.line2, second, small, fg, 6, 40)

    @staticmethod
    def _set(item, text, font, colour, x, y):
        item.setFont(font)
        item.setText(QFontMetricsF(font).elidedText(text, Qt.ElideRight, CELL_W - 10))
        item.setBrush(colour)
        item.setPos(x, y)

    def _tooltip(self) -> str:
        r = self.rack
        lines = [f"<b>{r.name}</b> — {QCoreApplication.translate('choices', RackStatus.label(r.status))}",
                 _tr("Units: %1 of %2 used (%3%)").replace("%1", fmt_decimal(r.used_units, 1))
                 .replace("%2", str(r.u_height)).replace("%3", fmt_decimal(r.utilisation_pct, 1)),
                 _tr("Power: %1 of %2 kW typical (%3%)").replace("%1", fmt_decimal(r.typical_draw_kw))
                 .replace("%2", fmt_decimal(r.power_capacity_kw)).replace("%3", fmt_decimal(r.power_pct, 1)),
                 _tr("Devices: %1").replace("%1", str(r.device_count))]
        if r.lessee_name:
            lines.append(_tr("Leased to %1").replace("%1", r.lessee_name))
        if r.lessees:
            lines.append(_tr("Leased units: %1 of %2 (%3)").replace("%1", str(r.leased_u))
                         .replace("%2", str(r.u_height)).replace("%3", ", ".join(r.lessees)))
        return "<br>".join(lines)

    def paint(self, painter, option, widget=None):
        selected = self.isSelected()
        option.state = option.state & ~QStyle.StateFlag.State_Selected   # our own outline, not Qt's dashes
        super().paint(painter, option, widget)
        if selected:
            painter.setPen(QPen(QColor("#1565c0"), 3))
            painter.setBrush(Qt.NoBrush)
            painter.drawRect(self.rect().adjusted(1.5, 1.5, -1.5, -1.5))

    def mousePressEvent(self, event):
        super().mousePressEvent(event)
        if event.button() == Qt.LeftButton:
            self.view.rackClicked.emit(self.rack.id)

    def mouseDoubleClickEvent(self, event):
        self.view.rackActivated.emit(self.rack.id)
        event.accept()


class RoomFloorView(QGraphicsView):
    rackClicked = Signal(int)
    rackActivated = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("roomFloor")
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.setBackgroundBrush(QColor("#ffffff"))
        self.setMinimumSize(240, 160)
        self._data: RoomLayoutData | None = None
        self.mode = "utilisation"
        self.cells: dict[int, RackCell] = {}
        from ui.widgets.zoom import Zoom
        self.zoom = Zoom(self, self._fit)
        self.set_data(None)

    def set_data(self, data: RoomLayoutData | None) -> None:
        self._data = data
        self.scene().clear()
        self.cells.clear()
        base = QFont(self.font())
        if data is None:
            f = QFont(base)
            f.setPixelSize(14)
            t = self.scene().addSimpleText(self.tr("Choose a room to see its floor"), f)
            t.setBrush(QColor("#757575"))
        else:
            self._draw(data, base)
        self._fit()

    def data(self) -> RoomLayoutData | None:
        return self._data

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(mode)
        self.mode = mode
        base = QFont(self.font())
        for cell in self.cells.values():
            cell.paint_mode(mode, base)

    def cell(self, rack_id: int) -> RackCell | None:
        return self.cells.get(rack_id)

    def cell_centre(self, rack_id: int) -> QPointF:
        c = self.cells[rack_id]
        return c.mapToScene(c.rect().center())

    def _draw(self, d: RoomLayoutData, base: QFont) -> None:
        sc = self.scene()
        numf = QFont(base)
        numf.setPixelSize(11)
        rows = max([d.grid_rows] + [r.grid_row + 1 for r in d.placed])
        cols = max([d.grid_cols] + [r.grid_col + 1 for r in d.placed])
        ox, oy = LABEL_W, 20.0
        # the floor: empty grid positions as dashed outlines, row letters and column numbers
        for c in range(cols):
            t = sc.addSimpleText(str(c + 1), numf)
            t.setBrush(QColor("#78909c"))
            t.setPos(ox + c * (CELL_W + GAP) + CELL_W / 2 - t.boundingRect().width() / 2, 2)
        for r in range(rows):
            t = sc.addSimpleText(_row_label(r), numf)
            t.setBrush(QColor("#78909c"))
            t.setPos(4, oy + r * (CELL_H + GAP) + CELL_H / 2 - 7)
            for c in range(cols):
                sc.addRect(ox + c * (CELL_W + GAP), oy + r * (CELL_H + GAP), CELL_W, CELL_H,
                           QPen(QColor("#cfd8dc"), 1, Qt.DashLine), QBrush(QColor("#fafafa")))
        for rack in d.placed:
            self._add(rack, ox + rack.grid_col * (CELL_W + GAP), oy + rack.grid_row * (CELL_H + GAP), base)
        self._cages(d, ox, oy, base)
        y = oy + rows * (CELL_H + GAP) + 6
        if d.unplaced:
            f = QFont(base)
            f.setPixelSize(12)
            t = sc.addSimpleText(self.tr("Not on the floor plan:"), f)
            t.setBrush(QColor("#616161"))
            t.setPos(ox, y)
            y += 20
            for i, rack in enumerate(d.unplaced):
                self._add(rack, ox + (i % cols) * (CELL_W + GAP), y + (i // cols) * (CELL_H + GAP), base)
            y += ((len(d.unplaced) - 1) // cols + 1) * (CELL_H + GAP)

    def _cages(self, d: RoomLayoutData, ox: float, oy: float, base: QFont) -> None:
        """A cage: one outline around its racks on the floor, named with its lessee."""
        sc = self.scene()
        f = QFont(base)
        f.setPixelSize(12)
        f.setBold(True)
        placed = {r.id: r for r in d.placed}
        for cage in d.cages:
            cells = [placed[i] for i in cage.rack_ids if i in placed]
            if not cells:
                continue
            c0, c1 = min(r.grid_col for r in cells), max(r.grid_col for r in cells)
            r0, r1 = min(r.grid_row for r in cells), max(r.grid_row for r in cells)
            x0, y0 = ox + c0 * (CELL_W + GAP) - GAP / 2 - 2, oy + r0 * (CELL_H + GAP) - GAP / 2 - 2
            w = (c1 - c0 + 1) * (CELL_W + GAP) + 4
            h = (r1 - r0 + 1) * (CELL_H + GAP) + 4
            colour = QColor("#6a1b9a")
            box = sc.addRect(x0, y0, w, h, QPen(colour, 3, Qt.DashLine), QBrush(Qt.NoBrush))
            box.setZValue(10)
            label = self.tr("Cage %1").replace("%1", cage.name)
            if cage.lessee_name:
                label += " · " + self.tr("leased to %1").replace("%1", cage.lessee_name)
            box.setToolTip(label)
            fm = QFontMetricsF(f)
            text = fm.elidedText(label, Qt.ElideRight, max(w - 12, 60))
            bg = sc.addRect(0, 0, fm.horizontalAdvance(text) + 8, fm.height() + 2, QPen(colour, 1),
                            QBrush(QColor("#f3e5f5")))
            bg.setPos(x0 + 6, y0 + h - fm.height() / 2 - 1)
            bg.setZValue(11)
            bg.setToolTip(label)
            t = QGraphicsSimpleTextItem(text, bg)
            t.setFont(f)
            t.setBrush(colour)
            t.setPos(4, 1)

    def _add(self, rack: RoomRack, x: float, y: float, base: QFont) -> None:
        cell = RackCell(self, rack, x, y)
        cell.paint_mode(self.mode, base)
        self.scene().addItem(cell)
        self.cells[rack.id] = cell

    def _fit(self) -> None:
        rect = self.scene().itemsBoundingRect().adjusted(-6, -6, 6, 6)
        self.scene().setSceneRect(rect)
        # shrink a big room to fit, but never blow a small one up past its natural size
        scale = min(1.0, self.viewport().width() / max(rect.width(), 1), self.viewport().height() / max(rect.height(), 1))
        scale = max(scale, 0.35)     # below this, scroll instead of squinting
        if getattr(self, "zoom", None) is not None:
            scale *= self.zoom.factor
        self.resetTransform()
        self.scale(scale, scale)

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._fit()

    def keyPressEvent(self, event):
        if event.key() in (Qt.Key_Return, Qt.Key_Enter):
            sel = [i for i in self.scene().selectedItems() if isinstance(i, RackCell)]
            if sel:
                self.rackActivated.emit(sel[0].rack.id)
                return
        super().keyPressEvent(event)


def _row_label(r: int) -> str:
    return chr(ord("A") + r) if r < 26 else str(r + 1)


class RoomView(QWidget):
    """The floor plus the colour toggle and a legend."""

    rackClicked = Signal(int)
    rackActivated = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("roomView")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        bar = QHBoxLayout()
        self.title = QLabel()
        self.title.setObjectName("roomTitle")
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        bar.addWidget(self.title)
        bar.addStretch(1)
        bar.addWidget(QLabel(self.tr("Colour by:")))
        self.by_util = QRadioButton(self.tr("Utilisation"))
        self.by_util.setObjectName("colourByUtilisation")
        self.by_status = QRadioButton(self.tr("Status"))
        self.by_status.setObjectName("colourByStatus")
        self.by_util.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.by_util)
        group.addButton(self.by_status)
        bar.addWidget(self.by_util)
        bar.addWidget(self.by_status)
        lay.addLayout(bar)
        self.floor = RoomFloorView(self)
        lay.addWidget(self.floor, 1)
        self.legend = QLabel()
        self.legend.setObjectName("roomLegend")
        self.legend.setTextFormat(Qt.RichText)
        self.legend.setWordWrap(True)
        lay.addWidget(self.legend)
        self.floor.rackClicked.connect(self.rackClicked)
        self.floor.rackActivated.connect(self.rackActivated)
        self.by_util.toggled.connect(lambda on: self.set_mode("utilisation" if on else "status"))
        self._legend()

    def set_data(self, data: RoomLayoutData | None) -> None:
        self.floor.set_data(data)
        if data is None:
            self.title.setText("")
        else:
            self.title.setText(self.tr("%1 / %2 — %n rack(s)", "", len(data.racks))
                               .replace("%1", f"{data.site_name} ({data.site_code})").replace("%2", data.name)
                               + " · " + self.tr("leased %1 U · reserved %2 U · used %3 U · free %4 U")
                               .replace("%1", str(sum(r.leased_u for r in data.racks)))
                               .replace("%2", str(sum(r.reserved_u for r in data.racks)))
                               .replace("%3", str(sum(int(r.used_units) for r in data.racks)))
                               .replace("%4", str(sum(r.free_u for r in data.racks))))

    def data(self) -> RoomLayoutData | None:
        return self.floor.data()

    def set_mode(self, mode: str) -> None:
        self.floor.set_mode(mode)
        (self.by_util if mode == "utilisation" else self.by_status).setChecked(True)
        self._legend()

    @property
    def mode(self) -> str:
        return self.floor.mode

    def _legend(self) -> None:
        if self.floor.mode == "status":
            items = [(c, QCoreApplication.translate("choices/RackStatus", label)) for _v, label, _zh, c in RackStatus.CHOICES]
        else:
            items = [(utilisation_colour(0), self.tr("empty")), (utilisation_colour(25), self.tr("under 50%")),
                     (utilisation_colour(60), self.tr("50–80%")), (utilisation_colour(90), self.tr("80–95%")),
                     (utilisation_colour(99), self.tr("95% and over"))]
        self.legend.setText("&nbsp;&nbsp;".join(
            f"<span style='background:{c}; color:{c}'>&nbsp;■&nbsp;</span>&nbsp;{t}" for c, t in items))


class RoomPanel(RoomView):
    """The room view loading from the database."""

    def __init__(self, db, parent=None):
        super().__init__(parent)
        self.db = db
        self.room_id: int | None = None

    def load_room(self, room_id: int | None) -> None:
        from app.read.viewdata import room_layout
        self.room_id = room_id
        self.set_data(room_layout(self.db, room_id) if room_id is not None else None)

    def refresh(self) -> None:
        if self.room_id is not None:
            self.load_room(self.room_id)

"""Pictures of the estate: rack elevation, room floor, dashboard charts, site plot, region tree.

Each widget takes the plain dataclasses of `app.read.viewdata` through `set_data(...)` and reports
what the user wants through signals; the caller runs the service and reloads. The `…Panel`
classes (and `DashboardCharts`) are the convenience versions that load from a database.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF
from PySide6.QtWidgets import QGraphicsSimpleTextItem


def text_colour_on(background: str | QColor) -> QColor:
    """Black or white, whichever reads better on `background` (WCAG relative luminance)."""
    c = QColor(background)

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF())
    return QColor("#000000") if lum > 0.35 else QColor("#ffffff")


def fmt_decimal(value, places: int = 2) -> str:
    """Group digits and keep `places` decimals, in the user's locale."""
    from PySide6.QtCore import QLocale
    return QLocale().toString(float(value), "f", places)


def fmt_units(value) -> str:
    """A rack unit number: 12, 20.5."""
    v = float(value)
    return str(int(v)) if v == int(v) else f"{v:.1f}"


def scene_text(parent, text: str, font: QFont, colour: QColor, x: float, y: float, max_w: float | None = None):
    """A scene text at (x, y) in the font and colour, elided to max_w when given."""
    item = QGraphicsSimpleTextItem(parent)
    item.setFont(font)
    if max_w is not None:
        text = QFontMetricsF(font).elidedText(text, Qt.ElideRight, max_w)
    item.setText(text)
    item.setBrush(colour)
    item.setPos(x, y)
    return item

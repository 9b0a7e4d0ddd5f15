"""Zooming the rack elevation and the room floor: Ctrl+wheel, buttons, Ctrl+0; kept over resize and reload."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from ui.widgets.rack_elevation import RackPanel
from ui.widgets.room_view import RoomPanel

from tests.read.test_viewdata import build_estate


def _wheel(view, up: bool, ctrl: bool = True) -> None:
    pos = QPointF(view.viewport().rect().center())
    ev = QWheelEvent(pos, view.viewport().mapToGlobal(pos), QPoint(), QPoint(0, 120 if up else -120),
                     Qt.NoButton, Qt.ControlModifier if ctrl else Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), ev)


def _scale(view) -> float:
    return view.transform().m11()


@pytest.mark.parametrize("which", ["rack", "room"])
def test_zoom_wheel_buttons_and_reset(qtbot, db, operator, which):
    ids = build_estate(db)
    if which == "rack":
        panel = RackPanel(db, operator)
        view = panel
        load = lambda: panel.load_rack(ids["a01"])          # noqa: E731
    else:
        panel = RoomPanel(db)
        view = panel.floor
        load = lambda: panel.load_room(ids["room"])         # noqa: E731
    qtbot.addWidget(panel)
    panel.resize(640, 560)
    panel.show()
    load()
    fit = _scale(view)
    assert not view.zoom.buttons["zoomOut"].isEnabled()
    _wheel(view, up=False)                                   # cannot go below "fit"
    assert _scale(view) == pytest.approx(fit)
    _wheel(view, up=True)
    assert view.zoom.factor == pytest.approx(1.25) and _scale(view) == pytest.approx(fit * 1.25)
    view.zoom.buttons["zoomIn"].click()
    assert _scale(view) == pytest.approx(fit * 1.25 * 1.25)
    _wheel(view, up=True, ctrl=False)                        # a plain wheel scrolls, it does not zoom
    assert view.zoom.factor == pytest.approx(1.5625)
    load()                                                   # a reload keeps the zoom
    assert _scale(view) == pytest.approx(fit * 1.5625)
    view.setFocus()
    QTest.keyClick(view, Qt.Key_0, Qt.ControlModifier)
    assert view.zoom.factor == 1.0 and _scale(view) == pytest.approx(fit)
    QTest.keyClick(view, Qt.Key_Plus, Qt.ControlModifier)
    assert view.zoom.factor == pytest.approx(1.25)
    view.zoom.buttons["zoomFit"].click()
    assert view.zoom.factor == 1.0
    bar = view.zoom.bar
    assert bar.geometry().right() <= view.width() and bar.isVisible()

"""Zoom for the graphics views (rack elevation, room floor): Ctrl+wheel, Ctrl++ / Ctrl+-,
Ctrl+0 to fit again, and three small buttons in the view's bottom-right corner.

The view keeps drawing "fit to the window" in its own _fit(); Zoom multiplies that by its
factor, so a resize or a reload keeps the zoom the user chose.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QGraphicsView, QHBoxLayout, QToolButton, QWidget

MIN, MAX, STEP = 1.0, 6.0, 1.25


class Zoom(QObject):
    def __init__(self, view: QGraphicsView, refit):
        super().__init__(view)
        self.view, self.refit = view, refit
        self.factor = 1.0
        view.viewport().installEventFilter(self)
        view.installEventFilter(self)
        self.keys = {Qt.Key_0: self.reset, Qt.Key_Plus: self.zoom_in, Qt.Key_Equal: self.zoom_in,
                     Qt.Key_Minus: self.zoom_out}
        self.bar = QWidget(view)
        self.bar.setObjectName("zoomBar")
        lay = QHBoxLayout(self.bar)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        self.buttons = {}
        for name, text, tip, slot in (("zoomOut", "−", self.tr("Zoom out (Ctrl+wheel, Ctrl+-)"), self.zoom_out),
                                      ("zoomFit", "⤢", self.tr("Fit to the window (Ctrl+0)"), self.reset),
                                      ("zoomIn", "+", self.tr("Zoom in (Ctrl+wheel, Ctrl++)"), self.zoom_in)):
            b = QToolButton(self.bar)
            b.setObjectName(name)
            b.setText(text)
            b.setToolTip(tip)
            b.setFixedSize(26, 24)
            b.setFocusPolicy(Qt.NoFocus)
            b.clicked.connect(slot)
            lay.addWidget(b)
            self.buttons[name] = b
        self.bar.adjustSize()
        self._place()
        self._update()

    # --- zooming -----------------------------------------------------------------------
    def set_factor(self, factor: float, anchor=None) -> None:
        factor = min(MAX, max(MIN, factor))
        if abs(factor - self.factor) < 1e-6:
            return
        centre = anchor if anchor is not None else self.view.mapToScene(self.view.viewport().rect().center())
        self.factor = factor
        self.refit()
        if factor > MIN:
            self.view.centerOn(centre)
        self._update()

    def zoom_in(self) -> None:
        self.set_factor(self.factor * STEP)

    def zoom_out(self) -> None:
        self.set_factor(self.factor / STEP)

    def reset(self) -> None:
        self.set_factor(MIN)

    def _update(self) -> None:
        self.buttons["zoomOut"].setEnabled(self.factor > MIN)
        self.buttons["zoomFit"].setEnabled(self.factor > MIN)
        self.buttons["zoomIn"].setEnabled(self.factor < MAX)

    def _place(self) -> None:
        # bottom-right, clear of the scroll bars: room floors and elevations start top-left / top-centre
        self.bar.move(max(0, self.view.width() - self.bar.width() - 22),
                      max(0, self.view.height() - self.bar.height() - 22))
        self.bar.raise_()

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Wheel and obj is self.view.viewport() and event.modifiers() & Qt.ControlModifier:
            anchor = self.view.mapToScene(event.position().toPoint())
            self.set_factor(self.factor * (STEP if event.angleDelta().y() > 0 else 1 / STEP), anchor)
            event.accept()
            return True
        if (event.type() == QEvent.ShortcutOverride and obj is self.view and event.modifiers() & Qt.ControlModifier
                and event.key() in self.keys):
            event.accept()          # ours, not a window shortcut's
            return True
        if (event.type() == QEvent.KeyPress and obj is self.view and event.modifiers() & Qt.ControlModifier
                and event.key() in self.keys):
            self.keys[event.key()]()
            event.accept()
            return True
        if event.type() == QEvent.Resize and obj is self.view:
            self._place()
        return False

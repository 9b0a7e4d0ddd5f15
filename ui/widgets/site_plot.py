"""Sites by longitude and latitude, with lines to the regions each serves. No map, no network.

`SitePlotView.set_data(SitePlotData)`; `siteActivated(id)` on double-click, `siteClicked(id)`
on click. A dashed line ends at an approximate point (a city's or province capital's centre);
points that fall together (Haikou's districts) share one label. `SitePlot(db)` loads itself.
"""
from __future__ import annotations

import math
from collections import defaultdict

from PySide6.QtCore import QCoreApplication, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QTransform
from PySide6.QtWidgets import (QGraphicsEllipseItem, QGraphicsItem, QGraphicsItemGroup, QGraphicsScene,
                               QGraphicsView)

from app.read.viewdata import OWNER_PALETTE, SitePlotData, SitePoint
from models.choices import SiteStatus

PX_PER_DEG = 60.0
SITE_R = 7.0
REGION_R = 3.5


def _tr(text: str) -> str:
    return QCoreApplication.translate("SitePlotView", text)


def _pinned(item, anchor: QPointF, dx: float, dy: float, z: float):
    """A label that keeps its pixel size, `dx`/`dy` pixels from `anchor` whatever the zoom."""
    item.setFlag(QGraphicsItem.ItemIgnoresTransformations, True)
    item.setPos(anchor)
    item.setZValue(z)
    item.setTransform(QTransform.fromTranslate(dx, dy))   # in the item's own, unscaled pixels
    return item


def _at(item, x: float, y: float):
    item.setPos(x, y)
    return item


class SiteDot(QGraphicsEllipseItem):
    def __init__(self, view: "SitePlotView", site: SitePoint, colour: str, centre: QPointF):
        super().__init__(-SITE_R, -SITE_R, 2 * SITE_R, 2 * SITE_R)
        self.view = view
        self.site = site
        self.setPos(centre)
        self.setBrush(QColor(colour))
        self.setPen(QPen(QColor(SiteStatus.colour(site.status)).darker(120), 2.5))
        self.setZValue(30)
        self.setFlag(QGraphicsEllipseItem.ItemIgnoresTransformations, True)
        self.setCursor(Qt.PointingHandCursor)
        self.setData(0, site.id)
        self.setToolTip(f"<b>{site.name}</b> ({site.code})<br>{site.subsidiary_name}<br>"
                        f"{QCoreApplication.translate('choices', SiteStatus.label(site.status))}<br>"
                        f"{site.latitude:.3f}°N, {site.longitude:.3f}°E")

    def mousePressEvent(self, event):
        if event.button() == Qt.LeftButton:
            self.view.siteClicked.emit(self.site.id)
        event.accept()

    def mouseDoubleClickEvent(self, event):
        self.view.siteActivated.emit(self.site.id)
        event.accept()


class SitePlotView(QGraphicsView):
    siteClicked = Signal(int)
    siteActivated = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("sitePlot")
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing)
        self.setBackgroundBrush(QColor("#f7f9fb"))
        self.setMinimumSize(280, 220)
        self._data: SitePlotData | None = None
        self._bounds: QRectF | None = None
        self.dots: dict[int, SiteDot] = {}
        self.lines = []
        self.set_data(None)

    def data(self) -> SitePlotData | None:
        return self._data

    def set_data(self, data: SitePlotData | None) -> None:
        self._data = data
        self._bounds = None
        self.scene().clear()
        self.dots.clear()
        self.lines = []
        if data is None or not data.sites:
            f = QFont(self.font())
            f.setPixelSize(14)
            t = self.scene().addSimpleText(self.tr("No sites with coordinates yet"), f)
            t.setBrush(QColor("#757575"))
            if data is not None and data.unplotted_sites:
                n = self.scene().addSimpleText(self.tr("Without latitude/longitude: %1").replace(
                    "%1", ", ".join(data.unplotted_sites)), QFont(self.font()))
                n.setPos(0, 24)
        else:
            self._draw(data)
        self._fit()

    # --- projection: equirectangular around the middle latitude -------------------------------
    def _project(self, lat: float, lon: float) -> QPointF:
        return QPointF(lon * PX_PER_DEG * self._coslat, -lat * PX_PER_DEG)

    def _draw(self, d: SitePlotData) -> None:
        sc = self.scene()
        lats = [s.latitude for s in d.sites] + [x.latitude for x in d.served]
        lons = [s.longitude for s in d.sites] + [x.longitude for x in d.served]
        lat0, lat1 = min(lats) - 1.0, max(lats) + 1.0 + 0.08 * (max(lats) - min(lats) + 2)
        lon0, lon1 = min(lons) - 1.5, max(lons) + 1.5
        self._coslat = math.cos(math.radians((lat0 + lat1) / 2))
        base = QFont(self.font())
        self._draw_grid(lat0, lat1, lon0, lon1, base)
        subs = sorted({s.subsidiary_name for s in d.sites})
        colours = {name: OWNER_PALETTE[i % len(OWNER_PALETTE)] for i, name in enumerate(subs)}
        pos = {s.id: self._project(s.latitude, s.longitude) for s in d.sites}
        site_colour = {s.id: colours[s.subsidiary_name] for s in d.sites}
        # served regions: lines first, then one dot and one label per place
        places: dict[tuple[float, float], list] = defaultdict(list)
        # points closer than this share one dot and one label (Haikou's districts at national scale)
        near = max(lat1 - lat0, lon1 - lon0) / 30.0
        clusters: list[tuple[float, float]] = [(s.latitude, s.longitude) for s in d.sites]
        for x in d.served:
            end = self._project(x.latitude, x.longitude)
            start = pos[x.site_id]
            if math.hypot(end.x() - start.x(), end.y() - start.y()) > 1.0:
                pen = QPen(QColor(site_colour[x.site_id]), 1.6, Qt.DashLine if x.approximate else Qt.SolidLine)
                line = sc.addLine(start.x(), start.y(), end.x(), end.y(), pen)
                line.setOpacity(0.75)
                line.setZValue(10)
                line.setToolTip(_tr("%1 serves %2").replace("%1", self._site(x.site_id).name)
                                .replace("%2", x.region_name))
                self.lines.append(line)
            places[self._cluster(clusters, x.latitude, x.longitude, near)].append(x)
        small = QFont(base)
        small.setPixelSize(11)
        site_places = {(s.latitude, s.longitude) for s in d.sites}
        right_edge = self._project(0, lon0 + (lon1 - lon0) * 0.7).x()
        for key, served in places.items():
            first = served[0]
            p = self._project(first.latitude, first.longitude)
            dot = sc.addEllipse(-REGION_R, -REGION_R, 2 * REGION_R, 2 * REGION_R,
                                QPen(QColor("#546e7a"), 1), QBrush(QColor("#ffffff")))
            dot.setPos(p)
            dot.setFlag(QGraphicsEllipseItem.ItemIgnoresTransformations, True)
            dot.setZValue(20)
            names = []
            for x in served:
                if x.region_name not in names:
                    names.append(x.region_name)
            label = "、".join(names[:3]) + (self.tr(" and %n more", "", len(names) - 3) if len(names) > 3 else "")
            dot.setToolTip("<br>".join(names))
            if key in site_places:
                continue       # the site's own label sits here
            t = sc.addSimpleText(label, small)
            _pinned(t, p, 6 if p.x() < right_edge else -6 - t.boundingRect().width(), 2, 21)
            t.setBrush(QColor("#455a64"))
        # sites on top, with their labels
        site_spots: list[tuple[float, float]] = []
        bold = QFont(base)
        bold.setPixelSize(13)
        bold.setBold(True)
        stacked: dict[tuple[float, float], int] = defaultdict(int)   # sites standing together: labels stack
        for s in d.sites:
            spot = self._cluster(site_spots, s.latitude, s.longitude, near)
            line_no = stacked[spot]
            stacked[spot] += 1
            dot = SiteDot(self, s, site_colour[s.id], pos[s.id])
            sc.addItem(dot)
            self.dots[s.id] = dot
            t = sc.addSimpleText(f"{s.name} ({s.code})", bold)
            dx = SITE_R + 3 if pos[s.id].x() < right_edge else -SITE_R - 3 - t.boundingRect().width()
            _pinned(t, pos[s.id], dx, -SITE_R - 12 + 17 * line_no, 31)
            t.setBrush(QColor("#263238"))
        # the bounds the view fits: the geography, not the labels (those keep their pixel size)
        a, b = self._project(lat1, lon0), self._project(lat0, lon1)
        self._bounds = QRectF(a, b)
        self._draw_legend(d, subs, colours, small, a)

    def _draw_grid(self, lat0: float, lat1: float, lon0: float, lon1: float, base: QFont) -> None:
        """The meridians and parallels every 1, 2 or 5 degrees, each with its label."""
        sc = self.scene()
        grid_font = QFont(base)
        grid_font.setPixelSize(10)
        step = 5 if max(lat1 - lat0, lon1 - lon0) > 12 else 2 if max(lat1 - lat0, lon1 - lon0) > 5 else 1
        grid_pen = QPen(QColor("#dfe6ec"), 0)
        for lon in range(math.floor(lon0 / step) * step, math.ceil(lon1 / step) * step + 1, step):
            a, b = self._project(lat0, lon), self._project(lat1, lon)
            sc.addLine(a.x(), a.y(), b.x(), b.y(), grid_pen)
            t = _pinned(sc.addSimpleText(f"{lon}°E", grid_font), a, 2, -14, 1)
            t.setBrush(QColor("#90a4ae"))
        for lat in range(math.floor(lat0 / step) * step, math.ceil(lat1 / step) * step + 1, step):
            a, b = self._project(lat, lon0), self._project(lat, lon1)
            sc.addLine(a.x(), a.y(), b.x(), b.y(), grid_pen)
            t = _pinned(sc.addSimpleText(f"{lat}°N", grid_font), a, 2, -14, 1)
            t.setBrush(QColor("#90a4ae"))

    def _draw_legend(self, d: SitePlotData, subs: list[str], colours: dict[str, str], small: QFont,
                     corner: QPointF) -> None:
        """The subsidiaries' colours and the line styles, in the corner, pixel-sized."""
        sc = self.scene()
        # legend: subsidiaries and line styles, in a corner, pixel-sized
        legend = QGraphicsItemGroup()
        sc.addItem(legend)
        y = 4.0
        for name in subs:
            legend.addToGroup(_at(sc.addRect(0, 0, 10, 10, QPen(Qt.NoPen), QBrush(QColor(colours[name]))), 6, y + 3))
            legend.addToGroup(_at(sc.addSimpleText(name, small), 20, y))
            y += 16
        note = _at(sc.addSimpleText(self.tr("solid line: the region's own point; dashed: its city's or "
                                            "province capital's"), small), 6, y + 2)
        note.setBrush(QColor("#78909c"))
        legend.addToGroup(note)
        if d.unplotted_sites:
            t = _at(sc.addSimpleText(self.tr("Without latitude/longitude: %1").replace(
                "%1", ", ".join(d.unplotted_sites)), small), 6, y + 18)
            t.setBrush(QColor("#b71c1c"))
            legend.addToGroup(t)
        legend.setFlag(QGraphicsItemGroup.ItemIgnoresTransformations, True)
        legend.setPos(corner)
        legend.setZValue(40)

    @staticmethod
    def _cluster(clusters: list[tuple[float, float]], lat: float, lon: float, near: float) -> tuple[float, float]:
        for c in clusters:
            if abs(c[0] - lat) < near and abs(c[1] - lon) < near:
                return c
        clusters.append((lat, lon))
        return (lat, lon)

    def _site(self, site_id: int) -> SitePoint:
        return next(s for s in self._data.sites if s.id == site_id)

    def site_centre(self, site_id: int) -> QPointF:
        return self.dots[site_id].scenePos()

    def _fit(self) -> None:
        rect = self._bounds if self._bounds is not None else self.scene().itemsBoundingRect()
        rect = rect.adjusted(-10, -10, 10, 10)
        self.scene().setSceneRect(rect)
        self.fitInView(rect, Qt.KeepAspectRatio)

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._fit()


class SitePlot(SitePlotView):
    """The plot reading its own data; `refresh()` after a change to sites or coverage."""

    def __init__(self, db, parent=None):
        super().__init__(parent)
        self.db = db
        self.refresh()

    def refresh(self) -> None:
        from app.read.viewdata import site_points
        self.set_data(site_points(self.db))

"""The topology picture of a cluster: spines on top, leaves (by rail) below them, the nodes under
the leaves, coloured by service state or by tenant. Painted in one pass with QPainter (a
1,000-node cluster is one widget, not thousands of items); a click on a node emits its id."""
from __future__ import annotations

import hashlib

from PySide6.QtCore import QCoreApplication, QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.domain.clock import local_text
from models.choices import GpuState, NodeState

from ui.shell.i18n import choice_label

NODE_W, NODE_H, NODE_GAP = 132.0, 48.0, 8.0  # three lines: name; GPUs and state; hold or why not offered
SW_W, SW_H = 112.0, 30.0
MARGIN, ROW_GAP = 16.0, 56.0
MAX_LINKS = 1500  # more node–leaf links than this (a big cluster): one bus per leaf instead, readable


def _tr(text: str) -> str:
    return QCoreApplication.translate("TopologyView", text)


def tenant_colour(name: str | None) -> QColor:
    if not name:
        return QColor("#eceff1")
    h = int(hashlib.sha1(name.encode("utf-8")).hexdigest()[:6], 16)
    return QColor.fromHsv(h % 360, 110 + h % 80, 200 + h % 40)


HELD_COLOUR = "#ffc107"  # the utilisation chart's held


def hold_text(node) -> str:
    """"Held FZ-H2026-0001 until 2026-12-09 15:17"."""
    if not node.hold:
        return ""
    when = local_text(node.hold_expires)[:16] if node.hold_expires else "—"
    return _tr("Held %1 until %2").replace("%1", node.hold).replace("%2", when)


def unfit_text(node, *, short: bool = False) -> str:
    """Why an available node is not offered although no hold holds it: its GPUs' states, e.g.
    "not offered: GPUs 1 × Maintenance" (short, in the picture: "GPUs 1 × Maintenance"; the
    capacity search takes whole nodes whose every GPU is available or leased)."""
    if not node.unfit:
        return ""
    parts = ", ".join(f"{n} × {choice_label(GpuState, state)}" for state, n in node.unfit)
    return (_tr("GPUs %1") if short else _tr("not offered: GPUs %1")).replace("%1", parts)


def state_colour(node) -> QColor:
    """The node's state colour; a held node is drawn in the held colour."""
    return QColor(HELD_COLOUR if node.hold else NodeState.colour(node.state))


def text_on(bg: QColor) -> QColor:
    """Black or white text, by the background's perceived brightness (amber and orange take black)."""
    return QColor(Qt.black) if 0.299 * bg.red() + 0.587 * bg.green() + 0.114 * bg.blue() > 150 else QColor(Qt.white)


class TopologyView(QWidget):
    nodeClicked = Signal(int)  # node id

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("topologyView")
        self.topo = None
        self.mode = "state"
        self.selected: int | None = None
        self.node_rects: list[tuple[QRectF, int]] = []
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMouseTracking(True)

    def set_topology(self, topo, width: int | None = None) -> None:
        self.topo = topo
        self._layout(width or max(self.width(), 900))
        self.update()

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.update()

    def tenants(self) -> list[str]:
        return sorted({n.tenant for n in self.topo.nodes if n.tenant}) if self.topo else []

    def _layout(self, width: int) -> None:
        t = self.topo
        self.node_rects = []
        self.switch_pos: dict[int, QRectF] = {}
        if t is None:
            self.setMinimumSize(400, 200)
            return
        per_row = max(1, int((width - 2 * MARGIN + NODE_GAP) // (NODE_W + NODE_GAP)))
        y = MARGIN + 22

        def row_of(items, w, h, y):
            n = len(items)
            total = n * w + (n - 1) * NODE_GAP
            x0 = max(MARGIN, (width - total) / 2)
            return {dev: QRectF(x0 + i * (w + NODE_GAP), y, w, h) for i, dev in enumerate(items)}

        spine_ids = [d for d, _n in t.spines]
        leaf_ids = [d for d, _n, _r in t.leaves]
        if spine_ids:
            self.switch_pos.update(row_of(spine_ids, SW_W, SW_H, y))
            y += SW_H + ROW_GAP
        if leaf_ids:
            self.switch_pos.update(row_of(leaf_ids, SW_W, SW_H, y))
            y += SW_H + ROW_GAP
        self.node_top = y
        for i, n in enumerate(t.nodes):
            r, c = divmod(i, per_row)
            self.node_rects.append((QRectF(MARGIN + c * (NODE_W + NODE_GAP), y + r * (NODE_H + NODE_GAP),
                                           NODE_W, NODE_H), n.id))
        rows = (len(t.nodes) + per_row - 1) // per_row
        height = y + rows * (NODE_H + NODE_GAP) + MARGIN
        self.setMinimumSize(int(min(width, 2 * MARGIN + per_row * (NODE_W + NODE_GAP))), int(height))

    def resizeEvent(self, event):
        super().resizeEvent(event)
        if self.topo is not None and abs(event.size().width() - event.oldSize().width()) > NODE_W / 2:
            self._layout(event.size().width())

    def node_colour(self, node) -> QColor:
        if self.mode == "tenant":
            return tenant_colour(node.tenant)
        return state_colour(node)

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        area = QRectF(event.rect())  # only what is exposed (a 1,000-node picture scrolls)
        p.fillRect(event.rect(), QColor("#ffffff"))
        t = self.topo
        if t is None:
            p.drawText(self.rect(), Qt.AlignCenter, _tr("Choose a cluster"))
            return
        base = QFont(self.font())
        small = QFont(base)
        small.setPixelSize(11)
        bold = QFont(base)
        bold.setPixelSize(12)
        bold.setBold(True)
        p.setFont(bold)
        p.setPen(QColor("#263238"))
        p.drawText(QRectF(MARGIN, 4, self.width() - 2 * MARGIN, 18), Qt.AlignLeft | Qt.AlignVCenter,
                   _tr("%1 — spines → leaves → nodes").replace("%1", t.cluster.name))
        nodes_by_dev = {n.device_id: (rect, n) for (rect, _id), n in zip(self.node_rects, t.nodes)}
        p.setRenderHint(QPainter.Antialiasing, False)
        # links: leaf → spine, node → leaf (or one bus per leaf when there are too many)
        p.setPen(QPen(QColor(96, 125, 139, 150), 1, Qt.DashLine if t.spine_mesh else Qt.SolidLine))
        sw = self.switch_pos
        p.drawLines([QLineF(sw[sp].center().x(), sw[sp].bottom(), sw[lf].center().x(), sw[lf].top())
                     for sp, lf in t.spine_links if sp in sw and lf in sw])
        if len(t.node_links) <= MAX_LINKS:
            p.setPen(QPen(QColor(0, 137, 123, 70), 1))
            p.drawLines([QLineF(sw[lf].center().x(), sw[lf].bottom(), nodes_by_dev[dev][0].center().x(),
                                nodes_by_dev[dev][0].top())
                         for lf, dev in t.node_links if lf in sw and dev in nodes_by_dev])
        else:
            p.setPen(QPen(QColor(0, 137, 123, 120), 2))
            for lf, _n, _r in t.leaves:
                a = self.switch_pos[lf]
                p.drawLine(a.center().x(), a.bottom(), a.center().x(), self.node_top - 8)
            p.drawLine(MARGIN, self.node_top - 8, self.width() - MARGIN, self.node_top - 8)
        # switches
        p.setFont(small)
        for dev, name in t.spines:
            self._switch(p, self.switch_pos[dev], name, QColor("#004d40"))
        for dev, name, rail in t.leaves:
            label = f"{name} · R{rail}" if rail else name
            self._switch(p, self.switch_pos[dev], label, QColor("#00897b"))
        # nodes
        for (rect, node_id), n in zip(self.node_rects, t.nodes):
            if not rect.intersects(area):
                continue
            bg = self.node_colour(n)
            p.setBrush(bg)
            pen = QPen(QColor("#ffb300") if node_id == self.selected else bg.darker(160),
                       3 if node_id == self.selected else 1)
            if n.maintenance:
                pen.setStyle(Qt.DashLine)
            p.setPen(pen)
            p.drawRect(rect)
            p.setPen(text_on(bg))
            third_h = rect.height() / 3
            lines = [rect.adjusted(4, 1 + i * third_h, -4, -(rect.height() - (i + 1) * third_h) - 1) for i in range(3)]
            p.drawText(lines[0], Qt.AlignLeft | Qt.AlignVCenter, n.name)
            label = choice_label(NodeState, n.state)
            if n.hold:  # "Held → 12-09" and the hold's number below
                label = _tr("Held → %1").replace("%1", local_text(n.hold_expires)[5:10] if n.hold_expires else "—")
            second = (n.tenant or label) if self.mode == "state" else label
            p.drawText(lines[1], Qt.AlignLeft | Qt.AlignVCenter, f"{n.gpus}× · {second}")
            third = n.hold or unfit_text(n, short=True)
            if third:
                p.drawText(lines[2], Qt.AlignLeft | Qt.AlignVCenter,
                           p.fontMetrics().elidedText(third, Qt.ElideRight, int(lines[2].width())))
            if n.unfit and not n.hold:  # a red corner: not offered for its GPUs' states
                p.setBrush(QColor("#c62828"))
                p.setPen(Qt.NoPen)
                c = rect.topRight()
                p.drawPolygon([c, c + QPointF(-10, 0), c + QPointF(0, 10)])
        p.end()

    def _switch(self, p: QPainter, rect: QRectF, label: str, colour: QColor) -> None:
        p.setBrush(colour)
        p.setPen(QPen(colour.darker(140), 1))
        p.drawRoundedRect(rect, 4, 4)
        p.setPen(QColor(Qt.white))
        p.drawText(rect.adjusted(3, 0, -3, 0), Qt.AlignCenter, label)

    def node_at(self, pos) -> int | None:
        for rect, node_id in self.node_rects:
            if rect.contains(pos):
                return node_id
        return None

    def mousePressEvent(self, event) -> None:
        hit = self.node_at(event.position())
        if hit is not None:
            self.selected = hit
            self.update()
            self.nodeClicked.emit(hit)

    def mouseMoveEvent(self, event) -> None:
        hit = self.node_at(event.position())
        if hit is None or self.topo is None:
            self.setToolTip("")
            return
        n = next(x for x in self.topo.nodes if x.id == hit)
        extra = "\n".join(t for t in (hold_text(n), unfit_text(n)) if t)
        self.setToolTip(f"{n.name}\n{choice_label(NodeState, n.state)}"
                        + (f" · {_tr('maintenance')}" if n.maintenance else "")
                        + f"\n{n.gpus} × {n.model or '—'}\n{_tr('Tenant')}: {n.tenant or '—'}\n{n.reason or ''}"
                        + (f"\n{extra}" if extra else ""))

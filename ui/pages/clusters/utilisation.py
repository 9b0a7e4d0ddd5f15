"""GPUs by model and site: allocated / available / held / triage / other, one stacked bar each."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QWidget

BAR_H, GAP, LABEL_W, TOP = 18.0, 6.0, 230.0, 34.0
COLOURS = {"allocated": "#3f51b5", "available": "#4caf50", "held": "#ffc107", "triage": "#e53935", "other": "#b0bec5"}


def _tr(text: str) -> str:
    return QCoreApplication.translate("UtilisationChart", text)


def bucket_labels() -> dict[str, str]:
    from models.choices import NodeState
    from ui.shell.i18n import choice_label
    return {"allocated": choice_label(NodeState, NodeState.ALLOCATED),
            "available": choice_label(NodeState, NodeState.AVAILABLE), "held": _tr("Held"),
            "triage": _tr("Triage / RMA"), "other": _tr("Other (onboarding, burn-in, draining, maintenance)")}


class UtilisationChart(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("utilisationChart")
        self.rows: list[tuple[str, str, dict[str, int]]] = []
        self.holds: list = []  # app.services.clusters.read.HeldGroup: listed under the bars

    def set_rows(self, rows, holds=()) -> None:
        self.rows, self.holds = rows, list(holds)
        self.setMinimumHeight(int(TOP + (len(rows) + len(self.holds) + (1 if self.holds else 0)) * (BAR_H + GAP) + 20))
        self.update()

    def hold_lines(self) -> list[str]:
        """"Held FZ-H2026-0001: 64 × H100 SXM 80GB · FZ-MW1, until 2026-12-09 15:17", one a hold and bar."""
        from app.domain.clock import local_text
        return [_tr("Held %1: %2 × %3 · %4, until %5").replace("%1", h.number).replace("%2", str(h.gpus))
                .replace("%3", h.model).replace("%4", h.site).replace("%5", local_text(h.expires_at)[:16])
                for h in self.holds]

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#ffffff"))
        labels = bucket_labels()
        x = 8.0
        for key, colour in COLOURS.items():
            p.fillRect(QRectF(x, 8, 12, 12), QColor(colour))
            text = labels[key]
            p.setPen(QColor("#263238"))
            w = p.fontMetrics().horizontalAdvance(text) + 24
            p.drawText(QRectF(x + 16, 4, w, 20), Qt.AlignLeft | Qt.AlignVCenter, text)
            x += w + 8
        if not self.rows:
            p.drawText(self.rect(), Qt.AlignCenter, _tr("No GPU is in a cluster yet"))
            return
        most = max(sum(b.values()) for _m, _s, b in self.rows) or 1
        width = max(50.0, self.width() - LABEL_W - 60)
        for i, (model, site, buckets) in enumerate(self.rows):
            y = TOP + i * (BAR_H + GAP)
            p.setPen(QColor("#263238"))
            p.drawText(QRectF(4, y, LABEL_W - 8, BAR_H), Qt.AlignRight | Qt.AlignVCenter, f"{model} · {site}")
            x = LABEL_W
            for key, colour in COLOURS.items():
                n = buckets.get(key, 0)
                if n:
                    w = width * n / most
                    p.fillRect(QRectF(x, y, w, BAR_H), QColor(colour))
                    if w > 22:
                        p.setPen(QColor(Qt.white) if key in ("allocated", "triage") else QColor(Qt.black))
                        p.drawText(QRectF(x, y, w, BAR_H), Qt.AlignCenter, str(n))
                    x += w
            p.setPen(QColor("#546e7a"))
            p.drawText(QRectF(x + 4, y, 60, BAR_H), Qt.AlignLeft | Qt.AlignVCenter, str(sum(buckets.values())))
        y = TOP + (len(self.rows) + 0.5) * (BAR_H + GAP)
        for line in self.hold_lines():
            p.fillRect(QRectF(LABEL_W - 18, y + 3, 12, 12), QColor(COLOURS["held"]))
            p.setPen(QColor("#263238"))
            p.drawText(QRectF(LABEL_W, y, self.width() - LABEL_W - 8, BAR_H), Qt.AlignLeft | Qt.AlignVCenter, line)
            y += BAR_H + GAP
        p.end()

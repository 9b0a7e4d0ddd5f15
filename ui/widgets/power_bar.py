"""The elevation's A/B power bar: one bar per side (load against capacity, the limit marked) and the
N-redundancy verdict, and the words for what the rack fails. Drawn from app.services.power's figures
(the rack's `RackPower`); the Power tab (ui/pages/power.py) shows the same lines."""
from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPen

from models.choices import PowerFeedStatus, PowerSide, RedundancyState

from ui.shell.i18n import choice_label
from ui.widgets import scene_text

TR_CONTEXT = "PowerView"


def tr(text: str, disambiguation: str | None = None, n: int = -1) -> str:
    return QCoreApplication.translate(TR_CONTEXT, text, disambiguation, n)


def kw(w) -> str:
    return f"{Decimal(w) / 1000:.2f}"


def side_colour(rp, side: str) -> str:
    """Red: a feed of the side is over its limit; orange: it would be on failover; green otherwise."""
    feeds = [f for f in rp.feeds if f.side == side and f.status == PowerFeedStatus.ACTIVE]
    if any(f.over for f in feeds):
        return "#e53935"
    if any(f.failover_w > f.limit_w for f in feeds):
        return "#ffa726"
    return "#66bb6a"


def problem_lines(rp) -> list[str]:
    """Why the rack fails a check, in the console's language (from the figures, not the service's text)."""
    out = []
    for f in rp.over_limit:
        out.append(tr("Feed %1 (%2) carries %3 kW, over %4% of its %5 A breaker (%6 kW)")
                   .replace("%1", f.label).replace("%2", choice_label(PowerSide, f.side)).replace("%3", kw(f.load_w))
                   .replace("%4", str(f.limit_pct)).replace("%5", str(f.amperage)).replace("%6", kw(f.limit_w)))
    if rp.redundancy == RedundancyState.FAIL:
        for lost in PowerSide.values():
            for f in rp.feeds:
                if f.side != lost and f.status == PowerFeedStatus.ACTIVE and f.failover_w > f.limit_w:
                    out.append(tr("With %1 lost, feed %2 would carry %3 kW, over its limit of %4 kW")
                               .replace("%1", choice_label(PowerSide, lost)).replace("%2", f.label)
                               .replace("%3", kw(f.failover_w)).replace("%4", kw(f.limit_w)))
            if rp.lost_w.get(lost):
                out.append(tr("With %1 lost, %2 kW of devices plugged into it only would go dark")
                           .replace("%1", choice_label(PowerSide, lost)).replace("%2", kw(rp.lost_w[lost])))
    return out


def draw_feed_bars(sc, rp, x: float, y: float, w: float, font: QFont) -> None:
    """One bar per side (load of its feeds against their capacity, the limit marked) and the
    N-redundancy verdict under the header's lease line."""
    sides = [s for s in PowerSide.values() if any(f.side == s for f in rp.feeds)]
    gap, h = 8.0, 18.0
    bw = (w - gap * (len(sides) - 1)) / max(len(sides), 1)
    for i, side in enumerate(sides):
        bx = x + i * (bw + gap)
        feeds = [f for f in rp.feeds if f.side == side]
        cap = sum((f.capacity_w for f in feeds), Decimal(0))
        load = rp.side_load(side)
        limit = rp.side_limit(side)
        pct = float(load * 100 / cap) if cap else 0.0
        sc.addRect(bx, y, bw, h, QPen(QColor("#90a4ae"), 1), QBrush(QColor("#eceff1")))
        fill = sc.addRect(bx, y, bw * min(pct, 100.0) / 100.0, h, QPen(Qt.NoPen), QBrush(QColor(side_colour(rp, side))))
        fill.setZValue(1)
        if cap:
            mx = bx + bw * float(limit / cap)
            mark = sc.addLine(mx, y - 2, mx, y + h + 2, QPen(QColor("#37474f"), 1.5, Qt.DashLine))
            mark.setZValue(2)
        text = (tr("%1: %2 of %3 kW (%4%)").replace("%1", choice_label(PowerSide, side))
                .replace("%2", kw(load)).replace("%3", kw(cap)).replace("%4", f"{pct:.0f}"))
        tip = "\n".join(
            tr("%1 %2 A: %3 kW now, %4 kW if the other side is lost; limit %5 kW (%6%)")
            .replace("%1", f.label).replace("%2", str(f.amperage)).replace("%3", kw(f.load_w))
            .replace("%4", kw(f.failover_w)).replace("%5", kw(f.limit_w)).replace("%6", str(f.limit_pct))
            for f in feeds)
        t = scene_text(None, text, font, QColor("#212121"), bx + 6, y + 1, bw - 12)
        t.setZValue(3)
        t.setToolTip(tip)
        fill.setToolTip(tip)
        sc.addItem(t)
    verdict = choice_label(RedundancyState, rp.redundancy)
    line = tr("N redundancy: %1").replace("%1", verdict)
    if rp.over_limit:
        line += " · " + tr("%n feed(s) over the limit", "", len(rp.over_limit))
    t = scene_text(None, line, font, QColor(RedundancyState.colour(rp.redundancy)).darker(120), x, y + 40, w)
    t.setToolTip("\n".join(problem_lines(rp)))
    sc.addItem(t)

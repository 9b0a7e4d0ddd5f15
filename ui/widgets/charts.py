"""Dashboard: QtCharts over a `DashboardData`.

`DashboardWidget.set_data(data)` redraws everything; the main window calls it after a change.
`DashboardCharts(db)` is the database-aware version whose `refresh()` builds the data off the
GUI thread (through `ui.shell.operations` when it is there) and then calls `set_data`.
"""
from __future__ import annotations

from PySide6.QtCharts import (QAbstractBarSeries, QBarCategoryAxis, QBarSet, QChart, QChartView,
                              QHorizontalBarSeries, QHorizontalStackedBarSeries, QLineSeries, QValueAxis)
from PySide6.QtCore import QCoreApplication, QEvent, QMargins, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import (QFrame, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout,
                               QWidget)

from app.read.viewdata import DashboardData
from models.choices import GpuState

from ui.widgets import fmt_decimal


def _choice(choices, value) -> str:
    return QCoreApplication.translate(f"choices/{choices.__name__}", choices.label(value))


class ChartBox(QGroupBox):
    """A titled chart that shows a sentence instead when there is nothing to draw.

    `tip` (optional) maps a category index of the chart's category axis to a tooltip, so a short
    site code on an axis shows the site's full name when the mouse rests on its bar or label.
    `legend` is an optional row of colour swatches under the chart (full labels that never elide).
    """

    def __init__(self, title: str, name: str, empty_text: str, parent=None):
        super().__init__(title, parent)
        self.setObjectName(name + "Box")
        self.stack = QStackedWidget(self)
        self.view = QChartView(self)
        self.view.setObjectName(name)
        self.view.setRenderHint(QPainter.Antialiasing)
        self.view.setMinimumHeight(150)
        self.empty = QLabel(empty_text, self)
        self.empty.setObjectName(name + "Empty")
        self.empty.setAlignment(Qt.AlignCenter)
        self.empty.setStyleSheet("color: #757575;")
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.empty)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.stack, 1)
        self.legend = QWidget(self)
        self.legend.setObjectName(name + "Legend")
        self.legend_grid = QGridLayout(self.legend)
        self.legend_grid.setContentsMargins(4, 0, 4, 0)
        self.legend_grid.setHorizontalSpacing(12)
        self.legend_grid.setVerticalSpacing(2)
        self.legend.hide()
        lay.addWidget(self.legend)
        self.tip = None            # callable(value point) -> str, see class doc
        self._legend_texts: list[str] = []
        self.view.viewport().installEventFilter(self)
        self.set_chart(None)

    def set_legend(self, entries: list[tuple[str, str]], columns: int = 4) -> None:
        """A legend of (colour, label) in a grid under the chart; [] hides it."""
        while self.legend_grid.count():
            item = self.legend_grid.takeAt(0)
            if item.layout() is not None:
                item.layout().deleteLater()
        for child in self.legend.findChildren(QLabel):
            child.hide()
            child.deleteLater()
        self._legend_texts = [label for _c, label in entries]
        for i, (colour, label) in enumerate(entries):
            swatch = QLabel(self.legend)
            swatch.setFixedSize(12, 12)
            swatch.setStyleSheet(f"background: {colour}; border: 1px solid #9e9e9e;")
            text = QLabel(label, self.legend)
            text.setObjectName("legendLabel")
            cell = QHBoxLayout()
            cell.setSpacing(4)
            cell.addWidget(swatch)
            cell.addWidget(text)
            cell.addStretch(1)
            self.legend_grid.addLayout(cell, i // columns, i % columns)
        self.legend.setVisible(bool(entries))

    def legend_labels(self) -> list[str]:
        return list(self._legend_texts)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.ToolTip and self.tip is not None and self.showing_chart:
            from PySide6.QtWidgets import QToolTip
            chart = self.view.chart()
            series = chart.series()
            if series:
                scene = self.view.mapToScene(event.pos())
                value = chart.mapToValue(chart.mapFromScene(scene), series[0])
                text = self.tip(value)
                if text:
                    QToolTip.showText(event.globalPos(), text, self.view)
                    return True
            QToolTip.hideText()
            return True
        return super().eventFilter(obj, event)

    def set_chart(self, chart: QChart | None) -> None:
        old = self.view.chart()
        if chart is None:
            self.stack.setCurrentWidget(self.empty)
            self.set_legend([])
            self.tip = None
            chart = QChart()
        else:
            self.stack.setCurrentWidget(self.view)
        self.view.setChart(chart)
        if old is not None and old is not chart:
            old.deleteLater()

    @property
    def showing_chart(self) -> bool:
        return self.stack.currentWidget() is self.view


class DashboardWidget(QWidget):
    contractActivated = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("dashboardCharts")
        self._data: DashboardData | None = None
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.utilisation = ChartBox(self.tr("Rack utilisation per site"), "utilisationChart",
                                    self.tr("No racks yet"), self)
        self.power = ChartBox(self.tr("Power: typical draw against capacity per site (kW)"), "powerChart",
                              self.tr("No sites yet"), self)
        self.gpus = ChartBox(self.tr("GPU fleet by model and state"), "gpuChart", self.tr("No GPUs yet"), self)
        self.revenue = ChartBox(self.tr("Revenue by month (issued statements, net of tax)"), "revenueChart",
                                self.tr("No issued statements yet"), self)
        self.ending = self._ending_box()
        # sites down the left of horizontal bars: a site code never has to share 40 px with its neighbours
        grid.addWidget(self.utilisation, 0, 0)
        grid.addWidget(self.power, 0, 1)
        grid.addWidget(self.gpus, 1, 0, 1, 2)   # the fleet chart lists every GPU model: full width
        grid.addWidget(self.revenue, 2, 0)
        grid.addWidget(self.ending, 2, 1)
        grid.setRowStretch(0, 3)
        grid.setRowStretch(1, 4)
        grid.setRowStretch(2, 2)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 1)
        self.set_data(None)

    def _ending_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Contracts ending"), self)
        box.setObjectName("endingBox")
        lay = QVBoxLayout(box)
        cards = QHBoxLayout()
        self.ending_labels: dict[int, QLabel] = {}
        for days, colour in ((30, "#e53935"), (60, "#fb8c00"), (90, "#fdd835")):
            card = QFrame(box)
            card.setObjectName(f"ending{days}Card")
            card.setFrameShape(QFrame.StyledPanel)
            card.setStyleSheet(f"QFrame#ending{days}Card {{ border-left: 5px solid {colour}; }}")
            v = QVBoxLayout(card)
            v.setContentsMargins(4, 6, 4, 6)      # three within a 1280 px window's dashboard
            number = QLabel("0", card)
            number.setObjectName(f"ending{days}")
            number.setAlignment(Qt.AlignCenter)
            f = QFont(number.font())
            f.setPointSizeF(f.pointSizeF() * 2.2)
            f.setBold(True)
            number.setFont(f)
            caption = QLabel(self.tr("within %1 days").replace("%1", str(days)), card)
            caption.setAlignment(Qt.AlignCenter)
            v.addWidget(number)
            v.addWidget(caption)
            cards.addWidget(card)
            self.ending_labels[days] = number
        lay.addLayout(cards)
        self.soonest = QLabel(box)
        self.soonest.setObjectName("endingSoonest")
        self.soonest.setTextFormat(Qt.RichText)
        self.soonest.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        self.soonest.setWordWrap(True)
        self.soonest.linkActivated.connect(lambda link: self.contractActivated.emit(int(link.split(":")[1])))
        lay.addWidget(self.soonest, 1)
        return box

    # --- public -------------------------------------------------------------------------
    def data(self) -> DashboardData | None:
        return self._data

    def set_data(self, data: DashboardData | None) -> None:
        self._data = data
        d = data or DashboardData(as_of=None)
        self.utilisation.set_chart(self._utilisation_chart(d) if any(s.units_total for s in d.sites) else None)
        self.power.set_chart(self._power_chart(d) if d.sites else None)
        self.gpus.set_chart(self._gpu_chart(d) if d.gpu_fleet else None)
        self.revenue.set_chart(self._revenue_chart(d) if d.revenue else None)
        for days, n in ((30, d.ending_30), (60, d.ending_60), (90, d.ending_90)):
            self.ending_labels[days].setText(QLocale_str(n))
        if d.ending_soon:
            rows = "".join(
                f"<tr><td><a href='contract:{c.id}'>{c.number}</a></td><td>&nbsp;{_esc(_elide(c.customer_name))}</td>"
                f"<td align='right'>&nbsp;{c.end_date.isoformat()}</td>"
                f"<td align='right'>&nbsp;{self.tr('%n day(s)', '', c.days_left)}</td></tr>"
                for c in d.ending_soon)
            self.soonest.setText(f"<b>{self.tr('Soonest')}</b><table>{rows}</table>")
        else:
            self.soonest.setText(self.tr("No live contract ends within 90 days."))

    # --- charts -------------------------------------------------------------------------
    def _chart(self) -> QChart:
        chart = QChart()
        chart.setAnimationOptions(QChart.NoAnimation)
        chart.setMargins(QMargins(2, 2, 2, 2))
        chart.setBackgroundRoundness(0)
        chart.legend().setFont(self.font())
        return chart

    def _axes(self, chart: QChart, series, categories: list[str], y_max: float, y_title: str,
              y_format: str = "%.0f") -> None:
        x = QBarCategoryAxis()
        x.append(categories)
        x.setLabelsFont(self.font())
        y = QValueAxis()
        y.setRange(0, max(y_max, 1.0))
        y.setLabelFormat(y_format)
        y.setTitleText(y_title)
        y.setLabelsFont(self.font())
        y.setTitleFont(self.font())
        y.applyNiceNumbers()
        chart.addAxis(x, Qt.AlignBottom)
        chart.addAxis(y, Qt.AlignLeft)
        series.attachAxis(x)
        series.attachAxis(y)

    def _site_axis(self, chart: QChart, series, sites, x_max: float, x_title: str) -> None:
        """Site codes down the left (first site at the top), values along the bottom."""
        y = QBarCategoryAxis()
        y.append([s.code for s in sites])
        small = QFont(self.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.9))
        y.setLabelsFont(small)
        y.setTruncateLabels(False)
        # a line of text per site, or Qt skips every other site code
        from PySide6.QtGui import QFontMetrics
        for box in (self.utilisation, self.power):
            box.view.setMinimumHeight(max(150, len(sites) * (QFontMetrics(small).height() + 4) + 60))
        x = QValueAxis()
        x.setRange(0, max(x_max, 1.0))
        x.setLabelFormat("%.0f")
        x.setTitleText(x_title)
        x.setLabelsFont(self.font())
        x.setTitleFont(self.font())
        x.applyNiceNumbers()
        chart.addAxis(y, Qt.AlignLeft)
        chart.addAxis(x, Qt.AlignBottom)
        series.attachAxis(y)
        series.attachAxis(x)

    @staticmethod
    def _category(value: QPointF, n: int) -> int | None:
        i = round(value.y())
        return i if 0 <= i < n and abs(value.y() - i) <= 0.5 else None

    def _labels_when_they_fit(self, chart: QChart, series, n: int, per_category: int = 1) -> None:
        """Value labels only while each bar is at least a line of text high."""
        from PySide6.QtGui import QFontMetrics
        line = QFontMetrics(self.font()).height()

        def check(area):
            series.setLabelsVisible(n > 0 and area.height() / n * 0.8 / per_category >= line)
        chart.plotAreaChanged.connect(check)
        check(chart.plotArea())

    def _utilisation_chart(self, d: DashboardData) -> QChart:
        chart = self._chart()
        sites = list(reversed([s for s in d.sites if s.units_total]))    # first site at the top
        bars = QBarSet(self.tr("Units used (%)"))
        bars.setColor(QColor("#3f51b5"))
        for s in sites:
            bars.append(float(s.utilisation_pct))
        series = QHorizontalBarSeries()
        series.append(bars)
        series.setLabelsFormat("@value%")
        high = max((float(s.utilisation_pct) for s in sites), default=0) > 85
        series.setLabelsPosition(QAbstractBarSeries.LabelsInsideEnd if high else QAbstractBarSeries.LabelsOutsideEnd)
        bars.setLabelColor(QColor("#ffffff" if high else "#212121"))
        chart.addSeries(series)
        chart.legend().setVisible(False)
        self._site_axis(chart, series, sites, 100.0, self.tr("Units used (%)"))
        chart.axes(Qt.Horizontal)[0].setRange(0, 100)
        self._labels_when_they_fit(chart, series, len(sites))

        def tip(value, sites=sites):
            i = self._category(value, len(sites))
            if i is None:
                return ""
            s = sites[i]
            return (f"{s.code} {s.name}\n" + self.tr("%1: %2 of %3 U used in %4 racks").replace("%1", s.name)
                    .replace("%2", fmt_decimal(s.units_used, 1)).replace("%3", str(s.units_total))
                    .replace("%4", str(s.racks)) + f" ({fmt_decimal(s.utilisation_pct, 1)}%)")
        self.utilisation.tip = tip
        return chart

    def _power_chart(self, d: DashboardData) -> QChart:
        chart = self._chart()
        sites = list(reversed(d.sites))
        used = QBarSet(self.tr("Typical draw"))
        used.setColor(QColor("#fb8c00"))
        cap = QBarSet(self.tr("Capacity"))
        cap.setColor(QColor("#90a4ae"))
        top = 0.0
        for s in sites:
            used.append(float(s.typical_draw_kw))
            cap.append(float(s.power_capacity_kw))
            top = max(top, float(s.typical_draw_kw), float(s.power_capacity_kw))
        series = QHorizontalBarSeries()
        series.append(used)
        series.append(cap)
        chart.addSeries(series)
        chart.legend().setVisible(False)
        self.power.set_legend([("#fb8c00", used.label()), ("#90a4ae", cap.label())], columns=2)
        self._site_axis(chart, series, sites, top * 1.05, "kW")

        def tip(value, sites=sites):
            i = self._category(value, len(sites))
            if i is None:
                return ""
            s = sites[i]
            return (f"{s.code} {s.name}\n" + self.tr("%1: %2 of %3 kW (%4%)").replace("%1", s.name)
                    .replace("%2", fmt_decimal(s.typical_draw_kw)).replace("%3", fmt_decimal(s.power_capacity_kw))
                    .replace("%4", fmt_decimal(s.power_pct, 1)))
        self.power.tip = tip
        return chart

    def _gpu_chart(self, d: DashboardData) -> QChart:
        # horizontal: eleven model names read along the left, not squeezed under the bars
        chart = self._chart()
        models = list(reversed(d.gpu_models))          # first model at the top
        series = QHorizontalStackedBarSeries()
        for state in d.gpu_states:
            s = QBarSet(_choice(GpuState, state))
            s.setColor(QColor(GpuState.colour(state)))
            for m in models:
                s.append(d.gpu_count(m, state))
            series.append(s)
        top = max(sum(d.gpu_count(m, st) for st in d.gpu_states) for m in models)
        chart.addSeries(series)
        # the chart's own legend elides state names to "已…" when eight share one row: ours never does
        chart.legend().setVisible(False)
        self.gpus.set_legend([(GpuState.colour(st), _choice(GpuState, st)) for st in d.gpu_states],
                             columns=min(8, max(4, len(d.gpu_states))))

        def tip(value, models=models):
            i = self._category(value, len(models))
            if i is None:
                return ""
            m = models[i]
            parts = [f"{_choice(GpuState, st)} {d.gpu_count(m, st)}" for st in d.gpu_states if d.gpu_count(m, st)]
            return f"{m}: " + ", ".join(parts)
        self.gpus.tip = tip
        y = QBarCategoryAxis()
        y.append([_short_model(m) for m in models])
        small = QFont(self.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.85))
        y.setLabelsFont(small)
        y.setTruncateLabels(False)
        # a label's box per model, or Qt hides every other model name: the box is a line of the small
        # font plus the text item's margins (4 px above and below); the axis and margins take ~70 px
        from PySide6.QtGui import QFontMetrics
        self.gpus.view.setMinimumHeight(max(200, len(models) * (QFontMetrics(small).height() + 10) + 80))
        x = QValueAxis()
        x.setRange(0, max(top * 1.05, 1.0))
        x.setLabelFormat("%.0f")
        x.setTitleText(self.tr("GPUs"))
        x.setLabelsFont(self.font())
        x.setTitleFont(self.font())
        x.applyNiceNumbers()
        chart.addAxis(y, Qt.AlignLeft)
        chart.addAxis(x, Qt.AlignBottom)
        series.attachAxis(y)
        series.attachAxis(x)
        return chart

    def _revenue_chart(self, d: DashboardData) -> QChart:
        # a line, not bars: a month with more credit notes than statements goes below zero honestly
        chart = self._chart()
        line = QLineSeries()
        line.setName(self.tr("Net revenue (CNY)"))
        line.setColor(QColor("#43a047"))
        line.setPointsVisible(True)
        line.setPointLabelsVisible(len(d.revenue) <= 12)
        line.setPointLabelsFormat("@yPoint")
        line.setPointLabelsClipping(False)
        pen = line.pen()
        pen.setWidthF(2.5)
        line.setPen(pen)
        values = [float(r.net) for r in d.revenue]
        for i, v in enumerate(values):
            line.append(i, v)
        chart.addSeries(line)
        chart.legend().setVisible(False)
        x = QBarCategoryAxis()
        x.append([r.period for r in d.revenue])
        x.setLabelsFont(self.font())
        lo, hi, ticks = nice_range(min(values + [0.0]), max(values + [0.0]), target_ticks=5)
        y = QValueAxis()
        y.setTruncateLabels(False)
        y.setRange(lo, hi)
        y.setTickCount(ticks)
        y.setLabelFormat("%.0f")
        y.setTitleText(self.tr("CNY"))
        y.setLabelsFont(self.font())
        y.setTitleFont(self.font())
        chart.addAxis(x, Qt.AlignBottom)
        chart.addAxis(y, Qt.AlignLeft)
        line.attachAxis(x)
        line.attachAxis(y)
        months = d.revenue
        line.hovered.connect(lambda point, on: self._tip(on, self._revenue_tip(months, round(point.x()))))
        return chart

    def _revenue_tip(self, months, i: int) -> str:
        if not 0 <= i < len(months):
            return ""
        m = months[i]
        return self.tr("%1: ¥%2 net, ¥%3 with tax").replace("%1", m.period).replace(
            "%2", fmt_decimal(m.net)).replace("%3", fmt_decimal(m.gross))

    def _tip(self, on: bool, text: str) -> None:
        from PySide6.QtGui import QCursor
        from PySide6.QtWidgets import QToolTip
        if on:
            QToolTip.showText(QCursor.pos(), text, self)
        else:
            QToolTip.hideText()


def nice_range(lo: float, hi: float, target_ticks: int = 6) -> tuple[float, float, int]:
    """Axis bounds on round numbers (1, 2, 2.5, 5 × 10^k) that include `lo` and `hi`, and the tick count."""
    import math
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / (target_ticks - 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    lo_n = math.floor(lo / step) * step
    hi_n = math.ceil(hi / step) * step
    if hi_n == hi and hi > 0:
        hi_n += step          # room above the highest point for its label
    return lo_n, hi_n, int(round((hi_n - lo_n) / step)) + 1


def _short_model(name: str) -> str:
    """'H100 SXM 80GB' -> 'H100 80GB'; 'RTX 4090 24GB' -> 'RTX 4090'; unknown shapes unchanged."""
    parts = name.split()
    if len(parts) >= 2 and parts[0] in ("RTX", "Ascend"):
        return " ".join(parts[:2])
    return " ".join(p for p in parts if p.upper() not in ("SXM", "PCIE", "OAM")) or name


def _elide(text: str, n: int = 12) -> str:
    return text if len(text) <= n else text[:n - 1] + "…"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def QLocale_str(n: int) -> str:  # noqa: N802 - a locale-aware integer
    from PySide6.QtCore import QLocale
    return QLocale().toString(int(n))


class DashboardCharts(DashboardWidget):
    """The dashboard reading its own data; `refresh()` after every change."""

    def __init__(self, db, parent=None):
        super().__init__(parent)
        self.db = db
        self._loading = self._again = False
        self.refresh()

    def refresh(self, background: bool = True) -> None:
        from app.read.viewdata import dashboard_data
        if not background:
            self.set_data(dashboard_data(self.db))
            return
        if self._loading:
            self._again = True       # a change arrived while loading: load once more afterwards
            return
        try:
            from ui.shell.operations import run_op
        except ImportError:  # used on its own, without the main window's machinery
            self.set_data(dashboard_data(self.db))
            return
        self._loading, self._again = True, False

        def done(result):
            self._loading = False
            self.set_data(result)
            if self._again:
                self.refresh()

        def failed(_exc):
            self._loading = False

        run_op(self, lambda progress: dashboard_data(self.db), on_success=done, on_failure=failed,
               show_progress=False, reads=True)

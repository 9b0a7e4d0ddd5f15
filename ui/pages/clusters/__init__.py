"""GPU clusters (issue 25): the cluster list, the topology picture (spines → leaves → nodes,
coloured by state or tenant), the node list with drain/undrain, maintenance and state moves, the
health events, and the utilisation by GPU model and site. The rules live in
app/services/clusters/ (the screen only asks and shows what was refused)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QScrollArea,
                               QSplitter, QTableView, QTabWidget, QVBoxLayout, QWidget)

from app.domain.clock import local_text
from app.domain.errors import DomainError
from app.services.clusters.read import (cluster_view, clusters_and_utilisation, shown_cluster_reads, utilisation_holds,
                                        view_of)
from models.choices import Fabric, NodeState

from ui.kit.dialogs import guard, refused_text
from ui.pages.clusters.topology import HELD_COLOUR, TopologyView, hold_text, state_colour, tenant_colour, text_on, unfit_text
from ui.pages.clusters.utilisation import UtilisationChart
from ui.shell.i18n import choice_label
from ui.shell.operations import apply, listen
from ui.kit.rowsmodel import RowsModel, rows_view
from ui.kit.shown import ReadWhenShown
from ui.kit.tableview import select_only_row

WATCHED = {"gpu_node", "gpu_cluster", "fabric_switch", "health_event", "scaleup_domain", "cable", "node_swap",
           "gpu", "contract"}


def _table(name: str, model: RowsModel) -> QTableView:
    t = rows_view(model, name)
    t.horizontalHeader().setStretchLastSection(True)
    t.horizontalHeader().setSectionResizeMode(len(model.headers) - 1, QHeaderView.Stretch)  # the long text, elided
    return t


def _states_text(states: dict) -> str:
    return ", ".join(f"{choice_label(NodeState, s)} {n}" for s, n in sorted(states.items()))


def _cluster_cells(c) -> list[str]:
    return [c.name, c.site, choice_label(Fabric, c.fabric), str(c.rails or ""), str(c.nodes), str(c.gpus),
            _states_text(c.states), c.models]


def _node_colours(n, column: int) -> tuple[str | None, str | None]:
    """The state cell in its state's colour; the hold cell in the held colour, or its text red when the
    node is not offered for its GPUs' states."""
    if column == 1 or (column == 2 and n.hold):
        bg = state_colour(n) if column == 2 else QColor(NodeState.colour(n.state))
        return bg.name(), text_on(bg).name()
    if column == 2 and n.unfit:
        return None, "#c62828"
    return None, None


class ClustersPage(ReadWhenShown, QWidget):
    """Clusters, the chosen one's topology, nodes and health events, and the utilisation chart."""

    watches = frozenset(WATCHED)

    def __init__(self, db, actor, parent=None):
        super().__init__(parent)
        self.db, self.actor = db, actor
        self.setObjectName("clustersPage")
        self.clusters, self.nodes, self.topo = [], [], None
        top = QHBoxLayout()
        top.addWidget(QLabel(self.tr("GPU clusters")))
        top.addStretch(1)
        refresh = QPushButton(self.tr("Refresh"))
        refresh.setObjectName("refreshButton")
        refresh.clicked.connect(self.load)
        top.addWidget(refresh)
        self.cluster_model = RowsModel([
            self.tr("Cluster"), self.tr("Site"), self.tr("Fabric"), self.tr("Rails"), self.tr("Nodes"),
            self.tr("GPUs"), self.tr("Node states"), self.tr("GPU models")], _cluster_cells)
        self.cluster_table = _table("clusterTable", self.cluster_model)
        self.cluster_table.selectionModel().selectionChanged.connect(lambda *_: self.load_cluster())

        topo_tab = self._topology_tab()
        nodes_tab = self._nodes_tab()

        # health events and utilisation
        self.event_model = RowsModel([
            self.tr("Time"), self.tr("Node"), self.tr("GPU"), self.tr("Vendor"), self.tr("Code"), self.tr("Action"),
            self.tr("Source"), self.tr("Note")], self._event_cells)
        self.event_table = _table("eventTable", self.event_model)
        self.chart = UtilisationChart()
        chart_scroll = QScrollArea()
        chart_scroll.setWidgetResizable(True)
        chart_scroll.setWidget(self.chart)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("clusterTabs")
        self.tabs.addTab(topo_tab, self.tr("Topology"))
        self.tabs.addTab(nodes_tab, self.tr("Nodes"))
        self.tabs.addTab(self.event_table, self.tr("Health events"))
        self.tabs.addTab(chart_scroll, self.tr("Utilisation by model and site"))
        split = QSplitter(Qt.Vertical)
        split.addWidget(self.cluster_table)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        QShortcut(QKeySequence("Ctrl+D"), self, activated=self.drain)
        QShortcut(QKeySequence("Ctrl+Shift+D"), self, activated=self.undrain)
        listen(self, self._changed)
        self.loaded = False
        self.update_actions()

    def _topology_tab(self) -> QWidget:
        """The picture (spines → leaves → nodes) in a scroll area, coloured by state or tenant."""
        self.view = TopologyView()
        self.view.nodeClicked.connect(self.select_node)
        scroll = QScrollArea()
        scroll.setObjectName("topologyScroll")
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.view)
        self.colour_by = QComboBox()
        self.colour_by.setObjectName("colourBy")
        self.colour_by.addItem(self.tr("Colour by state"), "state")
        self.colour_by.addItem(self.tr("Colour by tenant"), "tenant")
        self.colour_by.currentIndexChanged.connect(self._mode)
        self.legend = QLabel()
        self.legend.setObjectName("legend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.RichText)
        topo_tab = QWidget()
        tl = QVBoxLayout(topo_tab)
        row = QHBoxLayout()
        row.addWidget(self.colour_by)
        row.addWidget(self.legend, 1)
        tl.addLayout(row)
        tl.addWidget(scroll, 1)
        return topo_tab

    def _nodes_tab(self) -> QWidget:
        """The node list with drain, undrain, maintenance and move."""
        self.node_model = RowsModel([
            self.tr("Node"), self.tr("State"), self.tr("Hold / not offered"), self.tr("Maintenance"), self.tr("GPUs"),
            self.tr("GPU model"), self.tr("Rack"), self.tr("Tenant"), self.tr("By"), self.tr("Since"), self.tr("Reason")],
            self._node_cells, _node_colours)
        self.node_table = _table("nodeTable", self.node_model)
        self.node_table.selectionModel().selectionChanged.connect(lambda *_: self.update_actions())
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(self.tr("Reason (recorded with who and when)"))
        self.drain_btn = QPushButton(self.tr("Drain"))
        self.drain_btn.setObjectName("drainButton")
        self.undrain_btn = QPushButton(self.tr("Undrain"))
        self.undrain_btn.setObjectName("undrainButton")
        self.maint_btn = QPushButton(self.tr("Maintenance on/off"))
        self.maint_btn.setObjectName("maintenanceButton")
        self.move_to = QComboBox()
        self.move_to.setObjectName("moveTo")
        self.move_btn = QPushButton(self.tr("Move"))
        self.move_btn.setObjectName("moveButton")
        self.drain_btn.clicked.connect(self.drain)
        self.undrain_btn.clicked.connect(self.undrain)
        self.maint_btn.clicked.connect(self.toggle_maintenance)
        self.move_btn.clicked.connect(self.move)
        bar = QHBoxLayout()
        for w in (self.reason, self.drain_btn, self.undrain_btn, self.maint_btn, QLabel(self.tr("Move to")),
                  self.move_to, self.move_btn):
            bar.addWidget(w, 1 if w is self.reason else 0)
        self.message = QLabel()
        self.message.setObjectName("message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #c62828")
        nodes_tab = QWidget()
        nl = QVBoxLayout(nodes_tab)
        nl.addWidget(self.node_table, 1)
        nl.addLayout(bar)
        nl.addWidget(self.message)
        return nodes_tab

    # --- loading -------------------------------------------------------------------------------

    def load(self) -> None:
        self.loaded = True
        keep = self.current_cluster().id if self.current_cluster() else None
        db = self.db
        # the list with the chart's counts, the cluster it will show (the one shown before, else the
        # first) and the chart's holds, all side by side: the shown cluster's reads do not wait for the list (issue 26)
        (self.clusters, used), shown, held = db.read_together(
            lambda: clusters_and_utilisation(db), lambda: shown_cluster_reads(db, keep, events=500),
            lambda: utilisation_holds(db))
        chosen_row = next((c for c in self.clusters if c.id == keep), self.clusters[0] if self.clusters else None)
        view = view_of(chosen_row, shown) if chosen_row is not None else None
        t = self.cluster_table
        chosen = next((i for i, c in enumerate(self.clusters) if chosen_row is not None and c.id == chosen_row.id), 0)
        t.selectionModel().blockSignals(True)
        self.cluster_model.set_rows(self.clusters)
        if self.clusters:
            select_only_row(t, chosen)
        t.selectionModel().blockSignals(False)   # the selection made above: its cluster was read with the list
        self.load_cluster(view)
        self.chart.set_rows(used, held)

    def current_cluster(self):
        rows = self.cluster_table.selectionModel().selectedRows() if self.cluster_table.selectionModel() else []
        return self.clusters[rows[0].row()] if rows and rows[0].row() < len(self.clusters) else None

    def load_cluster(self, view=None) -> None:
        """The chosen cluster's picture, nodes and events: `view` (its cluster_view) when read already."""
        c = self.current_cluster()
        if c is None:
            self.topo, self.nodes = None, []
            self.view.set_topology(None)
            self.node_model.set_rows([])
            self.event_model.set_rows([])
            return
        keep = self.current_node().id if self.current_node() else None
        if view is None or view[0].cluster.id != c.id:
            view = cluster_view(self.db, c, events=500)   # its reads side by side (issue 26)
        self.topo, events = view
        self.nodes = self.topo.nodes
        self.view.set_topology(self.topo, self.view.parentWidget().width() if self.view.parentWidget() else None)
        self._legend()
        nt = self.node_table
        nt.selectionModel().blockSignals(True)
        self.node_model.set_rows(self.nodes)
        for i, n in enumerate(self.nodes):
            if n.id == keep:
                select_only_row(nt, i)
        nt.selectionModel().blockSignals(False)
        self.event_model.set_rows(events)
        self.update_actions()

    def _node_cells(self, n) -> list[str]:
        return [n.name, choice_label(NodeState, n.state), hold_text(n) or unfit_text(n),
                self.tr("yes") if n.maintenance else "", str(n.gpus), n.model or "", n.rack or "", n.tenant or "",
                n.by or "", local_text(n.at)[:16] if n.at else "", n.reason or ""]

    def _event_cells(self, e) -> list[str]:
        return [local_text(e.at)[:16], e.node, e.gpu or "", "NVIDIA" if e.vendor == "nvidia" else self.tr("Ascend"),
                e.code, e.action, e.source, e.note or ""]

    def _legend(self) -> None:
        if self.view.mode == "tenant":
            parts = [(tenant_colour(n).name(), n) for n in self.view.tenants()] + [
                (tenant_colour(None).name(), self.tr("no tenant"))]
        else:
            parts = [(NodeState.colour(s), choice_label(NodeState, s)) for s in NodeState.values()] + [
                (HELD_COLOUR, self.tr("held by a capacity hold"))]
        self.legend.setText("  ".join(f"<span style='background:{c}'>&nbsp;&nbsp;&nbsp;</span> {t}" for c, t in parts)
                            + "  " + self.tr("(dashed outline: maintenance; red corner: not offered for its GPUs' "
                                             "states)"))

    def _mode(self) -> None:
        self.view.set_mode(self.colour_by.currentData())
        self._legend()

    # --- node actions --------------------------------------------------------------------------

    def current_node(self):
        rows = self.node_table.selectionModel().selectedRows() if self.node_table.selectionModel() else []
        return self.nodes[rows[0].row()] if rows and rows[0].row() < len(self.nodes) else None

    def select_node(self, node_id: int) -> None:
        for i, n in enumerate(self.nodes):
            if n.id == node_id:
                select_only_row(self.node_table, i)
                self.tabs.setCurrentIndex(1) if self.tabs.currentIndex() != 0 else None
                return

    def update_actions(self) -> None:
        n = self.current_node()
        none = "" if n else self.tr("Choose a node first")
        guard(self.drain_btn, self.actor, "manage_gpus",
              allowed=bool(n and NodeState.DRAINING in NodeState.TRANSITIONS[n.state]), tooltip=none)
        guard(self.undrain_btn, self.actor, "manage_gpus",
              allowed=bool(n and n.state in (NodeState.DRAINING, NodeState.TRIAGE)), tooltip=none)
        guard(self.maint_btn, self.actor, "manage_gpus", allowed=n is not None, tooltip=none)
        self.move_to.clear()
        for v in (NodeState.values() if n else []):
            if v in NodeState.TRANSITIONS[n.state]:
                self.move_to.addItem(choice_label(NodeState, v), v)
        guard(self.move_btn, self.actor, "manage_gpus", allowed=bool(n and self.move_to.count()), tooltip=none)
        self.move_to.setEnabled(self.move_btn.isEnabled())
        if n is not None:
            self.view.selected = n.id
            self.view.update()

    def _do(self, fn) -> None:
        self.message.clear()
        try:
            apply(fn)
        except DomainError as exc:
            self.message.setText(refused_text(exc))
            return
        self.reason.clear()

    def drain(self) -> None:
        from app.services.clusters import drain_node
        n = self.current_node()
        if n is not None and self.drain_btn.isEnabled():
            self._do(lambda: drain_node(self.db, self.actor, n.id, self.reason.text()))

    def undrain(self) -> None:
        from app.services.clusters import undrain_node
        n = self.current_node()
        if n is not None and self.undrain_btn.isEnabled():
            self._do(lambda: undrain_node(self.db, self.actor, n.id, self.reason.text()))

    def toggle_maintenance(self) -> None:
        from app.services.clusters import set_maintenance
        n = self.current_node()
        if n is not None:
            self._do(lambda: set_maintenance(self.db, self.actor, n.id, not n.maintenance, self.reason.text()))

    def move(self) -> None:
        from app.services.clusters import set_node_state
        n, to = self.current_node(), self.move_to.currentData()
        if n is not None and to:
            self._do(lambda: set_node_state(self.db, self.actor, n.id, to, self.reason.text()))

"""Region tree (province → city → district) with who covers each node, and "who serves …".

Children load when a node is first expanded. Coverage written on the node itself is shown in
plain text; coverage inherited from its city or province in grey with "via …"; a node nobody
covers says so in red. The search box takes a six-digit code (or its start) or part of a name.

`RegionTreeWidget(source)` takes any object with `region_tree(parent_code)`,
`find_regions(text)` and `coverage_for(code)` (the functions of `app.read.viewdata`);
`RegionTreePanel(db)` binds them to a database.
"""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QTreeWidget,
                               QTreeWidgetItem, QVBoxLayout, QWidget)

from app.read.viewdata import CoverageInfo, RegionCoverage, RegionNode
from models.choices import ServiceLevel

CODE_ROLE = Qt.UserRole
LOADED_ROLE = Qt.UserRole + 1
COL_NAME, COL_CODE, COL_COVER, COL_HOURS = range(4)
LEVEL_WORDS = {1: "province", 2: "city", 3: "district"}


def _tr(text: str) -> str:
    return QCoreApplication.translate("RegionTreeWidget", text)


def coverage_text(entries: tuple[CoverageInfo, ...], html: bool = False) -> str:
    parts = []
    for c in entries:
        level = QCoreApplication.translate("choices/ServiceLevel", ServiceLevel.label(c.service_level))
        text = f"{c.label} ({level}, {_tr('%1 h').replace('%1', str(c.response_hours))})"
        if c.inherited:
            text += " " + _tr("via %1").replace("%1", c.region_name)
            if html:
                text = f"<span style='color:#757575'>{_esc(text)}</span>"
        elif html:
            text = _esc(text)
        parts.append(text)
    return ("<br>" if html else "; ").join(parts)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class _DbSource:
    def __init__(self, db):
        self.db = db

    def region_tree(self, parent_code):
        from app.read.viewdata import region_tree
        return region_tree(self.db, parent_code)

    def find_regions(self, text):
        from app.read.viewdata import find_regions
        return find_regions(self.db, text)

    def coverage_for(self, code):
        from app.read.viewdata import coverage_for
        return coverage_for(self.db, code)


class RegionTreeWidget(QWidget):
    regionSelected = Signal(str)            # a region code

    def __init__(self, source=None, parent=None):
        super().__init__(parent)
        self.setObjectName("regionTree")
        self.source = source
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Who serves:")))
        self.search = QLineEdit(self)
        self.search.setObjectName("whoServes")
        self.search.setPlaceholderText(self.tr("region code or name, e.g. 460108 or 美兰"))
        self.search.setClearButtonEnabled(True)
        row.addWidget(self.search, 1)
        lay.addLayout(row)
        self.matches = QListWidget(self)
        self.matches.setObjectName("regionMatches")
        self.matches.setMaximumHeight(110)
        self.matches.hide()
        lay.addWidget(self.matches)
        self.answer = QLabel(self)
        self.answer.setObjectName("whoServesAnswer")
        self.answer.setTextFormat(Qt.RichText)
        self.answer.setWordWrap(True)
        self.answer.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.answer.hide()
        lay.addWidget(self.answer)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("regionTreeView")
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels([self.tr("Region"), self.tr("Code"), self.tr("Covered by"),
                                   self.tr("Response")])
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setColumnWidth(COL_NAME, 200)
        self.tree.setColumnWidth(COL_CODE, 70)
        self.tree.setColumnWidth(COL_COVER, 320)
        lay.addWidget(self.tree, 1)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(250)
        self._debounce.timeout.connect(self.run_search)
        self.search.textChanged.connect(lambda _t: self._debounce.start())
        self.search.returnPressed.connect(self.run_search)
        self.matches.itemActivated.connect(lambda it: self.show_region(it.data(CODE_ROLE)))
        self.matches.itemClicked.connect(lambda it: self.show_region(it.data(CODE_ROLE)))
        self.tree.itemExpanded.connect(self._expand)
        self.tree.currentItemChanged.connect(
            lambda cur, _prev: cur is not None and self.regionSelected.emit(cur.data(COL_NAME, CODE_ROLE)))
        if source is not None:
            self.reload()

    # --- loading ------------------------------------------------------------------------
    def set_source(self, source) -> None:
        self.source = source
        self.reload()

    def reload(self) -> None:
        """Reload the provinces; expanded nodes reload as they are opened again."""
        expanded = self.expanded_codes()
        self.tree.clear()
        self._fill(self.tree.invisibleRootItem(), self.source.region_tree(None))
        for code in expanded:
            item = self.item_for(code)
            if item is not None:
                item.setExpanded(True)

    def expanded_codes(self) -> list[str]:
        out = []

        def walk(item):
            for i in range(item.childCount()):
                ch = item.child(i)
                if ch.isExpanded():
                    out.append(ch.data(COL_NAME, CODE_ROLE))
                    walk(ch)
        walk(self.tree.invisibleRootItem())
        return out

    def _fill(self, parent: QTreeWidgetItem, nodes: tuple[RegionNode, ...]) -> None:
        for n in nodes:
            item = QTreeWidgetItem(parent)
            self._show_node(item, n)
            if n.child_count:
                item.setChildIndicatorPolicy(QTreeWidgetItem.ShowIndicator)
            else:
                item.setChildIndicatorPolicy(QTreeWidgetItem.DontShowIndicator)

    def _show_node(self, item: QTreeWidgetItem, n: RegionNode) -> None:
        item.setText(COL_NAME, n.name)
        item.setData(COL_NAME, CODE_ROLE, n.code)
        item.setData(COL_NAME, LOADED_ROLE, False)
        item.setText(COL_CODE, n.code)
        item.setToolTip(COL_NAME, self.tr(LEVEL_WORDS.get(n.level, "")))
        if n.coverage:
            item.setText(COL_COVER, coverage_text(n.coverage))
            item.setToolTip(COL_COVER, coverage_text(n.coverage, html=True))
            item.setText(COL_HOURS, self.tr("%1 h").replace("%1", str(min(c.response_hours for c in n.coverage))))
            if not n.own_coverage:
                item.setForeground(COL_COVER, QBrush(QColor("#757575")))
            else:
                f = QFont(item.font(COL_NAME))
                f.setBold(True)
                item.setFont(COL_NAME, f)
        else:
            item.setText(COL_COVER, self.tr("not covered"))
            item.setForeground(COL_COVER, QBrush(QColor("#c62828")))
            item.setText(COL_HOURS, "")

    def _expand(self, item: QTreeWidgetItem) -> None:
        if item.data(COL_NAME, LOADED_ROLE):
            return
        item.setData(COL_NAME, LOADED_ROLE, True)
        self._fill(item, self.source.region_tree(item.data(COL_NAME, CODE_ROLE)))

    def item_for(self, code: str) -> QTreeWidgetItem | None:
        """The tree item of `code`, loading its ancestors' children on the way."""
        path = [code[:2] + "0000", code[:4] + "00", code]
        path = [c for i, c in enumerate(path) if c not in path[:i]]
        parent = self.tree.invisibleRootItem()
        found = None
        for step in path:
            found = None
            for i in range(parent.childCount()):
                if parent.child(i).data(COL_NAME, CODE_ROLE) == step:
                    found = parent.child(i)
                    break
            if found is None:
                continue          # a code whose parent is not in the table: try the next level down
            if step != code:
                self._expand(found)
                parent = found
        return found if found is not None and found.data(COL_NAME, CODE_ROLE) == code else None

    # --- who serves … -------------------------------------------------------------------
    def run_search(self) -> None:
        self._debounce.stop()
        text = self.search.text().strip()
        self.matches.clear()
        if not text or self.source is None:
            self.matches.hide()
            self.answer.hide()
            return
        found = self.source.find_regions(text)
        if not found:
            self.matches.hide()
            self.answer.setText(self.tr("No region matches “%1”.").replace("%1", _esc(text)))
            self.answer.show()
            return
        exact = [f for f in found if f[0] == text or f[1] == text]
        if len(found) == 1 or exact:
            self.matches.hide()
            self.show_region((exact or found)[0][0])
            return
        for code, name, level in found:
            it = QListWidgetItem(f"{name}  {code}  ({self.tr(LEVEL_WORDS.get(level, ''))})")
            it.setData(CODE_ROLE, code)
            self.matches.addItem(it)
        self.matches.show()
        self.show_region(found[0][0])

    def show_region(self, code: str) -> RegionCoverage | None:
        """Answer "who serves `code`" above the tree, and select it in the tree."""
        cov = self.source.coverage_for(code)
        if cov is None:
            self.answer.setText(self.tr("No region has the code %1.").replace("%1", _esc(code)))
            self.answer.show()
            return None
        head = f"<b>{_esc(cov.full_name)}</b> ({cov.code})"
        if cov.coverage:
            body = coverage_text(cov.coverage, html=True)
        else:
            body = "<span style='color:#c62828'>" + self.tr(
                "Nobody covers this region, nor any region it lies in.") + "</span>"
        self.answer.setText(f"{head}<br>{body}")
        self.answer.show()
        item = self.item_for(code)
        if item is not None:
            parent = item.parent()
            while parent is not None:
                parent.setExpanded(True)
                parent = parent.parent()
            self.tree.setCurrentItem(item)
            self.tree.scrollToItem(item)
        return cov


class RegionTreePanel(RegionTreeWidget):
    """The region tree over a database; `refresh()` after coverage changes."""

    def __init__(self, db, parent=None):
        super().__init__(_DbSource(db), parent)
        self.db = db

    def refresh(self) -> None:
        self.reload()

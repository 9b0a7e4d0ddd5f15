"""What the billing page's parts share: a cancellable progress, small tables."""
from __future__ import annotations


from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QTableWidget, QTableWidgetItem)



from ui.shell.operations import Cancelled
from ui.widgets.plain_table import plain_table


def _cancellable(progress):
    """(progress for the service, cancelled() for the service): Cancel stops the service cleanly."""
    flag = [False]

    def prog(done, total=0):
        try:
            progress(done, total)
        except Cancelled:
            flag[0] = True
    return prog, lambda: flag[0]


def _table(headers: list[str], name: str) -> QTableWidget:
    return plain_table(headers, name)


def _fill(t: QTableWidget, rows: list[list[str]], right: tuple[int, ...] = ()) -> None:
    t.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if c in right:
                item.setTextAlignment(Qt.AlignRight | Qt.AlignVCenter)
            t.setItem(r, c, item)

"""The main window makes a page when it is first shown or asked for (cold start, issue 16): the
first paint waits only for the page it shows; the others come as stand-ins until then."""
from __future__ import annotations

from PySide6.QtWidgets import QTableView


def test_only_the_shown_page_is_made_until_another_is_wanted(qtbot, db, admin, estate):
    from ui.shell.mainwindow import PAGES, MainWindow
    from ui.shell.settings import settings
    settings().set("window/page", 0)
    w = MainWindow(db, admin)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert list(dict.keys(w.pages)) == ["dashboard"] and not dict.keys(w.lists)
    assert w.stack.count() == len(PAGES)
    assert not w.stack.widget(4).findChildren(QTableView)      # the GPUs' stand-in: nothing in it

    w.show_page("gpus")                                          # navigating makes the page, in place
    assert w.stack.currentIndex() == 4 and w.stack.currentWidget() is w.pages["gpus"]
    qtbot.waitUntil(lambda: w.lists["gpus"].model.rowCount() > 0)
    assert sorted(dict.keys(w.pages)) == ["dashboard", "gpus"]

    page = w.lists["customers"]                                  # asked for by code: made, not shown
    assert w.stack.indexOf(page) == 5 and w.stack.currentIndex() == 4
    assert "users" in w.lists and "dashboard" not in w.lists
    _panel = w.rack_panel                                        # the racks page's picture: its page made
    assert "racks" in dict.keys(w.pages)
    w.nav.setCurrentRow(5)
    assert w.stack.currentWidget() is page
    qtbot.waitUntil(lambda: page.model.rowCount() > 0)

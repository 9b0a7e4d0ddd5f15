"""Run the real console (launcher.main, as `idc-console` does), tour it, then quit with Ctrl+Q.

    python tests/ui/console_tour.py --db FILE_OR_URL --user LOGIN [--lang zh|en] [--rounds N]

The password comes from IDC_CONSOLE_PASSWORD (the console's own login path). The tour visits
every page and each of its tabs, starts background reads (a list filter, a search, the dashboard), builds and opens
a PDF preview, and quits with background work still pending: the shutdown path that used to end
in `Fatal Python error: none_dealloc`. Prints "tour done" before quitting; the exit code is the
console's. tests/ui/test_shutdown.py runs it in subprocesses.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


T0 = time.monotonic()


def step(what: str) -> None:
    if os.environ.get("TOUR_VERBOSE"):
        print(f"{time.monotonic() - T0:6.2f} {what}  refs None {sys.getrefcount(None)} True {sys.getrefcount(True)}",
              file=sys.stderr, flush=True)


def pump(ms: int) -> None:
    from PySide6.QtTest import QTest
    QTest.qWait(ms)


def wait_until(cond, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        pump(20)
    return False


def tour(window, rounds: int, age: int = 0) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QTabWidget

    from ui.kit.formfields import FORMS
    from ui.kit.forms import open_form
    from ui.shell.mainwindow import PAGES

    gpus = window.lists["gpus"]
    for r in range(rounds):
        for i, (pid, _label, _kind) in enumerate(PAGES):          # every page, its list loaded
            step(f"round {r + 1} page {pid}")
            window.nav.setCurrentRow(i)
            page = window.lists.get(pid)
            if page is not None:
                wait_until(lambda: page.model.loaded and not page.model.busy, 20)
            pump(30)
            for tabs in window.pages[pid].findChildren(QTabWidget):   # every tab of the page too
                for k in range(tabs.count()):
                    if tabs.isTabEnabled(k):
                        tabs.setCurrentIndex(k)
                        pump(30)
            if page is not None and page.kind in FORMS and page.view.model().rowCount() > 0:
                step(f"form {page.kind}")           # a record's form, each of its tabs (History …)
                form = open_form(window.db, window.actor, page.kind, page.view.model().id_at(0), page, read_only=True)
                form.show()
                for tabs in form.findChildren(QTabWidget):
                    for k in range(tabs.count()):
                        tabs.setCurrentIndex(k)
                        pump(30)
                form.reject()
                form.deleteLater()
        # a background list read (the GPU list is read on the pool as a big list is)
        step("background read")
        window.show_page("gpus")
        gpus.model.order_sync_rows = 0
        gpus.filter.setText("H100" if r % 2 == 0 else "")
        gpus.apply_filter()
        wait_until(lambda: not gpus.model.busy, 20)
        # a PDF preview, built on the pool and opened
        step("pdf")
        before = set(QApplication.topLevelWidgets())
        ended = []
        window.fleet_report().done.connect(lambda: ended.append(1))
        wait_until(lambda: ended, 60)
        pump(200)
        opened = [w for w in QApplication.topLevelWidgets() if w not in before and w.objectName() == "pdfPreview"]
        assert opened, "no PDF preview opened"
        for w in opened:
            w.close()
        # the search (a background read of its own)
        step("search")
        dlg = window.open_search()
        QTest.keyClicks(dlg.edit, "FZ")
        dlg.run()
        wait_until(lambda: not dlg.pending, 20)
        dlg.reject()
        window.refresh_all()
        pump(50)
    # a longer session in one go: its void calls (setText, start, show …; ~300 a round above)
    for _ in range(age):
        window.db_label.setText(window.db_label.text())
    # quit with work still on the pool: a filter, a search, the dashboard and a PDF
    gpus.filter.setText("A100")
    gpus.apply_filter()
    window.open_search().run()
    window.pages["dashboard"].refresh()
    window.fleet_report()
    step("quit")
    print("tour done", flush=True)
    QTest.keyClick(window, Qt.Key_Q, Qt.ControlModifier)
    if window.isVisible():           # the shortcut did not reach the window: quit as the menu would
        window.close()
    QApplication.instance().quit()


def main() -> int:
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--rounds", type=int, default=1, help="times around every page before quitting")
    parser.add_argument("--age", type=int, default=0,
                        help="void calls to add before quitting, as hours of use would (~18,000 an hour)")
    opts = parser.parse_args()

    from PySide6.QtCore import QTimer

    from launcher import main as cli_main
    from ui.shell.main import make_app

    app = make_app()

    def look():
        from ui.shell.mainwindow import MainWindow
        for w in app.topLevelWidgets():
            if isinstance(w, MainWindow) and w.isVisible():
                tour(w, opts.rounds, opts.age)
                return
        QTimer.singleShot(50, look)
    QTimer.singleShot(50, look)
    step("start")
    return cli_main(["--db", opts.db, "--user", opts.user, "--lang", opts.lang])


if __name__ == "__main__":
    sys.exit(main())

"""Open the console on demo data and save a PNG of every main view, in Chinese and English.

    python scripts/screenshots.py [--db FILE] [--out docs/screenshots] [--size 1280x800,1920x1080]

The first size's shots go to --out, each further size's to a folder named after it
(docs/screenshots/1920x1080/). Besides the pages: an audit event's detail, a server's GPU slot
grid, a form showing a field's validation error, the contract totals, a record's History.

Without --db a fresh demo database is built in a temporary directory. Runs offscreen
(QT_QPA_PLATFORM=offscreen) unless a display platform is already chosen.
"""
from __future__ import annotations

import argparse
import os
import sys
from functools import partial
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

VIEWS = ["dashboard", "sites", "racks", "devices", "gpus", "customers", "contracts", "billing", "xconnects", "audit",
         "operations", "clusters",
         "users"]


def build_demo(path: Path):
    from app.store.db import Database
    from app.demo.load import load_demo
    from app.store.startup import prepare_database
    db = Database(f"sqlite:///{path}")
    prepare_database(db)
    load_demo(db)
    return db


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--size", default="1280x800,1920x1080", help="one size or several, comma-separated")
    ap.add_argument("--user", default="admin")
    ap.add_argument("--password", default=os.environ.get("IDC_CONSOLE_PASSWORD", "demo1234"))
    args = ap.parse_args(argv)
    sizes = [tuple(int(x) for x in size.split("x")) for size in args.size.split(",") if size.strip()]
    base_out = Path(args.out)

    tmp = tempfile.TemporaryDirectory()
    os.environ["IDC_CONSOLE_SETTINGS"] = str(Path(tmp.name) / "settings.ini")  # never the user's settings
    from app.store.db import Database
    db = Database(f"sqlite:///{Path(args.db).resolve()}" if args.db and "://" not in args.db else args.db) \
        if args.db else build_demo(Path(tmp.name) / "demo.db")

    from sqlalchemy import func, select

    from app.services.users import login
    from models import Device, GpuHistory
    from ui.shell.i18n import install_translators
    from ui.shell.main import make_app
    from ui.shell.mainwindow import MainWindow

    app = make_app()
    actor = login(db, args.user, args.password)
    with db.session() as s:
        busiest_rack = s.execute(select(Device.rack_id, func.count()).where(Device.rack_id.is_not(None))
                                 .group_by(Device.rack_id).order_by(func.count().desc())).first()
        gpu_with_history = s.execute(select(GpuHistory.gpu_id, func.count()).group_by(GpuHistory.gpu_id)
                                     .order_by(func.count().desc())).first()
        from models import GpuAsset
        gpu_server = s.execute(select(GpuAsset.device_id, func.count()).where(GpuAsset.device_id.is_not(None))
                               .group_by(GpuAsset.device_id).order_by(func.count().desc(), GpuAsset.device_id)).first()

    def settle():
        for _ in range(5):
            app.processEvents()
        QThreadPoolWait()
        for _ in range(5):
            app.processEvents()

    def QThreadPoolWait():
        from PySide6.QtCore import QThreadPool
        QThreadPool.globalInstance().waitForDone(10000)

    # Billing view with statements: bill last month on the throw-away demo database (never on --db).
    from ui.kit.dialogs import last_month
    period = last_month()
    if not args.db:
        from app.services.billing import run_billing
        run_billing(db, actor, period, issue=True)
    from models import Contract, Statement
    with db.session() as s:
        shown_contract = s.execute(select(Contract.id).where(Contract.status == "pending_approval")
                                   .order_by(Contract.id)).scalar() or s.execute(select(Contract.id)).scalar()
        draft_contract = s.execute(select(Contract.id).where(Contract.status == "draft").order_by(Contract.id)).scalar()
        shown_statement = s.execute(select(Statement.id).where(Statement.status == "issued")
                                    .order_by(Statement.total.desc())).scalar()

    def shot(widget, path: Path) -> None:
        widget.grab().save(str(path))
        saved.append(path)

    def wait(ms):
        from PySide6.QtTest import QTest
        QTest.qWait(ms)

    def preview_shot(start, path: Path, width: int, height: int) -> None:
        """A document's print preview as it opens on that screen: `start(on_ready=…)` begins the print."""
        from PySide6.QtCore import QSize
        from ui.kit.pdfpreview import preview_size
        ready = []
        start(on_ready=ready.append)
        for _ in range(100):
            settle()
            if ready:
                break
            wait(100)
        if ready:
            ready[0].resize(*preview_size(area=QSize(width, height - 40)))
            wait(800)
            settle()
            shot(ready[0], path)
            ready[0].close()

    def maintenance_shots(window, out: Path, lang: str, width: int, height: int) -> None:
        """The Maintenance tab on the demo's A/B-row feed window (its customers and their impact), and the
        notice (维护通知) of its first customer in the console's language."""
        page = window.pages["operations"]
        tab = page.maintenance
        page.setCurrentWidget(tab)
        tab.scope.setCurrentIndex(tab.scope.findData("all"))
        settle()
        if not tab.windows:
            return
        row = max(range(len(tab.windows)), key=lambda i: tab.windows[i].customers)
        select_only_row(tab.table, row)
        settle()
        window.grab().save(str(out / f"maintenance-{lang}.png"))
        saved.append(out / f"maintenance-{lang}.png")
        tab.lang.setCurrentIndex(tab.lang.findData(lang))
        preview_shot(tab.print_notice, out / f"maintenance-notice-pdf-{lang}.png", width, height)
        page.setCurrentWidget(page.queue)

    saved = []
    from PySide6.QtCore import QDate, QSettings, Qt
    from ui.kit.tableview import select_only_row
    from ui.shell import settings as ui_settings
    for (width, height), lang in ((size, lang) for size in sizes for lang in ("zh", "en")):
        out = base_out if (width, height) == sizes[0] else base_out / f"{width}x{height}"
        out.mkdir(parents=True, exist_ok=True)
        # each language starts from fresh settings, so columns fit that language's labels
        ui_settings.set_settings(ui_settings.Settings(QSettings(
            str(Path(tmp.name) / f"settings-{lang}-{width}x{height}.ini"), QSettings.IniFormat)))
        install_translators(app, lang)
        window = MainWindow(db, actor)
        window.resize(width, height)
        window.show()
        settle()
        for pid in VIEWS:
            window.show_page(pid)
            if pid == "racks" and busiest_rack:
                window.lists["racks"].select_record(busiest_rack[0])
            if pid == "gpus":
                select_only_row(window.lists["gpus"].view, 0)
            if pid == "contracts" and shown_contract:
                window.lists["contracts"].select_record(shown_contract)
            if pid == "billing":
                page = window.pages["billing"]
                if shown_statement:
                    window.lists["billing"].select_record(shown_statement)
                # a dry run of the month in progress: what the next run would bill, with its warnings
                today = QDate.currentDate()
                page.period.setDate(QDate(today.year(), today.month(), 1))
                page.run(dry_run=True)
            if pid == "clusters":
                # the Fuzhou H100 fabric: its held nodes (the demo's hold) and the one not offered
                page = window.pages["clusters"]
                page.load()
                for i, c in enumerate(page.clusters):
                    if c.fabric != "none" and "H100" in c.models:
                        select_only_row(page.cluster_table, i)
                        break
            if pid == "operations":
                # the queue with resolved tickets too, and the demo's 03:00 P1 open below it with its timeline
                queue = window.pages["operations"].queue
                queue.closed.setChecked(True)
                settle()
                p1 = next((r.id for r in queue.rows if r.priority == "P1"), None)
                if p1 is not None:
                    queue.select(p1)
            if pid == "audit":
                bar = window.pages["audit"].bar          # a filtered period: its dates show their year
                from app.domain.rating import local_today
                bar.date_from.set_date(local_today().replace(day=1))
                bar.date_to.set_date(local_today())
                window.pages["audit"].verify()
            settle()
            path = out / f"{pid}-{lang}.png"
            window.grab().save(str(path))
            saved.append(path)
            if pid == "contracts" and shown_contract:
                shot(window.pages["contracts"].panel, out / f"contract-totals-{lang}.png")
            if pid == "operations":
                shot(window.pages["operations"].queue.panel, out / f"ticket-{lang}.png")
                maintenance_shots(window, out, lang, width, height)
            if pid == "audit":
                # the newest event's detail: before/after of each field, host, version, hash chain
                page = window.pages["audit"]
                select_only_row(page.list.view, 0)
                seq = page.list.view.current_id()
                dlg = page.open_event(seq) if seq is not None else None
                if dlg is not None:
                    dlg.resize(int(width * 0.62), int(height * 0.8))
                    settle()
                    shot(dlg, out / f"audit-event-{lang}.png")
                    dlg.close()
        # a few dialogs: a GPU with its history, the search, the first-run wizard and login
        from ui.kit.forms import open_form
        if gpu_server:
            # a server's GPU slots, then its History (the audit trail of the record)
            dlg = open_form(db, actor, "device", gpu_server[0], window)
            if dlg.slots is not None:
                dlg.tabs.setCurrentWidget(dlg.slots)
            dlg.resize(760, 560)
            dlg.show()
            settle()
            shot(dlg, out / f"gpu-slots-{lang}.png")
            if dlg.history_view is not None:
                dlg.tabs.setCurrentWidget(dlg.history_view)
                settle()
                shot(dlg, out / f"history-{lang}.png")
            dlg.close()
        # a validation error beside its field: a new customer with a wrong credit code
        dlg = open_form(db, actor, "customer", None, window)
        dlg.editors["name"].setText("海口椰风智算科技有限公司")
        dlg.editors["credit_code"].setText("91460100MA5T0D0012")
        dlg.show()
        dlg.save()
        settle()
        shot(dlg, out / f"validation-error-{lang}.png")
        dlg.reject()
        if gpu_with_history:
            dlg = open_form(db, actor, "gpu", gpu_with_history[0], window)
            dlg.tabs.setCurrentIndex(1)
            dlg.resize(640, 420)
            dlg.show()
            settle()
            dlg.grab().save(str(out / f"gpu-history-{lang}.png"))
            saved.append(out / f"gpu-history-{lang}.png")
            dlg.close()
        # the contract editor on the demo's draft, and a statement's PDF preview
        from ui.pages.contracts.editor import ContractDialog
        if draft_contract:
            dlg = ContractDialog(db, actor, draft_contract, window)
            dlg.show()
            settle()
            dlg.grab().save(str(out / f"contract-form-{lang}.png"))
            saved.append(out / f"contract-form-{lang}.png")
            dlg.close()
        if shown_statement:
            from ui.kit.pdfpreview import print_document_preview
            preview_shot(partial(print_document_preview, window, db, actor, "statement", shown_statement),
                         out / f"statement-pdf-{lang}.png", width, height)
        # the capacity search (16 H100 in one fabric: the hold named in the refusal) and the demo's quote
        from ui.pages.capacity import CapacityDialog
        cap = CapacityDialog(db, actor, window)
        cap.count.setValue(16)
        cap.model.setCurrentIndex(max(0, cap.model.findText("H100", Qt.MatchStartsWith)))
        cap.scope.setCurrentIndex(cap.scope.findData("fabric"))
        cap.resize(min(width - 80, 1100), height - 80)
        cap.show()
        cap.search()
        settle()
        shot(cap, out / f"capacity-search-{lang}.png")
        cap.count.setValue(8)
        cap.search()
        settle()
        shot(cap, out / f"capacity-offer-{lang}.png")
        cap.close()
        with db.session() as s:
            from models.capacity import Quote
            quote = s.execute(select(Quote.number).order_by(Quote.id)).scalar()
        if quote:
            from ui.kit.pdfpreview import print_document_preview
            preview_shot(partial(print_document_preview, window, db, actor, "quote", quote, language=lang),
                         out / f"quote-pdf-{lang}.png", width, height)
        if busiest_rack:
            from ui.pages.rackforms import PlaceDeviceDialog
            window.show_page("racks")
            window.lists["racks"].select_record(busiest_rack[0])
            settle()
            free = window.rack_panel.data().free_units("front") if window.rack_panel.data() else ()
            if free:
                dlg = PlaceDeviceDialog(db, actor, busiest_rack[0], "front", max(free), window)
                dlg.show()
                settle()
                dlg.grab().save(str(out / f"place-device-{lang}.png"))
                saved.append(out / f"place-device-{lang}.png")
                dlg.close()
        search = window.open_search()
        search.edit.setText("FZ")
        search.run()
        settle()
        search.grab().save(str(out / f"search-{lang}.png"))
        saved.append(out / f"search-{lang}.png")
        search.close()
        from ui.shell.startup import LoginDialog
        login_dlg = LoginDialog(db, window)
        login_dlg.show()
        settle()
        login_dlg.grab().save(str(out / f"login-{lang}.png"))
        saved.append(out / f"login-{lang}.png")
        login_dlg.close()
        window.close()
        window.deleteLater()
        settle()
    for p in saved:
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
    db.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The auditor's day under the real main window, in both languages (issue 9): filter one user's
events over a week, open an event's detail, export the audit report PDF and the CSV of the same
filter through their dialogs, and find the events in both (names in the reader's language, codes
beside them); then the database holds the print and the export as audit events."""
from __future__ import annotations

import csv
import datetime as dt
import shutil
import subprocess

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog
from sqlalchemy import func, select

from app.audit.query import action_name
from app.domain.rating import local_today
from app.domain.clock import local_midnight
from app.services.users import login
from models import AuditEvent
from ui.shell.i18n import install_translators
from tests.conftest import across_backends

DEMO_PASSWORD = "demo1234"


def _week_events(db, login_name, first, last):
    with db.session() as s:
        return s.execute(select(AuditEvent.seq, AuditEvent.action, AuditEvent.object_type).where(
            AuditEvent.actor_login == login_name, AuditEvent.ts >= local_midnight(first),
            AuditEvent.ts < local_midnight(last + dt.timedelta(days=1))).order_by(AuditEvent.seq)).all()


@across_backends("demo_db", "lang", ["en", "zh"])   # the day in each language; each backend once
def test_auditor_day(qtbot, demo_db, lang, tmp_path, monkeypatch):
    from ui.pages.audit import AuditEventDialog, AuditFilterDialog
    from ui.shell.mainwindow import MainWindow
    app = QApplication.instance()
    install_translators(app, lang)
    db = demo_db
    try:
        zhaomin = login(db, "zhaomin", DEMO_PASSWORD)
        last = local_today()
        first = last - dt.timedelta(days=6)
        # a user with a few events this week (not the auditor herself, not the demo's loader)
        with db.session() as s:
            who = s.execute(select(AuditEvent.actor_login).where(
                AuditEvent.actor_login.not_in(["zhaomin", "admin"]), AuditEvent.ts >= local_midnight(first))
                .group_by(AuditEvent.actor_login).having(func.count() >= 2)
                .order_by(func.count(), AuditEvent.actor_login)).first()[0]
        week = _week_events(db, who, first, last)
        assert week
        window = MainWindow(db, zhaomin)
        qtbot.addWidget(window)
        window.resize(1280, 800)
        window.show()

        # 1. the audit page's filter bar: one user, one week
        window.show_page("audit")
        page = window.pages["audit"]
        bar, lst = page.bar, page.list
        qtbot.waitUntil(lambda: bar.actor.findData(who) >= 0, timeout=30000)
        bar.date_from.set_date(first)
        bar.date_to.set_date(last)
        bar.actor.setCurrentIndex(bar.actor.findData(who))
        qtbot.waitUntil(lambda: lst.model.filtered_count == len(week) and not lst.model.busy, timeout=30000)
        seqs = [lst.model.id_at(r) for r in range(lst.model.rowCount())]
        assert sorted(seqs) == [s for s, _a, _t in week]
        # names in the reader's language beside the codes
        cols = lst.model.spec.keys()
        newest = week[-1]
        assert lst.model.data(lst.model.index(0, cols.index("action_name"))) == action_name(newest[1], None, lang)
        assert lst.model.data(lst.model.index(0, cols.index("action"))) == newest[1]

        # 2. the newest event's detail
        lst.view.selectRow(0)
        lst.open_current()
        dlg = page.event_dialog
        assert isinstance(dlg, AuditEventDialog) and dlg.detail.seq == newest[0]
        assert dlg.fields["actor"].text().find(who) >= 0 and dlg.fields["hash"].text() == dlg.detail.hash
        assert action_name(newest[1], newest[2], lang) in dlg.fields["action"].text()
        dlg.close()

        # 3. the audit report PDF through its dialog (same user, same week), in the reader's language
        def fill(dialog_box):
            dialog = app.activeModalWidget()
            assert isinstance(dialog, AuditFilterDialog), dialog
            dialog_box.append(dialog)
            dialog.date_from.setDate(first)
            dialog.date_to.setDate(last)
            dialog.actor.setCurrentIndex(dialog.actor.findData(who))
            assert dialog.action_filter() is None             # "(every action)" is no filter
            dialog._accept()
        seen: list = []
        QTimer.singleShot(0, lambda: fill(seen))
        page.ask_report()
        assert seen and seen[0].filter().actor_login == who
        qtbot.waitUntil(lambda: getattr(page, "preview", None) is not None, timeout=60000)
        pdf = tmp_path / "report.pdf"
        shutil.copyfile(page.preview.path, pdf)
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert ("Audit report" if lang == "en" else "审计报告") in text
        flat = " ".join(text.split())
        for seq, action, obj_type in week:
            assert f"\n{seq} " in text or f" {seq} " in text, seq
            assert action_name(action, obj_type, lang).split()[0] in flat, action
        page.preview.close()

        # 4. the CSV of the same filter through the export dialog and the save dialog
        out = tmp_path / "audit-week.csv"
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "CSV (*.csv)"))
        QTimer.singleShot(0, lambda: fill(seen))
        page.ask_export()
        qtbot.waitUntil(lambda: out.exists() and str(out) in page.result.text(), timeout=60000)
        with open(out, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.DictReader(f))
        assert [int(r["seq"]) for r in rows] == [s for s, _a, _t in week]
        for r in rows:
            assert r["actor"] == who
            assert r["action_name"] == action_name(r["action"], r["object_type"], lang)
        assert f"{len(week):,}" in page.result.text()

        # the database: the print and the export are in the trail, by the auditor
        with db.session() as s:
            mine = set(s.execute(select(AuditEvent.action).where(AuditEvent.actor_login == "zhaomin")).scalars())
        assert {"print", "export"} <= mine, mine
        window.close()
    finally:
        install_translators(app, "en")

"""The audit log's report/export dialog: what it sends equals what the command line sends."""
from __future__ import annotations

import csv
import datetime as dt

import pytest
from sqlalchemy import func, select
from PySide6.QtWidgets import QApplication, QFormLayout

from app.audit_query import AuditFilter
from app.billing import local_today
from app.services.common import create_record
from app.validators import make_uscc
from models import AuditEvent


@pytest.fixture
def events(db, admin, manager):
    """Events of two people today: the account manager's are the ones an auditor asks for."""
    for i in range(3):
        create_record(db, manager, "customer", {"name": f"客户经理的客户{i}",
                                                 "credit_code": make_uscc(f"9135010{i}MA300001{i}")})
    create_record(db, admin, "customer", {"name": "管理员客户", "credit_code": make_uscc("91350109MA3000019")})
    return manager


def wait_op(qtbot, op, timeout=30000):
    with qtbot.waitSignal(op.done, timeout=timeout):
        pass


def read_csv(path):
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.reader(f))


def week():
    today = local_today()
    return today - dt.timedelta(days=6), today


def test_every_action_sends_no_action_filter(qtbot, db, admin, events):
    from ui.auditview import AuditFilterDialog
    dlg = AuditFilterDialog(db, "Audit report", "Preview")
    qtbot.addWidget(dlg)
    dlg.actor.setCurrentIndex(dlg.actor.findData("am"))
    assert dlg.action.currentIndex() == 0                   # "(every action)"
    assert dlg.filter().action is None
    assert dlg.filter().actor_login == "am"
    # a listed entry gives its own value; a typed one is taken as typed (exact or a prefix)
    dlg.action.setCurrentIndex(dlg.action.findText("customer.create"))
    assert dlg.filter().action == "customer.create"
    dlg.action.setEditText("customer.")
    assert dlg.filter().action == "customer."
    dlg.action.setEditText("gpu.transition")
    assert dlg.filter().action == "gpu.transition"
    dlg.action.setEditText("  ")
    assert dlg.filter().action is None
    # typed back to the first entry's text after choosing another: everything again
    dlg.action.setCurrentIndex(dlg.action.findText("customer.create"))
    dlg.action.setEditText(dlg.action.itemText(0))
    assert dlg.filter().action is None


def test_console_export_equals_the_command_line(qtbot, db, admin, events, tmp_path):
    from app.cli import main as cli_main
    from ui.auditview import AuditFilterDialog, AuditPage
    page = AuditPage(db, admin)
    qtbot.addWidget(page)
    dlg = AuditFilterDialog(db, "Export", "Export…", page)
    qtbot.addWidget(dlg)
    start, end = week()
    dlg.date_from.setDate(start)
    dlg.date_to.setDate(end)
    dlg.actor.setCurrentIndex(dlg.actor.findData("am"))
    flt = dlg.filter()
    assert flt == AuditFilter(start, end, "am", None)
    ours = tmp_path / "console.csv"
    wait_op(qtbot, page.export(flt, str(ours)))
    theirs = tmp_path / "cli.csv"
    assert cli_main(["--db", db.url, "audit", "export", "--from", start.isoformat(), "--to", end.isoformat(),
                     "--actor", "am", "-o", str(theirs)]) == 0
    rows = read_csv(ours)
    with db.session() as s:
        theirs_n = s.execute(select(func.count()).where(AuditEvent.actor_login == "am")).scalar_one()
    assert theirs_n >= 4                                        # a login and three creates
    assert len(rows) == 1 + theirs_n                            # the header and each of them
    assert rows == read_csv(theirs)
    assert {r[2] for r in rows[1:]} == {"am"}
    assert f"{theirs_n} audit events" in page.result.text()


def test_an_empty_export_says_so(qtbot, db, admin, events, tmp_path):
    from ui.auditview import AuditPage
    page = AuditPage(db, admin)
    qtbot.addWidget(page)
    start, end = week()
    path = tmp_path / "none.csv"
    wait_op(qtbot, page.export(AuditFilter(start, end, "am", "contract.approve"), str(path)))
    assert len(read_csv(path)) == 1
    assert page.result.text().startswith("No audit event matches")
    assert "written" not in page.result.text()


def test_report_dialog_labels_the_period_as_dates_in_chinese(qtbot, db, admin):
    from ui.auditview import AuditFilterDialog
    from ui.i18n import install_translators
    app = QApplication.instance()
    install_translators(app, "zh")
    try:
        dlg = AuditFilterDialog(db, "审计报告", "预览")
        qtbot.addWidget(dlg)
        form = dlg.layout()
        assert isinstance(form, QFormLayout)
        labels = [form.labelForField(w).text() for w in (dlg.date_from, dlg.date_to)]
    finally:
        install_translators(app, "en")
    assert labels == ["起始日期", "截止日期"]

"""The audit log's report/export dialog: what it sends equals what the command line sends."""
from __future__ import annotations

import csv
import datetime as dt

import pytest
from sqlalchemy import func, select
from PySide6.QtWidgets import QApplication, QFormLayout

from app.audit.query import AuditFilter
from app.domain.rating import local_today
from app.domain.clock import TZ as SHANGHAI
from app.services.common import create_record
from app.domain.validators import make_uscc
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
    from ui.pages.audit import AuditFilterDialog
    dlg = AuditFilterDialog(db, "Audit report", "Preview")
    qtbot.addWidget(dlg)
    dlg.actor.setCurrentIndex(dlg.actor.findData("am"))
    assert dlg.action.currentIndex() == 0                   # "(every action)"
    assert dlg.filter().action is None
    assert dlg.filter().actor_login == "am"
    # a listed entry gives its own value; a typed one is taken as typed (exact or a prefix)
    dlg.action.setCurrentIndex(dlg.action.findData("customer.create"))
    assert dlg.action.currentText() == "Create customer  (customer.create)"
    assert dlg.filter().action == "customer.create"
    dlg.action.setEditText("customer.")
    assert dlg.filter().action == "customer."
    dlg.action.setEditText("gpu.transition")
    assert dlg.filter().action == "gpu.transition"
    dlg.action.setEditText("  ")
    assert dlg.filter().action is None
    # typed back to the first entry's text after choosing another: everything again
    dlg.action.setCurrentIndex(dlg.action.findData("customer.create"))
    dlg.action.setEditText(dlg.action.itemText(0))
    assert dlg.filter().action is None


def test_console_export_equals_the_command_line(qtbot, db, admin, events, tmp_path):
    from app.cli.main import main as cli_main
    from ui.pages.audit import AuditFilterDialog, AuditPage
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
    # the console (in English here) names actions in its language, the command line in --lang's
    assert cli_main(["--db", db.url, "--lang", "en", "audit", "export", "--from", start.isoformat(), "--to", end.isoformat(),
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
    from ui.pages.audit import AuditPage
    page = AuditPage(db, admin)
    qtbot.addWidget(page)
    start, end = week()
    path = tmp_path / "none.csv"
    wait_op(qtbot, page.export(AuditFilter(start, end, "am", "contract.approve"), str(path)))
    assert len(read_csv(path)) == 1
    assert page.result.text().startswith("No audit event matches")
    assert "written" not in page.result.text()


def test_report_dialog_labels_the_period_as_dates_in_chinese(qtbot, db, admin):
    from ui.pages.audit import AuditFilterDialog
    from ui.shell.i18n import install_translators
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


# --- the audit list: filter bar, names, whole timestamps, an event's detail -------------------

def audit_count(db, *where):
    with db.session() as s:
        return s.execute(select(func.count()).select_from(AuditEvent).where(*where)).scalar_one()


def test_filter_tokens_select_what_the_filter_says(db, admin, events):
    """The rule (app.audit.query + app.read.queries): period, actor, action or prefix, object type, with
    free text, as the list reads it on both backends."""
    from app.read import queries
    from app.audit.query import filter_text, parse_filter_text
    spec = queries.SPECS["audit"]
    start, end = week()

    def n(text):
        return queries.count(db, spec, text)
    assert n(filter_text(AuditFilter(actor_login="am"))) == audit_count(db, AuditEvent.actor_login == "am")
    assert n("action:customer.") == audit_count(db, AuditEvent.action.startswith("customer.")) == 4
    assert n("action:customer.create actor:admin") == 1
    assert n("type:customer") == 4
    assert n(f"from:{start} to:{end} actor:am") == audit_count(db, AuditEvent.actor_login == "am")
    tomorrow = end + dt.timedelta(days=1)
    assert n(f"from:{tomorrow}") == 0 and n(f"to:{start - dt.timedelta(days=1)}") == 0
    assert n("type:customer 管理员客户") == 1                       # with free text
    assert n("from:soon") == 0                                      # not a date: matches as text, nothing
    flt, rest = parse_filter_text("from:2026-11-24 actor:lina action:contract. FZ-2026")
    assert flt == AuditFilter(dt.date(2026, 11, 24), None, "lina", "contract.") and rest == "FZ-2026"
    assert parse_filter_text(filter_text(flt, rest)) == (flt, rest)


def test_the_filter_bar_filters_the_list(qtbot, db, admin, events):
    from ui.pages.audit import AuditPage
    page = AuditPage(db, admin)
    qtbot.addWidget(page)
    page.resize(1400, 600)
    page.show()
    qtbot.waitUntil(lambda: page.bar.actor.count() > 1)             # choices read in the background
    model = page.list.model
    qtbot.waitUntil(lambda: model.loaded)
    page.bar.actor.setCurrentIndex(page.bar.actor.findData("am"))
    qtbot.waitUntil(lambda: not model.busy)
    assert model.filtered_count == audit_count(db, AuditEvent.actor_login == "am")
    assert {model.value(r, "actor") for r in range(model.rowCount())} == {"am"}
    page.bar.object_type.setCurrentIndex(page.bar.object_type.findData("customer"))
    page.bar.date_from.set_date(week()[0])
    page.bar.date_to.set_date(week()[1])
    qtbot.waitUntil(lambda: not model.busy)
    assert model.filtered_count == 3
    page.list.filter.setText("客户经理的客户1")
    page.list.apply_filter()
    assert model.filtered_count == 1
    page.bar.clear()
    page.list.filter.clear()
    page.list.apply_filter()
    assert model.filtered_count == audit_count(db)
    # names beside codes, and the whole timestamp
    cols = [c.key for c in model.columns]
    row = next(r for r in range(model.rowCount()) if model.value(r, "action") == "customer.create")
    assert model.data(model.index(row, cols.index("action_name"))) == "Create customer"
    assert model.data(model.index(row, cols.index("action"))) == "customer.create"
    assert model.data(model.index(row, cols.index("object_type_name"))) == "customer"
    ts_col = cols.index("ts")
    text = model.data(model.index(row, ts_col))
    assert len(text) == 19 and text[10] == " " and text.count(":") == 2     # YYYY-MM-DD HH:MM:SS
    view = page.list.view
    assert view.columnWidth(ts_col) >= view.fontMetrics().horizontalAdvance(text) + 12


def test_an_event_opens_in_full_with_every_changed_field(qtbot, db, admin, events):
    from app.services.common import update_record
    from ui.pages.audit import AuditPage
    with db.session() as s:
        from models import Customer
        cust = s.execute(select(Customer).where(Customer.name == "管理员客户")).scalar_one()
        cid, version = cust.id, cust.version
    update_record(db, admin, "customer", cid, {"name": "管理员客户（改名）", "address": "福州市鼓楼区"}, version,
                  reason="工商变更")
    with db.session() as s:
        ev = s.execute(select(AuditEvent).order_by(AuditEvent.seq.desc()).limit(1)).scalar_one()
    page = AuditPage(db, admin)
    qtbot.addWidget(page)
    page.list.model.ensure_loaded()
    page.list.select_record(ev.seq)
    page.list.open_current()                                       # double-click / Open
    dlg = page.event_dialog
    assert dlg is not None and dlg.detail.seq == ev.seq
    f = {k: lbl.text() for k, lbl in dlg.fields.items()}
    assert f["action"] == "Update customer  (customer.update)"
    assert f["reason"] == "工商变更" and f["host"] == ev.host and f["app_version"] == ev.app_version
    assert f["request_id"] == ev.request_id and f["hash"] == ev.hash and f["prev_hash"] == ev.prev_hash
    assert f["time"].startswith(ev.ts.replace(tzinfo=dt.timezone.utc).astimezone(SHANGHAI).strftime("%Y-%m-%d %H:%M:%S"))
    rows = {dlg.changes.item(r, 0).text(): (dlg.changes.item(r, 1).text(), dlg.changes.item(r, 2).text())
            for r in range(dlg.changes.rowCount())}
    assert rows["name"] == ("管理员客户", "管理员客户（改名）")
    assert rows["address"][1] == "福州市鼓楼区"
    assert all(before != after for before, after in rows.values())   # only what changed
    opened = []
    page.openObject.connect(lambda kind, id_: opened.append((kind, id_)))
    dlg.open_button.click()
    assert opened == [("customer", cid)]


def test_names_in_chinese_with_the_codes_kept(qtbot, db, admin, events):
    from ui.pages.audit import AuditEventDialog, action_name, object_name
    from ui.shell.i18n import install_translators
    from app.audit.query import event_detail
    app = QApplication.instance()
    install_translators(app, "zh")
    try:
        assert action_name("statement.issue") == "开具账单"
        assert action_name("contract.approve") == "审批合同"
        assert action_name("export", "audit") == "导出审计日志"
        assert object_name("rack_reservation") == "机柜预留"
        assert action_name("something.new") == "something.new"         # unknown: the code
        with db.session() as s:
            seq = s.execute(select(AuditEvent.seq).where(AuditEvent.action == "customer.create")).scalars().first()
        dlg = AuditEventDialog(event_detail(db, seq))
        qtbot.addWidget(dlg)
        assert dlg.fields["action"].text() == "新建客户  (customer.create)"
        assert dlg.fields["object"].text().startswith("客户  (customer)")
    finally:
        install_translators(app, "en")


def test_report_and_export_start_from_the_page_filter(qtbot, db, admin, events, tmp_path, monkeypatch):
    """The auditor filters once: the report's and the export's dialog open with the filter bar's
    period, user, action and object type; the export is proposed in the folder used last (not the
    program's working folder), named by its period, and its whole path is confirmed."""
    from PySide6.QtWidgets import QDialog, QFileDialog
    from ui.pages.audit import AuditFilterDialog, AuditPage
    from ui.shell.settings import settings
    page = AuditPage(db, admin)
    qtbot.addWidget(page)
    page.bar.set_choices(["admin", "am"], ["customer.create", "user.create"], ["customer", "user"])
    start, end = week()
    page.bar.date_from.set_date(start)
    page.bar.date_to.set_date(end)
    page.bar.actor.setCurrentIndex(page.bar.actor.findData("am"))
    page.bar.action.setCurrentIndex(page.bar.action.findData("customer.create"))
    page.bar.object_type.setCurrentIndex(page.bar.object_type.findData("customer"))
    wanted = AuditFilter(start, end, "am", "customer.create", "customer")
    assert page.bar.filter() == wanted
    seen = []

    def accept(dlg):
        seen.append(dlg.filter())
        return QDialog.Accepted
    monkeypatch.setattr(AuditFilterDialog, "exec", accept)
    previews = []
    monkeypatch.setattr(page, "report", lambda flt: previews.append(flt))
    page.ask_report()
    assert seen == [wanted] and previews == [wanted]

    folder = tmp_path / "exports"
    folder.mkdir()
    settings().set("last_save_dir", str(folder))
    proposed = []

    def save_as(parent, title, start_path, filters):
        proposed.append(start_path)
        return start_path, filters
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    ops = []
    real_export = page.export
    monkeypatch.setattr(page, "export", lambda flt, path: ops.append(real_export(flt, path)))
    page.ask_export()
    assert seen[-1] == wanted
    assert proposed == [str(folder / f"audit-{start.isoformat()}-{end.isoformat()}.csv")]
    wait_op(qtbot, ops[0])
    rows = read_csv(proposed[0])
    assert len(rows) == 1 + 3 and {r[2] for r in rows[1:]} == {"am"}
    assert str(folder) in page.result.text() and "3 audit events" in page.result.text()


def test_report_dialog_without_a_page_filter_is_this_month(qtbot, db, admin):
    from ui.pages.audit import AuditFilterDialog
    dlg = AuditFilterDialog(db, "Audit report", "Preview")
    qtbot.addWidget(dlg)
    today = local_today()
    assert dlg.filter() == AuditFilter(today.replace(day=1), today, None, None, None)

"""The console's main flows, offscreen, driven through the widgets."""
from __future__ import annotations

import csv
from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from app.read import queries
from app.services.users import has_users
from models import GpuAsset
from tests.conftest import PASSWORD


# --- start: first run and login ---------------------------------------------------------

def test_first_run_creates_the_admin_then_login_works(qtbot, db):
    from ui.shell.startup import FirstRunWizard, LoginDialog
    assert not has_users(db)
    wizard = FirstRunWizard(db)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.password.setText("short")
    wizard.password2.setText("short")
    assert not wizard.validateCurrentPage()
    assert "8" in wizard.error.text()          # the service's rule, shown in the wizard
    wizard.password.setText(PASSWORD)
    wizard.password2.setText(PASSWORD + "x")
    assert not wizard.validateCurrentPage()
    wizard.password2.setText(PASSWORD)
    wizard.name.setText("管理员")
    wizard.demo.setChecked(False)
    assert wizard.validateCurrentPage()
    assert wizard.actor.role == "admin" and has_users(db)

    dlg = LoginDialog(db)
    qtbot.addWidget(dlg)
    assert dlg.login.text() == "admin"          # remembered from the wizard
    dlg.password.setText("wrong-password")
    dlg.try_login()
    assert dlg.actor is None and dlg.loginError if hasattr(dlg, "loginError") else dlg.error.text()
    dlg.password.setText(PASSWORD)
    with qtbot.waitSignal(dlg.accepted):
        dlg.try_login()
    assert dlg.actor.login == "admin"


def test_prepare_upgrades_an_empty_file_with_a_progress_dialog(qtbot, tmp_path):
    from app.store.db import Database
    from ui.shell.main import prepare
    db = Database(f"sqlite:///{tmp_path / 'new.db'}")
    assert prepare(db)
    assert not db.needs_upgrade()
    from sqlalchemy import func, select
    from models import Region
    with db.session() as s:   # the first start gives a new database the shipped regions, as db upgrade does
        assert s.execute(select(func.count()).select_from(Region)).scalar_one() == 3213
    db.dispose()


def test_schema_too_new_is_refused_clearly(qtbot, tmp_path, monkeypatch):
    from sqlalchemy import text
    from app.store.db import Database
    from ui.shell import main
    db = Database(f"sqlite:///{tmp_path / 'new.db'}")
    assert main.prepare(db)
    with db.engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    shown = []
    monkeypatch.setattr(main.QMessageBox, "critical", lambda parent, title, text: shown.append((title, text)))
    assert not main.prepare(db)
    assert "9999" in shown[0][1] and "newer" in shown[0][1]
    db.dispose()


def test_authenticate_with_user_and_password_from_the_environment(qtbot, db, admin, monkeypatch):
    from ui.shell.main import authenticate
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    actor = authenticate(db, SimpleNamespace(user="admin"))
    assert actor.login == "admin"


# --- the main window --------------------------------------------------------------------

@pytest.fixture
def window(qtbot, db, admin, estate):
    from ui.shell.mainwindow import MainWindow
    w = MainWindow(db, admin)
    qtbot.addWidget(w)
    w.show()
    return w


def test_status_bar_names_database_user_and_role(window, db):
    from app.store.config import describe_url
    assert describe_url(db.url) in window.db_label.text()
    assert "管理员" in window.user_label.text()


def test_filter_and_sort_run_in_sql(qtbot, window):
    window.show_page("gpus")
    page = window.lists["gpus"]
    qtbot.keyClicks(page.filter, "H100-001")
    qtbot.waitUntil(lambda: page.model.filter_text == "H100-001", timeout=2000)
    assert page.model.rowCount() == 3
    assert page.count_label.text() == "3 of 12"
    col = page.model.spec.keys().index("serial")
    page.view.sortByColumn(col, Qt.DescendingOrder)
    assert [page.model.value(r, "serial") for r in range(3)] == ["SN-H100-0012", "SN-H100-0011", "SN-H100-0010"]
    page.filter.clear()
    qtbot.waitUntil(lambda: page.model.filter_text == "", timeout=2000)
    assert page.count_label.text() == "12 rows"


def test_a_big_list_sorts_and_filters_in_the_background_and_keeps_the_selection(qtbot, db, admin, estate):
    """With the background threshold at 0 (as for 400,000 GPUs), a sort pages by keyset at once
    (issue 26: a nullable column too), a filter is read in the background, the page says so and
    keeps its rows meanwhile, and a refresh selects the same record again once read."""
    from ui.kit.listview import ListPage
    page = ListPage(db, admin, "gpu")
    qtbot.addWidget(page)
    page.model.order_sync_rows = 0
    page.show()
    assert page.model.rowCount() == 12 and page.count_label.text() == "12 rows"
    col = page.model.spec.keys().index("customer")
    page.view.sortByColumn(col, Qt.DescendingOrder)
    assert not page.model.busy and page.model.sort_key == "customer" and page.model.sort_desc
    assert page.count_label.text() == "12 rows" and page.model.rowCount() == 12
    page.view.select_id(estate.gpu_ids[4])
    with qtbot.waitSignal(page.model.reloaded, timeout=10000):
        page.refresh()
    assert page.view.current_id() == estate.gpu_ids[4]
    page.filter.setText("h100-001")
    with qtbot.waitSignal(page.model.reloaded, timeout=10000):
        page.apply_filter()
        assert page.count_label.text() == "Filtering 12 rows…"
    assert page.count_label.text() == "3 of 12" and page.model.rowCount() == 3
    assert page.view.verticalScrollBar().value() == 0


def test_a_failed_background_read_keeps_the_rows_and_their_sort(qtbot, db, admin, estate, monkeypatch):
    """A background sort that fails (here: the database refuses the read) says so, keeps the rows
    shown, and puts the header back on their sort, so the same sort can be asked for again. Every
    sort pages by keyset (issue 26), so a big list is read in the background when it is filtered."""
    from app.read.lists import paging
    from ui.kit.listview import ListPage
    page = ListPage(db, admin, "gpu")
    qtbot.addWidget(page)
    page.model.order_sync_rows = 0
    page.show()
    with qtbot.waitSignal(page.model.reloaded, timeout=10000):
        page.model.set_filter("SN-H100")                  # every GPU of the estate
    first = [page.model.id_at(r) for r in range(12)]

    def refuse(*_a, **_k):
        raise RuntimeError("canceling statement due to statement timeout")
    monkeypatch.setattr(paging, "fetch_page", refuse)
    col = page.model.spec.keys().index("customer")
    with qtbot.waitSignal(page.model.loadFailed, timeout=10000):
        page.view.sortByColumn(col, Qt.AscendingOrder)
    assert "statement timeout" in page.count_label.text() and not page.model.busy
    assert page.model.sort_key == "serial" and [page.model.id_at(r) for r in range(12)] == first
    assert page.view.horizontalHeader().sortIndicatorSection() == page.model.spec.keys().index("serial")
    monkeypatch.undo()
    with qtbot.waitSignal(page.model.reloaded, timeout=10000):
        page.view.sortByColumn(col, Qt.AscendingOrder)        # asked again: read this time
    assert page.model.sort_key == "customer" and page.count_label.text() == "12 of 12"


def test_ctrl_f_focuses_the_filter(qtbot, window):
    window.show_page("racks")
    window.act_filter.trigger()
    assert window.lists["racks"].filter.hasFocus() or window.focusWidget() is window.lists["racks"].filter


def test_column_chooser_hides_a_column_and_remembers_it(qtbot, db, admin, estate):
    from ui.kit.listview import ListPage
    page = ListPage(db, admin, "gpu")
    qtbot.addWidget(page)
    menu = page.view.column_menu()
    host = page.model.spec.keys().index("host")
    menu.actions()[host].setChecked(False)
    assert page.view.isColumnHidden(host)
    again = ListPage(db, admin, "gpu")
    qtbot.addWidget(again)
    assert again.view.isColumnHidden(host)


def test_export_writes_the_filtered_view(qtbot, window, tmp_path):
    page = window.lists["gpus"]
    page.filter.setText("H100-000")
    page.apply_filter()
    for name in ("gpus.csv", "gpus.xlsx"):
        path = tmp_path / name
        op = page.export(str(path))
        with qtbot.waitSignal(op.done, timeout=5000):
            pass
        assert path.exists()
    with open(tmp_path / "gpus.csv", encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert rows[0][0] == "Serial" and len(rows) == 1 + 9
    from openpyxl import load_workbook
    ws = load_workbook(tmp_path / "gpus.xlsx").active
    assert ws.max_row == 1 + 9


def test_search_jumps_to_the_record(qtbot, window, estate):
    dlg = window.open_search()
    qtbot.keyClicks(dlg.edit, "SN-H100-0007")
    qtbot.waitUntil(lambda: dlg.results.count() > 0, timeout=2000)
    assert "SN-H100-0007" in dlg.results.item(0).text()
    dlg.pick()
    assert window.stack.currentWidget() is window.pages["gpus"]
    assert window.lists["gpus"].view.current_id() == estate.gpu_ids[6]


def test_search_runs_in_the_background_and_enter_picks_the_first_result(qtbot, window, estate):
    """Enter typed before the results are in picks the first result once they arrive; an older
    search's results never replace a newer one's."""
    dlg = window.open_search()
    dlg.edit.setText("SN-H100-0003")
    dlg.run()                                   # superseded by the next one
    dlg.edit.setText("SN-H100-0011")
    dlg.run()
    assert dlg.pending
    with qtbot.waitSignal(dlg.chosen, timeout=10000) as blocker:
        dlg.pick()
    assert blocker.args == ["gpu", estate.gpu_ids[10]]
    assert "SN-H100-0011" in dlg.results.item(0).text()


def test_search_finds_customers_and_racks(qtbot, db, admin, estate):
    kinds = {h.kind for h in queries.search(db, "厦门")} | {h.kind for h in queries.search(db, "A0")}
    assert {"customer", "rack"} <= kinds


# --- records ----------------------------------------------------------------------------

def test_create_with_a_refused_save_keeps_the_input(qtbot, db, admin, estate):
    from ui.kit.forms import open_form
    dlg = open_form(db, admin, "customer")
    qtbot.addWidget(dlg)
    dlg.editors["name"].setText("福州新客户科技有限公司")
    dlg.editors["credit_code"].setText("91350100MA30000XX")       # 17 characters: refused by the service
    dlg.save()
    assert dlg.result() == 0
    assert not dlg.errors["credit_code"].isHidden() and dlg.errors["credit_code"].text()
    assert dlg.errors["name"].isHidden()
    assert dlg.editors["name"].text() == "福州新客户科技有限公司"      # input kept
    from app.domain.validators import make_uscc
    dlg.editors["credit_code"].setText(make_uscc("91350100MA3000099"))
    dlg.save()
    assert dlg.result() == 1 and dlg.saved_id


def test_edit_and_conflict_offers_reload(qtbot, db, admin, estate, monkeypatch):
    from app.services.common import update_record
    from ui.kit.forms import open_form
    cid = estate.customer_ids[0]
    dlg = open_form(db, admin, "customer", cid)
    qtbot.addWidget(dlg)
    assert dlg.editors["name"].text() == "福州星河智能科技"
    dlg.editors["address"].setText("福州市鼓楼区")
    update_record(db, admin, "customer", cid, {"name": "福州星河智能科技有限公司"})   # someone else, meanwhile
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a) or QMessageBox.Yes)
    dlg.save()
    assert asked and dlg.result() == 0
    assert dlg.editors["name"].text() == "福州星河智能科技有限公司"      # reloaded
    dlg.editors["address"].setText("福州市鼓楼区")
    dlg.save()
    assert dlg.result() == 1
    assert queries.record(db, "customer", cid)["address"] == "福州市鼓楼区"


def test_the_list_refreshes_after_a_save(qtbot, window, db, admin, estate):
    from ui.kit.forms import save_record
    from ui.shell.operations import announce
    window.show_page("customers")
    page = window.lists["customers"]
    assert page.model.rowCount() == 3
    from app.domain.validators import make_uscc
    save_record(db, admin, "customer", None, {"name": "莆田新客户", "credit_code": make_uscc("91350300MA3000001")}, None)
    announce({"customer"})
    assert page.model.rowCount() == 4


def test_lifecycle_move_offers_only_allowed_moves_and_records_history(qtbot, window, db, estate):
    from ui.kit.forms import TransitionDialog, open_form
    dlg = TransitionDialog(["received"], 1)
    qtbot.addWidget(dlg)
    assert [dlg.target.itemData(i) for i in range(dlg.target.count())] == ["burn_in"]
    dlg.reason.setText("")
    dlg._accept()
    assert dlg.result() == 0 and not dlg.error.isHidden()        # a reason is required
    mixed = TransitionDialog(["received", "ordered"], 2)
    qtbot.addWidget(mixed)
    assert mixed.target.count() == 0 and not mixed.ok.isEnabled()

    window.show_page("gpus")
    page = window.lists["gpus"]
    gid = estate.gpu_ids[0]                                       # received
    op = page.run_moves([gid], "burn_in", "上架测试")
    with qtbot.waitSignal(op.done, timeout=5000):
        pass
    with db.session() as s:
        assert s.get(GpuAsset, gid).state == "burn_in"
    row = page.model.row_of(gid)
    assert page.model.value(row, "state") == "burn_in"              # the list refreshed
    form = open_form(db, window.actor, "gpu", gid)
    qtbot.addWidget(form)
    assert form.history.rowCount() >= 1 and form.history.item(0, 4).text() == "上架测试"


def test_bulk_move_reports_refusals(qtbot, window, db, estate, monkeypatch):
    page = window.lists["gpus"]
    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: warned.append(a))
    ids = estate.gpu_ids[:4]          # received, ordered, received, ordered
    op = page.run_moves(ids, "burn_in", "批量上架")
    with qtbot.waitSignal(op.done, timeout=10000):
        pass
    states = queries.gpu_states(db, ids)
    assert [states[i] for i in ids] == ["burn_in", "ordered", "burn_in", "ordered"]
    assert warned


def test_retire_asks_for_a_reason_and_goes_through_the_service(qtbot, window, db, estate, monkeypatch):
    from PySide6.QtWidgets import QInputDialog
    page = window.lists["racks"]
    window.show_page("racks")
    page.view.selectRow(0)
    rid = page.view.current_id()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("拆除", True))
    with qtbot.waitSignal(page.model.modelReset, timeout=5000):
        window.act_retire.trigger()
    assert queries.record(db, "rack", rid)["status"] == "decommissioned"


# --- roles ------------------------------------------------------------------------------

def test_auditor_reads_and_exports_but_cannot_change(qtbot, db, admin, auditor, estate):
    from ui.shell.mainwindow import MainWindow
    w = MainWindow(db, auditor)
    qtbot.addWidget(w)
    page = w.lists["gpus"]
    page.view.selectRow(0)
    page.update_actions()
    for key in ("new", "retire", "move", "import"):
        act = page.actions_[key]
        assert not act.isEnabled()
        assert "Auditor" in act.toolTip()
    assert page.actions_["export"].isEnabled()
    users = w.lists["users"]
    assert not users.actions_["new"].isEnabled()


# --- live refresh -----------------------------------------------------------------------

def test_another_users_change_appears_after_the_poll(qtbot, window, db, admin):
    from app.domain.validators import make_uscc
    from app.services.common import create_record
    window.show_page("customers")
    page = window.lists["customers"]
    before = page.model.rowCount()
    create_record(db, admin, "customer", {"name": "别人新建的客户", "credit_code": make_uscc("91350500MA3000001")})
    window.poll.setInterval(50)
    qtbot.waitUntil(lambda: page.model.rowCount() == before + 1, timeout=3000)


# --- import -----------------------------------------------------------------------------

def test_import_preview_marks_bad_rows_and_imports_nothing_until_clean(qtbot, db, admin, estate, tmp_path):
    pytest.importorskip("app.importexport")
    from ui.kit.importdialog import ImportDialog
    bad = tmp_path / "gpus.csv"
    good_model = "H100 SXM5 80GB"
    with db.session() as s:
        from models import GpuModel
        good_model = s.get(GpuModel, estate.gpu_model_id).name
    from app.importexport import COLUMNS
    header = list(COLUMNS["gpus"])
    def row(serial, model):
        values = {"serial": serial, "gpu_model": model, "model": model, "state": "ordered"}
        return [values.get(c, "") for c in header]
    _write(bad, header, [row("IMP-0001", good_model), row("IMP-0002", "No Such GPU"), row("IMP-0003", good_model)])
    dlg = ImportDialog(db, admin, "gpus")
    qtbot.addWidget(dlg)
    dlg.path.setText(str(bad))
    dlg.preview()
    assert dlg.table.rowCount() >= 3
    assert 1 in dlg.problems and not dlg.import_button.isEnabled()
    assert dlg.table.item(1, 0).text()                               # the problem, beside the row
    before = queries.total(db, queries.SPECS["gpu"])
    good = _write(tmp_path / "good.csv", header, [row("IMP-0001", good_model), row("IMP-0003", good_model)])
    dlg.path.setText(str(good))
    dlg.preview()
    assert not dlg.problems and dlg.import_button.isEnabled()
    dlg.run_import()
    qtbot.waitUntil(lambda: dlg.result() == 1, timeout=10000)
    assert queries.total(db, queries.SPECS["gpu"]) == before + 2


def _write(path, header, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return path

"""Lists (issue 9): a filter per column and a status filter in the reader's language (pushed into
SQL), remembered per page in the local settings, an empty-state message, a row menu (open, history,
copy, export selection), long identifiers elided in the middle, widths kept per language, and the
device list's site beside its rack."""
from __future__ import annotations

import csv
import datetime as dt

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from sqlalchemy import func, select

from app.services.users import login
from app.domain.warranty import warranty_state
from models import Contract, Customer
from models.choices import ContractStatus
from ui.shell.i18n import install_translators


@pytest.fixture
def lang(request, qapp):
    install_translators(QApplication.instance(), request.param)
    yield request.param
    install_translators(QApplication.instance(), "en")


def _n(db, *where):
    with db.session() as s:
        return s.execute(select(func.count()).select_from(Contract).join(Customer, Customer.id == Contract.customer_id)
                         .where(*where)).scalar_one()


def _page(qtbot, db, actor, kind):
    from ui.kit.listview import ListPage
    page = ListPage(db, actor, kind)
    qtbot.addWidget(page)
    page.resize(1100, 600)
    page.show()
    qtbot.waitUntil(lambda: page.model.loaded and not page.model.busy)
    return page


@pytest.mark.parametrize("lang", ["en", "zh"], indirect=True)
def test_status_and_column_filters_remembered(qtbot, demo_db, lang):
    admin = login(demo_db, "admin", "demo1234")
    page = _page(qtbot, demo_db, admin, "contract")
    box = page.status_filter
    assert box is not None and box.itemText(0) == ("Status: all" if lang == "en" else "状态：全部")
    active = box.findData(ContractStatus.ACTIVE)
    assert box.itemText(active) == ContractStatus.label(ContractStatus.ACTIVE, lang)
    box.setCurrentIndex(active)
    box.activated.emit(active)
    want = _n(demo_db, Contract.status == ContractStatus.ACTIVE)
    qtbot.waitUntil(lambda: page.model.filtered_count == want)
    assert {page.model.value(r, "status") for r in range(page.model.rowCount())} == {ContractStatus.ACTIVE}
    # a text column's filter on top: the customer's name contains 海口
    page.set_column_filter("customer", "海口")
    want = _n(demo_db, Contract.status == ContractStatus.ACTIVE, Customer.name.like("%海口%"))
    qtbot.waitUntil(lambda: page.model.filtered_count == want)
    assert want > 0 and "海口" in page.filters_label.text()
    # remembered for the page (the settings file, not the database)
    again = _page(qtbot, demo_db, admin, "contract")
    assert again.column_filters == {"status": ContractStatus.ACTIVE, "customer": "海口"}
    assert again.status_filter.currentData() == ContractStatus.ACTIVE
    qtbot.waitUntil(lambda: again.model.filtered_count == want)
    # nothing matches: the empty state says why
    again.set_column_filter("customer", "no such customer")
    qtbot.waitUntil(lambda: again.model.rowCount() == 0)
    assert again.empty_label.isVisible()
    assert again.empty_label.text() == ("No records match these filters. Clear or change them to see more."
                                        if lang == "en" else "没有符合这些筛选条件的记录。清除或修改筛选条件以查看更多。")
    again.clear_filters()
    qtbot.waitUntil(lambda: again.model.rowCount() == _n(demo_db))
    assert not again.empty_label.isVisible() and again.column_filters == {}
    # a record the filters hide (e.g. chosen in the global search): the filters go, the record is shown
    again.set_column_filter("status", ContractStatus.DRAFT)
    qtbot.waitUntil(lambda: again.model.filtered_count == _n(demo_db, Contract.status == ContractStatus.DRAFT))
    with demo_db.session() as s:
        hidden = s.execute(select(Contract.id).where(Contract.status == ContractStatus.ACTIVE)).scalars().first()
    assert again.select_record(hidden) and again.view.current_id() == hidden
    assert again.column_filters == {} and again.status_filter.currentIndex() == 0


def test_choice_column_filter_from_the_header(qtbot, demo_db):
    from ui.kit.listfilters import ChoiceFilterDialog
    admin = login(demo_db, "admin", "demo1234")
    page = _page(qtbot, demo_db, admin, "contract")
    status = page.spec.keys().index("status")
    menu = page.view.column_menu(status)
    assert menu.actions()[0].objectName() == "filterColumn"

    def keep_two():
        dlg = QApplication.activeModalWidget()
        assert isinstance(dlg, ChoiceFilterDialog)
        for i in range(dlg.list.count()):
            item = dlg.list.item(i)
            keep = item.data(Qt.UserRole) in (ContractStatus.ACTIVE, ContractStatus.PENDING)
            item.setCheckState(Qt.Checked if keep else Qt.Unchecked)
        dlg.accept()
    QTimer.singleShot(0, keep_two)
    menu.actions()[0].trigger()
    want = _n(demo_db, Contract.status.in_([ContractStatus.ACTIVE, ContractStatus.PENDING]))
    qtbot.waitUntil(lambda: page.model.filtered_count == want)
    assert page.status_filter.currentIndex() == 0        # two states: not one entry of the box


def test_row_menu_copy_export_history(qtbot, demo_db, tmp_path):
    admin = login(demo_db, "admin", "demo1234")
    page = _page(qtbot, demo_db, admin, "contract")
    from PySide6.QtWidgets import QStyleOptionViewItem
    keys = page.spec.keys()
    modes = {}
    for key in ("number", "customer"):
        option = QStyleOptionViewItem()
        page.view.itemDelegate().initStyleOption(option, page.model.index(0, keys.index(key)))
        modes[key] = option.textElideMode
    assert modes == {"number": Qt.ElideMiddle, "customer": Qt.ElideRight}
    page.view.selectRow(0)
    menu = page.row_menu()
    names = [a.objectName() for a in menu.actions()]
    assert names == ["menuOpen", "menuHistory", "menuCopy", "menuExportSelection"]
    assert all(a.isEnabled() for a in menu.actions())
    text = page.copy_selection()
    number = page.model.value(0, "number")
    assert text.splitlines()[0].startswith("Number") and number in text.splitlines()[1]
    assert QApplication.clipboard().text() == text
    out = tmp_path / "sel.csv"
    assert page.export_selection(str(out)) == 1
    with open(out, encoding="utf-8-sig") as f:
        rows = list(csv.reader(f))
    assert rows[1][0] == number
    dlg = page.show_history()
    qtbot.waitUntil(lambda: dlg.view.total is not None and dlg.view.total > 0)
    assert number in dlg.windowTitle()
    dlg.close()


def test_device_list_shows_site_and_widths_per_language(qtbot, demo_db):
    from ui.shell.settings import settings
    from ui.kit.tableview import header_key
    admin = login(demo_db, "admin", "demo1234")
    page = _page(qtbot, demo_db, admin, "device")
    keys = page.spec.keys()
    assert keys.index("site") == keys.index("rack") - 1
    placed = next(r for r in range(page.model.rowCount()) if page.model.value(r, "rack"))
    assert page.model.value(placed, "site")
    page.view.horizontalHeader().resizeSection(0, 333)
    assert header_key("device") == "device.en" and not settings().header_state("device.en").isEmpty()
    install_translators(QApplication.instance(), "zh")
    try:
        assert header_key("device") == "device.zh" and settings().header_state("device.zh").isEmpty()
    finally:
        install_translators(QApplication.instance(), "en")


def test_warranty_rule_lives_in_app():
    today = dt.date(2026, 11, 30)
    assert warranty_state(dt.date(2026, 11, 29), today) == "expired"
    assert warranty_state(today + dt.timedelta(days=90), today) == "ending"
    assert warranty_state(today + dt.timedelta(days=91), today) is None
    assert warranty_state(None, today) is None


@pytest.mark.parametrize("lang", ["en", "zh"], indirect=True)
def test_choice_column_sorts_by_its_translated_label(qtbot, demo_db, lang):
    from PySide6.QtCore import QCollator, QLocale
    admin = login(demo_db, "admin", "demo1234")
    page = _page(qtbot, demo_db, admin, "contract")
    status = page.spec.keys().index("status")
    page.view.sortByColumn(status, Qt.AscendingOrder)
    qtbot.waitUntil(lambda: page.model.sort_key.startswith("status@") and not page.model.busy)
    labels = [ContractStatus.label(page.model.value(r, "status"), lang) for r in range(page.model.rowCount())]
    collator = QCollator(QLocale())
    assert len(set(labels)) >= 3
    assert labels == sorted(labels, key=collator.sortKey)
    assert page.view.horizontalHeader().sortIndicatorSection() == status

"""A node degraded by a maintenance window on its power chain (issue 25), as the capacity dialog
shows it in both languages and as `capacity search` prints it: A-02 loses side A while its side B
cannot carry its four 10.2 kW servers (tests/clusters/test_capacity_power.py). Both backends."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from app.cli.main import main
from app.services.operations import maintenance as MW
from tests.clusters.test_capacity import END, START, fleet  # noqa: F401  (the fixture)
from tests.clusters.test_capacity_power import draw_servers, plan_window, power  # noqa: F401  (the fixture)
from tests.conftest import PASSWORD


@pytest.fixture
def degraded(db, fleet, power, admin):  # noqa: F811
    draw_servers(db, 10_200)
    return MW.reference(plan_window(db, admin, "feed", power["f2"]))


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_dialog_marks_degraded_nodes(qtbot, db, admin, degraded, language):
    from ui.kit.dialogs import set_date
    from ui.pages.capacity import CapacityDialog
    from ui.shell.i18n import install_translators

    install_translators(QApplication.instance(), language)
    try:
        dlg = CapacityDialog(db, admin)
        qtbot.addWidget(dlg)
        dlg.model.setCurrentIndex(dlg.model.findText("H100 SXM 80GB"))
        dlg.count.setValue(64)
        dlg.scope.setCurrentIndex(dlg.scope.findData("fabric"))
        dlg.months.setValue(3)
        set_date(dlg.start, START)
        dlg.search()
        cell = dlg.offers.item(0, 8)
        a02 = "h-05, h-06, h-07, h-08"
        marked, tip = ((f"{a02}（供电能力不足：{degraded}）", "无法承载整柜负载") if language == "zh"
                       else (f"{a02} (degraded power: {degraded})", "cannot carry"))
        # A-01 keeps its power (not marked, first); A-02's four said once, last
        assert cell.text() == f"h-01, h-02, h-03, h-04; {marked}"
        assert tip in cell.toolTip()
    finally:
        install_translators(QApplication.instance(), "en")


def test_capacity_search_prints_the_degraded_nodes(db, admin, degraded, capsys, monkeypatch):
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", PASSWORD)
    url = db.engine.url.render_as_string(hide_password=False)
    code = main(["--db", url, "--user", "admin", "capacity", "search", "--model", "H100 SXM 80GB", "--count", "64",
                 "--one-fabric", "--from", START.isoformat(), "--to", END.isoformat()])
    out = capsys.readouterr().out
    assert code == 0, out
    assert (f"degraded power (one side under maintenance {degraded}, the side kept cannot carry the rack's load): "
            "h-05, h-06, h-07, h-08") in out
    assert "reduced power redundancy" not in out

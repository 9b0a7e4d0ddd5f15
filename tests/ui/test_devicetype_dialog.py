"""Device types from the console: a folder with a refused file, previewed and imported with progress."""
from __future__ import annotations

import shutil
from pathlib import Path

from sqlalchemy import func, select

from models import DeviceType

LIBRARY = Path(__file__).resolve().parents[2] / "resources" / "device-types"


def _folder(tmp_path):
    folder = tmp_path / "lib"
    shutil.copytree(LIBRARY, folder)
    (folder / "Acme").mkdir()
    (folder / "Acme" / "bad.yaml").write_text(
        "manufacturer: Acme\nmodel: X\nslug: acme-x\nu_height: 1.3\nis_full_depth: true\n", encoding="utf-8")
    return folder


def _types(db) -> int:
    with db.session() as s:
        return s.execute(select(func.count()).select_from(DeviceType)).scalar_one()


def test_folder_preview_lists_the_refused_file_then_imports_the_others(qtbot, db, admin, tmp_path):
    from ui.kit.importdialog import DeviceTypeImportDialog
    dlg = DeviceTypeImportDialog(db, admin)
    qtbot.addWidget(dlg)
    dlg.path.setText(str(_folder(tmp_path)))
    dlg.preview()
    qtbot.waitUntil(lambda: dlg.result_ is not None, timeout=20000)
    assert _types(db) == 0                                    # a preview writes nothing
    rows = {(dlg.table.item(r, 0).text(), dlg.table.item(r, 1).text()) for r in range(dlg.table.rowCount())}
    assert ("Acme/bad.yaml", "refused") in rows
    assert ("Nvidia/DGC-A100.yaml (nvidia-dgx-a100-640gb)", "power to check") in rows
    assert "5 file(s): 4 can be imported" in dlg.summary.text()
    assert dlg.import_button.isEnabled()
    dlg.run_import()
    qtbot.waitUntil(lambda: "Imported 4 of 5" in dlg.summary.text(), timeout=20000)
    assert _types(db) == 4 and dlg.result() == 0             # stays open: a file was refused


def test_all_or_nothing_refuses_the_folder(qtbot, db, admin, tmp_path):
    from ui.kit.importdialog import DeviceTypeImportDialog
    dlg = DeviceTypeImportDialog(db, admin)
    qtbot.addWidget(dlg)
    dlg.strict.setChecked(True)
    dlg.path.setText(str(_folder(tmp_path)))
    dlg.preview()
    qtbot.waitUntil(lambda: dlg.result_ is not None, timeout=20000)
    assert not dlg.import_button.isEnabled()
    dlg.path.setText(str(LIBRARY / "Nvidia" / "QM9700.yaml"))  # one good file
    dlg.result_ = None
    dlg.preview()
    qtbot.waitUntil(lambda: dlg.result_ is not None, timeout=20000)
    assert dlg.import_button.isEnabled()
    dlg.run_import()
    qtbot.waitUntil(lambda: dlg.result() == 1, timeout=20000)
    assert _types(db) == 1


def test_the_devices_page_offers_device_type_import(qtbot, db, admin):
    from ui.shell.mainwindow import MainWindow
    window = MainWindow(db, admin)
    qtbot.addWidget(window)
    page = window._make_page("devices", "device")
    assert page.actions_["import_types"].isEnabled()

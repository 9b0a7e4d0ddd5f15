"""NetBox devicetype-library YAML: values, power flags, and the repeatable all-or-nothing import."""
from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select

from app.importexport.devicetypes import (comment_power_w, find_yaml_files, import_device_types, parse_device_type, power_flag,
                             read_device_type_file)
from app.domain.errors import PermissionDenied
from app.importexport import ImportFailed, run_export, run_import
from app.services.common import update_record
from models import AuditEvent, DeviceType
from tests.conftest import table_counts

LIBRARY = Path(__file__).resolve().parents[2] / "resources" / "device-types"
DGX = LIBRARY / "Nvidia" / "DGC-A100.yaml"
QM = LIBRARY / "Nvidia" / "QM9700.yaml"
AS8 = LIBRARY / "Supermicro" / "AS-8125GS-TNMR2.yml"
SYS = LIBRARY / "Supermicro" / "SYS-421GE-TNRT.yaml"


# --- parsing (no database) ---------------------------------------------------------------------

def test_folder_holds_the_four_files_yaml_and_yml():
    assert [f.name for f in find_yaml_files(LIBRARY)] == [
        "DGC-A100.yaml", "QM9700.yaml", "AS-8125GS-TNMR2.yml", "SYS-421GE-TNRT.yaml"]


def test_dgx_a100_keeps_file_power_and_flags_the_comment_figure():
    v = read_device_type_file(DGX)
    assert (v["manufacturer"], v["model"], v["slug"]) == ("Nvidia", "NVIDIA DGX A100 640GB", "nvidia-dgx-a100-640gb")
    assert v["part_number"] == "DGXA-G640F+P2EDI36"
    assert v["u_height"] == Decimal(6) and v["is_full_depth"] is True
    # two redundant supplies of 1071 W max / 586 W allocated: the device draws through one
    assert (v["max_power_w"], v["typical_power_w"]) == (1071, 586)
    assert "6.5 kW" in v["power_flag"] and "1071 W" in v["power_flag"]
    assert "“Ampere”" in v["comments"] and "Power Consumption: 6.5kW" in v["comments"]  # non-ASCII kept
    assert v["gpu_slots"] == 0 and v["weight_kg"] is None


def test_qm9700_has_no_draw_which_is_missing_data_not_a_flag():
    v = read_device_type_file(QM)
    assert v["max_power_w"] is None and v["typical_power_w"] is None
    assert v["power_flag"] is None  # half the library gives no draw; that is not a data error
    assert v["weight_kg"] == Decimal("14.80") and v["airflow"] == "rear-to-front"
    assert v["role"] == "switch"


def test_gpu_module_bays_count_as_slots():
    v = read_device_type_file(AS8)
    assert v["gpu_slots"] == 8 and v["max_power_w"] == 3 * 3000 and v["typical_power_w"] is None  # 3+3 PSUs
    assert v["power_flag"] is None and v["role"] == "gpu_server" and v["u_height"] == 8


def test_server_without_power_ports_is_not_flagged():
    v = read_device_type_file(SYS)
    assert v["gpu_slots"] == 0 and v["max_power_w"] is None and v["power_flag"] is None
    assert v["role"] == "server"


BASE = """manufacturer: Acme
model: Box Server
slug: acme-box
u_height: {h}
is_full_depth: false
weight: {w}
weight_unit: {unit}
power-ports:
  - name: PSU1
    maximum_draw: {draw}
    allocated_draw: {alloc}
"""


def test_weight_units_convert_to_kg():
    assert parse_device_type(BASE.format(h=1, w=100, unit="lb", draw=500, alloc=300))["weight_kg"] == Decimal("45.36")
    assert parse_device_type(BASE.format(h=1, w=2500, unit="g", draw=500, alloc=300))["weight_kg"] == Decimal("2.50")
    assert parse_device_type(BASE.format(h=1, w=3, unit="kg", draw=500, alloc=300))["weight_kg"] == Decimal("3.00")


def test_half_unit_heights_and_per_unit_plausibility():
    v = parse_device_type(BASE.format(h=0.5, w=1, unit="kg", draw=200, alloc=100))
    assert v["u_height"] == Decimal("0.5") and v["power_flag"] is None and v["is_full_depth"] is False
    hot = parse_device_type(BASE.format(h=1, w=1, unit="kg", draw=5000, alloc=100))
    assert "W per U" in hot["power_flag"]
    cold = parse_device_type(BASE.format(h=2, w=1, unit="kg", draw=10, alloc=5))
    assert "too little for a server" in cold["power_flag"]


def test_comment_figures_in_kw_and_w():
    assert comment_power_w("Power Consumption: 6.5kW at full load") == Decimal("6500")
    assert comment_power_w("PSU 2x 3000 W, typical 1,2 kW") == Decimal("3000")
    assert comment_power_w("600GB/s NVLink, 2TB DDR4, 10 Gb/s") is None
    assert power_flag({"max_power_w": 6000, "typical_power_w": None, "u_height": 6,
                       "comments": "6.5 kW max", "role": "gpu_server"}) is None  # within reason


def test_bad_file_names_the_line_and_field():
    text = "manufacturer: Acme\nmodel: Box\nslug: Bad Slug\nu_height: 1.25\nis_full_depth: true\n"
    from app.importexport.devicetypes import DeviceTypeFileError

    with pytest.raises(DeviceTypeFileError) as info:
        parse_device_type(text)
    assert {(ln, f) for ln, f, _r in info.value.problems} == {(3, "slug"), (4, "u_height")}


# --- import ------------------------------------------------------------------------------------

def test_import_the_library_folder_with_power_flags(db, admin):
    result = import_device_types(db, admin, LIBRARY)
    assert (result.rows, result.created, result.updated) == (4, 4, 0)
    assert [n.split(":")[0] for n in result.notes] == ["Nvidia/DGC-A100.yaml (nvidia-dgx-a100-640gb)"]
    with db.session() as s:
        types = {t.slug: t for t in s.execute(select(DeviceType)).scalars()}
        assert set(types) == {"nvidia-dgx-a100-640gb", "nvidia-qm9700", "supermicro-as-8125gs-tnmr2",
                              "supermicro-sys-421ge-tnrt"}
        assert "6.5 kW" in types["nvidia-dgx-a100-640gb"].power_flag
        assert types["nvidia-dgx-a100-640gb"].max_power_w == 1071
        assert types["nvidia-qm9700"].power_flag is None and types["nvidia-qm9700"].role == "switch"
        assert types["supermicro-as-8125gs-tnmr2"].power_flag is None
        assert types["supermicro-as-8125gs-tnmr2"].gpu_slots == 8
        actions = list(s.execute(select(AuditEvent.action).order_by(AuditEvent.seq)).scalars())
        assert actions.count("device_type.create") == 4 and actions[-1] == "import"


def test_reimport_is_repeatable_and_keeps_a_persons_power_correction(db, admin):
    import_device_types(db, admin, LIBRARY)
    before = table_counts(db)
    again = import_device_types(db, admin, LIBRARY)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 4)
    after = table_counts(db)
    assert after["device_type"] == before["device_type"] and after["audit_event"] == before["audit_event"] + 1
    with db.session() as s:
        qm = s.execute(select(DeviceType).where(DeviceType.slug == "nvidia-qm9700")).scalar_one()
    update_record(db, admin, "device_type", qm.id,
                  {"max_power_w": 1720, "typical_power_w": 800, "power_flag": None}, qm.version,
                  reason="datasheet: 1720 W max")
    third = import_device_types(db, admin, QM)
    assert third.unchanged == 1
    with db.session() as s:
        qm = s.get(DeviceType, qm.id)
        assert (qm.max_power_w, qm.typical_power_w, qm.power_flag) == (1720, 800, None)


def test_changed_file_updates_by_slug(db, admin, tmp_path):
    import_device_types(db, admin, AS8)
    changed = tmp_path / "as8.yml"
    changed.write_text(AS8.read_text(encoding="utf-8").replace("weight: 75.3", "weight: 80"), encoding="utf-8")
    result = import_device_types(db, admin, changed)
    assert result.updated == 1
    with db.session() as s:
        t = s.execute(select(DeviceType).where(DeviceType.slug == "supermicro-as-8125gs-tnmr2")).scalar_one()
        assert t.weight_kg == Decimal("80.00")
        ev = s.execute(select(AuditEvent).where(AuditEvent.action == "device_type.update")).scalar_one()
        assert '"weight_kg":"80.00"' in ev.after


def _folder_with_a_bad_file_and_a_duplicate(tmp_path):
    folder = tmp_path / "lib"
    shutil.copytree(LIBRARY, folder)
    (folder / "Acme").mkdir()
    (folder / "Acme" / "bad.yaml").write_text(
        "manufacturer: Acme\nmodel: X\nslug: acme-x\nu_height: 1.3\nis_full_depth: true\n", encoding="utf-8")
    (folder / "Acme" / "dup.yml").write_text(QM.read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def test_a_folder_imports_every_good_file_and_lists_each_refused_one(db, admin, tmp_path):
    folder = _folder_with_a_bad_file_and_a_duplicate(tmp_path)
    result = import_device_types(db, admin, folder)
    assert (result.rows, result.created, result.refused_files) == (6, 4, 2)
    errs = {(e.file, e.line, e.column): e.reason for e in result.refused}
    assert ("Acme/bad.yaml", 4, "u_height") in errs
    # the duplicate names both files: the one refused (sorted first wins) and the one kept
    dup = errs[("Nvidia/QM9700.yaml", 1, "slug")]
    assert "Acme/dup.yml" in dup and "nvidia-qm9700" in dup
    assert "Acme/bad.yaml, line 4, column u_height" in result.summary()
    assert "4 of 6" in result.summary() and "2 refused" in result.summary()
    with db.session() as s:
        assert len(s.execute(select(DeviceType)).scalars().all()) == 4
        ev = s.execute(select(AuditEvent).where(AuditEvent.action == "import")).scalar_one()
        assert '"refused":2' in ev.after


def test_strict_keeps_all_or_nothing(db, admin, tmp_path):
    folder = _folder_with_a_bad_file_and_a_duplicate(tmp_path)
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        import_device_types(db, admin, folder, strict=True)
    assert "Acme/bad.yaml, line 4, column u_height" in info.value.message
    assert table_counts(db) == before


def test_dry_run_and_permissions(db, admin, auditor):
    before = table_counts(db)
    result = import_device_types(db, admin, LIBRARY, dry_run=True)
    assert result.created == 4 and table_counts(db) == before
    with pytest.raises(PermissionDenied):
        import_device_types(db, auditor, LIBRARY)
    assert table_counts(db) == before


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_device_types_table_round_trip_keeps_flags(db, admin, tmp_path, fmt):
    import_device_types(db, admin, LIBRARY)
    out = tmp_path / f"types.{fmt}"
    assert run_export(db, admin, "device-types", out).rows == 4
    result = run_import(db, admin, "device-types", out)
    assert result.unchanged == 4

"""Bulk import/export: all or nothing, every bad row named, and export → import round trips."""
from __future__ import annotations

import csv
import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select

from app.domain.errors import NotFound, PermissionDenied, ValidationError
from app.importexport import (COLUMNS, EXPORT_KINDS, KINDS, ImportFailed, export_rows, preview_import, read_table,
                              run_export, run_import, write_export)
from app.services.common import create_record
from app.services.dcim import place_device
from app.domain.validators import make_uscc
from models import AuditEvent, Customer, Device, GpuAsset, Rack, Region
from tests.conftest import table_counts

DEVICE_TYPES = Path(__file__).resolve().parents[2] / "resources" / "device-types"
CUSTOMER_CODE = make_uscc("91350100575XY12A3")
OTHER_CODE = make_uscc("91110000600037341")


def write_csv(path: Path, rows: list[list], bom: bool = True) -> Path:
    with open(path, "w", encoding="utf-8-sig" if bom else "utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def write_xlsx(path: Path, rows: list[list]) -> Path:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    for r in rows:
        ws.append(r)
    wb.save(path)
    return path


@pytest.fixture
def world(db, admin, tmp_path):
    """Regions, a subsidiary, site FZ1 with room A1 and racks R01/R02, device types, a customer,
    device existing-01 at U10–U11 of R01 and GPU G-0001 in its slot 1."""
    run_import(db, admin, "regions", write_csv(tmp_path / "regions.csv", [
        ["code", "name", "parent"], ["350000", "福建省", ""], ["350100", "福州市", "350000"],
        ["350102", "鼓楼区", "350100"], ["110000", "北京市", ""]]))
    sub = create_record(db, admin, "subsidiary", {"code": "FZ", "name": "福州总部", "credit_code": OTHER_CODE})
    site = create_record(db, admin, "site", {"code": "FZ1", "name": "福州一号", "subsidiary_id": sub,
                                             "region_code": "350102"})
    room = create_record(db, admin, "room", {"site_id": site, "name": "A1"})
    racks = {n: create_record(db, admin, "rack", {"room_id": room, "name": n}) for n in ("R01", "R02")}
    run_import(db, admin, "device-types", DEVICE_TYPES)
    t2u = create_record(db, admin, "device_type", {"manufacturer": "Acme", "model": "2U box", "slug": "acme-2u",
                                                   "u_height": 2, "max_power_w": 500, "typical_power_w": 400,
                                                   "gpu_slots": 4})
    cust = create_record(db, admin, "customer", {"name": "福州云算科技有限公司", "credit_code": CUSTOMER_CODE,
                                                 "region_code": "350102"})
    dev = place_device(db, admin, {"name": "existing-01", "device_type_id": t2u, "rack_id": racks["R01"],
                                   "position": 10, "face": "front", "owner_customer_id": cust})
    gpu_csv = write_csv(tmp_path / "gpus0.csv", [["serial", "model", "state", "device", "slot", "purchase_date",
                                                  "purchase_cost"],
                                                 ["G-0001", gpu_model_name(db), "received", "existing-01", "1",
                                                  "2025-03-01", "215000.00"]])
    run_import(db, admin, "gpus", gpu_csv)
    return {"site": site, "room": room, "racks": racks, "t2u": t2u, "customer": cust, "device": dev}


def gpu_model_name(db) -> str:
    from models import GpuModel

    with db.session() as s:
        return s.execute(select(GpuModel.name).order_by(GpuModel.id)).scalars().first()


# --- the "Done when": a device onto occupied units imports nothing and names the line ----------

def test_device_onto_occupied_units_imports_nothing_and_names_line_and_column(db, admin, world, tmp_path):
    path = write_csv(tmp_path / "devices.csv", [
        ["name", "device_type", "status", "site", "location", "rack", "position", "face"],
        ["new-01", "acme-2u", "active", "FZ1", "A1", "R01", "1", "front"],
        ["new-02", "acme-2u", "active", "FZ1", "A1", "R01", "10", "front"],
    ])
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "devices", path)
    err = info.value
    assert [(e.line, e.column) for e in err.row_errors] == [(3, "position")]
    # dcim's message may print the top unit as "U11.0"; the line and column are what matter here
    assert re.search(r"line 3, column position: U10(\.0)?–U11(\.0)? of rack FZ1/A1/R01 overlap existing-01",
                     err.message), err.message
    assert "nothing was imported" in err.message
    assert "line 3, column position" in err.errors
    assert table_counts(db) == before


def test_several_bad_rows_are_all_listed(db, admin, world, tmp_path):
    path = write_csv(tmp_path / "devices.csv", [
        ["name", "device_type", "site", "location", "rack", "position", "face", "tenant"],
        ["ok-01", "acme-2u", "FZ1", "A1", "R02", "5", "front", ""],          # line 2: fine
        ["clash-02", "acme-2u", "FZ1", "A1", "R02", "6", "front", ""],       # 3: overlaps line 2
        ["typo-03", "acme-9u", "FZ1", "A1", "R02", "20", "front", ""],       # 4: unknown type
        ["high-04", "acme-2u", "FZ1", "A1", "R02", "42", "front", ""],       # 5: does not fit
        ["who-05", "acme-2u", "FZ1", "B9", "R02", "30", "front", ""],        # 6: unknown room
        ["cust-06", "acme-2u", "FZ1", "A1", "R02", "30", "front", "无此公司"],  # 7: unknown customer
        ["pos-07", "acme-2u", "FZ1", "A1", "R02", "x", "side", ""],          # 8: bad position and face
    ])
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "devices", path)
    got = {(e.line, e.column) for e in info.value.row_errors}
    assert {(3, "position"), (4, "device_type"), (5, "position"), (6, "location"), (7, "tenant"),
            (8, "position"), (8, "face")} <= got
    assert 2 not in {e.line for e in info.value.row_errors}
    assert "clash-02" not in info.value.message or "ok-01" in info.value.message  # names the row it overlaps
    assert "overlap ok-01" in info.value.message
    assert table_counts(db) == before


def test_bad_gpu_rows_all_listed(db, admin, world, tmp_path):
    model = gpu_model_name(db)
    path = write_csv(tmp_path / "gpus.csv", [
        ["serial", "model", "state", "device", "slot", "purchase_date", "purchase_cost", "warranty_end"],
        ["G-1", "No Such GPU", "", "", "", "", "", ""],                   # 2
        ["G-2", model, "ordered", "existing-01", "3", "", "", ""],        # 3: an ordered GPU in a slot
        ["G-3", model, "", "", "", "2025-13-40", "-5", ""],               # 4: bad date, negative cost
        ["G-4", model, "received", "existing-01", "9", "", "", ""],               # 5: no slot 9
        ["G-5", model, "received", "existing-01", "1", "", "", ""],               # 6: slot 1 taken
        ["G-6", model, "ordered", "", "", "2025-01-01", "100", "2028-01-01"],  # 7: fine
        ["G-6", model, "ordered", "", "", "", "", ""],                    # 8: duplicate of line 7
        ["G-7", model, "", "existing-01", "4", "", "", ""],               # 9: no state: ordered, in a slot
    ])
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "gpus", path)
    got = {(e.line, e.column) for e in info.value.row_errors}
    assert {(2, "model"), (3, "state"), (4, "purchase_date"), (5, "slot"), (6, "slot"), (8, None), (9, "state")} <= got
    assert 7 not in {e.line for e in info.value.row_errors}
    assert table_counts(db) == before


def test_header_problems_refuse_the_file(db, admin, world, tmp_path):
    path = write_csv(tmp_path / "racks.csv", [["site", "rack_name", "u_height"], ["FZ1", "R09", "42"]])
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "racks", path)
    got = {(e.line, e.column) for e in info.value.row_errors}
    assert (1, "location") in got and (1, "name") in got
    # a column the kind does not use is ignored with a notice (NetBox files carry many), not refused
    assert (1, "rack_name") not in got and "rack_name ignored" in info.value.message


# --- round trips ------------------------------------------------------------------------------

ROUND_TRIP_KINDS = ["regions", "sites", "racks", "devices", "gpus", "customers", "device-types"]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("kind", ROUND_TRIP_KINDS)
def test_export_then_import_round_trip(db, admin, world, tmp_path, kind, fmt):
    out = tmp_path / f"{kind}.{fmt}"
    exported = run_export(db, admin, kind, out, fmt)
    assert exported.rows > 0
    headers, rows = export_rows(db, kind)
    assert headers == list(COLUMNS[kind])
    assert len(list(rows)) == exported.rows
    columns, read, problems = read_table(kind, out)
    assert problems == [] and columns == list(COLUMNS[kind]) and len(read) == exported.rows
    before = table_counts(db)
    result = run_import(db, admin, kind, out)
    assert (result.created, result.updated, result.unchanged) == (0, 0, exported.rows)
    after = table_counts(db)
    assert after["audit_event"] == before["audit_event"] + 1  # only the import's own summary
    assert {k: v for k, v in after.items() if k not in ("audit_event", "_head")} == \
        {k: v for k, v in before.items() if k not in ("audit_event", "_head")}


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_edited_export_updates_only_the_changed_record(db, admin, world, tmp_path, fmt):
    out = tmp_path / f"racks.{fmt}"
    run_export(db, admin, "racks", out, fmt)
    _cols, rows, _ = read_table("racks", out)
    table = [list(COLUMNS["racks"])]
    for r in rows:
        values = dict(r.values)
        if values["name"] == "R02":
            values["power_capacity_kw"] = "12.5"
            values["tenant"] = CUSTOMER_CODE  # tenant by credit code works as well as by name
        table.append([values[c] for c in COLUMNS["racks"]])
    edited = (write_csv if fmt == "csv" else write_xlsx)(tmp_path / f"edited.{fmt}", table)
    result = run_import(db, admin, "racks", edited)
    assert (result.created, result.updated, result.unchanged) == (0, 1, 1)
    with db.session() as s:
        r02 = s.get(Rack, world["racks"]["R02"])
        assert r02.power_capacity_kw == Decimal("12.5") and r02.customer_id == world["customer"]
        ev = s.execute(select(AuditEvent).where(AuditEvent.action == "rack.update")).scalars().one()
        assert "12.5" in ev.after


def test_new_rows_are_created_with_audit_events_and_one_summary(db, admin, world, tmp_path):
    path = write_xlsx(tmp_path / "devices.xlsx", [
        ["name", "device_type", "site", "location", "rack", "position", "face", "serial", "asset_tag", "tenant"],
        ["gpu-node-01", "acme-2u", "FZ1", "A1", "R02", 1, "front", "SN1", "AT-1", "福州云算科技有限公司"],
        ["gpu-node-02", "acme-2u", "FZ1", "A1", "R02", 3, "front", "SN2", "AT-2", CUSTOMER_CODE],
        ["spare-03", "acme-2u", "", "", "", None, "", "SN3", "", ""],
    ])
    seen = []
    result = run_import(db, admin, "devices", path, progress=lambda d, t: seen.append((d, t)))
    assert (result.created, result.rows) == (3, 3)
    assert seen[-1] == (3, 3)
    with db.session() as s:
        devs = {d.name: d for d in s.execute(select(Device)).scalars()}
        assert devs["gpu-node-02"].position == 3 and devs["gpu-node-02"].owner_customer_id == world["customer"]
        assert devs["spare-03"].rack_id is None
        actions = [a for a in s.execute(select(AuditEvent.action).order_by(AuditEvent.seq)).scalars()]
        assert actions[-4:] == ["device.create", "device.create", "device.create", "import"]
        summary = s.execute(select(AuditEvent).where(AuditEvent.action == "import")
                            .order_by(AuditEvent.seq.desc())).scalars().first()
        assert summary.object_label == "devices.xlsx" and '"rows":3' in summary.after


def test_csv_with_bom_and_chinese_customers(db, admin, world, tmp_path):
    code = make_uscc("91440300MA5DXYT12")
    path = write_csv(tmp_path / "customers.csv", [
        ["name", "credit_code", "region", "address", "account_manager", "contact_name", "contact_phone",
         "contact_email"],
        ["深圳星河智算有限公司", code.lower(), "110000", "深圳市南山区科技园", "admin", "王芳", "+86 755 1234 5678",
         "wang@example.cn"],
    ])
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    result = run_import(db, admin, "customers", path)
    assert result.created == 1
    with db.session() as s:
        c = s.execute(select(Customer).where(Customer.credit_code == code)).scalar_one()
        assert c.name == "深圳星河智算有限公司" and c.contacts[0].name == "王芳"
    # and without a BOM
    plain = write_csv(tmp_path / "plain.csv", [["name", "credit_code"], ["杭州某公司", code]], bom=False)
    assert run_import(db, admin, "customers", plain).unchanged == 0  # name changed → updated
    bad = write_csv(tmp_path / "bad.csv", [["name", "credit_code", "contact_name", "contact_email"],
                                          ["甲", "91350100575XY12A0", "", ""], ["乙", code, "", "not-mail"]])
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "customers", bad)
    assert {(e.line, e.column) for e in info.value.row_errors} == {(2, "credit_code"), (3, "contact_name"),
                                                                         (3, "contact_email")}


def test_regions_import_in_order_and_refusals(db, admin, tmp_path):
    path = write_csv(tmp_path / "r.csv", [["code", "name", "parent"], ["460000", "海南省", ""],
                                          ["460100", "海口市", "460000"], ["460108", "美兰区", "460100"],
                                          ["46010", "短", ""], ["460109", "无父", "469999"]])
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "regions", path)
    assert {(e.line, e.column) for e in info.value.row_errors} == {(5, "code"), (6, "parent")}
    good = write_csv(tmp_path / "g.csv", [["code", "name", "parent"], ["460000", "海南省", ""],
                                          ["460100", "海口市", "460000"], ["460108", "美兰区", "460100"]])
    assert run_import(db, admin, "regions", good).created == 3
    with db.session() as s:
        assert s.get(Region, "460108").level == 3
    renamed = write_csv(tmp_path / "n.csv", [["code", "name", "parent"], ["460108", "美兰区（新）", "460100"]])
    assert run_import(db, admin, "regions", renamed).updated == 1


# --- dry run, cancel, preview, permissions ------------------------------------------------------

def test_dry_run_writes_nothing(db, admin, world, tmp_path):
    path = write_csv(tmp_path / "racks.csv", [["site", "location", "name", "u_height", "status"],
                                             ["FZ1", "A1", "R03", "48", "planned"],
                                             ["FZ1", "A1", "R04", "", ""]])
    before = table_counts(db)
    result = run_import(db, admin, "racks", path, dry_run=True)
    assert result.dry_run and result.created == 2 and "would import" in result.summary()
    assert table_counts(db) == before
    assert run_import(db, admin, "racks", path).created == 2


def test_dry_run_reports_bad_rows_too(db, admin, world, tmp_path):
    path = write_csv(tmp_path / "racks.csv", [["site", "location", "name", "u_height"],
                                             ["FZ1", "A1", "R01", "80"]])
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "racks", path, dry_run=True)
    assert info.value.row_errors[0].line == 2 and info.value.row_errors[0].column == "u_height"
    assert table_counts(db) == before


def test_cancel_rolls_back(db, admin, world, tmp_path):
    rows = [["site", "location", "name"]] + [["FZ1", "A1", f"C{i:02d}"] for i in range(10)]
    path = write_csv(tmp_path / "racks.csv", rows)
    before = table_counts(db)
    calls = []
    result = run_import(db, admin, "racks", path, progress=lambda d, t: calls.append(d),
                        cancelled=lambda: len(calls) >= 4)
    assert result.cancelled and calls == [1, 2, 3, 4]
    assert table_counts(db) == before


def test_preview_lists_rows_and_problems_without_writing(db, admin, world, tmp_path):
    path = write_csv(tmp_path / "racks.csv", [["site", "location", "name", "tenant"],
                                             ["FZ1", "A1", "R05", ""], ["FZ9", "A1", "R06", ""],
                                             ["FZ1", "A1", "R07", "nobody"]])
    before = table_counts(db)
    preview = preview_import(db, "racks", path)
    assert [r.line for r in preview.rows] == [2, 3, 4]
    assert preview.rows[0].values["name"] == "R05"
    assert [(e.line, e.column) for e in preview.errors] == [(3, "site"), (4, "tenant")]
    assert not preview.ok
    assert table_counts(db) == before


def test_auditor_may_export_but_not_import(db, admin, auditor, world, tmp_path):
    out = tmp_path / "gpus.xlsx"
    result = run_export(db, auditor, "gpus", out)
    assert result.rows == 1 and result.format == "xlsx"
    with db.session() as s:
        ev = s.execute(select(AuditEvent).order_by(AuditEvent.seq.desc())).scalars().first()
        assert (ev.action, ev.actor_login, ev.object_type) == ("export", "audit", "gpu")
        assert '"format":"xlsx"' in ev.after and '"rows":1' in ev.after
    before = table_counts(db)
    with pytest.raises(PermissionDenied):
        run_import(db, auditor, "gpus", out)
    assert table_counts(db) == before


def test_operator_may_not_import_customers(db, operator, world, tmp_path):
    path = write_csv(tmp_path / "c.csv", [["name", "credit_code"], ["x", CUSTOMER_CODE]])
    with pytest.raises(PermissionDenied):
        run_import(db, operator, "customers", path)


# --- export-only kinds and streaming -------------------------------------------------------------

@pytest.mark.parametrize("kind", ["audit"])
def test_export_only_kinds(db, admin, world, tmp_path, kind):
    out = tmp_path / f"{kind}.csv"
    result = run_export(db, admin, kind, out, "csv")
    with open(out, encoding="utf-8-sig", newline="") as f:
        data = list(csv.reader(f))
    assert data[0] == list(COLUMNS[kind])
    assert len(data) - 1 == result.rows
    if kind == "audit":
        assert result.rows > 10 and data[1][0] == "1" and data[1][1].endswith("Z")
    if kind in KINDS:
        pytest.fail("export-only kinds are not importable")


def test_export_only_kind_cannot_be_imported(db, admin, tmp_path):
    path = write_csv(tmp_path / "audit.csv", [["seq"], ["1"]])
    with pytest.raises(ValidationError):
        run_import(db, admin, "audit", path)


def test_users_export_in_shanghai_time_and_import_without_passwords(db, admin, tmp_path):
    from zoneinfo import ZoneInfo

    from app.domain.errors import AuthenticationFailed
    from app.services.users import login
    from models import User

    out = tmp_path / "users.csv"
    run_export(db, admin, "users", out)
    with open(out, encoding="utf-8-sig", newline="") as f:
        data = list(csv.reader(f))
    assert data[0] == ["login", "display_name", "role", "active", "created_at (Asia/Shanghai)"]
    with db.session() as s:
        created = s.execute(select(User.created_at).where(User.login == "admin")).scalar_one()
    assert data[1][4] == created.astimezone(ZoneInfo("Asia/Shanghai")).strftime("%Y-%m-%d %H:%M:%S")
    path = write_csv(tmp_path / "new.csv", [
        ["login", "display_name", "role", "active", "created_at (Asia/Shanghai)", "password"],
        ["wanglei", "王磊", "Operator", "true", "2024-03-01 09:30:00", "secret-123"],
        ["admin", "管理员", "admin", "true", "", ""]])
    result = run_import(db, admin, "users", path)
    assert (result.created, result.unchanged) == (1, 1)
    assert "password ignored" in result.summary() and "wanglei: imported without a password" in result.summary()
    with db.session() as s:
        user = s.execute(select(User).where(User.login == "wanglei")).scalar_one()
        assert (user.role, user.display_name) == ("operator", "王磊")
        assert user.created_at == dt.datetime(2024, 3, 1, 1, 30, tzinfo=dt.timezone.utc)
    with pytest.raises(AuthenticationFailed):
        login(db, "wanglei", "secret-123")


def test_statements_export_needs_the_billing_hook(db, admin, tmp_path):
    try:
        from app.services.billing import export_statements_rows  # noqa: F401
    except ImportError:
        with pytest.raises(NotFound, match="export_statements_rows"):
            run_export(db, admin, "statements", tmp_path / "s.csv")
        assert not (tmp_path / "s.csv").exists()
    else:
        result = run_export(db, admin, "statements", tmp_path / "s.csv")
        assert result.rows >= 0


def test_export_filter_text(db, admin, world, tmp_path):
    result = run_export(db, admin, "racks", tmp_path / "r.csv", filter_text="r02")
    assert result.rows == 1


def test_write_export_streams_many_rows_to_xlsx_and_csv(tmp_path):
    def rows():
        for i in range(5000):
            yield [f"S{i:06d}", Decimal("1.50"), dt.date(2025, 1, 1), None, "=cmd()"]
    n = write_export(["serial", "cost", "date", "none", "text"], rows(), tmp_path / "big.xlsx", "xlsx")
    assert n == 5000
    from openpyxl import load_workbook

    wb = load_workbook(tmp_path / "big.xlsx", read_only=True)
    ws = wb.worksheets[0]
    last = list(ws.iter_rows(min_row=5001, max_row=5001, values_only=True))[0]
    assert last[0] == "S004999" and last[4] == "'=cmd()"  # text, not a formula (OWASP CSV injection)
    wb.close()
    assert write_export(["a"], ([i] for i in range(3)), tmp_path / "x.csv") == 3
    assert (tmp_path / "x.csv").read_bytes().startswith(b"\xef\xbb\xbfa\r\n0")


def test_kind_lists_are_consistent():
    assert set(KINDS) < set(EXPORT_KINDS)
    assert set(COLUMNS) >= set(EXPORT_KINDS) - {"statements", "payments"}


def test_gpu_import_installs_and_refuses_state_changes(db, admin, world, tmp_path):
    model = gpu_model_name(db)
    path = write_csv(tmp_path / "g.csv", [["serial", "model", "state", "device", "slot"],
                                         ["G-0002", model, "received", "existing-01", "2"]])
    assert run_import(db, admin, "gpus", path).created == 1
    with db.session() as s:
        g = s.execute(select(GpuAsset).where(GpuAsset.serial == "G-0002")).scalar_one()
        assert (g.device_id, g.slot, g.state) == (world["device"], 2, "received")
    moved = write_csv(tmp_path / "m.csv", [["serial", "model", "state", "device", "slot"],
                                          ["G-0002", model, "received", "", ""],
                                          ["G-0001", model, "burn_in", "existing-01", "1"]])
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "gpus", moved)
    assert [(e.line, e.column) for e in info.value.row_errors] == [(3, "state")]


def test_gpus_import_in_their_current_state_as_a_migration(db, admin, world, tmp_path):
    from models import GpuHistory

    model = gpu_model_name(db)
    path = write_csv(tmp_path / "g.csv", [
        ["serial", "model", "state", "device", "slot", "tenant"],
        ["G-0101", model, "available", "existing-01", "2", ""],
        ["G-0102", model, "leased", "existing-01", "3", "福州云算科技有限公司"],
        ["G-0103", model, "maintenance", "", "", ""],
        ["G-0104", model, "retired", "", "", ""],
    ])
    assert run_import(db, admin, "gpus", path).created == 4
    with db.session() as s:
        gpus = {g.serial: g for g in s.execute(select(GpuAsset)).scalars()}
        assert (gpus["G-0101"].state, gpus["G-0101"].slot) == ("available", 2)
        assert (gpus["G-0102"].state, gpus["G-0102"].customer_id) == ("leased", world["customer"])
        assert gpus["G-0103"].state == "maintenance" and gpus["G-0104"].state == "retired"
        history = s.execute(select(GpuHistory).where(GpuHistory.gpu_id == gpus["G-0103"].id)).scalars().all()
        assert [(h.from_state, h.to_state, h.reason) for h in history] == [(None, "maintenance",
                                                                             "imported as Maintenance")]
    # exported and imported again: unchanged
    out = tmp_path / "out.csv"
    run_export(db, admin, "gpus", out)
    again = run_import(db, admin, "gpus", out)
    assert (again.created, again.updated) == (0, 0)
    bad = write_csv(tmp_path / "bad.csv", [
        ["serial", "model", "state", "device", "slot", "tenant"],
        ["G-0201", model, "retired", "existing-01", "4", ""],       # 2: retired in a slot
        ["G-0202", model, "ordered", "existing-01", "4", ""],       # 3: ordered in a slot
        ["G-0203", model, "leased", "", "", ""],                    # 4: leased, in no server, no customer
        ["G-0204", model, "sold", "", "", ""],                      # 5: not a state
    ])
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "gpus", bad)
    got = {(e.line, e.column): e.reason for e in info.value.row_errors}
    assert set(got) == {(2, "state"), (3, "state"), (4, "state"), (5, "state")}
    assert "'sold'" in got[5, "state"]
    assert table_counts(db) == before


def test_xlsx_continues_on_a_new_sheet_past_the_row_limit(tmp_path, monkeypatch):
    from app.importexport import schema
    from openpyxl import load_workbook

    monkeypatch.setattr(schema, "XLSX_MAX_ROWS", 4)  # 3 data rows per sheet
    n = write_export(["seq"], ([i] for i in range(7)), tmp_path / "a.xlsx", "xlsx", sheet="audit")
    assert n == 7
    wb = load_workbook(tmp_path / "a.xlsx", read_only=True)
    assert wb.sheetnames == ["audit", "audit (2)", "audit (3)"]
    assert [list(ws.iter_rows(values_only=True)) for ws in wb.worksheets][2] == [("seq",), (6,)]
    wb.close()


def test_device_export_writes_whole_units_plainly(db, admin, world, tmp_path):
    run_export(db, admin, "devices", tmp_path / "d.csv")
    with open(tmp_path / "d.csv", encoding="utf-8-sig", newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["name"] == "existing-01")
    assert (row["site"], row["location"], row["rack"], row["position"], row["face"]) == ("FZ1", "A1", "R01", "10",
                                                                                        "front")
    assert row["tenant"] == "福州云算科技有限公司"


def test_preview_shows_rule_problems_like_overlaps_without_writing(db, admin, auditor, world, tmp_path):
    path = write_csv(tmp_path / "devices.csv", [
        ["name", "device_type", "site", "location", "rack", "position"],
        ["a", "acme-2u", "FZ1", "A1", "R01", "1"],
        ["b", "acme-2u", "FZ1", "A1", "R01", "2"],      # overlaps line 2
        ["c", "acme-2u", "FZ1", "A1", "R01", "11"],     # overlaps existing-01
    ])
    before = table_counts(db)
    preview = preview_import(db, "devices", path)
    assert [(e.line, e.column) for e in preview.errors] == [(3, "position"), (4, "position")]
    assert [r.values["name"] for r in preview.rows] == ["a", "b", "c"]
    shape_only = preview_import(db, "devices", path, rules=False)
    assert shape_only.errors == []
    with pytest.raises(PermissionDenied):
        preview_import(db, "devices", path, auditor)
    assert table_counts(db) == before


# --- OWASP CSV injection ------------------------------------------------------------------------

FORMULA_NAME = '=HYPERLINK("http://evil.example/x","点我")'


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_export_neutralises_formula_text_and_keeps_numbers(db, admin, world, tmp_path, fmt):
    from app.services.common import update_record

    update_record(db, admin, "customer", world["customer"], {"name": FORMULA_NAME, "address": "@SUM(A1)"})
    out = tmp_path / f"customers.{fmt}"
    run_export(db, admin, "customers", out)
    if fmt == "csv":
        with open(out, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
        cells = dict(zip(rows[0], rows[1]))
        assert cells["name"] == "'" + FORMULA_NAME and cells["address"] == "'@SUM(A1)"
    else:
        from openpyxl import load_workbook

        ws = load_workbook(out).worksheets[0]
        header = [c.value for c in ws[1]]
        row = {h: c for h, c in zip(header, ws[2])}
        assert row["name"].value == "'" + FORMULA_NAME and row["name"].data_type == "s"
        assert row["address"].value == "'@SUM(A1)"
    # numbers stay numbers
    racks = tmp_path / f"racks.{fmt}"
    run_export(db, admin, "racks", racks)
    if fmt == "xlsx":
        from openpyxl import load_workbook

        ws = load_workbook(racks).worksheets[0]
        header = [c.value for c in ws[1]]
        assert isinstance(ws.cell(2, header.index("u_height") + 1).value, (int, float))
    # and the import reads back exactly what was exported: nothing changes
    result = run_import(db, admin, "customers", out)
    assert (result.updated, result.created) == (0, 0)
    with db.session() as s:
        assert s.get(Customer, world["customer"]).name == FORMULA_NAME


def test_neutralise_cell_cases():
    from app.importexport import unneutralise, neutralise_cell

    for text in ("=1+1", "+86 10 1234 5678", "-2+3", "@x", "\t=1", "\r=1", "'=x"):
        assert neutralise_cell(text) == "'" + text
        assert unneutralise(neutralise_cell(text)) == text
    for value in ("plain", "-1,234.50", "+5", "42%", -3, Decimal("-1.5"), None, "", "'quoted"):
        assert neutralise_cell(value) == value


# --- values no column can hold: every bad row listed, on both backends ------------------------------

LONG = "长" * 300
NUL = "bad\x00name"


def _all_bad_lines_listed(db, admin, kind, path, expected: set[tuple[int, str | None]], good_lines=()):
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, kind, path)
    got = {(e.line, e.column) for e in info.value.row_errors}
    assert expected <= got, (expected - got, info.value.message)
    assert not {e.line for e in info.value.row_errors} & set(good_lines), info.value.message
    assert table_counts(db) == before
    return info.value


def test_unstorable_values_in_sites_and_racks(db, admin, world, tmp_path):
    sites = write_csv(tmp_path / "sites.csv", [
        ["code", "name", "subsidiary", "region", "latitude", "power_capacity_kw"],
        ["S1", "一号", "FZ", "350102", "", "1e400"],          # 2: too large
        ["S2", "二号", "FZ", "350102", "Infinity", ""],       # 3: not finite
        ["S3", LONG, "FZ", "350102", "", ""],                 # 4: longer than the column
        ["S4", NUL, "FZ", "350102", "", "NaN"],               # 5: NUL and NaN
        ["S5", "五号", "FZ", "350102", "26.07", "100"],        # 6: fine
    ])
    _all_bad_lines_listed(db, admin, "sites", sites, {(2, "power_capacity_kw"), (3, "latitude"), (4, "name"),
                                                      (5, "name"), (5, "power_capacity_kw")}, good_lines=[6])
    racks = write_csv(tmp_path / "racks.csv", [
        ["site", "location", "name", "power_capacity_kw", "asset_tag"],
        ["FZ1", "A1", "R10", "-Infinity", ""],
        ["FZ1", "A1", "R11", "1e400", ""],
        ["FZ1", "A1", "R12", "5", LONG],
        ["FZ1", "A1", "R13", "5", ""],
    ])
    _all_bad_lines_listed(db, admin, "racks", racks, {(2, "power_capacity_kw"), (3, "power_capacity_kw"),
                                                      (4, "asset_tag")}, good_lines=[5])


def test_unstorable_values_in_devices_gpus_customers(db, admin, world, tmp_path):
    devices = write_csv(tmp_path / "devices.csv", [
        ["name", "device_type", "site", "location", "rack", "position", "face", "serial"],
        ["d-1", "acme-2u", "FZ1", "A1", "R02", "Infinity", "front", ""],
        ["d-2", "acme-2u", "FZ1", "A1", "R02", "1e400", "front", ""],
        [NUL, "acme-2u", "", "", "", "", "", ""],
        ["d-4", "acme-2u", "", "", "", "", "", LONG],
        ["d-5", "acme-2u", "FZ1", "A1", "R02", "20", "front", "SN-5"],
    ])
    _all_bad_lines_listed(db, admin, "devices", devices, {(2, "position"), (3, "position"), (4, "name"),
                                                          (5, "serial")}, good_lines=[6])
    model = gpu_model_name(db)
    gpus = write_csv(tmp_path / "gpus.csv", [
        ["serial", "model", "purchase_date", "purchase_cost", "depreciation_months"],
        ["X-1", model, "", "1e400", ""],
        ["X-2", model, "", "Infinity", ""],
        ["X-3", model, "2026-01-01garbage", "", ""],
        ["X-4", model, "", "", "99999999999"],
        ["X-5", model, "", "NaN", ""],
        ["X-6", model, "2026-01-01", "100", "36"],
    ])
    _all_bad_lines_listed(db, admin, "gpus", gpus, {(2, "purchase_cost"), (3, "purchase_cost"), (4, "purchase_date"),
                                                    (5, "depreciation_months"), (6, "purchase_cost")}, good_lines=[7])
    customers = write_csv(tmp_path / "customers.csv", [
        ["name", "credit_code", "address", "contact_name"],
        [LONG, make_uscc("91350100575XY12B3"), "", ""],
        ["好客户", make_uscc("91350100575XY12C3"), NUL, ""],
        ["好客户二", make_uscc("91350100575XY12D3"), "", LONG],
        ["好客户三", make_uscc("91350100575XY12E3"), "福州", "张三"],
    ])
    _all_bad_lines_listed(db, admin, "customers", customers, {(2, "name"), (3, "address"), (4, "contact_name")},
                          good_lines=[5])


def test_unstorable_values_in_device_types_and_regions(db, admin, world, tmp_path):
    types = write_csv(tmp_path / "types.csv", [
        ["manufacturer", "model", "slug", "u_height", "weight_kg", "max_power_w"],
        ["Acme", "a", "acme-a", "1", "Infinity", ""],
        ["Acme", "b", "acme-b", "1", "", "1000000000000000000000000000000"],
        ["Acme", LONG, "acme-c", "1", "", ""],
        ["Acme", "d", "acme-d", "1e400", "", ""],
        ["Acme", "e", "acme-e", "1", "10", "500"],
    ])
    _all_bad_lines_listed(db, admin, "device-types", types, {(2, "weight_kg"), (3, "max_power_w"), (4, "model"),
                                                             (5, "u_height")}, good_lines=[6])
    folder = tmp_path / "yaml"
    folder.mkdir()
    (folder / "huge.yaml").write_text("manufacturer: Acme\nmodel: Huge\nslug: acme-huge\nu_height: 1\n"
                                      "is_full_depth: true\npower-ports:\n  - name: PSU1\n"
                                      "    maximum_draw: " + str(10 ** 30) + "\n")
    (folder / "fine.yaml").write_text("manufacturer: Acme\nmodel: Fine\nslug: acme-fine\nu_height: 1\n"
                                      "is_full_depth: true\n")
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "device-types", folder)
    assert {e.file for e in info.value.row_errors} == {"huge.yaml"}
    assert "maximum_draw" in info.value.message  # refused as a row error (no power supply draws 10**30 W)
    assert table_counts(db) == before
    regions = write_csv(tmp_path / "regions.csv", [["code", "name", "parent"],
                                                   ["350103", NUL, "350100"], ["350104", "台江区", "350100"]])
    _all_bad_lines_listed(db, admin, "regions", regions, {(2, "name")}, good_lines=[3])


def test_dates_are_parsed_strictly(db, admin, world, tmp_path):
    model = gpu_model_name(db)
    path = write_csv(tmp_path / "gpus.csv", [
        ["serial", "model", "purchase_date", "warranty_end"],
        ["D-1", model, "2026-01-01garbage", ""], ["D-2", model, "", "2026-01-0"], ["D-3", model, "2026/02/30", ""],
        ["D-4", model, "2026/3/1", "2029-03-01"]])
    _all_bad_lines_listed(db, admin, "gpus", path, {(2, "purchase_date"), (3, "warranty_end"), (4, "purchase_date")},
                          good_lines=[5])


@pytest.mark.parametrize("field,value", [("purchase_cost", "1e400"), ("purchase_cost", "Infinity"),
                                         ("purchase_cost", Decimal("NaN")), ("purchase_cost", float("inf")),
                                         ("serial", LONG), ("serial", NUL), ("depreciation_months", 10 ** 30),
                                         ("purchase_date", "2026-01-01garbage")])
def test_services_refuse_unstorable_values(db, admin, world, field, value):
    from models import GpuModel

    with db.session() as s:
        model_id = s.execute(select(GpuModel.id).limit(1)).scalar_one()
    before = table_counts(db)
    values = {"serial": "SV-1", "gpu_model_id": model_id, field: value}
    with pytest.raises(ValidationError) as info:
        create_record(db, admin, "gpu", values)
    assert field in info.value.errors
    from app.services.common import update_record

    with pytest.raises(ValidationError):
        update_record(db, admin, "site", world["site"], {"latitude": value} if field == "purchase_cost"
                      else {"name": value} if field == "serial" else {"power_capacity_kw": 10 ** 30})
    with pytest.raises(ValidationError):
        place_device(db, admin, {"name": "nan-dev", "device_type_id": world["t2u"], "rack_id": world["racks"]["R02"],
                                 "position": Decimal("NaN"), "face": "front"})
    assert table_counts(db) == before


# --- contracts, contacts and money in XLSX (issue 14, full round trip) ----------------------------

CONTRACT_HEAD = ["number", "subsidiary", "credit_code", "status", "start_date", "end_date", "item_kind",
                 "item_description", "rack", "gpus", "quantity", "unit_price", "price_unit", "handover_at"]


def test_contracts_import_in_their_state_with_items(db, admin, world, tmp_path):
    from models import Contract, DocumentCounter, GpuLease

    path = write_csv(tmp_path / "contracts.csv", [
        CONTRACT_HEAD,
        ["FZ-2025-0007", "FZ", CUSTOMER_CODE, "active", "2025-01-01", "2026-12-31", "rack", "机柜 R02", "FZ1/A1/R02",
         "", "1", "6800", "month", "2025-01-01 08:00:00"],
        ["FZ-2025-0007", "FZ", CUSTOMER_CODE, "active", "2025-01-01", "2026-12-31", "gpu", "H100 租用", "",
         "G-0001", "1", "12.5", "gpu_hour", ""],
    ])
    result = run_import(db, admin, "contracts", path)
    assert (result.rows, result.created) == (2, 2)
    with db.session() as s:
        c = s.execute(select(Contract).where(Contract.number == "FZ-2025-0007")).scalar_one()
        assert (c.status, c.customer_id, len(c.items)) == ("active", world["customer"], 2)
        assert c.items[0].rack_id == world["racks"]["R02"]
        assert c.items[0].handover_at == dt.datetime(2025, 1, 1, 0, 0, tzinfo=dt.timezone.utc)  # 08:00 Shanghai
        assert len(s.execute(select(GpuLease).where(GpuLease.contract_item_id == c.items[1].id)).all()) == 1
        counter = s.get(DocumentCounter, (c.subsidiary_id, "contract", "2025"))
        assert counter.last_value == 7  # the next new FZ contract of 2025 is 0008
    out = tmp_path / "out.csv"
    run_export(db, admin, "contracts", out)
    again = run_import(db, admin, "contracts", out)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 2)


def test_bad_contract_rows_all_listed(db, admin, world, tmp_path):
    path = write_csv(tmp_path / "contracts.csv", [
        CONTRACT_HEAD,
        ["FZ-2025-0001", "FZ", CUSTOMER_CODE, "signed", "2025-01-01", "2026-12-31", "rack", "x", "FZ1/A1/R02", "",
         "1", "1", "month", ""],                                                     # 2: status
        ["FZ-2025-0002", "FZ", CUSTOMER_CODE, "active", "2025-01-01", "2026-12-31", "rack", "x", "FZ1/A1/R99", "",
         "1", "1", "month", ""],                                                     # 3: rack
        ["FZ-2025-0003", "FZ", CUSTOMER_CODE, "active", "2025-01-01", "2026-12-31", "gpu", "x", "", "G-404", "1",
         "1", "gpu_hour", ""],                                                       # 4: GPU serial
        ["FZ-2025-0004", "FZ", CUSTOMER_CODE, "active", "2025-01-01", "2026-12-31", "rack", "x", "FZ1/A1/R02", "",
         "1", "1", "gpu_hour", ""],                                                  # 5: price unit
    ])
    before = table_counts(db)
    with pytest.raises(ImportFailed) as info:
        run_import(db, admin, "contracts", path)
    got = {(e.line, e.column): e.reason for e in info.value.row_errors}
    assert set(got) == {(2, "status"), (3, "rack"), (4, "gpus"), (5, "price_unit")}
    assert "'signed'" in got[2, "status"] and "'G-404'" in got[4, "gpus"]
    assert table_counts(db) == before


def test_every_contact_exported_and_money_formatted_in_xlsx(db, admin, world, tmp_path):
    from openpyxl import load_workbook

    path = write_csv(tmp_path / "c.csv", [
        ["name", "credit_code", "contact_name", "contact_phone"],
        ["福州云算科技有限公司", CUSTOMER_CODE, "张三", "13800000001"],
        ["福州云算科技有限公司", CUSTOMER_CODE, "李四", "13800000002"]])
    assert run_import(db, admin, "customers", path).rows == 2
    out = tmp_path / "customers.csv"
    run_export(db, admin, "customers", out)
    with open(out, encoding="utf-8-sig", newline="") as f:
        data = list(csv.reader(f))
    assert [row[6] for row in data[1:]] == ["张三", "李四"]
    again = run_import(db, admin, "customers", out)
    assert (again.created, again.updated) == (0, 0)
    xlsx = tmp_path / "gpus.xlsx"
    run_export(db, admin, "gpus", xlsx)
    ws = load_workbook(xlsx).worksheets[0]
    col = [c.value for c in ws[1]].index("purchase_cost")
    cell = ws.cell(row=2, column=col + 1)
    assert cell.value == 215000 and cell.number_format == "#,##0.00##"


def test_an_empty_export_imports_back_as_nothing(db, admin, tmp_path, capsys, monkeypatch):
    """A scripted migration exports every kind and imports it back; an empty kind must not stop it: its
    file (a header, no rows; or no header at all) imports nothing and the command exits 0."""
    from app.cli.main import main
    from app.importexport import run_export
    url = db.engine.url.render_as_string(hide_password=False)
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", "correct-horse-1")
    before = table_counts(db)
    for kind, fmt in (("gpus", "csv"), ("contracts", "csv"), ("cables", "csv"), ("racks", "xlsx")):
        path = tmp_path / f"{kind}.{fmt}"
        assert run_export(db, admin, kind, path).rows == 0
        capsys.readouterr()
        assert main(["--db", url, "--user", "admin", "import", kind, str(path)]) == 0, capsys.readouterr().err
        out = capsys.readouterr().out
        assert "0 new" in out and "no rows: nothing to import" in out
    blank = tmp_path / "blank.csv"
    blank.write_bytes(b"")
    result = run_import(db, admin, "sites", blank)
    assert (result.rows, result.created) == (0, 0)
    after = table_counts(db)
    assert {k: v for k, v in after.items() if k not in ("audit_event", "_head")} == \
        {k: v for k, v in before.items() if k not in ("audit_event", "_head")}

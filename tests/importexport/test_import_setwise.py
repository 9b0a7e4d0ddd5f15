"""GPUs checked and written set-wise (issue 16): the services' set-wise rules refuse exactly what their
row-by-row rules refuse, with the same messages, write nothing for a refused row, and leave the same
records and audit events; an import through them lists the same bad rows as row by row."""
from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path

import pytest
from sqlalchemy import select, text

from app.audit.trail import verify_audit_chain
from app.domain.errors import DomainError
from app.importexport import BULK_WRITE, ImportFailed, run_import
from app.services.common import create_in, create_many_in, create_record
from app.services.dcim import place_device
from app.services.gpus import GpuToImport, import_gpu_in, import_gpus_in
from app.store.uow import UnitOfWork
from models import AuditEvent, GpuAsset, GpuHistory, GpuModel
from app.domain.validators import make_uscc
from tests.conftest import table_counts
from tests.support.kept import gpu_counts_are_the_gpus


@pytest.fixture
def fleet(db, admin):
    """Two GPU models, a 4-slot server that takes any model (GPU OLD-1 in slot 1), a 2-slot server for
    the second model only, and a customer."""
    with db.session() as s:
        first, second = s.execute(select(GpuModel.id, GpuModel.name).order_by(GpuModel.id).limit(2)).all()
    any_model = create_record(db, admin, "device_type", {"manufacturer": "Acme", "model": "4 GPU", "slug": "acme-4g",
                                                         "u_height": 2, "gpu_slots": 4})
    only_second = create_record(db, admin, "device_type", {"manufacturer": "Acme", "model": "2 GPU",
                                                           "slug": "acme-2g", "u_height": 2, "gpu_slots": 2,
                                                           "gpu_model_id": second.id})
    srv4 = place_device(db, admin, {"name": "srv-4", "device_type_id": any_model})
    srv2 = place_device(db, admin, {"name": "srv-2", "device_type_id": only_second})
    customer = create_record(db, admin, "customer", {"name": "福州云算科技有限公司",
                                                     "credit_code": make_uscc("91350100575XY12A3")})
    with UnitOfWork(db, admin) as uow:
        import_gpu_in(uow, {"serial": "OLD-1", "gpu_model_id": first.id}, "available", srv4, 1)
        uow.commit()
    return {"first": first, "second": second, "srv4": srv4, "srv2": srv2, "customer": customer}


def _refusal(exc: Exception) -> tuple:
    return (type(exc).__name__, getattr(exc, "errors", None) or str(exc))


def one_by_one(db, actor, call) -> list:
    """Each call in its own unit of work, rolled back: what the row-by-row rule answers."""
    out = []
    for c in call:
        with UnitOfWork(db, actor) as uow:
            try:
                c(uow)
                out.append("ok")
            except DomainError as exc:
                out.append(_refusal(exc))
            uow.rollback()
    return out


def test_create_many_refuses_what_create_in_refuses_and_writes_the_rest(db, admin, fleet):
    m = fleet["first"].id
    rows = [
        {"serial": "N-1", "gpu_model_id": m, "purchase_cost": "100.50"},
        {"serial": "OLD-1", "gpu_model_id": m},                         # in the fleet
        {"serial": "N-3", "gpu_model_id": 999_999},                     # no such model
        {"serial": "N-4", "gpu_model_id": m, "purchase_cost": "-1"},    # negative
        {"serial": "N-5", "gpu_model_id": m, "state": "leased"},        # not where a GPU starts
        {"serial": " ", "gpu_model_id": m},                             # no serial
        {"serial": "N-7", "gpu_model_id": m, "depreciation_months": "x"},
        {"serial": "N-8", "gpu_model_id": m, "purchase_cost": "1e20"},  # does not fit the column
        {"serial": "N-9", "gpu_model_id": m, "state": "received"},
    ]
    expected = one_by_one(db, admin, [lambda uow, v=v: create_in(uow, "gpu", v) for v in rows])
    before = table_counts(db)
    with UnitOfWork(db, admin) as uow:
        got = create_many_in(uow, "gpu", rows)
        uow.rollback()
    assert table_counts(db) == before
    assert [_refusal(r) if isinstance(r, Exception) else "ok" for r in got] == expected
    assert expected[0] == expected[8] == "ok" and expected.count("ok") == 2
    gpu_counts_are_the_gpus(db)   # the GPUs per server followed (device_gpu_count)


def test_a_serial_twice_in_one_call_is_refused_on_its_second_row(db, admin, fleet):
    m = fleet["first"].id
    with UnitOfWork(db, admin) as uow:
        first, second = create_many_in(uow, "gpu", [{"serial": "T-1", "gpu_model_id": m},
                                                    {"serial": "T-1", "gpu_model_id": m}])
        assert isinstance(first, int)
        assert second.errors == {"serial": "serial T-1 is already in the fleet"}


def test_records_and_events_are_those_of_create_in(db, admin, fleet):
    """Same columns stored and the same create event (but for id and serial), and each event names its
    own GPU: the ids handed out for a multi-row insert match the rows."""
    m = fleet["first"].id
    values = {"gpu_model_id": m, "purchase_cost": "1234.5", "purchase_date": dt.date(2026, 1, 15)}
    with UnitOfWork(db, admin) as uow:
        create_in(uow, "gpu", {**values, "serial": "ONE"})
        ids = create_many_in(uow, "gpu", [{**values, "serial": f"MANY-{i}"} for i in range(5)],
                             reasons=[None] * 4 + ["why"])
        uow.commit()
    with db.session() as s:
        gpus = {g.serial: g for g in s.execute(select(GpuAsset).where(GpuAsset.serial.in_(
            ["ONE"] + [f"MANY-{i}" for i in range(5)]))).scalars()}
        events = {e.object_label: e for e in s.execute(select(AuditEvent).where(AuditEvent.action == "gpu.create"))
                  .scalars()}
        assert verify_audit_chain(s).ok

    def same(g):
        return {k: getattr(g, k) for k in ("gpu_model_id", "purchase_cost", "purchase_date", "state",
                                           "depreciation_months", "device_id", "slot", "version", "updated_by")}

    def after(serial):
        a = json.loads(events[serial].after)
        assert a.pop("id") == gpus[serial].id == int(events[serial].object_id)
        assert a.pop("serial") == serial
        return a

    for i in range(5):
        serial = f"MANY-{i}"
        assert ids[i] == gpus[serial].id
        assert same(gpus[serial]) == same(gpus["ONE"])
        assert after(serial) == after("ONE")
    assert events["MANY-4"].reason == "why" and events["MANY-0"].reason is None


def test_import_gpus_applies_the_state_and_slot_rules_of_import_gpu_in(db, admin, fleet):
    first, second = fleet["first"].id, fleet["second"].id
    srv4, srv2, cust = fleet["srv4"], fleet["srv2"], fleet["customer"]
    gpus = [
        GpuToImport({"serial": "S-1", "gpu_model_id": first}, "available", srv4, 2),
        GpuToImport({"serial": "S-2", "gpu_model_id": first}, "available", srv4, 2),   # taken by S-1
        GpuToImport({"serial": "S-3", "gpu_model_id": first}, "available", srv4, 1),   # taken by OLD-1
        GpuToImport({"serial": "S-4", "gpu_model_id": first}, "available", srv2, 1),   # takes the other model
        GpuToImport({"serial": "S-5", "gpu_model_id": second}, "available", srv2, 3),  # no slot 3
        GpuToImport({"serial": "S-6", "gpu_model_id": second}, "ordered", srv2, 1),    # ordered in a slot
        GpuToImport({"serial": "S-7", "gpu_model_id": second}, "leased", srv2, 1),     # no customer
        GpuToImport({"serial": "S-8", "gpu_model_id": second}, "leased", srv2, 1, cust),
        GpuToImport({"serial": "S-9", "gpu_model_id": first}, "retired"),
        GpuToImport({"serial": "S-10", "gpu_model_id": first}, "retired", srv4, 3),    # retired in a slot
        GpuToImport({"serial": "OLD-1", "gpu_model_id": first}, "received"),           # in the fleet
        GpuToImport({"serial": "S-12", "gpu_model_id": 999_999}, "received", srv4, 3),  # no such model
        GpuToImport({"serial": "S-13", "gpu_model_id": first}, "sold"),                # not a state
        GpuToImport({"serial": "S-14", "gpu_model_id": first}, "available", 999_999, 1),  # no such device
    ]

    def one(g):  # the row-by-row use case, seeing the GPUs before it that it accepted
        return lambda uow: import_gpu_in(uow, dict(g.values), g.state, g.device_id, g.slot, g.customer_id)

    expected = []
    with UnitOfWork(db, admin) as uow:
        # pysqlite begins a transaction at the first write: begin it, or releasing the first SAVEPOINT commits
        uow.session.execute(text("UPDATE audit_head SET seq = seq WHERE id = 1"))
        for g in gpus:
            savepoint = uow.session.begin_nested()
            try:
                one(g)(uow)
                savepoint.commit()
                expected.append("ok")
            except DomainError as exc:
                savepoint.rollback()
                expected.append(_refusal(exc))
        uow.rollback()
    before = table_counts(db)
    with UnitOfWork(db, admin) as uow:
        got = import_gpus_in(uow, gpus)
        assert [_refusal(r) if isinstance(r, Exception) else "ok" for r in got] == expected
        uow.rollback()
    assert table_counts(db) == before
    assert [i for i, e in enumerate(expected) if e == "ok"] == [0, 7, 8]
    with UnitOfWork(db, admin) as uow:
        ids = import_gpus_in(uow, [gpus[i] for i in (0, 7, 8)])
        uow.commit()
    with db.session() as s:
        made = {g.serial: g for g in s.execute(select(GpuAsset).where(GpuAsset.id.in_(ids))).scalars()}
        assert {k: (g.state, g.device_id, g.slot, g.customer_id) for k, g in made.items()} == {
            "S-1": ("available", srv4, 2, None), "S-8": ("leased", srv2, 1, cust), "S-9": ("retired", None, None, None)}
        history = s.execute(select(GpuHistory.to_state, GpuHistory.reason).where(GpuHistory.gpu_id.in_(ids))
                            .order_by(GpuHistory.gpu_id)).all()
        assert [tuple(h) for h in history] == [("available", "imported as Available"), ("leased", "imported as Leased"),
                                               ("retired", "imported as Retired")]
        actions = s.execute(select(AuditEvent.object_label, AuditEvent.action).where(
            AuditEvent.object_id.in_([str(i) for i in ids]), AuditEvent.object_type == "gpu")).all()
        assert sorted(tuple(a) for a in actions) == sorted([
            ("S-1", "gpu.create"), ("S-1", "gpu.install"), ("S-1", "gpu.import"),
            ("S-8", "gpu.create"), ("S-8", "gpu.install"), ("S-8", "gpu.import"),
            ("S-9", "gpu.create"), ("S-9", "gpu.import")])
        assert verify_audit_chain(s).ok
    gpu_counts_are_the_gpus(db)   # the GPUs per server followed (device_gpu_count)


def _gpu_file(path: Path, rows: list[list]) -> Path:
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(["serial", "model", "state", "device", "slot", "purchase_cost", "tenant"])
        w.writerows(rows)
    return path


def test_an_import_lists_the_same_bad_rows_set_wise_as_row_by_row(db, admin, fleet, tmp_path, monkeypatch):
    first, second = fleet["first"].name, fleet["second"].name
    path = _gpu_file(tmp_path / "g.csv", [
        ["F-1", first, "available", "srv-4", "2", "", ""],        # 2 fine
        ["F-2", first, "available", "srv-4", "2", "", ""],        # 3 slot taken by line 2
        ["F-3", first, "", "", "", "-5", ""],                     # 4 negative cost
        ["OLD-1", first, "received", "", "", "", ""],             # 5 existing GPU, another state
        ["F-5", second, "leased", "srv-2", "1", "", ""],          # 6 leased without a tenant
        ["F-6", first, "", "", "", "", ""],                       # 7 fine
        ["F-6", first, "", "", "", "", ""],                       # 8 the same GPU again
        ["F-8", first, "available", "srv-2", "2", "", ""],        # 9 srv-2 takes the other model
        ["F-9", second, "leased", "srv-2", "2", "", "福州云算科技有限公司"],  # 10 fine
        ["OLD-1", first, "", "", "", "-1", ""],                    # 11 existing GPU, negative cost
        ["F-11", second, "", "", "", "", ""],                      # 12 fine
        ["OLD-1", first, "", "", "", "5.5", ""],                   # 13 existing GPU again
    ])
    before = table_counts(db)
    with pytest.raises(ImportFailed) as set_wise:
        run_import(db, admin, "gpus", path)
    assert table_counts(db) == before
    monkeypatch.delitem(BULK_WRITE, "gpus")  # the row-by-row path, as before issue 16
    with pytest.raises(ImportFailed) as row_by_row:
        run_import(db, admin, "gpus", path)
    assert table_counts(db) == before
    assert set_wise.value.row_errors == row_by_row.value.row_errors
    assert [e.line for e in set_wise.value.row_errors] == [3, 4, 5, 6, 8, 9, 11, 13]


def test_a_batch_of_mixed_rows_keeps_file_order_and_counts(db, admin, fleet, tmp_path):
    first = fleet["first"].name
    rows = [[f"M-{i}", first, "", "", "", "", ""] for i in range(3)]
    rows += [["OLD-1", first, "available", "srv-4", "1", "", ""]]          # existing, unchanged
    rows += [["M-4", first, "burn_in", "srv-4", "3", "", ""], ["M-5", first, "", "", "", "", ""]]
    result = run_import(db, admin, "gpus", _gpu_file(tmp_path / "g.csv", rows))
    assert (result.created, result.updated, result.unchanged) == (5, 0, 1)
    with db.session() as s:
        labels = s.execute(select(AuditEvent.object_label).where(AuditEvent.action == "gpu.create")
                           .order_by(AuditEvent.seq)).scalars().all()
        assert labels[-5:] == ["M-0", "M-1", "M-2", "M-4", "M-5"]
        assert verify_audit_chain(s).ok


def test_serial_lookups_leave_the_planner_as_they_found_it(db, admin, fleet):
    from app.services.gpus import gpus_by_serial

    with UnitOfWork(db, admin) as uow:
        s = uow.session
        create_many_in(uow, "gpu", [{"serial": f"L-{i:04d}", "gpu_model_id": fleet["first"].id} for i in range(1200)])
        wanted = {f"L-{i:04d}" for i in range(0, 1300, 7)} | {"OLD-1", "nope"}
        assert set(gpus_by_serial(s, wanted)) == {x for x in wanted if x == "OLD-1" or x < "L-1200"}
        if db.engine.dialect.name == "postgresql":
            assert s.execute(text("SELECT current_setting('enable_bitmapscan')")).scalar() == "on"
        uow.rollback()


def test_update_many_refuses_what_upsert_in_refuses_and_writes_only_changes(db, admin, fleet):
    from app.services.common import update_many_in, upsert_in

    m = fleet["first"].id
    with UnitOfWork(db, admin) as uow:
        create_many_in(uow, "gpu", [{"serial": f"U-{i}", "gpu_model_id": m, "purchase_cost": "10.00"} for i in range(5)])
        uow.commit()
    changes = [{"purchase_cost": "10.00"},              # unchanged
               {"purchase_cost": "11.00"},              # changed
               {"purchase_cost": "-1"},                 # refused
               {"serial": "OLD-1"},                     # another GPU's serial
               {"state": "leased"},                     # kept by the lifecycle moves
               {"serial": "U-1"}]                       # (for U-4) U-1's serial

    def items(s):
        gpus = {g.serial: g for g in s.execute(select(GpuAsset).where(GpuAsset.serial.like("U-%"))).scalars()}
        return [(gpus[f"U-{i}"], c) for i, c in enumerate(changes[:5])] + [(gpus["U-4"], changes[5])]

    expected = []
    for k in range(len(changes)):
        with UnitOfWork(db, admin) as uow:
            gpu, values = items(uow.session)[k]
            try:
                _obj, outcome = upsert_in(uow, "gpu", gpu, dict(values))
                expected.append(outcome)
            except DomainError as exc:
                expected.append(_refusal(exc))
            uow.rollback()
    before = table_counts(db)
    with UnitOfWork(db, admin) as uow:
        got = update_many_in(uow, "gpu", [(g, dict(v)) for g, v in items(uow.session)])
        assert [_refusal(r) if isinstance(r, Exception) else "unchanged" if r is None else "updated"
                for r in got] == expected
        assert expected[:2] == ["unchanged", "updated"] and expected.count("updated") == 1
        uow.commit()
    after = table_counts(db)
    assert after["audit_event"] == before["audit_event"] + 1 and after["gpu_asset"] == before["gpu_asset"]
    with db.session() as s:
        event = s.execute(select(AuditEvent).order_by(AuditEvent.seq.desc())).scalars().first()
        assert (event.action, event.object_label, json.loads(event.after)) == ("gpu.update", "U-1",
                                                                               {"purchase_cost": "11.00"})


def test_a_registered_kind_declares_its_set_wise_writer(monkeypatch):
    """register_kind takes a kind's set-wise writer with the rest of its declaration (one path)."""
    from app.importexport import schema
    from models import Site

    def write_many(uow, rows):
        return ["created" for _ in rows]
    for table in ("KINDS", "EXPORT_KINDS"):
        monkeypatch.setattr(schema, table, getattr(schema, table))
    for table in ("COLUMNS", "REQUIRED", "OBJECT_TYPE", "PERMISSION", "FIELD_COLUMN", "MODEL", "HANDLERS",
                  "BULK_WRITE"):
        monkeypatch.setattr(schema, table, dict(getattr(schema, table)))
    schema.register_kind(schema.ImportKind("bench-sites", ("code",), ("code",), "site", Site,
                                           lambda s, row: {}, lambda uow, row, v: "created",
                                           write_many=write_many))
    assert schema.BULK_WRITE["bench-sites"] is write_many


def test_updates_set_wise_leave_the_rows_and_events_of_the_per_row_rules(db, admin, fleet):
    """update_many_in (one UPDATE per set of changed fields) against upsert_in row by row (a flush per
    record) on two identical sets of GPUs: the same outcomes, the same stored rows (versions too) and
    the same update events, in order."""
    from app.services.common import update_many_in, upsert_in

    m, m2 = fleet["first"].id, fleet["second"].id
    base = {"gpu_model_id": m, "purchase_cost": "10.00", "purchase_date": dt.date(2026, 1, 5),
            "warranty_end": dt.date(2029, 1, 5), "depreciation_months": 36}
    with UnitOfWork(db, admin) as uow:
        create_many_in(uow, "gpu", [{**base, "serial": f"{side}-{i}"} for side in "AB" for i in range(8)])
        uow.commit()
    changes = [{"purchase_cost": "10.00"},                                    # unchanged
               {"purchase_cost": "11.50"},
               {"warranty_end": dt.date(2030, 6, 30)},
               {"purchase_cost": "12.00", "warranty_end": dt.date(2031, 1, 1)},
               {"purchase_cost": "-1"},                                       # refused
               {"gpu_model_id": m2, "depreciation_months": 48},
               {"purchase_cost": "11.50"},                                    # the same change as row 1
               {"purchase_date": None}]

    def gpus(s, side):
        found = {g.serial: g for g in s.execute(select(GpuAsset).where(GpuAsset.serial.like(f"{side}-%"))).scalars()}
        return [found[f"{side}-{i}"] for i in range(len(changes))]

    def outcome(r):
        return _refusal(r) if isinstance(r, Exception) else "unchanged" if r is None else "updated"

    seq = {}
    with db.session() as s:
        seq["start"] = s.execute(select(AuditEvent.seq).order_by(AuditEvent.seq.desc())).scalars().first()
    with UnitOfWork(db, admin) as uow:
        set_wise = [outcome(r) for r in update_many_in(uow, "gpu", list(zip(gpus(uow.session, "A"),
                                                                            [dict(c) for c in changes])))]
        uow.commit()
    with db.session() as s:
        seq["a"] = s.execute(select(AuditEvent.seq).order_by(AuditEvent.seq.desc())).scalars().first()
    per_row = []
    with UnitOfWork(db, admin) as uow:
        for gpu, values in zip(gpus(uow.session, "B"), changes):
            try:
                per_row.append(upsert_in(uow, "gpu", gpu, dict(values))[1])  # a flush_versioned each
            except DomainError as exc:
                per_row.append(_refusal(exc))
        uow.commit()
    assert set_wise == per_row
    assert set_wise.count("updated") == 6 and set_wise[0] == "unchanged" and set_wise[4][0] == "ValidationError"

    def rows(side):
        with db.session() as s:
            return [{c.key: getattr(g, c.key) for c in GpuAsset.__table__.columns
                     if c.key not in ("id", "serial", "updated_at")} for g in gpus(s, side)]

    assert rows("A") == rows("B")
    assert [r["version"] for r in rows("A")] == [1, 2, 2, 2, 1, 2, 2, 2]

    def events(lo, hi):
        with db.session() as s:
            found = s.execute(select(AuditEvent).where(AuditEvent.seq > lo, AuditEvent.seq <= hi)
                              .order_by(AuditEvent.seq)).scalars().all()
            return [(e.action, e.object_type, e.object_label[2:], json.loads(e.before or "null"),
                     json.loads(e.after or "null")) for e in found]

    with db.session() as s:
        seq["b"] = s.execute(select(AuditEvent.seq).order_by(AuditEvent.seq.desc())).scalars().first()
    set_wise_events = events(seq["start"], seq["a"])
    assert len(set_wise_events) == 6 and set_wise_events == events(seq["a"], seq["b"])
    with db.session() as s:
        assert verify_audit_chain(s).ok
    gpu_counts_are_the_gpus(db)   # the GPUs per server followed (device_gpu_count)



def test_new_gpus_of_mixed_states_go_in_one_run_per_kind_with_the_rows_of_row_by_row(db, admin, fleet, tmp_path,
                                                                                     monkeypatch):
    """A realistic file (no placements) mixes new GPUs with and without a state every row or two. Written a
    run per change of kind, 10,000 rows were 5,000 runs, each with its own checks and inserts (600 rows/s);
    now each kind of a batch is one run. The GPUs, their history and their events are those of the
    row-by-row path; only the order of ids within a batch differs."""
    from tests.support.statements import statements_sent
    first, second = fleet["first"].name, fleet["second"].name
    states = ["", "ordered", "received", "rma", "retired", "", "received", "ordered"]

    def write(prefix: str) -> Path:
        path = tmp_path / f"{prefix}.csv"
        with open(path, "w", encoding="utf-8-sig", newline="") as f:
            w = csv.writer(f)
            w.writerow(["serial", "model", "state", "purchase_cost"])
            w.writerows([f"{prefix}-{i:03d}", first if i % 3 else second, states[i % 8], f"{100 + i}.50"]
                        for i in range(60))
        return path

    with statements_sent(db) as sent:
        result = run_import(db, admin, "gpus", write("SW"))
    assert result.created == 60
    assert len(sent) < 40, f"{len(sent)} statements for 60 rows of two kinds"   # a run per kind change: 150+
    monkeypatch.delitem(BULK_WRITE, "gpus")   # the row-by-row path
    run_import(db, admin, "gpus", write("RR"))

    def written(prefix: str):
        with db.session() as s:
            gpus = s.execute(select(GpuAsset.serial, GpuAsset.gpu_model_id, GpuAsset.state, GpuAsset.purchase_cost)
                             .where(GpuAsset.serial.like(f"{prefix}-%")).order_by(GpuAsset.serial)).all()
            history = s.execute(select(GpuAsset.serial, GpuHistory.from_state, GpuHistory.to_state, GpuHistory.reason)
                                .join(GpuAsset, GpuAsset.id == GpuHistory.gpu_id)
                                .where(GpuAsset.serial.like(f"{prefix}-%"))
                                .order_by(GpuAsset.serial, GpuHistory.id)).all()
            events = s.execute(select(AuditEvent.action, AuditEvent.object_label, AuditEvent.after)
                               .where(AuditEvent.object_label.like(f"{prefix}-%"))
                               .order_by(AuditEvent.object_label, AuditEvent.action)).all()
        strip = (lambda v: v.replace(prefix, "*") if isinstance(v, str) else v)
        events = [(a, strip(label), {k: v for k, v in json.loads(after or "{}").items() if k != "id"})
                  for a, label, after in events]
        events = [(a, label, {k: strip(v) for k, v in after.items()}) for a, label, after in events]
        return ([tuple(strip(x) for x in r) for r in gpus], [tuple(strip(x) for x in r) for r in history], events)
    assert written("SW") == written("RR")
    with db.session() as s:
        assert verify_audit_chain(s).ok
    gpu_counts_are_the_gpus(db)   # the GPUs per server followed (device_gpu_count)

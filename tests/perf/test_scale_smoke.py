"""The benchmark runs end to end on the small demo (figures are not asserted: only that every
row is printed), and the parallel audit verification names tampering exactly like the serial one."""
from __future__ import annotations

import pytest
from sqlalchemy import text

import app.audit.trail as audit
from launcher import main
from app.demo.load import DEMO_PASSWORD

EXPECTED_ROWS = [
    "list site: first page", "list gpu: filter 'AB1'", "list gpu: sort warranty_end desc",
    "list audit: first page", "list gpu: window at the end (keyset)", "global search 'AB1'",
    "rack elevation (fullest rack)", "room view (largest room)", "dashboard data",
    "GPU lifecycle move (transition_gpu)", "contract save", "billing run", "audit verify",
    "audit report PDF (~200 events)", "audit report PDF (~800 events)", "statement PDF",
    "console cold start to first paint (real path)", "list audit: filter actor:",
    "console RSS, GPU list scrolled to the end", "GPU list, default sort: scroll to the end, worst step",
    "billing run + issue", "CSV import, 100 new GPUs", "CSV import, 400 new GPUs",
    "audit verify, newest quarter", "audit verify, whole chain",
    "export gpus to CSV", "export devices to XLSX (the command)", "export gpus to XLSX (the command)",
    "gpu list sorted by customer: first window", "gpu list sorted by warranty_end desc: first window",
    "gpu list sorted by customer: every id in order, then a window",
]


@pytest.mark.slow
def test_bench_prints_every_row(demo_db, capsys, monkeypatch, tmp_path):
    from app.read import queries

    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", DEMO_PASSWORD)
    url = demo_db.engine.url.render_as_string(hide_password=False)
    out_json = tmp_path / "bench.json"
    code = main(["--db", url, "--user", "admin", "bench", "--repeat", "1", "--quick", "--json", str(out_json)])
    out = capsys.readouterr().out
    assert code == 0
    for name in EXPECTED_ROWS:
        assert name in out, f"{name!r} missing from:\n{out}"
    for kind in queries.SPECS:
        for what in ("first page", "filter", "sort"):
            assert f"list {kind}: {what}" in out
    assert "failed:" not in out, out
    assert out_json.read_text().startswith("{")


def _drop_triggers(db):
    with db.engine.begin() as c:
        if db.is_sqlite:
            c.execute(text("DROP TRIGGER audit_event_no_update"))
            c.execute(text("DROP TRIGGER audit_event_no_delete"))
        else:
            c.execute(text("DROP TRIGGER audit_event_append_only ON audit_event"))


@pytest.fixture
def parallel(monkeypatch):
    """Force the worker path with tiny ranges and SQLite chunks, so their boundaries fall inside the chain."""
    monkeypatch.setattr(audit, "PARALLEL_MIN_EVENTS", 0)
    monkeypatch.setattr(audit, "RANGE_MIN", 7)
    monkeypatch.setattr(audit, "CHUNK_EVENTS", 3)


def _verify(db, **kw):
    with db.session() as s:
        serial = audit.verify_audit_chain(s, workers=1, **kw)
    with db.session() as s:
        par = audit.verify_audit_chain(s, workers=2, **kw)
    assert serial == par, (serial, par)
    return par


@pytest.mark.parametrize("sql, bad, word", [
    (None, None, None),
    ("UPDATE audit_event SET object_label = 'forged' WHERE seq = {s}", "s", "altered"),
    ("DELETE FROM audit_event WHERE seq = {s}", "s", "missing"),
    ("UPDATE audit_event SET prev_hash = '{z}' WHERE seq = {s}", "s", "link"),
])
@pytest.mark.parametrize("where", ["first", "boundary", "inside", "last"])
def test_parallel_verify_names_the_same_event(demo_db, parallel, sql, bad, word, where):
    with demo_db.engine.connect() as c:
        n = c.execute(text("SELECT max(seq) FROM audit_event")).scalar_one()
    size = (n // 8) + 1  # the range size the parallel path uses for this chain with 2 workers
    seq = {"first": 1, "boundary": 1 + max(7, size), "inside": 3, "last": n}[where]
    if sql:
        _drop_triggers(demo_db)
        with demo_db.engine.begin() as c:
            c.execute(text(sql.format(s=seq, z="f" * 64)))
    r = _verify(demo_db)
    if sql is None:
        assert r.ok and r.count == n
    else:
        assert not r.ok and r.bad_seq == seq
        if word == "missing":
            assert "missing" in r.problem or "deleted" in r.problem
        elif word != "link":
            assert word in r.problem


def test_parallel_checkpoint(demo_db, parallel):
    with demo_db.session() as s:
        head = audit.verify_audit_chain(s, workers=1).head
    seq = int(head.split(":")[0])
    assert _verify(demo_db, expect_head=head).ok
    assert _verify(demo_db, expect_head=f"{seq // 2}:{'0' * 64}").bad_seq == seq // 2
    assert "beyond" in _verify(demo_db, expect_head=f"{seq + 5}:{'0' * 64}").problem

"""Several processes appending and editing the same record at once, on PostgreSQL.

Afterwards the chain verifies, no write was lost and none was silently overwritten:
every accepted edit is one version step and one audit event; every other was refused
with a Conflict.
"""
from __future__ import annotations

import multiprocessing as mp
import os

import pytest
from sqlalchemy import func, select

from app.audit.trail import verify_audit_chain
from tests.support.builders import build_site

pytestmark = pytest.mark.skipif(not os.environ.get("IDC_TEST_PG_URL"), reason="needs IDC_TEST_PG_URL (PostgreSQL)")
ROUNDS = 15


def _worker(url: str, login_name: str, rack_id: int, results):
    from app.store.db import Database
    from app.domain.errors import Conflict
    from app.services.common import create_record, update_record
    from app.services.users import login
    from models import Rack

    db = Database(url)
    actor = login(db, login_name, "correct-horse-1")
    ok = conflicts = 0
    for i in range(ROUNDS):
        with db.session() as s:
            version = s.get(Rack, rack_id).version
        try:
            update_record(db, actor, "rack", rack_id, {"power_capacity_kw": 10 + (i % 5)}, expected_version=version)
            ok += 1
        except Conflict:
            conflicts += 1
        # Unrelated appends interleave with the edits.
        create_record(db, actor, "gpu_model", dict(name=f"{login_name}-{i}", vendor="X", memory_gb=8, form_factor="pcie"))
    db.dispose()
    results.put((login_name, ok, conflicts))


@pytest.mark.parametrize("db", ["postgresql"], indirect=True)
def test_concurrent_writers_keep_the_chain_and_every_write(db, admin):
    from app.services.users import add_user
    from models import AuditEvent, Rack

    ids = build_site(db, admin, racks=1)
    workers = ["w1", "w2", "w3", "w4"]
    for w in workers:
        add_user(db, admin, w, "operator", "correct-horse-1")
    with db.session() as s:
        start_version = s.get(Rack, ids["racks"][0]).version
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    url = db.engine.url.render_as_string(hide_password=False)
    procs = [ctx.Process(target=_worker, args=(url, w, ids["racks"][0], results)) for w in workers]
    for p in procs:
        p.start()
    outcome = [results.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    accepted = sum(o[1] for o in outcome)
    assert sum(o[1] + o[2] for o in outcome) == ROUNDS * len(workers)
    with db.session() as s:
        rack = s.get(Rack, ids["racks"][0])
        assert rack.version == start_version + accepted  # no lost update
        updates = s.execute(select(func.count()).select_from(AuditEvent)
                            .where(AuditEvent.action == "rack.update")).scalar_one()
        assert updates == accepted
        result = verify_audit_chain(s)
    assert result.ok, result.problem

"""The tamper suite: 19 kinds of direct-SQL tampering by someone holding the owner's login, and
which defence notices each: `audit verify` (the chain), the remembered head (app/audit/state.py,
a client that verified before the tampering), `audit reconcile` (app/audit/reconcile.py). The fourth
defence, PostgreSQL roles, refuses the first step of each tamper to a person's login: checked
at the end of this file. docs/security.md's table is this file's CAUGHT and REFUSED_FOR."""
from __future__ import annotations

import pytest
from sqlalchemy import text

from app.audit import state as audit_state
from app.audit.trail import Actor, append_event, verify_audit_chain
from app.audit.reconcile import reconcile
from app.services.common import create_record
from tests.conftest import on_postgresql

from tests.support.tamper_kit import bill_last_month, drop_statement_triggers, drop_triggers, rehash

CAUGHT = {
    "edit": {"verify"},
    "delete middle": {"verify"},
    "delete tail": {"remembered"},
    "insert": {"verify", "remembered"},
    "swap": {"verify"},
    "head edit": {"verify"},
    "forged append without head move": {"verify", "reconcile"},
    "forged append with head move": {"reconcile"},
    "statement total": {"reconcile"},
    "GPU state": {"reconcile"},
    "contract status": {"reconcile"},
    "trigger drop + rewrite": {"remembered", "reconcile"},
    "full wipe": {"remembered"},
    "downgrade to base": {"remembered"},
    # the money inputs (issue 21): each row is named by reconcile (test_money_inputs below)
    "VAT rate": {"reconcile"},
    "meter reading": {"reconcile"},
    "reading added": {"reconcile"},
    "statement line": {"reconcile"},
    "contract item price": {"reconcile"},
}


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("IDC_CONSOLE_HOME", str(tmp_path / "home"))


def _sql(db, *statements, **params):
    with db.engine.begin() as c:
        for st in statements:
            c.execute(text(st), params)


def _caught(db) -> set[str]:
    found = set()
    with db.session() as s:
        if not verify_audit_chain(s).ok:
            found.add("verify")
    if audit_state.check_at_start(db):
        found.add("remembered")
    try:
        with db.session() as s:
            if not reconcile(s).ok:
                found.add("reconcile")
    except Exception:  # noqa: BLE001 - no tables: nothing to reconcile
        pass
    return found


def _remember(db):
    with db.session() as s:
        assert audit_state.verify_and_remember(db, s).ok


@pytest.fixture
def chain(db, admin):
    """Seven events (a user, a login, five GPU models), verified once by this computer."""
    for i in range(5):
        create_record(db, admin, "gpu_model", dict(name=f"Tamper GPU {i}", vendor="NVIDIA", memory_gb=16,
                                                   form_factor="pcie"))
    _remember(db)
    assert _caught(db) == set()
    drop_triggers(db)
    return db


def test_edit(chain):
    _sql(chain, "UPDATE audit_event SET object_label = 'forged' WHERE seq = 4")
    assert _caught(chain) == CAUGHT["edit"]


def test_delete_middle(chain):
    _sql(chain, "DELETE FROM audit_event WHERE seq = 4")
    assert _caught(chain) == CAUGHT["delete middle"]


def test_delete_tail(chain):
    """The last events deleted and the head moved back: the chain is consistent again."""
    _sql(chain, "DELETE FROM audit_event WHERE seq >= 6")
    rehash(chain, 6)
    assert _caught(chain) == CAUGHT["delete tail"]


def test_insert(chain):
    with chain.engine.begin() as c:
        for seq in (7, 6, 5, 4):
            c.execute(text("UPDATE audit_event SET seq = seq + 1 WHERE seq = :s"), {"s": seq})
        c.execute(text("""INSERT INTO audit_event (seq, ts, actor_login, actor_name, actor_role, host, app_version,
                       request_id, action, object_type, outcome, prev_hash, hash)
                       SELECT 4, ts, actor_login, actor_name, actor_role, host, app_version, request_id,
                       'user.create', 'user', 'success', hash, :h FROM audit_event WHERE seq = 3"""), {"h": "f" * 64})
        c.execute(text("UPDATE audit_head SET seq = 8, hash = (SELECT hash FROM audit_event WHERE seq = 8)"))
    assert _caught(chain) == CAUGHT["insert"]


def test_swap(chain):
    _sql(chain, "UPDATE audit_event SET seq = -1 WHERE seq = 5", "UPDATE audit_event SET seq = 5 WHERE seq = 6",
         "UPDATE audit_event SET seq = 6 WHERE seq = -1")
    assert _caught(chain) == CAUGHT["swap"]


def test_head_edit(chain):
    _sql(chain, "UPDATE audit_head SET hash = :h WHERE id = 1", h="e" * 64)
    assert _caught(chain) == CAUGHT["head edit"]


def _forge(db, move_head: bool):
    with db.engine.connect() as c:
        head = tuple(c.execute(text("SELECT seq, hash FROM audit_head WHERE id = 1")).one())
    with db.session() as s:   # hashed and linked exactly as the program does: the rule is public
        append_event(s, Actor(None, "mallory", "Mallory", "admin"), request_id="forged", action="user.create",
                     object_type="user", object_id=99, object_label="mallory", after={"login": "mallory"})
        s.commit()
    if not move_head:
        _sql(db, "UPDATE audit_head SET seq = :s, hash = :h WHERE id = 1", s=head[0], h=head[1])


def test_forged_append_without_head_move(chain):
    _forge(chain, move_head=False)
    assert _caught(chain) == CAUGHT["forged append without head move"]


def test_forged_append_with_head_move(chain):
    """Consistent chain, longer than remembered: only the claim it makes (a user #99) gives it away."""
    _forge(chain, move_head=True)
    assert _caught(chain) == CAUGHT["forged append with head move"]


def test_trigger_drop_and_rewrite(chain):
    """History rewritten (a create's recorded name) and the whole chain re-hashed, head moved."""
    _sql(chain, """UPDATE audit_event SET after = replace(after, 'Tamper GPU 1', 'Other GPU 1')
                   WHERE action = 'gpu_model.create' AND after LIKE '%Tamper GPU 1%'""")
    rehash(chain)
    assert _caught(chain) == CAUGHT["trigger drop + rewrite"]


def test_full_wipe(chain):
    _sql(chain, "DELETE FROM audit_event")
    rehash(chain)
    assert _caught(chain) == CAUGHT["full wipe"]


def test_downgrade_to_base(chain):
    from app.store.startup import prepare_database

    chain.dispose()
    chain.downgrade("base")
    assert "cannot be read" in audit_state.check_at_start(chain)
    prepare_database(chain)   # what the console does at its next start: a new, empty schema
    assert _caught(chain) == CAUGHT["downgrade to base"]


@pytest.fixture
def billed(demo_db, monkeypatch):
    bill_last_month(demo_db, monkeypatch)
    _remember(demo_db)
    assert _caught(demo_db) == set()
    return demo_db


def test_statement_total(billed):
    drop_statement_triggers(billed)
    _sql(billed, "UPDATE statement SET total = total + 1 WHERE id = (SELECT MIN(id) FROM statement "
                 "WHERE status = 'issued')")
    assert _caught(billed) == CAUGHT["statement total"]


def test_gpu_state(billed):
    _sql(billed, "UPDATE gpu_asset SET state = 'available' WHERE id = (SELECT MIN(id) FROM gpu_asset "
                 "WHERE state = 'leased')")
    assert _caught(billed) == CAUGHT["GPU state"]


def test_contract_status(billed):
    _sql(billed, "UPDATE contract SET status = 'terminated' WHERE id = (SELECT MIN(id) FROM contract "
                 "WHERE status = 'active')")
    assert _caught(billed) == CAUGHT["contract status"]


MONEY_TAMPERS = {   # kind -> (statements, the table reconcile then names)
    "VAT rate": (["UPDATE tax_rate SET rate = 0"], "tax_rate"),
    "meter reading": (["UPDATE meter_reading SET kwh_total = 0 WHERE id = (SELECT MIN(id) FROM meter_reading)"],
                      "meter_reading"),
    "reading added": (["INSERT INTO meter_reading (rack_id, read_at, kwh_total) SELECT rack_id, "
                       "'2027-01-31 16:00:00', 0 FROM meter_reading WHERE id = (SELECT MIN(id) FROM meter_reading)"],
                      "meter_reading"),
    "statement line": (["UPDATE statement_line SET amount = amount + 1 WHERE id = (SELECT MIN(l.id) FROM "
                        "statement_line l JOIN statement s ON s.id = l.statement_id WHERE s.status = 'issued')"],
                       "statement_line"),
    "contract item price": (["UPDATE contract_item SET unit_price = unit_price + 1 WHERE id = (SELECT MIN(i.id) "
                             "FROM contract_item i JOIN contract c ON c.id = i.contract_id WHERE c.status = 'active')"],
                            "contract_item"),
}


def test_money_inputs(billed):
    """One after the other on the billed demo: each is caught by reconcile alone, and names its own row."""
    drop_statement_triggers(billed, lines=True)   # the issued statements' lines are frozen by a trigger
    seen = 0
    for kind, (statements, table) in MONEY_TAMPERS.items():
        _sql(billed, *statements)
        assert _caught(billed) == CAUGHT[kind], kind
        with billed.session() as s:
            differences = reconcile(s).differences
        assert len(differences) > seen and table in {d.object_type for d in differences}, kind
        seen = len(differences)


# --- PostgreSQL roles: the first step of each tamper, tried with each person's own login --------

ALL = frozenset({"admin", "operator", "account_manager", "auditor"})
ATTEMPTS = {
    "edit": "UPDATE audit_event SET object_label = 'forged' WHERE seq = 1",
    "delete middle": "DELETE FROM audit_event WHERE seq = 1",
    "delete tail": "DELETE FROM audit_event WHERE seq = (SELECT MAX(seq) FROM audit_event)",
    "insert": "UPDATE audit_event SET seq = seq + 1000 WHERE seq = 1",
    "swap": "UPDATE audit_event SET seq = -1 WHERE seq = 1",
    "head edit": "UPDATE audit_head SET hash = hash WHERE id = 1",
    "forged append without head move": "INSERT INTO audit_event SELECT * FROM audit_event WHERE false",
    # the only way in for a group: the owner's audit_append, which (migration 0029) numbers, links, dates
    # and hashes every event itself and names the connected person as its actor; an event that names
    # its own time (here: a hash, another actor and a time) is refused
    "forged append with head move": (
        "SELECT audit_append(jsonb_build_array(jsonb_build_object('seq', h.seq + 1, 'prev_hash', h.hash, "
        "'hash', repeat('0', 64), 'ts', now() AT TIME ZONE 'utc', 'actor_login', 'x', 'actor_name', 'x', "
        "'actor_role', 'admin', 'host', 'x', 'app_version', 'x', 'request_id', 'x', 'action', 'x', "
        "'object_type', 'x', 'outcome', 'success'))) FROM audit_head_lock() h"),
    "statement total": "UPDATE statement SET total = total WHERE false",
    "GPU state": "UPDATE gpu_asset SET state = state WHERE false",
    "contract status": "UPDATE contract SET status = status WHERE false",
    "trigger drop + rewrite": "DROP TRIGGER audit_event_append_only ON audit_event",
    "full wipe": "TRUNCATE audit_event",
    "downgrade to base": "DROP TABLE audit_event",
    "VAT rate": "UPDATE tax_rate SET rate = rate WHERE false",
    "meter reading": "UPDATE meter_reading SET kwh_total = kwh_total WHERE false",
    "reading added": "INSERT INTO meter_reading SELECT * FROM meter_reading WHERE false",
    "statement line": "UPDATE statement_line SET amount = amount WHERE false",
    "contract item price": "UPDATE contract_item SET unit_price = unit_price WHERE false",
}
# Who is refused the attempt by PostgreSQL itself. No group writes the audit tables: appending goes
# through the owner's audit_append / audit_note, which move the head with every event, so the head
# cannot be edited nor an event appended without moving it; from migration 0029 the server also
# computes each hash and stamps the actor and time, and refuses an event the client dates (auditors may
# not call audit_append at all). A person can still append an event of their own, truthfully named and
# dated. A statement's UPDATE is granted to administrators for drafts, and its trigger (which only the
# owner can drop) freezes issued ones.
REFUSED_FOR = {kind: ALL for kind in ATTEMPTS}
REFUSED_FOR.update({
    "statement total": ALL - {"admin"},
    "GPU state": ALL - {"admin", "operator"},
    "contract status": ALL - {"admin", "account_manager"},
    # readings are imported (INSERT only, for the groups that import); a line by billing; an item by
    # drafting and approving contracts. VAT rates and changes to readings: nobody.
    "reading added": ALL - {"admin", "operator"},
    "statement line": ALL - {"admin"},
    "contract item price": ALL - {"admin", "account_manager"},
})


@on_postgresql
def test_roles_refuse_the_tampering(pg):  # noqa: F811  (pg is the fixture imported below)
    import psycopg

    from tests.security.test_dbroles import PEOPLE, role_dsn, try_sql

    for login, role in PEOPLE.items():
        with psycopg.connect(role_dsn(pg, login), autocommit=True) as conn:
            for kind, sql in ATTEMPTS.items():
                refused = try_sql(conn, sql) == "refused"
                assert refused == (role in REFUSED_FOR[kind]), (login, kind)


from tests.security.test_dbroles import pg  # noqa: E402,F401,F811  (the fixture: roles made, people added, dropped after)

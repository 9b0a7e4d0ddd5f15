"""The command line end to end: exit codes, demo data, audit verify against tampering."""
from __future__ import annotations

import subprocess
import sys

import pytest
from sqlalchemy import text

from app.cli.main import main
from app.demo.load import DEMO_PASSWORD


def run(db, *args, env=None, monkeypatch=None, capsys=None):
    url = db.engine.url.render_as_string(hide_password=False)
    code = main(["--db", url, *args])
    out = capsys.readouterr() if capsys else None
    return code, out


@pytest.mark.slow
def test_demo_load_from_the_command_line(db, capsys):
    code, out = run(db, "demo", "load", capsys=capsys)
    assert code == 0, out.err
    assert "280 racks" in out.out and "password demo1234" in out.out
    code, out = run(db, "demo", "load", "--if-empty", capsys=capsys)
    assert code == 0 and "already has data" in out.out


def test_demo_then_verify_ok(demo_db, capsys):
    code, out = run(demo_db, "audit", "verify", capsys=capsys)
    assert code == 0, out.err
    assert out.out.startswith("OK ") and "head " in out.out
    head = out.out.split("head ")[1].split()[0]
    code, out = run(demo_db, "audit", "verify", "--expect-head", head, capsys=capsys)
    assert code == 0


def test_direct_update_refused_and_tampering_named(demo_db, capsys):
    with pytest.raises(Exception, match="append-only"):
        with demo_db.engine.begin() as c:
            c.execute(text("UPDATE audit_event SET reason = 'x' WHERE seq = 10"))
    with demo_db.engine.begin() as c:
        if demo_db.is_sqlite:
            c.execute(text("DROP TRIGGER audit_event_no_update"))
        else:
            c.execute(text("DROP TRIGGER audit_event_append_only ON audit_event"))
        c.execute(text("UPDATE audit_event SET reason = 'forged' WHERE seq = 10"))
    code, out = run(demo_db, "audit", "verify", capsys=capsys)
    assert code == 1 and "#10" in out.err


def test_usage_error_exit_2(db, capsys):
    with pytest.raises(SystemExit) as e:
        main(["--db", "sqlite:///x.db", "frobnicate"])
    assert e.value.code == 2


def test_writes_need_a_user(demo_db, capsys, monkeypatch, tmp_path):
    monkeypatch.delenv("IDC_CONSOLE_PASSWORD", raising=False)
    monkeypatch.setenv("IDC_CONSOLE_NEW_PASSWORD", "another-pass-1")
    code, out = run(demo_db, "user", "add", "newop", "--role", "operator", capsys=capsys)
    assert code == 1 and "--user" in out.err
    monkeypatch.setenv("IDC_CONSOLE_PASSWORD", DEMO_PASSWORD)
    code, out = run(demo_db, "--user", "wanglei", "user", "add", "newop", "--role", "operator", capsys=capsys)
    assert code == 1 and "may not manage users" in out.err
    code, out = run(demo_db, "--user", "admin", "user", "add", "newop", "--role", "operator", capsys=capsys)
    assert code == 0, out.err


@pytest.mark.slow
def test_real_entry_point_first_admin_and_backup(tmp_path):
    dbfile = tmp_path / "cli.db"
    env = {"IDC_CONSOLE_PASSWORD": "first-admin-1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    def cli(*args):
        return subprocess.run([sys.executable, "-m", "app.cli.main", "--db", str(dbfile), *args], env=env,
                              capture_output=True, text=True, cwd=str(__import__("pathlib").Path(__file__).parents[2]))
    r = cli("user", "add", "root", "--role", "admin")
    assert r.returncode == 1 and f"no database at {dbfile}; create one with" in r.stderr
    assert not dbfile.exists()
    r = cli("db", "upgrade")
    assert r.returncode == 0, r.stderr
    r = cli("user", "add", "root", "--role", "admin")
    assert r.returncode == 0, r.stderr
    r = cli("db", "current")
    assert r.returncode == 0 and "(head)" in r.stdout
    r = cli("db", "backup", str(tmp_path / "copy.db"))
    assert r.returncode == 0 and (tmp_path / "copy.db").stat().st_size > 0
    r = cli("audit", "verify")
    import sqlite3

    from app.store.dbroles import BASELINE_TABLES

    with sqlite3.connect(dbfile) as c:   # the rows migrations loaded: a baseline event each (issue 21)
        baselines = sum(c.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in BASELINE_TABLES)
    # the regions' load, the baselines, the first admin
    assert r.returncode == 0 and r.stdout.startswith(f"OK {2 + baselines} events"), r.stdout


def test_every_commands_help_formats_cleanly():
    """Every command's and subcommand's --help text renders (a bare '%' in a help string garbles
    argparse's listing of the commands: it once printed the parser's repr for `power`)."""
    from launcher import COMMAND_MODULES
    from app.cli.main import build_parser

    def walk(parser, path):
        text = parser.format_help()
        assert "option_strings" not in text, path
        for action in parser._actions:
            if isinstance(action.choices, dict):          # the sub-commands' parsers, by name
                for name, sub in action.choices.items():
                    yield from walk(sub, path + [name])
        yield path

    seen = list(walk(build_parser(COMMAND_MODULES), ["idc-console"]))
    assert ["idc-console", "power", "check"] in seen and len(seen) > 50


def _parsers(parser, path=()):
    """Every parser and sub-parser by its command path: its help text and its defaults (the handler)."""
    def named(v):  # a handler by its module and name (a lambda's address differs between two parsers)
        return f"{v.__module__}.{v.__qualname__}" if callable(v) else repr(v)

    out = {path: (parser.format_help(), sorted((k, named(v)) for k, v in parser._defaults.items()))}
    for action in parser._actions:
        if isinstance(getattr(action, "choices", None), dict):  # the sub-commands, by name
            for name, sub in action.choices.items():
                out.update(_parsers(sub, path + (name,)))
    return out


def test_a_command_imports_only_the_modules_that_make_it():
    """The table of the lazy start (app.cli.main.COMMANDS): the parser built for one command holds that
    command exactly as the parser of every command does (help, options, kinds, handler), and every
    command a product module registers is in the table."""
    from app.cli.main import COMMAND_MODULES, COMMANDS, build_parser
    from launcher import COMMAND_MODULES as LAUNCHER_MODULES

    full = _parsers(build_parser(LAUNCHER_MODULES))
    commands = {path[0] for path in full if len(path) == 1}
    product = {path[0] for path in _parsers(build_parser(COMMAND_MODULES)) if len(path) == 1}
    assert product == set(COMMANDS)
    for command in commands:
        one = _parsers(build_parser(LAUNCHER_MODULES, command))
        assert {p: v for p, v in one.items() if p[:1] == (command,)} == \
               {p: v for p, v in full.items() if p[:1] == (command,)}, command


def test_an_import_loads_no_other_command_module():
    out = subprocess.run([sys.executable, "-c", """
import sys
from app.cli.main import build_parser
from launcher import COMMAND_MODULES
build_parser(COMMAND_MODULES, 'import')
print(sorted(m for m in sys.modules if m.startswith(('app.cli.', 'bench.'))))
"""], capture_output=True, text=True, check=True, timeout=300).stdout.strip()
    assert out == "['app.cli.core', 'app.cli.finance', 'app.cli.main', 'app.cli.operations', 'app.cli.receivables', " \
                  "'bench.cli']"


def test_cluster_show_names_a_held_node_with_its_hold_customer_quote_and_expiry(demo_db, capsys):
    """The demo's Haikou hold: its nodes' lines say held, for whom, the quote and until when;
    a node no hold keeps says nothing of the kind."""
    from sqlalchemy import select

    from app.domain.clock import local_text
    from models import Customer, Device
    from models.capacity import CapacityHold, Quote, capacity_hold_node
    from models.cluster import GpuCluster, GpuNode

    with demo_db.session() as s:
        hold = s.execute(select(CapacityHold).order_by(CapacityHold.id)).scalars().first()
        customer = s.get(Customer, hold.customer_id).name
        quote = s.execute(select(Quote.number).where(Quote.hold_id == hold.id)).scalars().first()
        held = s.execute(select(Device.name, GpuCluster.name).join(GpuNode, GpuNode.device_id == Device.id)
                         .join(GpuCluster, GpuCluster.id == GpuNode.cluster_id)
                         .join(capacity_hold_node, capacity_hold_node.c.node_id == GpuNode.id)
                         .where(capacity_hold_node.c.hold_id == hold.id).order_by(Device.name)).all()
        until = local_text(hold.expires_at)[:16]
    assert held and quote
    code, out = run(demo_db, "cluster", "show", held[0][1], capsys=capsys)
    assert code == 0, out.err
    lines = {ln.split()[0]: ln for ln in out.out.splitlines() if ln.startswith("  ")}
    for name, _cluster in held:
        assert f"[held: {hold.number} for {customer}, quote {quote}, until {until}]" in lines[name]
    others = [ln for n, ln in lines.items() if n not in {h[0] for h in held}]
    assert others and not any("[held" in ln for ln in others)

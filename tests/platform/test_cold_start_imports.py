"""The console's start path imports neither alembic nor any command module before the window
(issue 16: they were a fifth to a half of the cold start); the schema check still works."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          check=True, timeout=300).stdout.strip()


def test_schema_check_without_alembic(db):
    url = db.engine.url.render_as_string(hide_password=False)
    out = _run(f"""
import sys
from app.store.db import Database
d = Database({url!r})
d.check_not_newer()
print(d.current_revision() == d.head_revision(), d.needs_upgrade(), 'alembic' in sys.modules)
""")
    assert out == "True False False"


def test_no_command_opens_the_window_without_command_modules(tmp_path):
    out = _run(f"""
import sys
import ui.shell.main
ui.shell.main.run_console = lambda args: print(args.db, args.command,
    sorted(m for m in sys.modules if m.startswith(('app.cli_', 'bench')) or m == 'alembic')) or 0
from launcher import main
main(['--db', {str(tmp_path / 'x.db')!r}, '--lang', 'en'])
""")
    assert out == f"{tmp_path / 'x.db'} None []"


def test_a_command_still_finds_its_module(capsys):
    from launcher import main

    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert "idc-console" in capsys.readouterr().out


def test_the_launcher_composes_both_halves_and_app_alone_has_no_window(tmp_path, capsys):
    """`idc-console` is the launcher: the bench package's command is there, and the window opens
    with no command; app.cli.main alone (no launcher) knows neither and imports no Qt (issue 13)."""
    import pytest

    from app.cli import main as cli
    from launcher import COMMAND_MODULES, main

    assert "bench" in cli.build_parser(COMMAND_MODULES)._subparsers._group_actions[0].choices
    assert "bench" not in cli.build_parser()._subparsers._group_actions[0].choices
    with pytest.raises(SystemExit) as exc:
        main(["bench", "--help"])
    assert exc.value.code == 0 and "--repeat" in capsys.readouterr().out
    out = _run(f"""
import sys
from app.cli.main import main
code = main(['--db', {str(tmp_path / 'x.db')!r}])
print(code, 'PySide6' in sys.modules, 'ui.shell.main' in sys.modules)
""")
    assert out == "1 False False"

"""scripts/start.py and scripts/test.py: every platform branch, simulated on Linux."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import bootstrap  # noqa: E402


# --- Python version ----------------------------------------------------------------------------
@pytest.mark.parametrize("system, hint", [
    ("Windows", "py -3.12 scripts\\start.py"),
    ("Darwin", "brew install python@3.12"),
    ("Linux", "python3.11 or newer"),
])
def test_old_python_is_refused_with_where_to_get_one(system, hint):
    msg = bootstrap.python_problem((3, 9, 6), system)
    assert "needs Python 3.11 or newer; this is Python 3.9" in msg
    assert hint in msg
    assert bootstrap.python_problem((3, 11, 0), system) is None
    assert bootstrap.python_problem((3, 13, 1), system) is None


def test_the_scripts_parse_on_an_old_python():
    """macOS's stock python3 is 3.9: the scripts must reach the version check, not a SyntaxError."""
    import ast

    for name in ("bootstrap.py", "start.py", "test.py", "build_bundle.py"):
        source = (ROOT / "scripts" / name).read_text(encoding="utf-8")
        ast.parse(source, feature_version=(3, 6))


# --- paths -------------------------------------------------------------------------------------
def test_venv_paths_windows():
    root = r"C:\Users\li\idc-console"
    assert bootstrap.venv_bin(root, "Windows") == r"C:\Users\li\idc-console\.venv\Scripts"
    assert bootstrap.venv_python(root, "Windows") == r"C:\Users\li\idc-console\.venv\Scripts\python.exe"
    assert bootstrap.venv_program(root, "Windows", "idc-console") == \
        r"C:\Users\li\idc-console\.venv\Scripts\idc-console.exe"
    text = bootstrap.how_to_run(root, "Windows")
    assert r"C:\Users\li\idc-console\.venv\Scripts\idc-console.exe --help" in text
    assert r"C:\Users\li\idc-console\.venv\Scripts\activate.bat" in text
    assert "Activate.ps1" in text


@pytest.mark.parametrize("system", ["Darwin", "Linux"])
def test_venv_paths_posix(system):
    root = "/Users/li/idc-console"
    assert bootstrap.venv_python(root, system) == "/Users/li/idc-console/.venv/bin/python"
    text = bootstrap.how_to_run(root, system)
    assert "/Users/li/idc-console/.venv/bin/idc-console --help" in text
    assert ". /Users/li/idc-console/.venv/bin/activate" in text


# --- Debian/Ubuntu packages ----------------------------------------------------------------------
OS_RELEASES = {
    "debian12": ({"ID": "debian", "VERSION_ID": "12", "VERSION_CODENAME": "bookworm"}, False),
    "debian13": ({"ID": "debian", "VERSION_ID": "13", "VERSION_CODENAME": "trixie"}, True),
    "sid": ({"ID": "debian", "VERSION_CODENAME": "sid"}, True),
    "ubuntu2204": ({"ID": "ubuntu", "VERSION_ID": "22.04"}, False),
    "ubuntu2404": ({"ID": "ubuntu", "VERSION_ID": "24.04"}, True),
    "mint22": ({"ID": "linuxmint", "ID_LIKE": "ubuntu debian", "VERSION_ID": "22",
                "UBUNTU_CODENAME": "noble"}, True),
    "mint21": ({"ID": "linuxmint", "ID_LIKE": "ubuntu debian", "VERSION_ID": "21.3",
                "UBUNTU_CODENAME": "jammy"}, False),
    "fedora": ({"ID": "fedora", "VERSION_ID": "41"}, False),
}


@pytest.mark.parametrize("name", sorted(OS_RELEASES))
def test_t64_renames(name):
    release, t64 = OS_RELEASES[name]
    assert bootstrap.uses_t64_names(release) is t64


def test_os_release_is_read(tmp_path):
    f = tmp_path / "os-release"
    f.write_text('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\nVERSION_ID="13"\n')
    assert bootstrap.uses_t64_names(bootstrap.read_os_release(str(f)))
    assert bootstrap.read_os_release(str(tmp_path / "absent")) == {}


def _all_names(groups):
    return {n for g in groups for n in g}


def test_nothing_missing_means_no_apt_at_all():
    groups = bootstrap.required_packages(for_tests=True, need_venv=True)
    missing = bootstrap.missing_packages(groups, _all_names(groups), t64=True)
    assert missing == []
    assert bootstrap.apt_plan(missing, is_root=True, has_apt=True, has_sudo=True) == ("none", [])


def test_either_name_of_a_renamed_library_counts_as_installed():
    groups = bootstrap.required_packages(for_tests=False, need_venv=False)
    installed = _all_names(groups) - {"libglib2.0-0t64"}   # Debian 12 has the old name
    assert bootstrap.missing_packages(groups, installed, t64=False) == []


@pytest.mark.parametrize("t64, name", [(True, "libglib2.0-0t64"), (False, "libglib2.0-0")])
def test_the_right_name_is_installed(t64, name):
    groups = bootstrap.required_packages(for_tests=False, need_venv=False)
    installed = _all_names(groups) - {"libglib2.0-0t64", "libglib2.0-0", "libxcb-cursor0"}
    assert bootstrap.missing_packages(groups, installed, t64=t64) == [name, "libxcb-cursor0"]


def test_test_and_venv_packages_only_when_asked():
    start = _all_names(bootstrap.required_packages(for_tests=False, need_venv=False))
    test = _all_names(bootstrap.required_packages(for_tests=True, need_venv=True))
    assert "poppler-utils" not in start and "python3-venv" not in start
    assert {"poppler-utils", "python3-venv"} <= test
    assert "fonts-wqy-microhei" in start


def test_root_updates_then_installs():
    action, cmds = bootstrap.apt_plan(["libxcb-cursor0"], is_root=True, has_apt=True, has_sudo=False)
    assert action == "install"
    assert cmds == [["apt-get", "update", "-qq"],
                    ["apt-get", "install", "-y", "--no-install-recommends", "libxcb-cursor0"]]


@pytest.mark.parametrize("has_sudo, prefix", [(True, ["sudo"]), (False, [])])
def test_not_root_is_told_the_command(has_sudo, prefix):
    action, cmds = bootstrap.apt_plan(["libegl1", "libxcb-cursor0"], is_root=False, has_apt=True,
                                      has_sudo=has_sudo)
    assert action == "advise"
    assert cmds[-1] == prefix + ["apt-get", "install", "-y", "--no-install-recommends", "libegl1",
                                 "libxcb-cursor0"]


def test_no_apt_no_commands():
    assert bootstrap.apt_plan(["libegl1"], is_root=True, has_apt=False, has_sudo=False) == ("unknown", [])


@pytest.mark.skipif(not (shutil.which("readelf") and shutil.which("dpkg-query")),
                    reason="reads the Qt libraries with readelf and asks dpkg who ships each (Debian/Ubuntu)")
@pytest.mark.slow
def test_qt_package_list_matches_what_the_xcb_plugin_links():
    """Every non-base library that Qt's xcb plugin and our Qt modules link comes from a listed package."""
    import PySide6

    qt = Path(PySide6.__file__).parent / "Qt"
    files = [qt / "plugins" / "platforms" / "libqxcb.so"] + [
        qt / "lib" / f"libQt6{m}.so.6" for m in ("XcbQpa", "Gui", "Core", "Widgets", "DBus", "OpenGL", "Pdf",
                                                  "PdfWidgets", "Svg", "Network")]
    needed = set()
    for f in files:
        out = subprocess.run(["readelf", "-d", str(f)], capture_output=True, text=True).stdout
        needed |= {line.split("[")[1].split("]")[0] for line in out.splitlines() if "(NEEDED)" in line}
    needed = {n for n in needed if not n.startswith(("libQt6", "libicu"))}
    base = {"libc6", "libgcc-s1", "libstdc++6", "zlib1g", "libzstd1"}
    listed = _all_names(bootstrap.QT_PACKAGES)
    unlisted = {}
    for soname in sorted(needed):
        owners = subprocess.run(["dpkg-query", "-S", f"*/{soname}"], capture_output=True, text=True).stdout
        packages = {line.split(":")[0] for line in owners.splitlines() if line}
        if packages and not packages & (listed | base):
            unlisted[soname] = packages
    assert not unlisted


# --- install stamp -----------------------------------------------------------------------------
def test_stamp_skips_pip_only_when_nothing_changed():
    wanted = bootstrap.install_stamp(b"[project]\nname='x'\n", ("test",), (3, 12, 1))
    text = json.dumps(wanted)
    assert bootstrap.stamp_covers(text, wanted)
    assert bootstrap.stamp_covers(text, bootstrap.install_stamp(b"[project]\nname='x'\n", (), (3, 12, 0)))
    assert not bootstrap.stamp_covers(text, bootstrap.install_stamp(b"[project]\nname='y'\n", ("test",), (3, 12)))
    assert not bootstrap.stamp_covers(text, bootstrap.install_stamp(b"[project]\nname='x'\n", ("test",), (3, 13)))
    plain = json.dumps(bootstrap.install_stamp(b"[project]\nname='x'\n", (), (3, 12)))
    assert not bootstrap.stamp_covers(plain, wanted)   # the test extras are not installed yet
    assert not bootstrap.stamp_covers("", wanted) and not bootstrap.stamp_covers("[1]", wanted)


def test_pip_target():
    assert bootstrap.pip_target(()) == "."
    assert bootstrap.pip_target(("test",)) == ".[test]"


# --- arguments and hand-over -------------------------------------------------------------------
def test_db_argument_is_passed_to_the_preparation():
    assert bootstrap.global_db_args(["--db", "x.db", "--lang", "en"]) == ["--db", "x.db"]
    assert bootstrap.global_db_args(["--lang=en", "--db=postgres://h/d"]) == ["--db=postgres://h/d"]
    assert bootstrap.global_db_args(["--lang", "en"]) == []


def test_windows_runs_a_child_and_returns_its_code(tmp_path):
    code = bootstrap.run_program([sys.executable, "-c", "raise SystemExit(7)"], "Windows")
    assert code == 7


def test_start_script_refuses_an_old_python_first():
    """The real script on a simulated old interpreter: the message, exit 1, nothing created."""
    code = ("import sys, runpy; sys.version_info = (3, 9, 6, 'final', 0); sys.argv = ['start.py'];"
            f"runpy.run_path({str(ROOT / 'scripts' / 'start.py')!r}, run_name='__main__')")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 1
    assert "needs Python 3.11 or newer; this is Python 3.9" in r.stderr


def test_the_quick_lane_leaves_out_slow_tests_and_postgresql():
    spec = importlib.util.spec_from_file_location("test_script", ROOT / "scripts" / "test.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    environ = {"IDC_TEST_PG_URL": "postgresql://x/y", "PATH": "/bin"}
    args, env = script.pytest_run(["-q", "--quick", "-x"], environ)
    assert args == ["-q", "-x", "-m", "not slow", "-n", "auto"] and "IDC_TEST_PG_URL" not in env
    args, _ = script.pytest_run(["--quick", "-n", "1"], environ)   # a worker count given is kept
    assert args == ["-n", "1", "-m", "not slow"]
    assert env["QT_QPA_PLATFORM"] == "offscreen" and environ["IDC_TEST_PG_URL"]   # the caller's own is kept
    args, env = script.pytest_run(["-q"], environ)        # the default: every test, PostgreSQL when set
    assert args == ["-q"] and env["IDC_TEST_PG_URL"] == "postgresql://x/y"


def test_the_whole_suite_with_postgresql_runs_in_two_halves_side_by_side(tmp_path):
    """With PostgreSQL set and no selection of the caller's own, the `pg` tests and the others are two
    processes; their JUnit files are joined into the one asked for. A selection runs as given."""
    spec = importlib.util.spec_from_file_location("test_script", ROOT / "scripts" / "test.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    pg = {"IDC_TEST_PG_URL": "postgresql://x/y"}
    assert script.halves(["-q", "--junitxml=/r.xml"], pg) == (["-q", "-m", "pg"], ["-q", "-m", "not pg"], "/r.xml")
    assert script.halves(["-q", "--junitxml", "/r.xml", "-x"], pg)[2] == "/r.xml"
    assert script.halves(["-q"], {}) is None
    for selected in (["-k", "postgresql"], ["tests/store"], ["-m", "slow"], ["-n", "2"]):
        assert script.halves(["-q", *selected], pg) is None, selected
    for i, names in enumerate((["a[sqlite]", "b"], ["a[postgresql]"])):
        (tmp_path / f"{i}.xml").write_text('<testsuites><testsuite name="pytest">' + "".join(
            f'<testcase classname="t" name="{n}" time="1"/>' for n in names) + "</testsuite></testsuites>")
    script.join_junit([str(tmp_path / "0.xml"), str(tmp_path / "1.xml")], str(tmp_path / "all.xml"))
    import xml.etree.ElementTree as ET
    assert [c.get("name") for c in ET.parse(tmp_path / "all.xml").iter("testcase")] == ["a[sqlite]", "b", "a[postgresql]"]


def test_old_shell_scripts_are_gone():
    for name in ("start.sh", "test.sh", "debian-deps.sh"):
        assert not (ROOT / "scripts" / name).exists()
    assert "python3 scripts/test.py" in (ROOT / ".ci" / "run").read_text()


# --- the bundle --------------------------------------------------------------------------------
def test_bundle_programs_per_platform():
    import build_bundle

    cli, window = build_bundle.bundle_programs("/b/dist", "Linux")
    assert (cli, window) == ("/b/dist/idc-console/idc-console", "/b/dist/idc-console/idc-console-gui")
    cli, window = build_bundle.bundle_programs("/b/dist", "Darwin")
    assert cli == "/b/dist/IDC Console.app/Contents/MacOS/idc-console"
    assert window == "/b/dist/IDC Console.app/Contents/MacOS/IDC Console"
    cli, window = build_bundle.bundle_programs(r"C:\src\dist", "Windows")
    assert (cli, window) == (r"C:\src\dist\idc-console\idc-console.exe", r"C:\src\dist\idc-console\IDC Console.exe")


def test_spec_makes_a_command_line_and_a_windowed_program():
    spec = (ROOT / "idc-console.spec").read_text()
    assert 'name="idc-console", icon=icon, console=True' in spec
    assert "console=False" in spec
    for folder in ("fonts", "translations", "icons"):
        assert f'"resources" / "{folder}"' in spec
    assert 'collect_submodules("psycopg")' in spec


@pytest.mark.slow
def test_start_prepares_and_starts_in_one_interpreter(tmp_path):
    """What start.py hands over to: upgrade, demo when empty, the how-to, then idc-console ARGS."""
    import re

    import start

    db = tmp_path / "start.db"
    env = dict(os.environ, IDC_CONSOLE_PASSWORD="first-admin-1", IDC_CONSOLE_HOME=str(tmp_path / "home"))
    assert subprocess.run([sys.executable, "-m", "app.cli.main", "--db", str(db), "db", "upgrade"], env=env,
                          cwd=ROOT).returncode == 0
    assert subprocess.run([sys.executable, "-m", "app.cli.main", "--db", str(db), "user", "add", "root", "--role",
                           "admin"], env=env, cwd=ROOT, capture_output=True).returncode == 0
    code = start.PREPARE_AND_START.replace("HOW_TO_RUN", repr("HOW TO RUN"))
    argv = ["--db", str(db), "--version"]
    r = subprocess.run([sys.executable, "-c", code] + bootstrap.global_db_args(argv) + ["--"] + argv,
                       env=env, capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert re.search(r"schema (\S+) -> \1\n", r.stdout)   # already at head: nothing changed
    assert "already has data" in r.stdout and "HOW TO RUN" in r.stderr
    assert r.stdout.rstrip().endswith("idc-console 0.1.0")


# --- a first start says what it is doing -------------------------------------------------------
def test_pip_output_is_cut_to_a_line_per_step():
    """The 50–70 s of a first install: a line per package collected and downloaded, then the install."""
    pip = ["Looking in indexes: https://pypi.org/simple",
           "Obtaining file:///home/li/idc-console",
           "  Installing build dependencies: started",
           "Collecting PySide6>=6.6 (from idc-console==0.9.0)",
           "  Downloading PySide6-6.12.0-cp39-abi3-manylinux_2_28_x86_64.whl.metadata (5.4 kB)",
           "Processing /opt/pypi/files/six-1.17.0-py2.py3-none-any.whl",
           "Requirement already satisfied: pip in ./.venv/lib/python3.11/site-packages",
           "Installing collected packages: six, shiboken6, PySide6",
           "Successfully installed PySide6-6.12.0 shiboken6-6.12.0 six-1.17.0"]
    assert [s for s in map(bootstrap.pip_step, pip) if s] == [
        "  building the project itself (editable install) …",
        "  collecting PySide6>=6.6",
        "  downloading PySide6-6.12.0-cp39-abi3-manylinux_2_28_x86_64.whl.metadata (5.4 kB)",
        "  collecting six-1.17.0-py2.py3-none-any.whl",
        "  installing 3 packages (unpacking, some seconds) …",
        "  installed 3 packages"]


def test_each_step_of_a_start_prints_a_line(tmp_path, monkeypatch, capsys):
    """Python checked, packages checked, the environment created and the project installed: each
    says so before it works (pip itself stands in as a tiny script printing pip's lines)."""
    import platform as platform_module
    system = platform_module.system()
    root = tmp_path / "idc"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    monkeypatch.setattr(bootstrap, "ROOT", str(root))
    python = Path(bootstrap.venv_python(str(root), system))

    def fake_venv(argv, **kw):
        if argv[1:3] == ["-m", "venv"]:      # the venv: a "python" that prints pip's lines
            python.parent.mkdir(parents=True)
            python.write_text("#!/bin/sh\necho 'Collecting PySide6'\necho 'Installing collected packages: PySide6'\n"
                              "echo 'Successfully installed PySide6-6.12.0'\n")
            python.chmod(0o755)
            Path(bootstrap.venv_program(str(root), system, "idc-console")).write_text("")
        return subprocess.CompletedProcess(argv, 0)
    monkeypatch.setattr(bootstrap.subprocess, "run", fake_venv)
    bootstrap.require_python()
    assert bootstrap.ensure_venv() == str(python)
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("checking Python: 3.")
    assert err[1].startswith("creating the Python environment") and err[2].startswith("installing the project into")
    assert err[3:] == ["  upgrading pip …", "  collecting PySide6", "  installing 1 packages (unpacking, some seconds) …",
                       "  installed 1 packages"]
    bootstrap.ensure_venv()                                    # a second start: one line, nothing installed
    assert capsys.readouterr().err.splitlines() == [
        "checking the installation: %s is up to date with pyproject.toml" % bootstrap.venv_dir(str(root), system)]

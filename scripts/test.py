"""Fresh machine → the whole test suite (SQLite always; PostgreSQL too when IDC_TEST_PG_URL is set).

    python3 scripts/test.py [pytest arguments]           (Windows: py scripts\\test.py)
    python3 scripts/test.py --quick [pytest arguments]   the quick lane: no `slow` test, SQLite only

The same preparation as scripts/start.py (Python check, .venv, Debian/Ubuntu packages), with the
test extras and poppler's pdftotext; then pytest with Qt's offscreen platform. The quick lane, for
the edit-test loop, runs on every core (pytest-xdist) and leaves out the tests marked `slow` (demo loads, console tours, the large data,
benchmarks, the query-equivalence sweep) and PostgreSQL (IDC_TEST_PG_URL is ignored); the full
suite, the default and what .ci/run runs, keeps every test. With PostgreSQL set and no selection of
its own (no -k, -m, -n or test paths), the full suite runs as two pytest processes side by side: the
tests marked `pg` (tests/conftest.py: each of them one after the other, as they share the server) and
the rest; each half's report is printed when it ends, their JUnit files joined into the one asked for.
"""
import contextlib
import os
import platform
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bootstrap  # noqa: E402  (stdlib only, beside this file)


def pytest_run(argv, environ):
    """(pytest's arguments, its environment) for the command line `argv`."""
    env = dict(environ, QT_QPA_PLATFORM="offscreen")
    if "--quick" in argv:
        argv = [a for a in argv if a != "--quick"] + ["-m", "not slow"]
        if not any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in argv):
            argv += ["-n", "auto"]      # pytest-xdist: one worker a core (SQLite only, so no shared server state)
        env.pop("IDC_TEST_PG_URL", None)
    return list(argv), env


_SELECTING = ("-k", "-m", "-n", "--numprocesses", "--lf", "--last-failed", "--deselect")


def halves(args, env) -> tuple[list[str], list[str], str | None] | None:
    """(the `pg` half's arguments, the other half's, the JUnit file asked for) when the run is the
    whole suite with PostgreSQL, else None (one process, as given)."""
    if not env.get("IDC_TEST_PG_URL"):
        return None
    junit, rest = None, []
    it = iter(args)
    for a in it:
        if a.startswith("--junitxml="):
            junit = a.split("=", 1)[1]
        elif a in ("--junitxml", "--junit-xml"):
            junit = next(it, None)
        elif a.startswith(_SELECTING) or not a.startswith("-"):
            return None     # a selection (or a value, a path) of the caller's own: run it as given
        else:
            rest.append(a)
    return rest + ["-m", "pg"], rest + ["-m", "not pg"], junit


def join_junit(parts: list[str], out: str) -> None:
    """One JUnit file of the halves' (their test suites side by side under one root)."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites")
    for p in parts:
        got = ET.parse(p).getroot()
        root.extend(list(got) if got.tag == "testsuites" else [got])
    ET.ElementTree(root).write(out, encoding="utf-8", xml_declaration=True)


def run_halves(python: str, split, env) -> int:
    """Both halves side by side; each one's output printed when it ends (the longer `pg` half last)."""
    pg_args, other_args, junit = split
    folder = tempfile.mkdtemp(prefix="idc-tests-")
    codes, reports = [], []
    with contextlib.ExitStack() as stack:
        runs = []
        for name, args in (("the tests without PostgreSQL", other_args), ("the PostgreSQL tests", pg_args)):
            report = os.path.join(folder, f"{len(runs)}.xml")
            log = stack.enter_context(open(os.path.join(folder, f"{len(runs)}.log"), "w+", encoding="utf-8"))
            cmd = [python, "-m", "pytest", *args, f"--junitxml={report}"]
            bootstrap.say(f"running {name}: pytest " + " ".join(cmd[3:]))
            runs.append((name, subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT), log))
            reports.append(report)
        for name, proc, log in runs:
            codes.append(proc.wait())
            log.seek(0)
            print(f"--- {name}: pytest exited with {codes[-1]} ---", flush=True)
            sys.stdout.write(log.read())
            sys.stdout.flush()
    if junit:
        join_junit([r for r in reports if os.path.exists(r)], junit)
    return next((c for c in codes if c), 0)


def main(argv):
    bootstrap.require_python()
    if not bootstrap.ensure_linux_packages(for_tests=True):
        return 1
    python = bootstrap.ensure_venv(extras=("test",))
    args, env = pytest_run(argv, os.environ)
    os.chdir(bootstrap.ROOT)
    split = None if "--quick" in argv else halves(args, env)
    if split is not None:
        return run_halves(python, split, env)
    bootstrap.say("running the tests: pytest " + " ".join(args))
    return bootstrap.run_program([python, "-m", "pytest"] + args, platform.system(), env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

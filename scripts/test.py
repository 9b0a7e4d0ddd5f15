"""Fresh machine → the whole test suite (SQLite always; PostgreSQL too when IDC_TEST_PG_URL is set).

    python3 scripts/test.py [pytest arguments]           (Windows: py scripts\\test.py)
    python3 scripts/test.py --quick [pytest arguments]   the quick lane: no `slow` test, SQLite only

The same preparation as scripts/start.py (Python check, .venv, Debian/Ubuntu packages), with the
test extras and poppler's pdftotext; then pytest with Qt's offscreen platform. The quick lane, for
the edit-test loop, runs on every core (pytest-xdist) and leaves out the tests marked `slow` (demo loads, console tours, the large data,
benchmarks, the query-equivalence sweep) and PostgreSQL (IDC_TEST_PG_URL is ignored); the full
suite, the default and what .ci/run runs, keeps every test.
"""
import os
import platform
import sys

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


def main(argv):
    bootstrap.require_python()
    if not bootstrap.ensure_linux_packages(for_tests=True):
        return 1
    python = bootstrap.ensure_venv(extras=("test",))
    args, env = pytest_run(argv, os.environ)
    os.chdir(bootstrap.ROOT)
    bootstrap.say("running the tests: pytest " + " ".join(args))
    return bootstrap.run_program([python, "-m", "pytest"] + args, platform.system(), env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Fresh machine → the whole test suite (SQLite always; PostgreSQL too when IDC_TEST_PG_URL is set).

    python3 scripts/test.py [pytest arguments]      (Windows: py scripts\\test.py)

The same preparation as scripts/start.py (Python check, .venv, Debian/Ubuntu packages), with the
test extras and poppler's pdftotext; then pytest with Qt's offscreen platform.
"""
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bootstrap  # noqa: E402  (stdlib only, beside this file)


def main(argv):
    bootstrap.require_python()
    if not bootstrap.ensure_linux_packages(for_tests=True):
        return 1
    python = bootstrap.ensure_venv(extras=("test",))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    os.chdir(bootstrap.ROOT)
    bootstrap.say("running the tests: pytest " + " ".join(argv))
    return bootstrap.run_program([python, "-m", "pytest"] + argv, platform.system(), env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

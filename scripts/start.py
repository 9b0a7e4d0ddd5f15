"""Fresh machine → the console on the embedded SQLite default with the demo data.

    python3 scripts/start.py [idc-console arguments]      (Windows: py scripts\\start.py)

Checks the Python version, creates .venv, installs the project (again only when pyproject.toml
changed), installs missing Qt libraries on Debian/Ubuntu, upgrades the database, loads the demo
when the database is empty and starts idc-console with the arguments given.
"""
import os
import platform
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bootstrap  # noqa: E402  (stdlib only, beside this file)

PREPARE = ("import sys; from app.cli import main; db = sys.argv[1:]; "
           "sys.exit(main(db + ['db', 'upgrade']) or main(db + ['demo', 'load', '--if-empty']))")


def main(argv):
    bootstrap.require_python()
    if not bootstrap.ensure_linux_packages(for_tests=False):
        return 1
    python = bootstrap.ensure_venv()
    system = platform.system()
    cli = bootstrap.venv_program(bootstrap.ROOT, system, "idc-console")
    db = bootstrap.global_db_args(argv)
    # `idc-console db upgrade` then `idc-console demo load --if-empty`, in one interpreter (faster)
    r = subprocess.run([python, "-c", PREPARE] + db, cwd=bootstrap.ROOT)
    if r.returncode != 0:
        return r.returncode
    print(bootstrap.how_to_run(bootstrap.ROOT, system), file=sys.stderr, flush=True)
    return bootstrap.run_program([cli] + argv, system)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

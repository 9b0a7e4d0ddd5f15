"""Fresh machine → the console on the embedded SQLite default with the demo data.

    python3 scripts/start.py [idc-console arguments]      (Windows: py scripts\\start.py)

Checks the Python version, creates .venv, installs the project (again only when pyproject.toml
changed), installs missing Qt libraries on Debian/Ubuntu, upgrades the database, loads the demo
when the database is empty and starts idc-console with the arguments given.
"""
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bootstrap  # noqa: E402  (stdlib only, beside this file)

# `idc-console db upgrade`, `idc-console demo load --if-empty`, then `idc-console ARGS`, all in one
# interpreter: a second start pays for one Python and one import of the program, not three.
PREPARE_AND_START = (
    "import sys\n"
    "from launcher import main\n"
    "args = sys.argv[1:]\n"
    "db, rest = args[:args.index('--')], args[args.index('--') + 1:]\n"
    "code = main(db + ['db', 'upgrade', '--if-no-users']) or main(db + ['demo', 'load', '--if-empty'])\n"
    "if code == 0:\n"
    "    print(HOW_TO_RUN, file=sys.stderr, flush=True)\n"
    "sys.exit(code or main(rest))\n")


def main(argv):
    bootstrap.require_python()
    if not bootstrap.ensure_linux_packages(for_tests=False):
        return 1
    python = bootstrap.ensure_venv()
    system = platform.system()
    bootstrap.say("preparing the database (schema upgrade; the demo data once, into an empty database: "
                  "about half a minute), then starting the console …")
    code = PREPARE_AND_START.replace("HOW_TO_RUN", repr(bootstrap.how_to_run(bootstrap.ROOT, system)))
    return bootstrap.run_program([python, "-c", code] + bootstrap.global_db_args(argv) + ["--"] + argv, system)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Build the folder of programs for the platform this runs on, and optionally smoke-test it.

    python3 scripts/build_bundle.py [--smoke] [--dist DIR]      (Windows: py scripts\\build_bundle.py)

Uses .venv (made and filled as scripts/start.py does, plus PyInstaller) and idc-console.spec.
The result is DIST/idc-console/: the command line `idc-console` and the windowed console
(`IDC Console.exe` on Windows, `idc-console-gui` on Linux; on macOS DIST/IDC Console.app, whose
Contents/MacOS holds both). --smoke then runs the built command line: --version, db upgrade,
demo load, billing, a statement PDF, audit verify, PostgreSQL (when IDC_TEST_PG_URL is set) and
the console started offscreen and quit.
"""
import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bootstrap  # noqa: E402  (stdlib only, beside this file)


def bundle_programs(dist, system):
    """(command line, windowed console) paths inside the built folder, per platform."""
    join = bootstrap._path(system).join
    if system == "Windows":
        folder = join(dist, "idc-console")
        return join(folder, "idc-console.exe"), join(folder, "IDC Console.exe")
    if system == "Darwin":
        macos = join(dist, "IDC Console.app", "Contents", "MacOS")
        return join(macos, "idc-console"), join(macos, "IDC Console")
    folder = join(dist, "idc-console")
    return join(folder, "idc-console"), join(folder, "idc-console-gui")


def build(python, dist, work):
    cmd = [python, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", "--distpath", dist,
           "--workpath", work, os.path.join(bootstrap.ROOT, "idc-console.spec")]
    print("building: " + " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, cwd=bootstrap.ROOT).returncode


def smoke(cli, window):
    """Run the built programs the way a user would; return the failures."""
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, IDC_CONSOLE_PASSWORD="demo1234", IDC_CONSOLE_HOME=os.path.join(tmp, "home"),
                   IDC_CONSOLE_SETTINGS=os.path.join(tmp, "settings.ini"), QT_QPA_PLATFORM="offscreen")
        env.pop("IDC_CONSOLE_DB", None)
        db = os.path.join(tmp, "smoke.db")

        def run(args, program=cli, extra_env=None, expect=None):
            shown = " ".join(args)
            try:   # a program that waits (a dialog offscreen, a lock) is a failure, not a hang
                r = subprocess.run([program] + args, cwd=tmp, env=dict(env, **(extra_env or {})),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                                   timeout=300)
            except subprocess.TimeoutExpired as exc:
                failures.append("%s -> still running after %d s" % (shown, exc.timeout))
                return ""
            if r.returncode != 0 or (expect and not re.search(expect, r.stdout)):
                failures.append("%s -> exit %d\n%s%s" % (shown, r.returncode, r.stdout[-2000:], r.stderr[-2000:]))
            else:
                print("ok: %s  %s" % (shown, (r.stdout.strip().splitlines() or [""])[0][:120]), flush=True)
            return r.stdout

        run(["--version"], expect=r"^idc-console \d")
        run(["--db", db, "db", "upgrade"])
        run(["--db", db, "demo", "load"], expect="loaded the demo")
        out = run(["--db", db, "--user", "admin", "billing", "run", "--period", "last", "--issue"],
                  expect=r"issued \d+")
        number = re.search(r"\b[A-Z]{2}-\d{6}-\d{6}\b", out or "")
        if number:
            run(["--db", db, "report", "statement", number.group(0), "-o", os.path.join(tmp, "st.pdf")],
                expect="wrote ")
        else:
            failures.append("billing run issued no statement to print")
        run(["--db", db, "audit", "verify"], expect="^OK ")
        # the same with worker processes (the frozen program started again as a worker)
        r = subprocess.run([cli, "--db", db, "audit", "verify"], cwd=tmp, env=dict(env, IDC_AUDIT_PARALLEL_MIN="1"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if r.returncode != 0 or not r.stdout.startswith("OK ") or "could not start" in r.stderr:
            failures.append("audit verify with workers -> exit %d\n%s%s" % (r.returncode, r.stdout[-2000:],
                                                                              r.stderr[-2000:]))
        else:
            print("ok: audit verify with worker processes", flush=True)
        pg = os.environ.get("IDC_TEST_PG_URL")
        if pg:
            run(["--db", pg, "db", "current"], expect=r"\(empty\)|\(head|head is")
        run(["--db", db, "--user", "admin"], program=window, extra_env={"IDC_CONSOLE_EXIT_AFTER_START": "1"},
            expect="console started")
    return failures


def main(argv):
    bootstrap.require_python()
    parser = argparse.ArgumentParser(prog="build_bundle.py", description=__doc__.split("\n")[0])
    parser.add_argument("--dist", default=os.path.join(bootstrap.ROOT, "dist"))
    parser.add_argument("--work", default=os.path.join(bootstrap.ROOT, "build", "pyinstaller"))
    parser.add_argument("--smoke", action="store_true", help="run the built programs afterwards")
    parser.add_argument("--no-build", action="store_true", help="only the smoke test of an earlier build")
    args = parser.parse_args(argv)
    if not bootstrap.ensure_linux_packages(for_tests=False):
        return 1
    python = bootstrap.ensure_venv(extras=("build",))
    system = platform.system()
    started = time.monotonic()
    if not args.no_build and build(python, args.dist, args.work) != 0:
        return 1
    cli, window = bundle_programs(args.dist, system)
    print("built in %.0f s: %s and %s" % (time.monotonic() - started, cli, window), file=sys.stderr)
    if args.smoke:
        failures = smoke(cli, window)
        for f in failures:
            print("FAILED: " + f, file=sys.stderr)
        print("smoke test %s after %.0f s" % ("failed" if failures else "passed", time.monotonic() - started),
              file=sys.stderr)
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

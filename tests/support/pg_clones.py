"""PostgreSQL test databases made one step ahead and dropped behind, off the test's own time.

Each PostgreSQL test gets a fresh clone of a template (CREATE DATABASE … TEMPLATE), and each clone
is dropped afterwards: a second or more each on a busy disk, about half of a PostgreSQL test's
time. A helper process (psycopg, no Python thread in the test process, so no garbage collection
away from the GUI thread) runs those statements in order while the tests run: when a clone of a
template is taken, the next clone of that template is already asked for, and a clone given back
is dropped without waiting. The clones are made with synchronous_commit off (for CREATE DATABASE
and, per database, for the test's own commits): a test's database need not survive a power cut.
"""
from __future__ import annotations

import subprocess
import sys
import uuid

_HELPER = r"""
import sys
import psycopg
conn = psycopg.connect(sys.argv[1], autocommit=True)
conn.execute("SET synchronous_commit = off")
for line in sys.stdin:
    verb, name, *rest = line.split()
    try:
        if verb == "create":
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{rest[0]}"')
            conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        elif verb == "drop":
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        print("ok", name, flush=True)
    except Exception as e:
        print("err", name, " ".join(str(e).split()), flush=True)
"""


class PgClones:
    """Clones of template databases on one server (`admin_dsn`: a libpq URL to its postgres database)."""

    def __init__(self, admin_dsn: str):
        self.admin_dsn = admin_dsn
        self.proc: subprocess.Popen | None = None
        self.ahead: dict[str, str] = {}      # template → the clone already asked for
        self.sent: list[str] = []            # names asked for and not yet answered, in order
        self.answers: dict[str, str] = {}    # name → "ok" or the error

    def _send(self, line: str, name: str) -> None:
        if self.proc is None:
            self.proc = subprocess.Popen([sys.executable, "-c", _HELPER, self.admin_dsn], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, bufsize=1)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        self.sent.append(name)

    def _wait(self, name: str) -> None:
        while name not in self.answers:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the PostgreSQL clone helper stopped (exit {self.proc.wait()})")
            verdict, answered, *why = line.rstrip("\n").split(" ", 2)
            self.answers[answered] = "ok" if verdict == "ok" else (why[0] if why else "failed")
            self.sent.remove(answered)
        answer = self.answers.pop(name)
        if answer != "ok":
            raise RuntimeError(f"PostgreSQL test database {name}: {answer}")

    def _ask_create(self, template: str) -> str:
        name = f"idc_t_{uuid.uuid4().hex[:10]}"
        self._send(f"create {name} {template}", name)
        return name

    def take(self, template: str) -> str:
        """A fresh clone of `template` (its name); the next one is asked for at once."""
        name = self.ahead.pop(template, None) or self._ask_create(template)
        self.ahead[template] = self._ask_create(template)
        self._wait(name)
        return name

    def give_back(self, name: str) -> None:
        """Drop a clone (or any test database) in the background."""
        self._send(f"drop {name}", name)

    def settle(self) -> None:
        """Drop the clones asked for ahead and wait for every drop: before a template is dropped."""
        for name in self.ahead.values():
            self._wait(name)
            self.give_back(name)
        self.ahead.clear()
        for name in list(self.sent):
            self._wait(name)

    def close(self) -> None:
        if self.proc is not None:
            self.settle()
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None

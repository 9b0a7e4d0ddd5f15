"""A real PostgreSQL streaming standby of the test server, for the read-replica tests (issue 26).

`make_standby(admin_url)` runs `pg_basebackup -R` of the server behind `admin_url` into a new data
folder as the postgres user, starts it on a free port and returns a Standby (its port; `stop()`
removes it). The server must admit a replication connection from 127.0.0.1: when its pg_hba.conf
has no such line, `host replication postgres 127.0.0.1/32 trust` is added and the server reloaded.
Raises StandbyUnavailable saying why when a standby cannot be made.
"""
from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass

import psycopg

HBA_LINE = "host replication postgres 127.0.0.1/32 trust"


class StandbyUnavailable(RuntimeError):
    pass


@dataclass
class Standby:
    port: int
    datadir: str
    bindir: str
    slot: str = ""                  # the primary's replication slot (kept WAL until it is dropped)
    primary: tuple = ("127.0.0.1", 5432)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        if os.path.isdir(self.datadir):
            _as_postgres([os.path.join(self.bindir, "pg_ctl"), "-D", self.datadir, "-m", "immediate", "-w", "stop"],
                         check=False)
            shutil.rmtree(os.path.dirname(self.datadir), ignore_errors=True)
        if self.slot:   # a slot left behind would keep the primary's WAL forever
            try:
                with psycopg.connect(host=self.primary[0], port=self.primary[1], user="postgres",
                                     dbname="postgres", autocommit=True) as conn:
                    conn.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
                                 "WHERE slot_name = %s AND NOT active", (self.slot,))
            except psycopg.Error:
                pass

    def start(self) -> None:
        _as_postgres([os.path.join(self.bindir, "pg_ctl"), "-D", self.datadir, "-w", "-t", "60",
                      "-l", os.path.join(os.path.dirname(self.datadir), "log"), "start"])

    def halt(self) -> None:
        """Stopped, its folder kept (the replica-down test)."""
        _as_postgres([os.path.join(self.bindir, "pg_ctl"), "-D", self.datadir, "-m", "fast", "-w", "stop"],
                     check=False)


def _as_postgres(cmd: list[str], check: bool = True) -> subprocess.CompletedProcess:
    if os.geteuid() == 0:
        cmd = ["runuser", "-u", "postgres", "--"] + cmd
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if check and proc.returncode:
        raise StandbyUnavailable(f"{' '.join(cmd)} failed: {(proc.stderr or proc.stdout).strip()[-400:]}")
    return proc


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _admit_replication(conn) -> None:
    hba = conn.execute("SHOW hba_file").fetchone()[0]
    try:
        with open(hba, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise StandbyUnavailable(f"cannot read {hba}: {exc}") from None
    if any(line.split() == HBA_LINE.split() for line in lines):
        return
    try:
        with open(hba, "a", encoding="utf-8") as f:
            f.write("\n" + HBA_LINE + "\n")
    except OSError as exc:
        raise StandbyUnavailable(f"cannot add the replication line to {hba}: {exc}") from None
    conn.execute("SELECT pg_reload_conf()")


def make_standby(host: str = "127.0.0.1", port: int = 5432) -> Standby:
    """The standby, streaming through a replication slot of its own (dropped by stop())."""
    try:
        conn = psycopg.connect(host=host, port=port, user="postgres", dbname="postgres", autocommit=True)
    except psycopg.Error as exc:
        raise StandbyUnavailable(f"no PostgreSQL server at {host}:{port}: {exc}") from None
    with conn:
        version = conn.info.server_version // 10000
        _admit_replication(conn)
    bindir = f"/usr/lib/postgresql/{version}/bin"
    if not os.path.exists(os.path.join(bindir, "pg_ctl")):
        raise StandbyUnavailable(f"no pg_ctl in {bindir}")
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise StandbyUnavailable("no postgres user on this machine") from None
    root = tempfile.mkdtemp(prefix="idc-standby-")
    os.chmod(root, 0o755)
    shutil.chown(root, "postgres", "postgres")
    datadir = os.path.join(root, "data")
    standby = Standby(_free_port(), datadir, bindir, f"idc_test_{os.getpid()}_{os.path.basename(root)[-8:]}",
                      (host, port))
    try:
        # a slot: the primary keeps the WAL from the backup on until the standby streams it (the
        # test server writes fast: without one the first segment was gone when the standby started)
        _as_postgres(["pg_basebackup", "-h", host, "-p", str(port), "-U", "postgres", "-D", datadir,
                      "-R", "-X", "stream", "-c", "fast", "-C", "-S", standby.slot])
        # Debian keeps the server's configuration in /etc/postgresql: the copy gets its own
        _write(os.path.join(datadir, "postgresql.conf"),
               f"port = {standby.port}\nlisten_addresses = '127.0.0.1'\nhot_standby = on\n"
               f"unix_socket_directories = '{root}'\nshared_buffers = 32MB\n"
               "wal_receiver_status_interval = 1s\nhot_standby_feedback = on\n")
        _write(os.path.join(datadir, "pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\n")
        _write(os.path.join(datadir, "pg_ident.conf"), "")
        standby.start()
    except BaseException as exc:
        log = os.path.join(root, "log")
        detail = ""
        if os.path.exists(log):
            with open(log, encoding="utf-8", errors="replace") as f:
                detail = f.read()[-600:]
        standby.stop()
        if detail and isinstance(exc, StandbyUnavailable):
            raise StandbyUnavailable(f"{exc}; the standby's log: {detail}") from None
        raise
    return standby


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    shutil.chown(path, "postgres", "postgres")

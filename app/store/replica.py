"""A PostgreSQL streaming replica beside the primary: where the big reads go (issue 26).

`Replica(url)` is owned by a Database (`Database(url, read_url=…)`); inside
`reading(replica=True)` the Database's sessions come from `Replica.session(primary_lsn)`:
- read your own writes: after this process committed (the LSN its last unit of work wrote), the
  replica is used once it has replayed that LSN, waited for up to WAIT_S, else the primary reads;
- a replica that is down or refuses the login is left alone for RETRY_S and the primary reads; the
  reason is kept in `status` (the console's status bar shows it, never a dialog);
- `lag_seconds()`: how far behind it is; `down` and `lag` as last seen, measured by the replica
  reads themselves (the console's status bar shows them without a query of its own).
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

from sqlalchemy import event, text
from sqlalchemy.exc import SQLAlchemyError

log = logging.getLogger(__name__)

WAIT_S = 1.0          # how long a read waits for the replica to replay this process's last commit
POLL_S = 0.05
RETRY_S = 30.0        # a replica found down is tried again after this long
LAG_SHOWN_S = 5.0     # lag worth a status-bar line
LAG_EVERY_S = 10.0    # a replica read measures the lag at most this often


class Replica:
    def __init__(self, url: str, make_engine: Callable, on_status: Callable[[str | None], None] | None = None):
        from sqlalchemy.orm import sessionmaker

        self.url = url
        self.engine = make_engine(url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 3})
        self.sessionmaker = sessionmaker(self.engine, expire_on_commit=False)
        self.status: str | None = None        # why the primary reads instead, or the lag; None: all well
        self.on_status = on_status
        self._down_until = 0.0
        self._replayed = ""                   # the highest LSN seen replayed (text, compared as LSN)
        self.down = False                     # the last try failed: the primary reads
        self.lag: float | None = None         # seconds behind, as last measured
        self._lag_at = 0.0
        self._lock = threading.Lock()
        event.listen(self.engine, "handle_error", self._on_error)

    def _on_error(self, context) -> None:
        if context.is_disconnect:
            self._mark_down(f"the read replica dropped the connection: {context.original_exception}")

    def _mark_down(self, why: str) -> None:
        self.down = True
        with self._lock:
            self._down_until = time.monotonic() + RETRY_S
        first = not (self.status or "").startswith("read replica unavailable")
        self._set_status(f"read replica unavailable, reading from the primary ({' '.join(why.split())[:160]})")
        if first:
            log.warning("read replica %s unavailable: %s", self.url.split("@")[-1], why)

    def _set_status(self, status: str | None) -> None:
        if status != self.status:
            self.status = status
            if self.on_status is not None:
                self.on_status(status)

    def usable(self, lsn: str | None) -> bool:
        """Whether a read may go to the replica now: it is up and (with `lsn`) has replayed it."""
        if time.monotonic() < self._down_until:
            return False
        try:
            with self.engine.connect() as conn:
                self.down = False
                if time.monotonic() - self._lag_at > LAG_EVERY_S:   # for the status bar, now and then
                    self._lag_at = time.monotonic()
                    self._measure_lag(conn)
                if lsn is None or self._seen(lsn, conn):
                    if (self.status or "").startswith("read replica unavailable"):
                        self._set_status(None)
                    return True
                deadline = time.monotonic() + WAIT_S
                while time.monotonic() < deadline:
                    time.sleep(POLL_S)
                    if self._seen(lsn, conn):
                        return True
                return False
        except SQLAlchemyError as exc:
            self._mark_down(str(getattr(exc, "orig", exc)))
            return False

    def _seen(self, lsn: str, conn) -> bool:
        if self._replayed and _lsn(self._replayed) >= _lsn(lsn):
            return True
        replayed = conn.execute(text("SELECT pg_last_wal_replay_lsn()::text")).scalar()
        if replayed is None:      # not a standby: a copy that is its own primary sees what it wrote
            return False
        with self._lock:
            if not self._replayed or _lsn(replayed) > _lsn(self._replayed):
                self._replayed = replayed
        return _lsn(replayed) >= _lsn(lsn)

    def lag_seconds(self) -> float | None:
        """Seconds the replica's replay is behind (0 when it has replayed all it received); None: unknown."""
        if time.monotonic() < self._down_until:
            return None
        try:
            with self.engine.connect() as conn:
                return self._measure_lag(conn)
        except SQLAlchemyError as exc:
            self._mark_down(str(getattr(exc, "orig", exc)))
            return None

    def _measure_lag(self, conn) -> float | None:
        lag = conn.execute(text(
            "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0 "
            "ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END")).scalar()
        lag = self.lag = None if lag is None else float(lag)
        if lag is not None and lag > LAG_SHOWN_S:
            self._set_status(f"read replica {lag:.0f} s behind")
        elif (self.status or "").startswith("read replica") and "behind" in (self.status or ""):
            self._set_status(None)
        return lag

    def dispose(self) -> None:
        self.engine.dispose()


def _lsn(value: str) -> int:
    high, low = value.split("/")
    return (int(high, 16) << 32) | int(low, 16)

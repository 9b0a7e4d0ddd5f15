"""A TCP relay on loopback that delays every byte by a fixed one-way time and counts round trips.

    relay = DelayRelay("127.0.0.1", 5432, one_way_ms=15)     # 30 ms RTT
    url = ...port=relay.port...                               # the console connects to the relay
    relay.round_trips                                         # client turns so far (all connections)
    relay.close()

What a subsidiary's link does to the console, on one machine: each direction's data arrives
`one_way_ms` after it was sent (order kept, no bandwidth limit), and a new connection pays one
round trip more before its first byte (TCP's handshake, which loopback does in no time).

A round trip is counted each time the client sends after it has heard from the server (or sends the
first time on a connection, the handshake counted with it): the number of times the console waited
for the database, whatever the number of statements it sent in between.
"""
from __future__ import annotations

import queue
import socket
import threading
import time

CHUNK = 65536


class DelayRelay:
    def __init__(self, target_host: str, target_port: int, one_way_ms: float = 0.0):
        self.target = (target_host, target_port)
        self.delay = one_way_ms / 1000.0
        self.round_trips = 0
        self.connections = 0
        self._lock = threading.Lock()
        self._closed = False
        self._socks: list[socket.socket] = []
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, name="wan-relay-accept", daemon=True).start()

    # --- the counters -------------------------------------------------------------------------------
    def snapshot(self) -> tuple[int, int]:
        with self._lock:
            return self.round_trips, self.connections

    def _turn(self, conn: dict, from_client: bool) -> None:
        with self._lock:
            if from_client and conn["last"] != "client":
                self.round_trips += 1
            conn["last"] = "client" if from_client else "server"

    # --- the relay -----------------------------------------------------------------------------------
    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _addr = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), name="wan-relay-conn", daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        try:
            upstream = socket.create_connection(self.target)
        except OSError:
            client.close()
            return
        for s in (client, upstream):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self._lock:
            self.connections += 1
            self._socks += [client, upstream]
        conn = {"last": None}
        # the handshake's round trip: the client's first bytes arrive one RTT later than the rest would
        first_extra = 2 * self.delay
        for src, dst, from_client in ((client, upstream, True), (upstream, client, False)):
            q: queue.Queue = queue.Queue()
            threading.Thread(target=self._read, args=(src, q, conn, from_client,
                                                      first_extra if from_client else 0.0),
                             name="wan-relay-read", daemon=True).start()
            threading.Thread(target=self._write, args=(dst, q), name="wan-relay-write", daemon=True).start()

    def _read(self, src: socket.socket, q: queue.Queue, conn: dict, from_client: bool, extra: float) -> None:
        while True:
            try:
                data = src.recv(CHUNK)
            except OSError:
                data = b""
            if not data:
                q.put((0.0, b""))
                return
            self._turn(conn, from_client)
            q.put((time.perf_counter() + self.delay + extra, data))
            extra = 0.0

    @staticmethod
    def _write(dst: socket.socket, q: queue.Queue) -> None:
        while True:
            due, data = q.get()
            if not data:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            try:
                dst.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self._closed = True
        try:
            self._listener.close()
        except OSError:
            pass
        with self._lock:
            socks, self._socks = self._socks, []
        for s in socks:
            try:
                s.close()
            except OSError:
                pass

    def __enter__(self) -> "DelayRelay":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

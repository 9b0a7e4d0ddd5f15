"""Writing many rows at once, for the set-wise use cases (a bulk import): new rows by one executemany
(SQLite) or COPY (PostgreSQL), changed fields by one UPDATE per set of fields, versions checked."""
from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import bindparam, insert, inspect, text, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from models.gpu import PLACE_FIELDS, GpuAsset, refresh_device_gpus

from app.domain.errors import Conflict
from app.store.rows import insert_many
from app.store.uow import UnitOfWork


def _follow(s: Session, table, device_ids) -> None:
    """What follows rows written outside the session's flush: the GPUs' counts per server
    (device_gpu_count, kept by models/gpu.follow_gpu_places for the session's own writes)."""
    if table is GpuAsset.__table__:
        ids = {d for d in device_ids if d is not None}
        if ids:
            refresh_device_gpus(s.connection(), ids)


def insert_rows(s: Session, table, params: list[dict], *, ids: bool = True) -> list[Any] | None:
    """Insert many rows (dicts with the same keys) into `table` in one go, in order; with `ids`,
    returns each row's primary key (given, or made by the database).

    SQLite: one executemany. Its RETURNING of a multi-row INSERT comes in no promised order (SQLAlchemy
    then inserts one row at a time), so the first row goes in alone, taking the write lock and its id,
    and the others get the ids after it: what SQLite gives a new row (one more than the largest id), in
    order, while this transaction is the only writer.
    PostgreSQL: the ids come from the table's sequence (one query), and the rows go in by COPY, through
    each column's own bind processing: a multi-row INSERT of 500 rows has 6,000 placeholders, which
    psycopg parses anew for every such statement (that was half the client's time), and an
    executemany is one execution per row on the server. A failure is raised as SQLAlchemy's DBAPIError,
    as an INSERT's would be."""
    if not params:
        return [] if ids else None
    s.flush()  # what the session holds goes first (these rows may refer to it)
    pk = list(table.primary_key.columns)[0]
    given = pk.key in params[0]
    dialect = s.get_bind().dialect
    if dialect.name == "postgresql":
        if ids and not given:
            seq = s.execute(text("SELECT nextval(pg_get_serial_sequence(:t, :c)) FROM generate_series(1, :n)"),
                            {"t": table.name, "c": pk.name, "n": len(params)}).scalars().all()
            params = [{**p, pk.key: i} for p, i in zip(params, sorted(seq))]
        insert_many(s, table, params)
        _follow(s, table, (p.get("device_id") for p in params))
        return [p[pk.key] for p in params] if ids else None
    if given or not ids:
        insert_many(s, table, params)
        _follow(s, table, (p.get("device_id") for p in params))
        return [p[pk.key] for p in params] if ids else None
    first = s.execute(insert(table).returning(pk), params[0]).scalar_one()
    new_ids = list(range(first, first + len(params)))
    if len(params) > 1:
        insert_many(s, table, [{**p, pk.key: i} for p, i in zip(params[1:], new_ids[1:])])
    _follow(s, table, (p.get("device_id") for p in params))
    return new_ids


def flush_versioned_many(uow: UnitOfWork, changes: list[tuple[Any, dict]], kind: str) -> None:
    """flush_versioned for many records at once: [(record, {field: new value})], written by one UPDATE
    executed for all the records that change the same fields (an executemany), each row matched on its
    id and version as the ORM's own UPDATE is; the records then hold the written values as stored (not
    dirty). A lost race is a Conflict raised without rolling back: the caller's SAVEPOINT is rolled
    back and its rows written one by one, where flush_versioned names who won."""
    if not changes:
        return
    s = uow.session
    s.flush()  # what the session holds goes first
    model = type(changes[0][0])
    mapper = inspect(model)
    table = model.__table__
    version = mapper.version_id_col
    version_key = mapper.get_property_by_column(version).key if version is not None else None
    pk = list(table.primary_key.columns)[0]
    pk_key = mapper.get_property_by_column(pk).key
    now = dt.datetime.now(dt.timezone.utc)
    login = uow.actor.login
    groups: dict[tuple[str, ...], list[tuple[Any, dict]]] = {}
    for obj, fields in changes:
        groups.setdefault(tuple(fields), []).append((obj, fields))
    for keys, rows in groups.items():
        stmt = update(table).where(pk == bindparam("_pk"))
        values = {mapper.attrs[k].columns[0]: bindparam(f"_v_{k}") for k in keys}
        values.update({mapper.attrs["updated_by"].columns[0]: bindparam("_by"),
                       mapper.attrs["updated_at"].columns[0]: bindparam("_at")})
        if version is not None:
            stmt = stmt.where(version == bindparam("_version"))
            values[version] = bindparam("_new_version")
        params = []
        for obj, fields in rows:
            p = {f"_v_{k}": fields[k] for k in keys}
            p.update(_pk=getattr(obj, pk_key), _by=login, _at=now)
            if version is not None:
                p.update(_version=getattr(obj, version_key), _new_version=getattr(obj, version_key) + 1)
            params.append(p)
        moved = ({obj.device_id for obj, _f in rows} | {f.get("device_id") for _o, f in rows}
                 if table is GpuAsset.__table__ and any(k in PLACE_FIELDS for k in keys) else ())
        result = s.connection().execute(stmt.values(values), params)
        _follow(s, table, moved)
        if result.rowcount != len(params):
            raise Conflict(f"one of {len(params)} {kind} records was changed by someone else while they were "
                           "written. Reload them to see the changes, then try again.")
        for (obj, fields), p in zip(rows, params):
            for k, v in fields.items():
                set_committed_value(obj, k, v)
            set_committed_value(obj, "updated_by", login)
            set_committed_value(obj, "updated_at", now)
            if version is not None:
                set_committed_value(obj, version_key, p["_new_version"])

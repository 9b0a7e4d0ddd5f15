"""Rack power meter readings: the all-or-nothing import that billing's power lines read."""
from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Callable, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.audit.reconcile import id_ranges, readings_digest
from app.domain import rating as B
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import ValidationError
from app.domain.money import AmountError, parse_decimal
from app.services.billing.statements import _fmt_t
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import MeterReading

# --- meter readings -----------------------------------------------------------------------

@dataclass(frozen=True)
class MeterImport:
    imported: int
    unchanged: int  # rows already present with the same value
    racks: int


def _rack_resolver(s: Session):
    """The meter file's rack column, read by the one rule for naming a rack (racknames.RackIndex)."""
    from app.services.racknames import rack_index
    return rack_index(s).resolve


def _parse_time(text: str) -> dt.datetime:
    t = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if t.tzinfo is None:
        t = t.replace(tzinfo=B.TZ)  # local meter times are Asia/Shanghai
    return t.astimezone(dt.timezone.utc)


_YES = {"1", "y", "yes", "true", "reset", "是"}


@dataclass(frozen=True)
class CounterMeter:
    """A kind of cumulative kWh counter whose readings are imported: rack meters, circuit meters."""

    column: str        # the CSV column naming the meter ("rack", "circuit")
    model: type        # the readings' table
    key: str           # its column naming the meter ("rack_id", "power_feed_id")
    action: str        # the audit action and object type of an import
    object_type: str
    label: str         # "meter readings", "circuit meter readings"
    plural: str        # how the audit's after-values count the meters ("racks", "circuits")


RACK_METER = CounterMeter("rack", MeterReading, "rack_id", "meter.import", "meter_reading", "meter readings", "racks")


def import_meter_readings(db: Database, actor: Actor, source: str | Path | Iterable[dict]) -> MeterImport:
    """CSV with columns rack, read_at, kwh_total (cumulative) and an optional reset column. All rows or none.

    Times without an offset are Asia/Shanghai. A row already stored with the same value is
    counted as unchanged; the same rack and time with another value is refused. A cumulative
    counter only goes down when the meter was reset or replaced: such a reading is accepted
    only with reset=1 (yes/true), and billing then counts it from zero; any other reading
    below the one before it, or above the one after it, is refused.
    """
    return MeterImport(*import_counter_readings(db, actor, source, RACK_METER, _rack_resolver))


def import_counter_readings(db: Database, actor: Actor, source: str | Path | Iterable[dict], meter: CounterMeter,
                            resolver: Callable[[Session], Callable[[str], tuple[int | None, str | None]]]
                            ) -> tuple[int, int, int]:
    """The one import of cumulative meter readings (rack meters here, circuits in services/power.py):
    (imported, unchanged, meters). `resolver(session)` gives a function naming a meter's id, or why not.
    The rules are those of import_meter_readings, whatever the meter."""
    require(actor, "import")
    noun = meter.column
    if isinstance(source, (str, Path)):
        text = Path(source).read_text(encoding="utf-8-sig")
        reader = csv.DictReader(io.StringIO(text))
        missing = {noun, "read_at", "kwh_total"} - set(reader.fieldnames or [])
        if missing:
            raise ValidationError({"file": f"the CSV needs the columns {noun}, read_at, kwh_total; missing "
                                           f"{', '.join(sorted(missing))}"})
        rows = list(reader)
    else:
        rows = list(source)
    kwh_type = meter.model.__table__.c.kwh_total.type
    places, whole = kwh_type.scale, kwh_type.precision - kwh_type.scale
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        resolve = resolver(s)
        errors: dict[str, str] = {}
        parsed: dict[tuple[int, dt.datetime], tuple[Decimal, int]] = {}
        resets: set[tuple[int, dt.datetime]] = set()
        for n, row in enumerate(rows, start=2):
            meter_id, problem = resolve((row.get(noun) or "").strip())
            if problem:
                errors[f"line {n}"] = problem
                continue
            try:
                at = _parse_time(row.get("read_at") or "")
            except ValueError:
                errors[f"line {n}"] = f"read_at {row.get('read_at')!r} is not a date and time (2026-11-01T00:00)"
                continue
            try:  # the one grammar of a number (1e400, NaN refused), to the column's digits
                kwh = parse_decimal(row.get("kwh_total"), places=places, whole_digits=whole)
                if kwh is None or kwh < 0:
                    raise AmountError("")
            except AmountError as exc:
                why = f" ({exc})" if str(exc) else ""
                errors[f"line {n}"] = (f"kwh_total {row.get('kwh_total')!r} is not a meter reading: a cumulative "
                                       f"kWh count of at most {whole} digits and {places} decimals{why}")
                continue
            key = (meter_id, at)
            if key in parsed and parsed[key][0] != kwh:
                errors[f"line {n}"] = f"same {noun} and time as line {parsed[key][1]} with another value"
            parsed[key] = (kwh, n)
            if str(row.get("reset") or "").strip().lower() in _YES:
                resets.add(key)
        model, col = meter.model, getattr(meter.model, meter.key)
        stored: dict = {}
        if parsed:
            for meter_id in {k[0] for k in parsed}:
                times = [k[1] for k in parsed if k[0] == meter_id]
                for at, kwh in s.execute(select(model.read_at, model.kwh_total).where(
                        col == meter_id, model.read_at >= min(times), model.read_at <= max(times))):
                    stored[(meter_id, at)] = kwh
            for key, (kwh, n) in parsed.items():
                if key in stored and stored[key] != kwh:
                    errors[f"line {n}"] = (f"a reading for that {noun} at {_fmt_t(key[1])} is already stored "
                                           f"as {stored[key]} kWh; it is not overwritten")
            _check_counters_rise(s, meter, parsed, stored, resets, errors)
        if errors:
            raise ValidationError(errors)
        new = [(k, v[0]) for k, v in parsed.items() if k not in stored]
        added = [model(**{meter.key: meter_id, "read_at": at, "kwh_total": kwh}) for (meter_id, at), kwh in new]
        s.add_all(added)
        s.flush()
        meters = len({k[0] for k in parsed})
        after = {"imported": len(new), "unchanged": len(parsed) - len(new), meter.plural: meters}
        if added:
            # which rows, and what they hold as stored: audit reconcile checks them against it
            ids = id_ranges([r.id for r in added])
            after.update(ids=ids, sha256=readings_digest(s, meter.object_type, ids))
        uow.audit(meter.action, meter.object_type, None, f"{len(new)} {meter.label}", after=after)
        uow.commit()
        return len(new), len(parsed) - len(new), meters


def _check_counters_rise(s: Session, meter: CounterMeter, parsed: dict, stored: dict, resets: set,
                         errors: dict) -> None:
    """A new reading lower than the reading before it (stored or imported) must be marked reset;
    a new reading higher than a stored one after it would turn that one into a drop: refused."""
    for rack_id in {k[0] for k in parsed}:
        times = [k[1] for k in parsed if k[0] == rack_id]
        series = {t: (v, None) for (r, t), v in stored.items() if r == rack_id}
        model, col = meter.model, getattr(meter.model, meter.key)
        before = s.execute(select(model.read_at, model.kwh_total).where(
            col == rack_id, model.read_at < min(times)).order_by(model.read_at.desc()).limit(1)).first()
        after = s.execute(select(model.read_at, model.kwh_total).where(
            col == rack_id, model.read_at > max(times)).order_by(model.read_at).limit(1)).first()
        for row in (before, after):
            if row is not None:
                series[row[0]] = (row[1], None)
        for (r, t), (kwh, n) in parsed.items():
            if r == rack_id and t not in series:
                series[t] = (kwh, n)
        ordered = sorted(series.items())
        for (t0, (v0, n0)), (t1, (v1, n1)) in zip(ordered, ordered[1:]):
            if v1 >= v0 or (rack_id, t1) in resets:
                continue
            if n1 is not None:
                errors.setdefault(f"line {n1}", f"kwh_total {v1} is below the reading before it ({v0} at {_fmt_t(t0)}); "
                                                f"if the meter was reset or replaced, mark the row reset=1")
            elif n0 is not None:
                errors.setdefault(f"line {n0}", f"kwh_total {v0} is above the stored reading after it "
                                                f"({v1} at {_fmt_t(t1)})")

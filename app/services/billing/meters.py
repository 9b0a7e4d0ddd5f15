"""Rack power meter readings: the all-or-nothing import that billing's power lines read."""
from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from models import (MeterReading)

from ... import billing as B
from ...audit import Actor
from ...auth import require
from ...db import Database
from ...errors import ValidationError
from ...uow import UnitOfWork
from .statements import _fmt_t

# --- meter readings -----------------------------------------------------------------------

@dataclass(frozen=True)
class MeterImport:
    imported: int
    unchanged: int  # rows already present with the same value
    racks: int


def _rack_resolver(s: Session):
    """The meter file's rack column, read by the one rule for naming a rack (dcim.RackIndex)."""
    from ..dcim import rack_index
    return rack_index(s).resolve


def _parse_time(text: str) -> dt.datetime:
    t = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if t.tzinfo is None:
        t = t.replace(tzinfo=B.TZ)  # local meter times are Asia/Shanghai
    return t.astimezone(dt.timezone.utc)


_YES = {"1", "y", "yes", "true", "reset", "是"}


def import_meter_readings(db: Database, actor: Actor, source: str | Path | Iterable[dict]) -> MeterImport:
    """CSV with columns rack, read_at, kwh_total (cumulative) and an optional reset column. All rows or none.

    Times without an offset are Asia/Shanghai. A row already stored with the same value is
    counted as unchanged; the same rack and time with another value is refused. A cumulative
    counter only goes down when the meter was reset or replaced: such a reading is accepted
    only with reset=1 (yes/true), and billing then counts it from zero; any other reading
    below the one before it, or above the one after it, is refused.
    """
    require(actor, "import")
    if isinstance(source, (str, Path)):
        text = Path(source).read_text(encoding="utf-8-sig")
        reader = csv.DictReader(io.StringIO(text))
        missing = {"rack", "read_at", "kwh_total"} - set(reader.fieldnames or [])
        if missing:
            raise ValidationError({"file": f"the CSV needs the columns rack, read_at, kwh_total; missing "
                                           f"{', '.join(sorted(missing))}"})
        rows = list(reader)
    else:
        rows = list(source)
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        resolve = _rack_resolver(s)
        errors: dict[str, str] = {}
        parsed: dict[tuple[int, dt.datetime], tuple[Decimal, int]] = {}
        resets: set[tuple[int, dt.datetime]] = set()
        for n, row in enumerate(rows, start=2):
            rack_id, problem = resolve((row.get("rack") or "").strip())
            if problem:
                errors[f"line {n}"] = problem
                continue
            try:
                at = _parse_time(row.get("read_at") or "")
            except ValueError:
                errors[f"line {n}"] = f"read_at {row.get('read_at')!r} is not a date and time (2026-11-01T00:00)"
                continue
            try:
                kwh = Decimal((row.get("kwh_total") or "").strip())
                if not kwh.is_finite() or kwh < 0:
                    raise InvalidOperation
            except InvalidOperation:
                errors[f"line {n}"] = f"kwh_total {row.get('kwh_total')!r} is not a meter reading"
                continue
            key = (rack_id, at)
            if key in parsed and parsed[key][0] != kwh:
                errors[f"line {n}"] = f"same rack and time as line {parsed[key][1]} with another value"
            parsed[key] = (kwh, n)
            if str(row.get("reset") or "").strip().lower() in _YES:
                resets.add(key)
        stored: dict = {}
        if parsed:
            for rack_id in {k[0] for k in parsed}:
                times = [k[1] for k in parsed if k[0] == rack_id]
                for at, kwh in s.execute(select(MeterReading.read_at, MeterReading.kwh_total).where(
                        MeterReading.rack_id == rack_id, MeterReading.read_at >= min(times),
                        MeterReading.read_at <= max(times))):
                    stored[(rack_id, at)] = kwh
            for key, (kwh, n) in parsed.items():
                if key in stored and stored[key] != kwh:
                    errors[f"line {n}"] = (f"a reading for that rack at {_fmt_t(key[1])} is already stored "
                                           f"as {stored[key]} kWh; it is not overwritten")
            _check_counters_rise(s, parsed, stored, resets, errors)
        if errors:
            raise ValidationError(errors)
        new = [(k, v[0]) for k, v in parsed.items() if k not in stored]
        for (rack_id, at), kwh in new:
            s.add(MeterReading(rack_id=rack_id, read_at=at, kwh_total=kwh))
        s.flush()
        uow.audit("meter.import", "meter_reading", None, f"{len(new)} meter readings",
                  after={"imported": len(new), "unchanged": len(parsed) - len(new),
                         "racks": len({k[0] for k in parsed})})
        uow.commit()
        return MeterImport(len(new), len(parsed) - len(new), len({k[0] for k in parsed}))


def _check_counters_rise(s: Session, parsed: dict, stored: dict, resets: set, errors: dict) -> None:
    """A new reading lower than the reading before it (stored or imported) must be marked reset;
    a new reading higher than a stored one after it would turn that one into a drop: refused."""
    for rack_id in {k[0] for k in parsed}:
        times = [k[1] for k in parsed if k[0] == rack_id]
        series = {t: (v, None) for (r, t), v in stored.items() if r == rack_id}
        before = s.execute(select(MeterReading.read_at, MeterReading.kwh_total).where(
            MeterReading.rack_id == rack_id, MeterReading.read_at < min(times))
            .order_by(MeterReading.read_at.desc()).limit(1)).first()
        after = s.execute(select(MeterReading.read_at, MeterReading.kwh_total).where(
            MeterReading.rack_id == rack_id, MeterReading.read_at > max(times))
            .order_by(MeterReading.read_at).limit(1)).first()
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

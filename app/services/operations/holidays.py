"""A year of China's public holidays and make-up working days (调休) added by an administrator,
from a file in the format of resources/holidays_cn (NateScarlet/holiday-cn: "year", "papers",
"days" of name, date, isOffDay). Each day goes through the SLA calendar's one writer
(sla.set_holiday_in: permission, audit) in one unit of work: the year is added whole or not at all."""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

from app.domain import messages as m
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import ValidationError
from app.services.operations.sla import set_holiday_in
from app.store.db import Database
from app.store.uow import UnitOfWork


@dataclass(frozen=True)
class HolidayYear:
    year: int
    source: str | None                       # the State Council notice (the file's first paper)
    days: tuple[tuple[dt.date, bool, str], ...]  # (day, off, name): off False is a make-up working day


def read_year(path: str | Path) -> HolidayYear:
    """The file's year, checked: every day dated in that year, with its name and whether it is off."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        year, raw = int(data["year"]), data["days"]
        papers = data.get("papers") or []
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValidationError({"file": m.HOLIDAY_FILE(path.name, exc)}) from exc
    days = []
    for n, d in enumerate(raw, start=1):
        try:
            day = dt.date.fromisoformat(d["date"])
            off, name = d["isOffDay"], str(d["name"]).strip()
            if day.year != year or not isinstance(off, bool) or not name:
                raise ValueError(n)
        except (ValueError, KeyError, TypeError) as exc:
            raise ValidationError({"file": m.HOLIDAY_DAY(n, year)}) from exc
        days.append((day, off, name))
    if not days:
        raise ValidationError({"file": m.HOLIDAY_EMPTY()})
    return HolidayYear(year, str(papers[0]) if papers else None, tuple(sorted(days)))


def add_year(db: Database, actor: Actor, year: HolidayYear) -> dict[str, int]:
    """Write the year's days (created, updated or unchanged, counted); administrators only."""
    require(actor, "manage_sla")
    counts = {"created": 0, "updated": 0, "unchanged": 0}
    with UnitOfWork(db, actor) as uow:
        for day, off, name in year.days:
            counts[set_holiday_in(uow, day, off, name, year.source, reason=f"holiday year {year.year} added")] += 1
        uow.commit()
    return counts

"""The business's clock: Asia/Shanghai. Times are stored in UTC and shown, dated and billed here.

The one definition of the local zone; every module that turns an instant into a local date or
text, or a local day into an instant, uses these.
"""
from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from app.domain import messages as M

TZ = ZoneInfo("Asia/Shanghai")
UTC = dt.timezone.utc


def local_today() -> dt.date:
    """Today's business date: the calendar day in Shanghai, whatever zone the machine is set to
    (a desktop on UTC would otherwise see 'today' change at 08:00 and disagree with the due list)."""
    return dt.datetime.now(TZ).date()


def now_local() -> dt.datetime:
    """Now in Shanghai, to the second."""
    return dt.datetime.now(TZ).replace(microsecond=0)


def local_midnight(day: dt.date) -> dt.datetime:
    """The instant a Shanghai calendar day begins, as an aware UTC datetime."""
    return dt.datetime(day.year, day.month, day.day, tzinfo=TZ).astimezone(UTC)


def local_date(instant: dt.datetime) -> dt.date:
    return instant.astimezone(TZ).date()


def local_text(instant: dt.datetime) -> str:
    """'2026-11-30 18:05:00' in Shanghai; a naive value is taken as UTC (as stored)."""
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=UTC)
    return instant.astimezone(TZ).strftime("%Y-%m-%d %H:%M:%S")


# --- a date written by a person ------------------------------------------------------------------
FIRST_YEAR, LAST_YEAR = 2000, 2099   # the business's calendar; also keeps date arithmetic in range
_ISO_DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
# What a spreadsheet writes: Excel's CSV on Chinese Windows (2026/1/5), a date column read as a
# timestamp at midnight (2026-01-05 00:00:00)
_SHEET_DAY = re.compile(r"(\d{4})([-/])(\d{1,2})\2(\d{1,2})|(\d{4})-(\d{2})-(\d{2})[T ]00:00(?::00(?:\.0+)?)?")


class DateError(ValueError):
    """Not a date a person could have meant; the message says what to write."""


def parse_date(value, *, what: str = "date") -> dt.date | None:
    """The one reading of a date given by a person, a command line, a service call or a file:
    YYYY-MM-DD (and what a spreadsheet writes for one: 2026/1/5, 2026-1-5, or midnight 2026-01-05 00:00),
    a date or datetime object as it is; years 2000 to 2099. None for empty text or None.
    DateError for anything else: 20261101, an int, 2026-02-30, 9999-12-31, '2026-01-01garbage'."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        day = value.date()
    elif isinstance(value, dt.date):
        day = value
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        if len(text) == 10 and text[4] == "-" and text[7] == "-" and text[:4].isdigit() and text[5:7].isdigit() \
                and text[8:].isdigit() and text.isascii():  # the usual YYYY-MM-DD, without the patterns
            groups = (text[:4], text[5:7], text[8:])
        else:
            m = _ISO_DAY.fullmatch(text)
            groups = m.groups() if m else None
        if groups is None:
            m = _SHEET_DAY.fullmatch(text)
            groups = tuple(g for g in m.groups() if g not in (None, "-", "/")) if m else None
        if groups is None:
            raise DateError(M.DATE_FORMAT.quoting(value, what))
        try:
            day = dt.date(int(groups[0]), int(groups[1]), int(groups[2]))
        except ValueError:
            raise DateError(M.DATE_CALENDAR.quoting(value, what)) from None
    else:
        raise DateError(M.DATE_AS_TEXT.quoting(value, what))
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise DateError(M.DATE_RANGE.quoting(value if isinstance(value, str) else day.isoformat()))
    return day


def parse_instant(value, *, what: str = "time") -> dt.datetime | None:
    """An instant written by a person or a file: ISO 8601 ('2026-11-05 14:30', '2026-11-05T06:30:00Z',
    '+08:00' offsets), taken as Shanghai time when it names no zone; an aware datetime as it is, a
    naive one as Shanghai. Returned in UTC. None for empty text or None; DateError otherwise."""
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        instant = value
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        try:
            instant = dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text)
        except ValueError:
            raise DateError(f"{value!r} is not a {what}: use YYYY-MM-DD HH:MM (Shanghai time) "
                            "or ISO 8601 with its zone") from None
    else:
        raise DateError(f"{value!r} is not a {what}: use YYYY-MM-DD HH:MM (as text)")
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=TZ)
    if not FIRST_YEAR <= instant.year <= LAST_YEAR:
        raise DateError(f"{value!r} is out of range: times run from {FIRST_YEAR} to {LAST_YEAR}")
    return instant.astimezone(UTC)

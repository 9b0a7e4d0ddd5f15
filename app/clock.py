"""The business's clock: Asia/Shanghai. Times are stored in UTC and shown, dated and billed here.

The one definition of the local zone; every module that turns an instant into a local date or
text, or a local day into an instant, uses these.
"""
from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

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

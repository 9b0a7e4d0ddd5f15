"""What a fapiao's fields accept: the statement, the date issued, the fapiao type."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy.orm import Session

from app.domain.clock import DateError, local_today, parse_date
from app.domain.errors import ValidationError
from app.domain.messages import message_of
from app.services.billing.statements import find_statement
from models import Statement
from models.choices import FapiaoType

ZERO = Decimal("0.00")


def _statement(s: Session, key, lock: bool = False) -> Statement:
    return find_statement(s, key, lock=lock)


def _date(value, field: str = "date") -> dt.date:
    try:
        value = parse_date(value)
    except DateError as exc:
        raise ValidationError({field: message_of(exc)}) from None
    if value is None:
        raise ValidationError({field: "a date (YYYY-MM-DD)"})
    if value > local_today():
        raise ValidationError({field: f"{value} is in the future"})
    return value


def _type(value: str | None) -> str:
    text = (value or "").strip()
    for v, en, zh in FapiaoType.labels():
        if text in (v, en, zh) or text.lower() == en.lower():
            return v
    raise ValidationError({"type": f"the fapiao type is one of {', '.join(FapiaoType.values())} "
                                   f"(数电专票, 数电普票, 纸质发票), not {text!r}"})

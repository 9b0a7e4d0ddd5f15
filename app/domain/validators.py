"""Record-level checks shared by services, imports and dialogs."""
from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import Date, DateTime, Float, Integer, Numeric, String

from app.domain import messages as M
from app.domain.clock import FIRST_YEAR, LAST_YEAR, DateError, parse_date
from app.domain.errors import ValidationError
from app.domain.messages import message_of
from app.domain.money import AmountError, parse_decimal, parse_money, round_fen

# GB 32100-2015: 18 characters from this alphabet (no I, O, S, V, Z); the last is a check character.
USCC_ALPHABET = "0123456789ABCDEFGHJKLMNPQRTUWXY"
USCC_WEIGHTS = (1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28)


def uscc_check_char(first17: str) -> str:
    total = sum(USCC_ALPHABET.index(c) * w for c, w in zip(first17, USCC_WEIGHTS))
    return USCC_ALPHABET[(31 - total % 31) % 31]


def uscc_problem(code: str | None) -> str | None:
    """None when valid, else a sentence saying what is wrong."""
    if not code:
        return M.USCC_REQUIRED()
    code = code.strip().upper()
    if len(code) != 18:
        return M.USCC_LENGTH(len(code))
    bad = sorted({c for c in code if c not in USCC_ALPHABET})
    if bad:
        return M.USCC_ALPHABET(', '.join(bad))
    expected = uscc_check_char(code[:17])
    if code[17] != expected:
        return M.USCC_CHECK(code[:17], expected, code[17])
    return None


def make_uscc(body17: str) -> str:
    """Complete 17 characters with their check character (demo data, tests)."""
    return body17 + uscc_check_char(body17)


# A fapiao number: 8 to 32 digits or letters (a 数电 fapiao has 20 digits; a paper one 8, with a 10-
# or 12-digit code). One rule for `fapiao add`, `fapiao red` and `billing fapiao`.
_FAPIAO_NUMBER = re.compile(r"[0-9A-Za-z-]{8,32}")
FAPIAO_NUMBER_RULE = M.FAPIAO_NUMBER()


def fapiao_number_problem(number: str | None) -> str | None:
    """None when `number` (already stripped) can be a fapiao's number, else the sentence of the rule."""
    return None if number and _FAPIAO_NUMBER.fullmatch(number) else FAPIAO_NUMBER_RULE


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_PHONE = re.compile(r"^[+\d][\d\- ]{5,19}$")


def email_problem(value: str | None) -> str | None:
    if value and not _EMAIL.match(value):
        return M.EMAIL_INVALID.quoting(value)
    return None


def phone_problem(value: str | None) -> str | None:
    if value and not _PHONE.match(value):
        return M.PHONE_INVALID.quoting(value)
    return None


# --- amounts and numbers typed by a person ------------------------------------------------------
# One grammar (app.domain.money.parse_decimal) for every payment, credit, deposit, fapiao amount, contract
# price and import cell: ¥ or ￥, thousands separators, refusal of 1e400/NaN/Infinity and of more
# digits than a column holds, each refusal a field error with a sentence.

def money_field(value, field: str = "amount", *, places: int | None = 2, required: bool = True) -> Decimal | None:
    """An amount of money for `field`: to the fen by default (`places=2`, returned with two decimals);
    ValidationError({field: …}) for anything else, or when it is missing and `required`."""
    try:
        d = parse_money(value, places=places)
    except AmountError as exc:
        raise ValidationError({field: message_of(exc)}) from None
    if d is None:
        if required:
            raise ValidationError({field: M.AMOUNT_REQUIRED()})
        return None
    return round_fen(d) if places == 2 else d


# --- values a column can hold -----------------------------------------------------------------
# One check for every write path (the services' generic create/update, every import kind): a value
# that is not finite, would not fit its column or holds a NUL is refused as a field error with a
# sentence, on both backends alike. Without it SQLite stores Infinity (and later crashes a report)
# or truncates nothing, while PostgreSQL aborts the transaction at the first such row.

_INT_BOUNDS = {"BigInteger": 2 ** 63, "SmallInteger": 2 ** 15}


def _as_number(value: Any) -> Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        return Decimal(repr(value)) if math.isfinite(value) else Decimal("NaN") if value != value else Decimal(
            "Infinity")
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, Decimal):
        return value
    if isinstance(value, str):
        try:  # the one grammar of a number typed by a person (¥/￥, thousands separators)
            return parse_decimal(value, currency=True, whole_digits=10 ** 6)
        except AmountError:
            pass
        try:  # 1e400, Infinity: refused below as not finite or too large
            return Decimal(value.strip())
        except InvalidOperation:
            return None  # not a number at all: the field's own validation says so
    return None


def _date_problem(value: Any) -> str | None:
    try:
        parse_date(value)
    except DateError as exc:
        return message_of(exc)
    return None


def column_value_problem(column: Any, value: Any) -> str | None:
    """None when `value` can be stored in `column` as it is, else a sentence saying why not."""
    if value is None:
        return None
    rule, limit = _column_rule(column)
    if isinstance(value, str):
        if "\x00" in value:
            return "contains a NUL character (\\0), which cannot be stored; remove it"
        if rule == "string":
            if limit is not None and len(value) > limit:
                return M.TOO_LONG(limit, len(value))
            return None
        if rule == "date":
            return _date_problem(value)
    elif rule == "date" and isinstance(value, dt.date):
        return _date_problem(value)
    if rule in ("integer", "numeric", "float"):
        number = _as_number(value)
        if number is None:
            return None
        if not number.is_finite():
            return f"{value!r} is not a finite number"
        if rule == "integer":
            if not -limit <= number < limit:
                return f"{value} is too large: at most {limit - 1:,} here"
        elif rule == "numeric":
            if limit is not None and abs(number) >= Decimal(10) ** limit:
                return f"{value} is too large: at most {limit} digit(s) before the decimal point here"
        elif abs(number) > Decimal("1e300"):
            return f"{value} is too large"
    return None


_RULES: dict[int, tuple[str | None, Any]] = {}


def _column_rule(column: Any) -> tuple[str | None, Any]:
    """What limits a column's values, worked out once per column: (rule, limit) with rule integer
    (limit: the bound), numeric (digits before the point, or None), float, string (length or None),
    date, or None (nothing to check)."""
    found = _RULES.get(id(column))
    if found is None:
        col_type = column.type
        if isinstance(col_type, Integer):
            found = ("integer", next((b for name, b in _INT_BOUNDS.items() if type(col_type).__name__ == name),
                                     2 ** 31))
        elif isinstance(col_type, Float):
            found = ("float", None)
        elif isinstance(col_type, Numeric):
            found = ("numeric", None if col_type.precision is None else col_type.precision - (col_type.scale or 0))
        elif isinstance(col_type, String):
            found = ("string", getattr(col_type, "length", None))
        elif isinstance(col_type, Date) and not isinstance(col_type, DateTime):
            found = ("date", None)
        else:
            found = (None, None)
        _RULES[id(column)] = found
    return found


def column_problems(model: Any, values: dict) -> dict[str, str]:
    """field -> problem for each value in `values` that `model`'s column cannot hold."""
    rules = _MODEL_RULES.get(model)
    if rules is None:
        rules = _MODEL_RULES[model] = {c.key: (c, *_column_rule(c)) for c in model.__table__.columns
                                      if not c.key.startswith("_")}
    errors = {}
    for key, value in values.items():
        if value is None:
            continue
        found = rules.get(key)
        if found is None:
            continue
        column, rule, limit = found
        kind = type(value)
        # the usual values, settled here without a call (an import checks millions of them)
        if kind is str and rule == "string" and (limit is None or len(value) <= limit) and "\x00" not in value:
            continue
        if kind is int and rule == "integer" and -limit <= value < limit:
            continue
        if kind is dt.date and rule == "date" and FIRST_YEAR <= value.year <= LAST_YEAR:
            continue
        problem = column_value_problem(column, value)
        if problem:
            errors[key] = problem
    return errors


_MODEL_RULES: dict[Any, dict[str, tuple]] = {}


# --- GB/T 2260 region codes -------------------------------------------------------------------
_REGION_CODE = re.compile(r"^\d{6}$")


def region_level(code: str) -> int:
    """1 province, 2 prefecture, 3 county level, read from the code itself (GB/T 2260: xx0000,
    xxxx00, xxxxxx). A county directly under a province or municipality (东城区 110101,
    济源市 419001) is still county level."""
    if code[2:] == "0000":
        return 1
    return 2 if code[4:] == "00" else 3


def region_code_problem(session, code: str | None) -> str | None:
    """None when `code` is a region in the loaded list (or empty: whether a region is required is
    the caller's rule), else a sentence naming the code."""
    if code in (None, ""):
        return None
    from models import Region

    code = str(code).strip()
    if not _REGION_CODE.match(code):
        return M.REGION_CODE_FORMAT.quoting(code)
    if session.get(Region, code) is None:
        return M.REGION_UNKNOWN(code)
    return None

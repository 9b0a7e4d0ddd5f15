"""Money helpers: the one home of rounding to the fen, of money formatting and of 人民币大写.

Pure functions over ``Decimal``; no Qt, no database, so the billing engine, the CLI, the
exports, the PDF renderers (reports/) and the console all use these and agree to the fen.
Rounding is half-up (ties away from zero), as Chinese accounting rounds; never through a
float and never through ``format(Decimal, ",.2f")``, which rounds half-even (0.125 → 0.12).
"""
from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

from app.domain import messages as M

FEN = Decimal("0.01")

_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_SMALL_UNITS = ("", "拾", "佰", "仟")
# Up to 万亿 (10**16 yuan exclusive); larger figures never appear on a document.
_LIMIT = 10**16


def round_fen(d: Decimal) -> Decimal:
    """Round half-up (ties away from zero) to 0.01."""
    return Decimal(d).quantize(FEN, rounding=ROUND_HALF_UP)


PERCENT_PLACES = 1  # a share shown as 6.3 %: the room floor, the rack's tooltips, the Racks list's Used (%)


def percent(part, whole, places: int = PERCENT_PLACES) -> Decimal:
    """`part` of `whole` in per cent to `places` decimals, ties away from zero as round_fen and as
    SQL's round() in the lists (app/read/lists/specs.py): 2.5 of 40 is 6.3; 0 when there is no whole."""
    step = Decimal(1).scaleb(-places)
    if not whole:
        return Decimal(0).quantize(step)
    return (Decimal(part) * 100 / Decimal(whole)).quantize(step, rounding=ROUND_HALF_UP)


def _group(digits: str) -> str:
    """'1234567' → '1,234,567' (digits only)."""
    head = len(digits) % 3 or 3
    return ",".join([digits[:head]] + [digits[i:i + 3] for i in range(head, len(digits), 3)])


def _fixed(d: Decimal, places: int | None) -> str:
    """Grouped text of an exact Decimal: `places` decimals (already rounded), or all of its own."""
    sign = "-" if d < 0 else ""
    text = format(abs(d), "f")
    whole, _dot, frac = text.partition(".")
    if places is not None:
        frac = (frac + "0" * places)[:places]
    return sign + _group(whole) + (f".{frac}" if frac else "")


def format_amount(d: Decimal | int | str | None) -> str:
    """``12345.665`` → ``"12,345.67"`` (half-up to the fen, no currency sign); None → ``""``."""
    if d is None:
        return ""
    r = round_fen(d)
    if r == 0:
        r = abs(r)  # no "-0.00"
    return _fixed(r, 2)


def format_cny(d: Decimal | int | str) -> str:
    """``Decimal("12345.666")`` → ``"¥12,345.67"``; negatives as ``"-¥1.00"``."""
    r = round_fen(d)
    sign = "-" if r < 0 else ""
    return f"{sign}¥{format_amount(abs(r))}"


def format_price(d: Decimal | int | str | None) -> str:
    """A unit price with every decimal it has, at least two: 123456789.125 → "123,456,789.125",
    12.5 → "12.50", 0.3125 → "0.3125". A price is never rounded for display: the line's
    quantity × this price must give its amount, and a reader must be able to check that."""
    if d is None:
        return ""
    d = Decimal(d).normalize()
    exp = d.as_tuple().exponent
    places = max(2, -exp) if isinstance(exp, int) else 2
    return _fixed(d.quantize(Decimal(1).scaleb(-places)), places)


def format_quantity(d: Decimal | int | str | None) -> str:
    """A quantity with every decimal it has and none more: 744, 930.5, 0.5161290323, 1,200."""
    if d is None:
        return ""
    d = Decimal(d).normalize()
    if d == 0:
        return "0"
    exp = d.as_tuple().exponent
    return _fixed(d, max(0, -exp))


class AmountError(ValueError):
    """Text that is not an amount (or number) a person could have meant; the message says why and
    what to write. Callers name the field (app.domain.validators.money_field)."""


# Money(14, 2) holds 12 digits before the point; no price, quantity or amount here needs more.
WHOLE_DIGITS = 12
_CURRENCY = "¥￥"  # the half-width yen/yuan sign and the full-width one a Chinese keyboard types
_NUMBER = re.compile(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?")


def parse_decimal(value: str | Decimal | int | float | None, *, places: int | None = None,
                  whole_digits: int = WHOLE_DIGITS, currency: bool = False) -> Decimal | None:
    """A number typed by a person (or read from a spreadsheet cell), exactly, never through a float's
    arithmetic: "1,200.5" → Decimal("1200.5"). None for empty text.

    The one grammar of every amount, price and quantity a person gives: an optional sign, digits
    with or without thousands separators (1,234,567: a comma every three digits, nothing else),
    an optional decimal part; with `currency`, a ¥ or ￥ before the digits (after the sign, or
    before it). Refused with AmountError: exponents (1e400), NaN, Infinity, more than
    `whole_digits` digits before the point, more than `places` decimals."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise AmountError(M.NOT_A_NUMBER.quoting(value))
    if isinstance(value, (Decimal, int, float)):
        if isinstance(value, float):
            if not math.isfinite(value):
                raise AmountError(f"{value!r} is not a finite number")
            value = Decimal(repr(value))
        d = Decimal(value)
        if not d.is_finite():
            raise AmountError(f"{str(value)!r} is not a finite number")
        text = None
    else:
        text = str(value).strip()
        if not text:
            return None
        plain = text[1:] if text[0] == "-" else text
        if plain.isascii() and (plain.isdigit() or (plain[:1] != "." and plain.count(".") == 1
                                                    and plain.replace(".", "", 1).isdigit())):
            return _checked(Decimal(text), text, places, whole_digits)  # the usual 1234.5, without the patterns
        body = text
        sign = ""
        if body[:1] in "+-":
            sign, body = body[0], body[1:].lstrip()
        if currency and body[:1] and body[0] in _CURRENCY:
            body = body[1:].lstrip()
        if not sign and body[:1] in ("+", "-"):
            sign, body = body[0], body[1:]
        m = _NUMBER.fullmatch(sign + body)
        if not m or not (m.group(2) or m.group(3)):
            raise AmountError((M.NOT_AN_AMOUNT if currency else M.NOT_A_NUMBER_WRITE).quoting(text))
        d = Decimal(m.group(1) + (m.group(2) or "0").replace(",", "") + ("." + m.group(3) if m.group(3) else ""))
    return _checked(d, text if text is not None else str(value), places, whole_digits)


def _checked(d: Decimal, shown: str, places: int | None, whole_digits: int) -> Decimal:
    if d and d.adjusted() + 1 > whole_digits:
        raise AmountError(M.TOO_MANY_DIGITS(shown, whole_digits))
    if places is not None and d.as_tuple().exponent < -places:
        exp = d.normalize().as_tuple().exponent if d else 0
        if -exp > places:
            raise AmountError(M.NO_DECIMALS(shown) if places == 0 else M.TOO_MANY_DECIMALS_FEN(shown)
                              if places == 2 else M.TOO_MANY_DECIMALS(shown, places))
    return d


def parse_money(value: str | Decimal | int | float | None, *, places: int | None = None,
                whole_digits: int = WHOLE_DIGITS) -> Decimal | None:
    """An amount typed by a person, exactly: "¥12,345.675" → Decimal("12345.675"); "￥100" → 100.

    parse_decimal with the currency sign allowed; `places=2` for an amount to the fen."""
    return parse_decimal(value, places=places, whole_digits=whole_digits, currency=True)


def _section(n: int) -> str:
    """Words for 0 < n < 10000, one 零 per inner run of zeros, none trailing."""
    out: list[str] = []
    zero_pending = False
    for power in range(3, -1, -1):
        digit = n // 10**power % 10
        if digit == 0:
            zero_pending = bool(out)
            continue
        if zero_pending:
            out.append("零")
            zero_pending = False
        out.append(_DIGITS[digit] + _SMALL_UNITS[power])
    return "".join(out)


def _integer_words(n: int) -> str:
    """Words for n > 0, split recursively at 亿 then 万.

    The low part gets a leading 零 when it has fewer digits than the gap it fills
    (zeros at the end of a section are not read, zeros before the next digit are).
    """
    for unit, name in ((10**8, "亿"), (10**4, "万")):
        if n >= unit:
            high, low = divmod(n, unit)
            words = _integer_words(high) + name
            if low:
                if low < unit // 10:
                    words += "零"
                words += _integer_words(low)
            return words
    return _section(n)


def amount_in_words(d: Decimal) -> str:
    """Chinese upper-case amount (人民币大写), e.g. 12345.67 → 壹万贰仟叁佰肆拾伍元陆角柒分.

    Follows the usual accounting conventions: 整 after 元 or 角 when nothing smaller
    follows; 零 between 元 and 分 when 角 is zero; amounts under one yuan omit 零元.
    """
    r = round_fen(d)
    if abs(r) >= _LIMIT:
        raise ValueError(f"amount too large for words: {r}")
    sign = "负" if r < 0 else ""
    fen_total = int(abs(r) * 100)
    yuan, cents = divmod(fen_total, 100)
    jiao, fen = divmod(cents, 10)

    if yuan == 0 and cents == 0:
        return "零元整"
    parts: list[str] = []
    if yuan:
        parts.append(_integer_words(yuan) + "元")
    if jiao:
        parts.append(_DIGITS[jiao] + "角")
    elif fen and yuan:
        parts.append("零")
    if fen:
        parts.append(_DIGITS[fen] + "分")
    else:
        parts.append("整")
    return sign + "".join(parts)

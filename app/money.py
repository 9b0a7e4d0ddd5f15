"""Money helpers: rounding to the fen, CNY formatting and 人民币大写.

Pure functions over ``Decimal``; no Qt, no database.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

FEN = Decimal("0.01")

_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_SMALL_UNITS = ("", "拾", "佰", "仟")
# Up to 万亿 (10**16 yuan exclusive); larger figures never appear on a document.
_LIMIT = 10**16


def round_fen(d: Decimal) -> Decimal:
    """Round half-up (ties away from zero) to 0.01."""
    return Decimal(d).quantize(FEN, rounding=ROUND_HALF_UP)


def format_cny(d: Decimal) -> str:
    """``Decimal("12345.666")`` → ``"¥12,345.67"``; negatives as ``"-¥1.00"``."""
    r = round_fen(d)
    sign = "-" if r < 0 else ""
    return f"{sign}¥{abs(r):,.2f}"


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

"""Money helpers: the one home of rounding to the fen, of money formatting and of 人民币大写.

Pure functions over ``Decimal``; no Qt, no database, so the billing engine, the CLI, the
exports, the PDF renderers (reports/) and the console all use these and agree to the fen.
Rounding is half-up (ties away from zero), as Chinese accounting rounds; never through a
float and never through ``format(Decimal, ",.2f")``, which rounds half-even (0.125 → 0.12).
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

FEN = Decimal("0.01")

_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_SMALL_UNITS = ("", "拾", "佰", "仟")
# Up to 万亿 (10**16 yuan exclusive); larger figures never appear on a document.
_LIMIT = 10**16


def round_fen(d: Decimal) -> Decimal:
    """Round half-up (ties away from zero) to 0.01."""
    return Decimal(d).quantize(FEN, rounding=ROUND_HALF_UP)


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


def parse_money(text: str | Decimal | int | None) -> Decimal | None:
    """An amount typed by a person, exactly (no float): "12,345.675" → Decimal("12345.675").

    None for empty text; ValueError for text that is not a finite number."""
    if text is None:
        return None
    if isinstance(text, Decimal):
        value = text
    else:
        cleaned = str(text).strip().replace(",", "").replace("¥", "").replace("￥", "")
        if not cleaned:
            return None
        try:
            value = Decimal(cleaned)
        except InvalidOperation:
            raise ValueError(f"{text!r} is not an amount") from None
    if not value.is_finite():
        raise ValueError(f"{text!r} is not an amount")
    return value


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

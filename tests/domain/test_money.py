from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.money import amount_in_words, format_cny, round_fen

# (amount, 人民币大写) — worked examples, including the zero rules across 万/亿 sections.
WORDS = [
    ("0", "零元整"),
    ("0.00", "零元整"),
    ("0.01", "壹分"),
    ("0.05", "伍分"),
    ("0.10", "壹角整"),
    ("0.50", "伍角整"),
    ("0.55", "伍角伍分"),
    ("1", "壹元整"),
    ("10.00", "壹拾元整"),
    ("10.50", "壹拾元伍角整"),
    ("101.10", "壹佰零壹元壹角整"),
    ("1001.01", "壹仟零壹元零壹分"),
    ("10005.00", "壹万零伍元整"),
    ("12345.67", "壹万贰仟叁佰肆拾伍元陆角柒分"),
    ("100000.05", "壹拾万元零伍分"),
    ("101000", "壹拾万壹仟元整"),
    ("1000000.00", "壹佰万元整"),
    ("1010000", "壹佰零壹万元整"),
    ("1000100", "壹佰万零壹佰元整"),
    ("100001000", "壹亿零壹仟元整"),
    ("100010000.00", "壹亿零壹万元整"),
    ("110000000", "壹亿壹仟万元整"),
    ("101000000", "壹亿零壹佰万元整"),
    ("1000000000000", "壹万亿元整"),
    ("1000100000000", "壹万零壹亿元整"),
    ("-5.50", "负伍元伍角整"),
    ("12345.665", "壹万贰仟叁佰肆拾伍元陆角柒分"),  # rounded half-up first
    ("0.004", "零元整"),
    ("-0.004", "零元整"),  # rounds to zero: no 负
]


@pytest.mark.parametrize("amount, words", WORDS)
def test_amount_in_words_examples(amount, words):
    assert amount_in_words(Decimal(amount)) == words


@pytest.mark.parametrize(
    "amount, rounded",
    [("1.005", "1.01"), ("1.004", "1.00"), ("-1.005", "-1.01"), ("2.675", "2.68"), ("3", "3.00")],
)
def test_round_fen_half_up(amount, rounded):
    assert round_fen(Decimal(amount)) == Decimal(rounded)
    assert str(round_fen(Decimal(amount))) == rounded


@pytest.mark.parametrize(
    "amount, text",
    [("12345.67", "¥12,345.67"), ("0", "¥0.00"), ("1000000", "¥1,000,000.00"),
     ("-1234.5", "-¥1,234.50"), ("0.125", "¥0.13")],
)
def test_format_cny(amount, text):
    assert format_cny(Decimal(amount)) == text


def test_too_large_is_refused():
    with pytest.raises(ValueError):
        amount_in_words(Decimal(10) ** 16)


# --- a second implementation, digit by digit, to check the first on random amounts ---

_D = "零壹贰叁肆伍陆柒捌玖"


def _words_by_digits(amount: Decimal) -> str:
    fen_total = int((abs(amount) * 100).to_integral_value(rounding="ROUND_HALF_UP"))
    if fen_total == 0:
        return "零元整"
    digits = str(fen_total // 100)
    jiao, fen = fen_total // 10 % 10, fen_total % 10
    out = ""
    zero_seen = False
    n = len(digits)
    if digits != "0":
        for i, ch in enumerate(digits):
            p = n - 1 - i  # power of ten of this digit
            if ch == "0":
                zero_seen = bool(out)
            else:
                if zero_seen:
                    out += "零"
                    zero_seen = False
                out += _D[int(ch)] + ("", "拾", "佰", "仟")[p % 4]
            if p in (4, 12) and int(digits[max(0, i - 3): i + 1]) > 0:
                out += "万"
                zero_seen = False  # zeros at the end of a section are not read
            elif p == 8 and int(digits[: i + 1]) > 0:
                out += "亿"
                zero_seen = False
        out += "元"
    if jiao:
        out += _D[jiao] + "角"
    elif fen and out:
        out += "零"
    out += _D[fen] + "分" if fen else "整"
    return ("负" if amount < 0 else "") + out


amounts = st.one_of(
    st.decimals(min_value=Decimal("-9999999999999999.99"), max_value=Decimal("9999999999999999.99"),
                places=2, allow_nan=False, allow_infinity=False),
    # sparse digits exercise the zero rules far more than uniform amounts do
    st.lists(st.sampled_from("0000000123456789"), min_size=1, max_size=16).map(
        lambda ds: Decimal("".join(ds))),
    st.tuples(st.lists(st.sampled_from("0000000019"), min_size=1, max_size=16),
              st.sampled_from(["00", "01", "10", "11", "05", "50"])).map(
        lambda t: Decimal("".join(t[0]) + "." + t[1])),
)


@given(amounts)
def test_amount_in_words_matches_digit_by_digit(amount):
    assert amount_in_words(amount) == _words_by_digits(amount)


@given(amounts)
def test_words_use_only_legal_characters(amount):
    words = amount_in_words(amount)
    assert set(words) <= set(_D + "拾佰仟万亿元角分整负")
    assert "零零" not in words
    assert not words.startswith("零") or words == "零元整"


# --- the one formatter (app/domain/money.py) ----------------------------------------------------------

from app.domain.money import format_amount, format_price, format_quantity, parse_money  # noqa: E402

money_values = st.decimals(min_value=Decimal("-1e13"), max_value=Decimal("1e13"), places=4, allow_nan=False,
                           allow_infinity=False)


@given(money_values)
def test_format_amount_is_round_fen_grouped(d):
    text = format_amount(d)
    whole, frac = text.lstrip("-").split(".")
    assert len(frac) == 2
    groups = whole.split(",")
    assert 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])
    assert Decimal(text.replace(",", "")) == round_fen(d)
    assert format_cny(d) == ("-¥" if round_fen(d) < 0 else "¥") + format_amount(abs(round_fen(d)))


@given(money_values)
def test_format_price_keeps_every_decimal(d):
    text = format_price(d)
    assert Decimal(text.replace(",", "")) == d
    assert len(text.split(".")[1]) >= 2


@given(money_values)
def test_format_quantity_round_trips(d):
    assert Decimal(format_quantity(d).replace(",", "")) == d


@pytest.mark.parametrize("value,amount,price", [
    ("0.125", "0.13", "0.125"),            # half-up, not half-even (the PDF helper gave 0.12)
    ("2.675", "2.68", "2.675"),            # never through a float (the contract form gave 2.67)
    ("-0.125", "-0.13", "-0.125"),
    ("123456789.125", "123,456,789.13", "123,456,789.125"),
    ("-0.004", "0.00", "-0.004"),
    ("12.5", "12.50", "12.50"),
])
def test_formatter_worked_examples(value, amount, price):
    assert format_amount(Decimal(value)) == amount
    assert format_price(Decimal(value)) == price


def test_parse_money_is_exact_and_refuses_what_is_not_an_amount():
    assert parse_money("¥12,345.675") == Decimal("12345.675")
    assert parse_money(" ") is None
    for bad in ("1e400x", "abc", "Infinity", "NaN"):
        with pytest.raises(ValueError):
            parse_money(bad)

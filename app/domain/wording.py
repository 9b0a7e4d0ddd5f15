"""Words in both languages: how a document in Chinese or English words what the program wrote.

The rule (docs/billing.md, "Line texts in both languages"):

- Words the program generates (periods, "to", prorating, quantities, overage, credit prefixes,
  meter and downtime notes) are written in both languages at once, from one template rendered
  with the Chinese and with the English words (`both`): no figure is computed twice.
- Units are a closed set of words (`models.choices.LineUnit`), translated when printed.
- Text a person typed is in the language it was typed in. Where the model keeps an English
  alternate (a subsidiary's `name_en`, `address_en`, `bank_name_en`: `alternate`; an item's
  `description_en`) English documents use it;
  otherwise Chinese text is not printed in an English document: a name is made from the record's
  structured facts (an item's kind and object: `english_item_name`), or the document says that
  the text is kept in Chinese (`free_text`). Chinese documents print everything as typed.

Pure: no database, no Qt.
"""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Callable, NamedTuple

# CJK ideographs and the full-width punctuation that comes with them (，。：；（）、 …)
_CJK = re.compile(r"[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff"
                  r"\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")


def has_cjk(text: str | None) -> bool:
    """Whether the text holds Chinese characters or full-width punctuation."""
    return bool(text) and _CJK.search(text) is not None


class Text(NamedTuple):
    """The same text in Chinese and in English."""

    zh: str
    en: str

    def of(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh

    def __add__(self, other):  # Text + Text / str: joined in each language
        if isinstance(other, Text):
            return Text(self.zh + other.zh, self.en + other.en)
        return Text(self.zh + other, self.en + other)

    def __radd__(self, other):
        return Text(other + self.zh, other + self.en)

    @classmethod
    def same(cls, text: str) -> "Text":
        """Text with no words to translate (figures, serials)."""
        return cls(text, text)


class Words:
    """The words of one language: `w(zh, en)` picks; `w.of(text)` picks a Text's."""

    __slots__ = ("lang",)

    def __init__(self, lang: str):
        self.lang = lang

    def __call__(self, zh: str, en: str) -> str:
        return en if self.lang == "en" else zh

    def of(self, text: Text) -> str:
        return text.en if self.lang == "en" else text.zh


ZH, EN = Words("zh"), Words("en")


def both(render: Callable[[Words], str]) -> Text:
    """One template rendered with the Chinese and with the English words."""
    return Text(render(ZH), render(EN))


def free_text(text: str | None, lang: str) -> str:
    """Text a person typed, for a document in `lang`: as typed, except Chinese in English (empty)."""
    text = (text or "").strip()
    return "" if lang == "en" and has_cjk(text) else text


def alternate(obj, field: str, lang: str) -> str:
    """A record's text for a document in `lang`: in English its English alternate `<field>_en` (a
    subsidiary's name_en, address_en, bank_name_en) when it has one, else the text as registered
    (a legal name, address or bank is printed even when it is only in Chinese)."""
    text = getattr(obj, field, None) or ""
    if lang == "en":
        return getattr(obj, f"{field}_en", None) or text
    return text


def room_label(name: str | None, lang: str) -> str:
    """A room as an English document names it: rooms have no code field, so the name's first word
    when the name is Chinese and that word is not ('A1 液冷智算机房' → 'A1'), as sites are named by
    their code; else the name as typed. Chinese documents: the name."""
    name = (name or "").strip()
    if lang == "en" and has_cjk(name) and name.split() and not has_cjk(name.split()[0]):
        return name.split()[0]
    return name


def _qty(d) -> str:
    d = Decimal(d)
    return f"{int(d):,}" if d == d.to_integral_value() else f"{d.normalize():f}"


def english_item_name(kind_label: str, *, rack: str | None = None, cage: str | None = None,
                      device: str | None = None, gpu_model: str | None = None, quantity=None,
                      mbps: int | None = None, u_from: int | None = None, u_to: int | None = None) -> str:
    """An item's English name from its kind and object, for an item described only in Chinese:
    'Rack lease GZ-HP1 A01', 'GPU rental H100 SXM 80GB × 8', 'Bandwidth 100 Mbps',
    'Maintenance × 4'. The object names are as recorded (rack and site codes, model names)."""
    parts = [kind_label]
    where = cage or rack
    if where:
        parts.append(where + (f" U{u_from}–U{u_to}" if u_from and u_to and not cage else ""))
    if device:
        parts.append(device)
    if gpu_model:
        parts.append(gpu_model)
    if mbps:
        parts.append(f"{mbps} Mbps")
    name = " ".join(p for p in parts if p)
    if quantity is not None and Decimal(quantity) != 1 and not mbps:
        name += f" × {_qty(quantity)}"
    return name


# --- amounts in English words (the English documents' counterpart of 人民币大写) ---------------

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (10**3, "thousand"))


def _below_thousand(n: int) -> str:
    out = []
    if n >= 100:
        out.append(f"{_ONES[n // 100]} hundred")
        n %= 100
        if n:
            out.append("and")
    if n >= 20:
        out.append(_TENS[n // 10] + (f"-{_ONES[n % 10]}" if n % 10 else ""))
    elif n:
        out.append(_ONES[n])
    return " ".join(out)


def _integer_words_en(n: int) -> str:
    if n == 0:
        return "zero"
    out = []
    for scale, name in _SCALES:
        if n >= scale:
            out.append(f"{_integer_words_en(n // scale)} {name}")
            n %= scale
    if n:
        if out and n < 100:
            out.append("and")
        out.append(_below_thousand(n))
    return " ".join(out)


def amount_in_words_en(d: Decimal) -> str:
    """'Thirteen thousand six hundred and twenty-two yuan and ninety-one fen' (rounded to the fen)."""
    from app.domain.money import round_fen

    r = round_fen(d)
    cents = int(abs(r) * 100)
    yuan, fen = divmod(cents, 100)
    words = f"{_integer_words_en(yuan)} yuan"
    words += f" and {_integer_words_en(fen)} fen" if fen else " only"
    words = ("minus " if r < 0 else "") + words
    return words[0].upper() + words[1:]


def amount_words(d: Decimal, lang: str) -> str:
    """The total in words for a document: 人民币大写 in Chinese, English words in English."""
    from app.domain.money import amount_in_words

    return amount_in_words_en(d) if lang == "en" else amount_in_words(d)

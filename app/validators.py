"""Record-level checks shared by services, imports and dialogs."""
from __future__ import annotations

import re

# GB 32100-2015: 18 characters from this alphabet (no I, O, S, V, Z); the last is a check character.
USCC_ALPHABET = "0123456789ABCDEFGHJKLMNPQRTUWXY"
USCC_WEIGHTS = (1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28)


def uscc_check_char(first17: str) -> str:
    total = sum(USCC_ALPHABET.index(c) * w for c, w in zip(first17, USCC_WEIGHTS))
    return USCC_ALPHABET[(31 - total % 31) % 31]


def uscc_problem(code: str | None) -> str | None:
    """None when valid, else a sentence saying what is wrong."""
    if not code:
        return "the unified social credit code is required"
    code = code.strip().upper()
    if len(code) != 18:
        return f"a unified social credit code has 18 characters, this one has {len(code)}"
    bad = sorted({c for c in code if c not in USCC_ALPHABET})
    if bad:
        return f"a unified social credit code cannot contain {', '.join(bad)} (I, O, S, V and Z are never used)"
    expected = uscc_check_char(code[:17])
    if code[17] != expected:
        return f"the check character is wrong: {code[:17]} must end in {expected}, not {code[17]}"
    return None


def make_uscc(body17: str) -> str:
    """Complete 17 characters with their check character (demo data, tests)."""
    return body17 + uscc_check_char(body17)


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_PHONE = re.compile(r"^[+\d][\d\- ]{5,19}$")


def email_problem(value: str | None) -> str | None:
    if value and not _EMAIL.match(value):
        return f"{value!r} is not an e-mail address"
    return None


def phone_problem(value: str | None) -> str | None:
    if value and not _PHONE.match(value):
        return f"{value!r} is not a phone number"
    return None

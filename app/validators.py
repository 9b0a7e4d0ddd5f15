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
        return f"{code!r} is not a region code: GB/T 2260 codes have six digits, e.g. 460108"
    if session.get(Region, code) is None:
        return (f"{code} is not in the list of regions (GB/T 2260, county level and above); "
                "check the code, or import the regions that have it")
    return None

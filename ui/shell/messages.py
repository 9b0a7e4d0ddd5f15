"""Service messages in the console's language.

The services speak English sentences with values in them (app/ has no Qt). The console matches a
message against the patterns below and translates the template in the "messages" context, putting
the values back (%1, %2, …); a message without a pattern is shown as the service wrote it.
"""
from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

CONTEXT = "messages"


def _(s):
    return s


# (pattern, template): the template's %n are the pattern's groups in order.
PATTERNS: list[tuple[re.Pattern, str]] = [(re.compile(p), t) for p, t in (
    (r"the customer's legal name is required", _("the customer's legal name is required")),
    (r"the legal name is required", _("the legal name is required")),
    (r"the unified social credit code is required", _("the unified social credit code is required")),
    (r"a unified social credit code has 18 characters, this one has (\d+)",
     _("a unified social credit code has 18 characters, this one has %1")),
    (r"a unified social credit code cannot contain (.+) \(I, O, S, V and Z are never used\)",
     _("a unified social credit code cannot contain %1 (I, O, S, V and Z are never used)")),
    (r"the check character is wrong: (\S+) must end in (\S), not (\S)",
     _("the check character is wrong: %1 must end in %2, not %3")),
    (r"credit code (\S+) belongs to another customer", _("credit code %1 belongs to another customer")),
    (r"'(.*)' is not an e-mail address", _("'%1' is not an e-mail address")),
    (r"'(.*)' is not a phone number", _("'%1' is not a phone number")),
    (r"a contact needs a name", _("a contact needs a name")),
    (r"the account manager must be a user with that role", _("the account manager must be a user with that role")),
    (r"'(.*)' is not a region code: GB/T 2260 codes have six digits, e\.g\. 460108",
     _("'%1' is not a region code: GB/T 2260 codes have six digits, e.g. 460108")),
    (r"(\S+) is not in the list of regions \(GB/T 2260, county level and above\); check the code, "
     r"or import the regions that have it",
     _("%1 is not in the list of regions (GB/T 2260, county level and above); check the code, "
       "or import the regions that have it")),
    (r"longer than (\d+) characters \((\d+)\); shorten it", _("longer than %1 characters (%2); shorten it")),
    (r"is required", _("is required")),
    (r"'(.*)' is not a number", _("'%1' is not a number")),
    (r"must be greater than zero", _("must be greater than zero")),
    (r"cannot be negative", _("cannot be negative")),
    (r"a contract needs at least one item", _("a contract needs at least one item")),
    (r"(.+) is inactive; reactivate the customer first", _("%1 is inactive; reactivate the customer first")),
    (r"a contract has a start and an end date", _("a contract has a start and an end date")),
    (r"the contract ends \((\S+)\) before it starts \((\S+)\)", _("the contract ends (%1) before it starts (%2)")),
    (r"a rack lease names an existing rack", _("a rack lease names an existing rack")),
    (r"give both the power allowance \(kW\) and the price per kWh over it, or neither",
     _("give both the power allowance (kW) and the price per kWh over it, or neither")),
    (r"a GPU item names a GPU model and quantity, or the GPUs themselves",
     _("a GPU item names a GPU model and quantity, or the GPUs themselves")),
    (r"GPUs are counted in whole numbers", _("GPUs are counted in whole numbers")),
    (r"hosting names a rack unit range or a device", _("hosting names a rack unit range or a device")),
    (r"bandwidth priced per Mbps names the Mbps", _("bandwidth priced per Mbps names the Mbps")),
    (r"ends before the service starts", _("ends before the service starts")),
    (r"the current password is wrong", _("the current password is wrong")),
    (r"a password has at least 8 characters", _("a password has at least 8 characters")),
    (r"the new password is the same as the current one", _("the new password is the same as the current one")),    # amounts, dates, files, fapiao, power and ports as typed (app/domain/money.py, app/domain/clock.py, app/store/tablefile.py)
    ("'(.*)' is not an amount: write digits, e\\.g\\. 1234\\.50 or ¥1,234\\.50", _("'%1' is not an amount: write digits, e.g. 1234.50 or ¥1,234.50")),
    ("'(.*)' is not a number: write digits, e\\.g\\. 1234\\.5 or 1,234\\.5", _("'%1' is not a number: write digits, e.g. 1234.5 or 1,234.5")),
    ('(.+) is too large: at most (\\d+) digits before the decimal point', _('%1 is too large: at most %2 digits before the decimal point')),
    ('(.+) has more decimals than allowed here: at most two decimals \\(to the fen\\)', _('%1 has more decimals than allowed here: at most two decimals (to the fen)')),
    ('(.+) has more decimals than allowed here: at most (\\d+) decimals', _('%1 has more decimals than allowed here: at most %2 decimals')),
    ('is required: an amount of money, e\\.g\\. 1234\\.50', _('is required: an amount of money, e.g. 1234.50')),
    ("'(.*)' is not a (date|start date|end date|last day): use YYYY-MM-DD", _("'%1' is not a %2: use YYYY-MM-DD")),
    ("'(.*)' is not a (date|start date|end date|last day) of the calendar", _("'%1' is not a %2 of the calendar")),
    ("'(.*)' is out of range: dates run from 2000-01-01 to 2099-12-31", _("'%1' is out of range: dates run from 2000-01-01 to 2099-12-31")),
    ('the fapiao number: 8 to 32 digits or letters \\(a 数电 fapiao has 20 digits\\)', _('the fapiao number: 8 to 32 digits or letters (a 数电 fapiao has 20 digits)')),
    ("¥(\\S+) is not the tax on ¥(\\S+) at statement (\\S+)'s rate \\((.+)\\): expected (.+); check the fapiao's 税额", _("¥%1 is not the tax on ¥%2 at statement %3's rate (%4): expected %5; check the fapiao's 税额")),
    ('the disk is full \\((.+)\\): nothing was written, the whole change was rolled back\\. Free some space and try again', _('the disk is full (%1): nothing was written, the whole change was rolled back. Free some space and try again')),
    ('feed (.+) of this panel has a (\\d+) A breaker; a panel cannot be smaller than its feeds \\(give at least (\\d+) A, or change the feeds first\\)', _('feed %1 of this panel has a %2 A breaker; a panel cannot be smaller than its feeds (give at least %3 A, or change the feeds first)')),
    ("'(.*)' is not a port: ports are numbered from 1 \\(or named, e\\.g\\. 12A\\)", _("'%1' is not a port: ports are numbered from 1 (or named, e.g. 12A)")),
    ('a cable joins two ports; both ends are port (.+) of the same device', _('a cable joins two ports; both ends are port %1 of the same device')),
    ('(.+) is not an Excel workbook \\(\\.xlsx\\) \\((.*)\\); save it from Excel as \\.xlsx, or as CSV', _('%1 is not an Excel workbook (.xlsx) (%2); save it from Excel as .xlsx, or as CSV')),
    ('cannot read (.+): a cell on line (\\d+) is longer than ([\\d,]+) characters', _('cannot read %1: a cell on line %2 is longer than %3 characters')),
    # capacity (issue 25, app/services/capacity/, the contracts' capacity check)
    (r"(.+) cannot be offered: at most (\d+) GPUs are free(.*), (\d+) short",
     _("%1 cannot be offered: at most %2 GPUs are free%3, %4 short")),
    (r"nearest free capacity: (.+)", _("nearest free capacity: %1")),
    (r"no node of that model is free anywhere in the window", _("no node of that model is free anywhere in the window")),
    (r"(?:.+ cannot be \w+: )?item “(.+)” needs (\d+) × (.+), but only (\d+) are available, (\d+) short",
     _("item “%1” needs %2 × %3, but only %4 are available, %5 short")),
    (r"free now: (.+)", _("free now: %1")),
    (r"none is free in any cluster", _("none is free in any cluster")),
    (r"GPU (\S+) is on a node held for another customer's deal", _("GPU %1 is on a node held for another customer's deal")),
    (r"(\d+) of the (\d+) nodes are no longer free from (.+?): (.+)", _("%1 of the %2 nodes are no longer free from %3: %4")),
    (r"search again", _("search again")),
    (r"held: (.+)", _("held: %1")),
    (r"hold (\S+) no longer holds its nodes", _("hold %1 no longer holds its nodes")),
    (r"search again and hold them first", _("search again and hold them first")),
    (r"the price list has no (\w+) price of (.+) on (\S+)", _("the price list has no %1 price of %2 on %3")),
    (r"add it \(price set\) or choose another term", _("add it (price set) or choose another term")),
)]


def translate_message(text: str) -> str:
    """`text` in the console's language when a pattern knows it; each '; '-joined part on its own."""
    if not text:
        return text
    parts = text.split("; ") if "; " in text else [text]
    return "; ".join(_one(p) for p in parts)


def _one(text: str) -> str:
    prefix = ""
    m = re.match(r"^((?:items\[\d+\]\.)?\w+(?:\[\d+\]\.\w+)?): (.*)$", text)
    for candidate in ((text,) if m is None else (text, m.group(2))):
        for pattern, template in PATTERNS:
            hit = pattern.fullmatch(candidate)
            if hit:
                if candidate is not text:
                    prefix = m.group(1) + ": "
                out = QCoreApplication.translate(CONTEXT, template)
                for i, value in enumerate(hit.groups(), start=1):
                    out = out.replace(f"%{i}", value)
                return prefix + out
    return text

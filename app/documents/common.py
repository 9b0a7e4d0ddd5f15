"""Shared by every document: languages, labels, parties and letterheads, small number formats."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from sqlalchemy import select

from app.audit.query import action_name as audit_action_name
from app.domain.errors import NotFound, ValidationError
from app.domain.money import round_fen
from app.domain.wording import alternate
from models import Contact, Customer, Subsidiary
from reports import Party

FONT_ENV = "IDC_PDF_FONT"
LANGS = ("zh", "en")
ZERO = Decimal(0)
FEN = Decimal("0.01")

# --------------------------------------------------------------------------- labels
# Choice labels (states, kinds, units) come from models.choices, the same words as the screen's;
# the audit trail's action and object names from app.audit.query (the list, the CSV and the PDF).
FLEET_OWNER = ("自有", "Own fleet")


def _l(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "en" else pair[0]


def action_label(action: str, lang: str, object_type: str | None = None) -> str:
    """'statement.issue' → '开具账单' / 'Issue statement'; an unknown code is shown as it is."""
    return audit_action_name(action, object_type, lang)


def _check_lang(lang: str | None) -> str | None:
    if lang is not None and lang not in LANGS:
        raise ValidationError({"lang": f"the document language is zh or en, not {lang!r}"})
    return lang


def _fen(d) -> Decimal:
    return round_fen(d or 0)


def _units(value) -> int | Decimal:
    """Rack units as the sheet shows them: 10 not 10.0, 10.5 stays."""
    d = Decimal(value or 0)
    return int(d) if d == d.to_integral_value() else d.quantize(Decimal("0.1"))


def period_label(period: str, lang: str) -> str:
    y, m = period.split("-")
    if lang == "en":
        return dt.date(int(y), int(m), 1).strftime("%B %Y")
    return f"{int(y)}年{int(m)}月"


# --------------------------------------------------------------------------- parties
def _subsidiary_party(sub: Subsidiary, lang: str) -> Party:
    """The issuing subsidiary; an English document takes its English name, address and bank (`alternate`)."""
    return Party(name=alternate(sub, "name", lang), credit_code=sub.credit_code or "",
                 address=alternate(sub, "address", lang), bank_name=alternate(sub, "bank_name", lang),
                 bank_account=sub.bank_account or "", phone=sub.phone or "")


def _customer_party(s, cust: Customer, lang: str = "zh") -> Party:
    """The customer as registered: its name and address are its legal ones, printed as typed in
    either language (the model keeps no English alternate); the contact's name likewise."""
    contact = s.execute(select(Contact).where(Contact.customer_id == cust.id).order_by(Contact.id)).scalars().first()
    phone = ""
    if contact is not None and contact.phone:
        who = (f"（{contact.name}）" if lang == "zh" else f" ({contact.name})") if contact.name else ""
        phone = contact.phone + who
    return Party(name=cust.name, credit_code=cust.credit_code or "", address=cust.address or "", phone=phone)


def _letterhead(s, subsidiary_code: str | None, lang: str) -> Party:
    """The issuing subsidiary; for group-wide reports the first one registered (the headquarters)."""
    q = select(Subsidiary)
    q = q.where(Subsidiary.code == subsidiary_code) if subsidiary_code else q.order_by(Subsidiary.id)
    sub = s.execute(q.limit(1)).scalars().first()
    if sub is None:
        if subsidiary_code:
            raise NotFound(f"there is no subsidiary with the code {subsidiary_code}")
        return Party(name="IDC console")
    return _subsidiary_party(sub, lang)

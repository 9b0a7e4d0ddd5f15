"""Customers' invoicing profiles (开票信息): the title, tax id, address, bank and type printed on a fapiao."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from sqlalchemy import select

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import DomainError, ValidationError
from app.services.receivables.fapiao.fields import _type
from app.services.receivables.lookups import find_customer
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Customer, InvoicingProfile
from models.choices import FapiaoType

_TAX_ID = re.compile(r"^[0-9A-Z]{15,20}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass(frozen=True)
class ProfileInfo:
    customer_id: int
    customer: str
    credit_code: str
    title: str
    tax_id: str
    address_phone: str
    bank_account: str
    fapiao_type: str
    email: str


PROFILE_FIELDS = ("title", "tax_id", "address_phone", "bank_account", "fapiao_type", "email")


def _profile_info(c: Customer, p: InvoicingProfile | None) -> ProfileInfo | None:
    if p is None:
        return None
    return ProfileInfo(c.id, c.name, c.credit_code or "", p.title, p.tax_id, p.address_phone or "",
                       p.bank_account or "", p.fapiao_type, p.email or "")


def get_profile(db: Database, customer: str | int) -> ProfileInfo | None:
    with db.session() as s:
        c = find_customer(s, customer)
        return _profile_info(c, s.execute(select(InvoicingProfile).where(InvoicingProfile.customer_id == c.id)
                                          ).scalar_one_or_none())


def check_profile(values: dict) -> dict:
    """The profile's fields cleaned, or ValidationError naming every bad one."""
    v = {k: (str(values.get(k) or "").strip()) for k in PROFILE_FIELDS}
    errors = {}
    if not v["title"] or len(v["title"]) > 255:
        errors["title"] = "the buyer's name on the fapiao (名称), 1 to 255 characters"
    v["tax_id"] = v["tax_id"].upper()
    if not _TAX_ID.match(v["tax_id"]):
        errors["tax_id"] = "纳税人识别号 is 15 to 20 digits or capital letters (usually the 18-character credit code)"
    for k in ("address_phone", "bank_account", "email"):
        if len(v[k]) > 255:
            errors[k] = "at most 255 characters"
    if v["email"] and not _EMAIL.match(v["email"]):
        errors["email"] = f"{v['email']!r} is not an e-mail address"
    try:
        v["fapiao_type"] = _type(v["fapiao_type"] or FapiaoType.DIGITAL_SPECIAL)
    except ValidationError as exc:
        errors["fapiao_type"] = exc.errors["type"]
    if errors:
        raise ValidationError(errors)
    return v


def set_profile_in(uow: UnitOfWork, c: Customer, values: dict) -> str:
    """Create or change a customer's invoicing profile inside the caller's unit of work (audited)."""
    v = check_profile(values)
    s = uow.session
    p = s.execute(select(InvoicingProfile).where(InvoicingProfile.customer_id == c.id)).scalar_one_or_none()
    before = None if p is None else {k: getattr(p, k) for k in PROFILE_FIELDS}
    after = {k: (v[k] or None) if k in ("address_phone", "bank_account", "email") else v[k] for k in PROFILE_FIELDS}
    if before == after:
        return "unchanged"
    if p is None:
        p = InvoicingProfile(customer_id=c.id, **after)
        s.add(p)
    else:
        for k, val in after.items():
            setattr(p, k, val)
    p.updated_at, p.updated_by = dt.datetime.now(dt.timezone.utc), uow.actor.login
    s.flush()
    uow.audit("customer.invoicing_profile", "customer", c.id, c.name, before=before, after=after)
    return "created" if before is None else "updated"


def set_profiles(db: Database, actor: Actor, rows: list[dict], source: str, *, dry_run: bool = False) -> dict:
    """Invoicing profiles for many customers (a file's rows, the first on line 2: credit_code or customer,
    title, tax_id, address_phone, bank_account, fapiao_type, email): all rows or none (ValidationError
    listing every bad row by line number); each change audited like a form's, and one `import` event
    named after `source`. Returns the counts (rows, created, updated, unchanged)."""
    require(actor, "import")
    require(actor, "manage_customers")
    errors: dict[str, str] = {}
    counts = {"rows": len(rows), "created": 0, "updated": 0, "unchanged": 0}
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        seen: dict[int, int] = {}
        for n, r in enumerate(rows, start=2):
            try:
                c = find_customer(s, r.get("credit_code") or r.get("customer") or "")
                if c.id in seen:
                    raise ValidationError({"customer": f"{c.name} is also on row {seen[c.id]}"})
                seen[c.id] = n
                values = {k: r.get(k, "") for k in ("title", "tax_id", "address_phone", "bank_account", "email")}
                values["fapiao_type"] = r.get("fapiao_type") or FapiaoType.DIGITAL_SPECIAL
                with s.begin_nested():
                    counts[set_profile_in(uow, c, values)] += 1
            except ValidationError as exc:
                errors[f"row {n}"] = "; ".join(f"{k}: {v}" for k, v in exc.errors.items())
            except DomainError as exc:
                errors[f"row {n}"] = exc.message
        if errors:
            raise ValidationError(errors)
        if dry_run:
            return counts
        uow.audit("import", "customer", None, source, after={"kind": "invoicing-profiles", **counts})
        uow.commit()
    return counts


def set_profile(db: Database, actor: Actor, customer: str | int, **values) -> ProfileInfo:
    """Set a customer's 开票信息: title, tax_id, address_phone, bank_account, fapiao_type, email."""
    require(actor, "manage_customers")
    with UnitOfWork(db, actor) as uow:
        c = find_customer(uow.session, customer)
        set_profile_in(uow, c, values)
        info = _profile_info(c, uow.session.execute(
            select(InvoicingProfile).where(InvoicingProfile.customer_id == c.id)).scalar_one())
        uow.commit()
        return info

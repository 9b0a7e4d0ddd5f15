"""Import of customers (with a contact) and users."""
from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.domain.validators import email_problem, phone_problem
from app.importexport.kinds.core import (
    _credit_code,
    _keep,
    _local_datetime,
    _Row,
    _upsert,
)
from app.importexport.schema import HANDLERS
from models import Customer, User


def _resolve_customers(s: Session, r: _Row) -> dict:
    v: dict[str, Any] = {"name": r.get("name"), "credit_code": _credit_code(r)}
    if r.has("region"):
        v["region_code"] = r.get("region")
    for col in ("address", "status"):
        if r.has(col):
            v[col] = r.get(col)
    if r.has("account_manager"):
        login = r.get("account_manager")
        uid = None
        if login:
            uid = s.execute(select(User.id).where(User.login == login)).scalar_one_or_none()
            if uid is None:
                r.err("account_manager", f"no user has the login {login!r}")
        v["account_manager_id"] = uid
    contact = {k: r.get(f"contact_{k}") for k in ("name", "phone", "email", "role") if r.has(f"contact_{k}")}
    if contact.get("phone") and re.fullmatch(r"\d+\.0", contact["phone"]):
        contact["phone"] = contact["phone"][:-2]  # pandas read the phone column as numbers
    if any(contact.values()):
        if not contact.get("name"):
            r.err("contact_name", "a contact needs a name")
        for key, check in (("phone", phone_problem), ("email", email_problem)):
            problem = check(contact.get(key))
            if problem:
                r.err(f"contact_{key}", problem)
        v["_contact"] = contact
    _keep(v, "status")
    return v


def _write_customers(uow, r: _Row, v: dict) -> str:
    s = uow.session
    contact = v.pop("_contact", None)
    existing = s.execute(select(Customer).where(Customer.credit_code == v["credit_code"])).scalar_one_or_none()
    outcome = _upsert(uow, "customer", existing, v, v["name"] or "")
    customer = existing or s.execute(select(Customer).where(Customer.credit_code == v["credit_code"])).scalar_one()
    if contact:
        # the row's contact, added or changed by name, through the customer's contacts use case
        from app.services.customers import CONTACT_FIELDS, replace_contacts_in

        contacts = [{k: getattr(c, k) for k in CONTACT_FIELDS} for c in customer.contacts]
        current = next((c for c in contacts if c["name"] == contact["name"]), None)
        if current is None:
            contacts.append({k: contact.get(k) for k in CONTACT_FIELDS})
        else:
            current.update(contact)
        if replace_contacts_in(uow, customer, contacts):
            outcome = "updated" if outcome == "unchanged" else outcome
    return outcome


def _resolve_users(s: Session, r: _Row) -> dict:
    from models.choices import Role

    v: dict[str, Any] = {"login": r.get("login"), "display_name": r.get("display_name")}
    role = (r.get("role") or "").lower().replace(" ", "_")
    by_label = {Role.label(x).lower().replace(" ", "_"): x for x in Role.values()}
    v["role"] = by_label.get(role, role)
    if v["role"] not in Role.values():
        r.err("role", f"{r.get('role')!r} is not a role ({', '.join(Role.values())})")
    active = r.boolean("active") if r.get("active") else None
    v["active"] = True if active is None else active
    v["created_at"] = _local_datetime(r, "created_at") if r.get("created_at") else None
    return v


def _write_users(uow, r: _Row, v: dict) -> str:
    from app.services.users import import_user_in

    return import_user_in(uow, v["login"], v["display_name"], v["role"], v["active"], v["created_at"])


HANDLERS.update({
    "users": (_resolve_users, _write_users),
    "customers": (_resolve_customers, _write_customers),
})

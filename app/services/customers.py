"""Customers and their contacts."""
from __future__ import annotations

from sqlalchemy import select

from models import Contact, Customer, User
from models.choices import CustomerStatus

from ..audit import Actor
from ..auth import require
from ..db import Database
from ..errors import ValidationError
from ..uow import UnitOfWork
from ..validators import email_problem, phone_problem, region_code_problem, uscc_problem
from .common import EntitySpec, check_version, flush_versioned, get_or_404, register, snapshot


def validate_customer(s, v: dict) -> dict[str, str]:
    errors = {}
    v["name"] = (v.get("name") or "").strip()
    if not v["name"]:
        errors["name"] = "the customer's legal name is required"
    v["credit_code"] = (v.get("credit_code") or "").strip().upper()
    problem = uscc_problem(v["credit_code"])
    if problem:
        errors["credit_code"] = problem
    elif s.execute(select(Customer.name).where(Customer.credit_code == v["credit_code"],
                                               Customer.id != v.get("_id", -1))).first():
        errors["credit_code"] = f"credit code {v['credit_code']} belongs to another customer"
    problem = region_code_problem(s, v.get("region_code"))
    if problem:
        errors["region_code"] = problem
    v["region_code"] = v.get("region_code") or None
    if v.get("account_manager_id"):
        user = s.get(User, v["account_manager_id"])
        if user is None or user.role not in ("account_manager", "admin"):
            errors["account_manager_id"] = "the account manager must be a user with that role"
    if v.get("status", CustomerStatus.ACTIVE) not in CustomerStatus.values():
        errors["status"] = "status is active or inactive"
    v.pop("_id", None)
    return errors


register(EntitySpec("customer", Customer, validate_customer, "name"))


def set_contacts(db: Database, actor: Actor, customer_id: int, contacts: list[dict],
                 expected_version: int | None = None) -> None:
    """Replace the customer's contacts (name, phone, email, role)."""
    require(actor, "manage_customers")
    errors = {}
    for i, c in enumerate(contacts):
        if not c.get("name"):
            errors[f"contacts[{i}].name"] = "a contact needs a name"
        for key, check in (("phone", phone_problem), ("email", email_problem)):
            problem = check(c.get(key))
            if problem:
                errors[f"contacts[{i}].{key}"] = problem
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        customer = get_or_404(uow.session, Customer, customer_id, "customer")
        check_version(customer, expected_version, f"customer {customer.name}")
        before = [snapshot(c, ("name", "phone", "email", "role")) for c in customer.contacts]
        customer.contacts = [Contact(name=c["name"], phone=c.get("phone"), email=c.get("email"), role=c.get("role"))
                             for c in contacts]
        flush_versioned(uow, customer, f"customer {customer.name}")
        uow.audit("customer.contacts", "customer", customer.id, customer.name,
                  before={"contacts": before}, after={"contacts": contacts})
        uow.commit()

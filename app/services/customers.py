"""Customers and their contacts."""
from __future__ import annotations

from sqlalchemy import select

from app.domain import messages as M
from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import ValidationError
from app.domain.validators import email_problem, phone_problem, region_code_problem, uscc_problem
from app.services.entities import (
    EntitySpec,
    check_version,
    create_in,
    flush_versioned,
    get_or_404,
    register,
    snapshot,
    update_in,
)
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import Contact, Customer, User
from models.choices import CustomerStatus


def validate_customer(s, v: dict) -> dict[str, str]:
    errors = {}
    v["name"] = (v.get("name") or "").strip()
    if not v["name"]:
        errors["name"] = M.CUSTOMER_NAME_REQUIRED()
    v["credit_code"] = (v.get("credit_code") or "").strip().upper()
    problem = uscc_problem(v["credit_code"])
    if problem:
        errors["credit_code"] = problem
    elif s.execute(select(Customer.name).where(Customer.credit_code == v["credit_code"],
                                               Customer.id != v.get("_id", -1))).first():
        errors["credit_code"] = M.USCC_TAKEN(v['credit_code'])
    problem = region_code_problem(s, v.get("region_code"))
    if problem:
        errors["region_code"] = problem
    v["region_code"] = v.get("region_code") or None
    if v.get("account_manager_id"):
        user = s.get(User, v["account_manager_id"])
        if user is None or user.role not in ("account_manager", "admin"):
            errors["account_manager_id"] = M.ACCOUNT_MANAGER_ROLE()
    if v.get("status", CustomerStatus.ACTIVE) not in CustomerStatus.values():
        errors["status"] = "status is active or inactive"
    v.pop("_id", None)
    return errors


register(EntitySpec("customer", Customer, validate_customer, "name"))


CONTACT_FIELDS = ("name", "role", "phone", "email")


def contact_problems(contacts: list[dict]) -> dict[str, str]:
    """Field errors of a contact list, keyed contacts[i].field; trims the values in place."""
    errors = {}
    for i, c in enumerate(contacts):
        for key in CONTACT_FIELDS:
            if isinstance(c.get(key), str):
                c[key] = c[key].strip() or None
        if not c.get("name"):
            errors[f"contacts[{i}].name"] = M.CONTACT_NAME_REQUIRED()
        for key, check in (("phone", phone_problem), ("email", email_problem)):
            problem = check(c.get(key))
            if problem:
                errors[f"contacts[{i}].{key}"] = problem
    return errors


def replace_contacts_in(uow: UnitOfWork, customer: Customer, contacts: list[dict]) -> bool:
    """Replace the customer's contacts inside an open unit of work (the form's save, an import's row);
    False when they are already exactly these."""
    require(uow.actor, "manage_customers")
    before = [snapshot(c, ("name", "phone", "email", "role")) for c in customer.contacts]
    after = [{k: c.get(k) for k in ("name", "phone", "email", "role")} for c in contacts]
    if before == after:
        return False
    customer.contacts = [Contact(**c) for c in after]
    flush_versioned(uow, customer, f"customer {customer.name}")
    uow.audit("customer.contacts", "customer", customer.id, customer.name,
              before={"contacts": before}, after={"contacts": after})
    return True


def set_contacts(db: Database, actor: Actor, customer_id: int, contacts: list[dict],
                 expected_version: int | None = None) -> None:
    """Replace the customer's contacts (name, phone, email, role)."""
    require(actor, "manage_customers")
    contacts = [dict(c) for c in contacts]
    errors = contact_problems(contacts)
    if errors:
        raise ValidationError(errors)
    with UnitOfWork(db, actor) as uow:
        customer = get_or_404(uow.session, Customer, customer_id, "customer")
        check_version(customer, expected_version, f"customer {customer.name}")
        replace_contacts_in(uow, customer, contacts)
        uow.commit()


def save_customer(db: Database, actor: Actor, customer_id: int | None, values: dict,
                  contacts: list[dict] | None, expected_version: int | None = None) -> int:
    """Create or update a customer and (when given) replace its contacts, in one transaction: the
    customer form's save. Every field error, the record's and the contacts', is raised at once."""
    require(actor, "manage_customers")
    contacts = None if contacts is None else [dict(c) for c in contacts]
    contact_errors = contact_problems(contacts) if contacts is not None else {}
    with UnitOfWork(db, actor) as uow:
        try:
            if customer_id is None:
                customer = create_in(uow, "customer", values)
            else:
                customer = update_in(uow, "customer", customer_id, values, expected_version)
        except ValidationError as exc:
            raise ValidationError({**exc.errors, **contact_errors}) from None
        if contact_errors:
            raise ValidationError(contact_errors)
        if contacts is not None:
            replace_contacts_in(uow, customer, contacts)
        uow.commit()
        return customer.id

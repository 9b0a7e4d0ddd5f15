"""Passwords (scrypt), roles and what each role may do."""
from __future__ import annotations

import base64
import hashlib
import hmac
import os

from models.choices import Role

from .audit import Actor
from .errors import PermissionDenied

_N, _R, _P = 2 ** 14, 8, 1


def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return "scrypt${}${}${}${}${}".format(_N, _R, _P, base64.b64encode(salt).decode(), base64.b64encode(digest).decode())


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    got = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                         dklen=len(base64.b64decode(digest)))
    return hmac.compare_digest(got, base64.b64decode(digest))


# Permission -> roles that hold it. Auditors read everything and export; nothing else.
ALL = frozenset(Role.values())
PERMISSIONS: dict[str, frozenset[str]] = {
    "read": ALL,
    "export": ALL,
    "print": ALL,
    "manage_users": frozenset({Role.ADMIN}),
    "manage_reference": frozenset({Role.ADMIN, Role.OPERATOR}),  # regions, subsidiaries, sites, coverage
    "manage_dcim": frozenset({Role.ADMIN, Role.OPERATOR}),       # rooms, racks, devices, device types
    "manage_gpus": frozenset({Role.ADMIN, Role.OPERATOR}),
    "manage_customers": frozenset({Role.ADMIN, Role.ACCOUNT_MANAGER}),
    "reserve_racks": frozenset({Role.ADMIN, Role.OPERATOR, Role.ACCOUNT_MANAGER}),
    "draft_contracts": frozenset({Role.ADMIN, Role.ACCOUNT_MANAGER}),
    "approve_contracts": frozenset({Role.ADMIN}),
    "run_billing": frozenset({Role.ADMIN}),
    "import": frozenset({Role.ADMIN, Role.OPERATOR}),
    "override_power": frozenset({Role.ADMIN, Role.OPERATOR}),
}

# The permission that writing each kind of record needs (object type as in the audit trail).
# Declared once: the services' EntitySpec, the console's forms and lists, and import/export read it.
KIND_PERMISSION: dict[str, str] = {
    "region": "manage_reference", "subsidiary": "manage_reference", "site": "manage_reference",
    "room": "manage_reference", "coverage": "manage_reference",
    "rack": "manage_dcim", "device": "manage_dcim", "device_type": "manage_dcim",
    "gpu": "manage_gpus", "gpu_model": "manage_gpus",
    "customer": "manage_customers", "contact": "manage_customers",
    "user": "manage_users", "audit": "manage_users",
    "contract": "draft_contracts", "statement": "run_billing",
}

PERMISSION_LABELS = {
    "manage_users": "manage users",
    "manage_reference": "change sites, subsidiaries and coverage",
    "manage_dcim": "change rooms, racks and devices",
    "manage_gpus": "change GPUs",
    "manage_customers": "change customers",
    "reserve_racks": "reserve rack units",
    "draft_contracts": "draft contracts",
    "approve_contracts": "approve contracts",
    "run_billing": "run billing and issue statements",
    "import": "import data",
    "override_power": "override the rack power budget",
}


def can(actor: Actor, permission: str) -> bool:
    return actor.role in PERMISSIONS[permission]


def why_not(actor: Actor, permission: str) -> str | None:
    """A sentence for a tooltip or a refusal; None when allowed."""
    if can(actor, permission):
        return None
    roles = ", ".join(Role.label(r) for r in sorted(PERMISSIONS[permission]))
    return (f"{actor.name} ({Role.label(actor.role)}) may not {PERMISSION_LABELS.get(permission, permission)}; "
            f"this needs the role: {roles}")


def require(actor: Actor, permission: str) -> None:
    reason = why_not(actor, permission)
    if reason:
        raise PermissionDenied(reason)

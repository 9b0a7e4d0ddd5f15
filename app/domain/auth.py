"""Passwords (argon2id), login throttling, roles and what each role may do."""
from __future__ import annotations

import base64
import datetime as dt
import functools
import hashlib
import hmac
import os
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2 import low_level as argon2_low_level
from argon2.exceptions import InvalidHashError, VerificationError

from app.domain.actor import Actor
from app.domain.errors import PermissionDenied
from models.choices import Role

# --- password hashing ----------------------------------------------------------------
# argon2id at OWASP's parameters (Password Storage Cheat Sheet: m = 19 MiB, t = 2, p = 1; about
# 60 ms here). Hashes made before (scrypt$N$r$p$salt$digest) still verify and are replaced by an
# argon2id hash at the owner's next successful login, as are argon2 hashes of other parameters.

@dataclass(frozen=True)
class HashCost:
    memory_kib: int
    time_cost: int
    parallelism: int


OWASP_COST = HashCost(memory_kib=19 * 1024, time_cost=2, parallelism=1)
# The one setting that lowers the cost: IDC_PASSWORD_HASH_COST=test (tests/conftest.py sets it so
# that the suite stays fast). Never set it for a real database: hashes made with it are weak
# (they are upgraded to OWASP_COST at the next login once the setting is gone).
TEST_COST = HashCost(memory_kib=256, time_cost=1, parallelism=1)
COST_SETTING = "IDC_PASSWORD_HASH_COST"


def hash_cost() -> HashCost:
    return TEST_COST if os.environ.get(COST_SETTING, "").strip().lower() == "test" else OWASP_COST


@functools.lru_cache(maxsize=4)
def _hasher(cost: HashCost) -> PasswordHasher:
    return PasswordHasher(time_cost=cost.time_cost, memory_cost=cost.memory_kib, parallelism=cost.parallelism,
                          hash_len=32, salt_len=16)


# What unknown logins are checked against: fixed, so that the first check in a process costs what every
# other does (one hash), instead of also making the dummy.
_DUMMY_HASHES = {
    OWASP_COST: "$argon2id$v=19$m=19456,t=2,p=1$8I5xTZTyeJDFkqybRTRYMA$uTZFVNY9pnUEwkcNiS4KYIYJSSTsQUvA2KMkJhZnJnU",
    TEST_COST: "$argon2id$v=19$m=256,t=1,p=1$2Fsg1CFkOaWe+O6DBcJktg$urg7ZKTlLgP8cqNFLUQ+jRHrys7zX4h9q73DfB9Xkkk",
}


@functools.lru_cache(maxsize=4)
def _dummy_hash(cost: HashCost) -> str:
    return _DUMMY_HASHES.get(cost) or _hasher(cost).hash(base64.b64encode(os.urandom(12)).decode())


def hash_password(password: str) -> str:
    return _hasher(hash_cost()).hash(password)


def verify_password(password: str, stored: str | None) -> tuple[bool, str | None]:
    """(matches, a new hash to store instead or None). Always costs one hash computation, also
    for a missing or unreadable stored hash, so that the answer's timing tells nothing."""
    hasher = _hasher(hash_cost())
    if stored and stored.startswith("scrypt$"):
        ok = _check_scrypt(password, stored)
        return ok, (hasher.hash(password) if ok else None)
    try:
        hasher.verify(stored or _dummy_hash(hash_cost()), password)
    except InvalidHashError:
        burn_password(password)
        return False, None
    except VerificationError:
        return False, None
    if not stored:
        return False, None
    return True, (hasher.hash(password) if hasher.check_needs_rehash(stored) else None)

def candidate_hash(password: str, setting: str | None) -> str | None:
    """The stored hash this password would have under `setting` (the stored hash without its digest, then
    the digest's length in bytes: what PostgreSQL's idc_password_setting returns, migration 0029), or
    None for no usable setting. Costs one hash computation either way (a dummy one for None)."""
    try:
        prefix, nbytes = setting.rsplit("$", 1)
        prefix, nbytes = prefix + "$", int(nbytes)
        parts = prefix.split("$")
        if parts[0] == "scrypt":
            _scheme, n, r, p, salt, _ = parts
            got = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                                 dklen=nbytes)
            return prefix + base64.b64encode(got).decode()
        _, kind, version, params, salt, _ = parts
        if kind != "argon2id":
            raise ValueError(kind)
        cost = dict(kv.split("=") for kv in params.split(","))
        raw = argon2_low_level.hash_secret(
            password.encode(), base64.b64decode(salt + "=" * (-len(salt) % 4)), time_cost=int(cost["t"]),
            memory_cost=int(cost["m"]), parallelism=int(cost["p"]), hash_len=nbytes, type=argon2_low_level.Type.ID,
            version=int(version.split("=")[1]))
        return raw.decode()
    except (AttributeError, ValueError, TypeError, KeyError):
        burn_password(password)
        return None


def needs_rehash(stored: str) -> bool:
    """Whether a (matching) stored hash should be replaced by one at today's cost."""
    return stored.startswith("scrypt$") or _hasher(hash_cost()).check_needs_rehash(stored)


def burn_password(password: str) -> None:
    """Spend what a real check costs (unknown logins, unreadable hashes)."""
    try:
        _hasher(hash_cost()).verify(_dummy_hash(hash_cost()), password)
    except VerificationError:
        pass


def _check_scrypt(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        raw = base64.b64decode(digest)
        got = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(raw))
    except (ValueError, TypeError):
        return False
    return scheme == "scrypt" and hmac.compare_digest(got, raw)


# --- login throttling --------------------------------------------------------------------

@dataclass(frozen=True)
class LoginPolicy:
    """After `max_failures` failed attempts in a row a login is locked for `lock_seconds`; each
    further lock in the same streak lasts `backoff` times longer, up to `max_lock_seconds`. A
    successful login ends the streak."""

    max_failures: int = 5
    lock_seconds: int = 60
    backoff: int = 2
    max_lock_seconds: int = 3600

    def lock_after(self, failures: int) -> dt.timedelta | None:
        """How long the `failures`-th failure in a row locks the login, or None."""
        if failures <= 0 or failures % self.max_failures:
            return None
        locks = failures // self.max_failures
        return dt.timedelta(seconds=min(self.lock_seconds * self.backoff ** (locks - 1), self.max_lock_seconds))


LOGIN_POLICY = LoginPolicy()


def login_fingerprint(key: str, login: str) -> str:
    """What the audit trail keeps of a login name nobody has: HMAC-SHA256 under the database's own
    key, so the same mistyped name is recognisable across events and the name itself (perhaps a
    password typed into the wrong field) is never stored."""
    return hmac.new(key.encode(), login.encode(), hashlib.sha256).hexdigest()


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
    # the operations desk (issue 24): operators work tickets, account managers raise them for their
    # customers, administrators approve SLA credits and set calendars, targets and credit rules
    "raise_tickets": frozenset({Role.ADMIN, Role.OPERATOR, Role.ACCOUNT_MANAGER}),
    "work_tickets": frozenset({Role.ADMIN, Role.OPERATOR}),
    "manage_oncall": frozenset({Role.ADMIN, Role.OPERATOR}),
    "manage_sla": frozenset({Role.ADMIN}),
    "approve_credits": frozenset({Role.ADMIN}),
    # the operations desk: maintenance windows and site access (app/services/operations/)
    "plan_maintenance": frozenset({Role.ADMIN, Role.OPERATOR}),
    "authorise_access": frozenset({Role.ADMIN}),
    "request_visits": frozenset({Role.ADMIN, Role.ACCOUNT_MANAGER}),
    "approve_visits": frozenset({Role.ADMIN}),
    "guard_desk": frozenset({Role.ADMIN, Role.OPERATOR}),
    "see_id_numbers": frozenset({Role.ADMIN, Role.OPERATOR}),  # the guard desk checks IDs; others see them masked
    "manage_prices": frozenset({Role.ADMIN}),  # the price list (app/services/capacity/prices.py)
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
    "space_lease": "reserve_racks",  # leases of racks, U ranges and cages (app/services/space.py)
    # the power chain (app/services/power.py)
    "power_panel": "manage_dcim", "power_feed": "manage_dcim", "pdu_feed": "manage_dcim",
    "power_connection": "manage_dcim",
    "cable": "manage_dcim", "cross_connect": "manage_dcim",  # app/services/xconnects.py
    # the operations desk (app/services/operations/; import|export tickets, oncall, holidays)
    "ticket": "raise_tickets", "oncall_shift": "manage_oncall", "holiday_day": "manage_sla",
    "maintenance": "plan_maintenance", "site_access": "authorise_access", "visit": "request_visits",
    "price": "manage_prices",  # the price list (app/services/capacity/prices.py)
    # GPU clusters (issue 25, app/services/clusters/)
    "gpu_cluster": "manage_gpus", "scaleup_domain": "manage_gpus", "fabric_switch": "manage_gpus",
    "gpu_node": "manage_gpus", "health_event": "manage_gpus", "node_burn_in": "manage_gpus",
    "node_swap": "manage_gpus",
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
    "raise_tickets": "open tickets",
    "work_tickets": "work tickets (acknowledge, move, resolve)",
    "manage_oncall": "change the on-call rota",
    "manage_sla": "change SLA calendars, targets and credit rules",
    "approve_credits": "approve SLA credits",
    "plan_maintenance": "plan maintenance windows",
    "authorise_access": "authorise customer contacts for site access",
    "request_visits": "request site visits",
    "approve_visits": "approve site visits",
    "guard_desk": "check visitors in and out",
    "see_id_numbers": "see visitors' full ID numbers",
    "manage_prices": "change the price list",
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

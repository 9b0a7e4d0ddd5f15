"""Typed domain errors. Each message says what was refused and what to do about it."""
from __future__ import annotations


class DomainError(Exception):
    """A refusal a person can act on. `field` names the input it is about, if any."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class ValidationError(DomainError):
    """One or more fields are invalid; `errors` maps field -> message."""

    def __init__(self, errors: dict[str, str] | str, field: str | None = None):
        if isinstance(errors, str):
            errors = {field or "": errors}
        self.errors = errors
        message = "; ".join(f"{k}: {v}" if k else v for k, v in errors.items())
        super().__init__(message, field=next(iter(errors)) if errors else None)


class PermissionDenied(DomainError):
    pass


class NotFound(DomainError):
    pass


class RuleViolation(DomainError):
    """A cross-entity rule refused the change (overlap, power, lifecycle, references)."""


class InUse(RuleViolation):
    """Deleting something still referred to."""


class Conflict(DomainError):
    """Optimistic lock: someone else saved the record since it was loaded."""

    def __init__(self, message: str, who: str | None = None, when=None):
        super().__init__(message)
        self.who = who
        self.when = when


class AuthenticationFailed(DomainError):
    pass


class SchemaTooNew(DomainError):
    pass


class StorageFull(DomainError):
    """The disk (or the database's space) ran out during a write; the unit of work was rolled back."""

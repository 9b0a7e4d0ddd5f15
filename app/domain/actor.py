"""Who acts: the logged-in user as of now, or the system (every use case takes one)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    """Who acts, as of now. `id` is None for the system (migrations, first-run setup)."""

    id: int | None
    login: str
    name: str
    role: str

    @classmethod
    def system(cls) -> "Actor":
        return cls(None, "system", "System", "admin")

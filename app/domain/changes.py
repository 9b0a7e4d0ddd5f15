"""What an operation changed, reported by the units of work themselves (stdlib only, so the
screens can import it without the database layer)."""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Iterator


@dataclass
class OpChanges:
    """What the units of work committed inside one operation changed (Anki's OpChanges): the object
    kinds their audit events named, plus "audit" when any event was written. Filled by
    `UnitOfWork.commit`; the console's operation runner announces it, and each list refreshes when
    a kind it watches (`ListSpec.watches`) is in it. A unit of work that rolled back adds nothing."""

    kinds: set[str] = field(default_factory=set)

    def __bool__(self) -> bool:
        return bool(self.kinds)


_collecting: contextvars.ContextVar[OpChanges | None] = contextvars.ContextVar("idc_op_changes", default=None)


@contextlib.contextmanager
def collect_changes() -> Iterator[OpChanges]:
    """Collect what every unit of work committed in this block (this thread, this context) changed."""
    changes = OpChanges()
    token = _collecting.set(changes)
    try:
        yield changes
    finally:
        _collecting.reset(token)


def report_changes(kinds) -> None:
    """Called by a unit of work after it committed: its audited kinds join the open collection."""
    collector = _collecting.get()
    if collector is not None and kinds:
        collector.kinds.update(kinds)
        collector.kinds.add("audit")

"""A row by its primary key, or a refusal from the message catalogue naming what is missing.

`get_or_404` raises NotFound carrying `messages.not_found` (the noun translated on its own), so the
Chinese console says "维护窗口 5 不存在…" where the English one says "maintenance window 5 does not
exist …" (issue 24). The one copy: the readers of app/read use it too.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.domain import messages as m
from app.domain.errors import NotFound


def get_or_404(session: Session, model: type, key: Any, what: str | None = None):
    """The row of `model` with primary key `key`, or NotFound naming it (`what`, else the model)."""
    obj = session.get(model, key)
    if obj is None:
        raise NotFound(m.not_found(what or model.__name__, key))
    return obj

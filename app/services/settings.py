"""Installation-wide settings kept in the database: read by the rules, changed only by an
administrator through an audited use case (reachable from `idc-console settings` and the
console's settings)."""
from __future__ import annotations

from app.domain.actor import Actor
from app.domain.auth import require
from app.domain.errors import ValidationError
from app.read.settings import CONTRACT_FOUR_EYES, SETTINGS, setting_in
from app.services.entities import flush_versioned
from app.store.db import Database
from app.store.uow import UnitOfWork
from models import AppSetting


def _text(value: bool | int) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def parse_value(key: str, text: str) -> bool | int:
    """A setting's value from its text (on/off, or a whole number within the setting's bounds)."""
    spec = SETTINGS.get(key)
    if spec is None:
        raise ValidationError({"key": f"there is no setting {key!r}; the settings are {', '.join(SETTINGS)}"})
    text = str(text).strip().lower()
    if spec.bounds is None:
        if text not in ("on", "off"):
            raise ValidationError({"value": "on or off"})
        return text == "on"
    if not text.isdigit():
        raise ValidationError({"value": f"{key} is a whole number from {spec.bounds[0]} to {spec.bounds[1]}"})
    return int(text)


def setting_text(value: bool | int) -> str:
    """How a setting's value is written and shown: on/off, or the number."""
    return _text(value)


def get_setting(db: Database, key: str) -> bool | int:
    with db.read_session() as s:
        return setting_in(s, key)


def four_eyes_required(db: Database) -> bool:
    return get_setting(db, CONTRACT_FOUR_EYES)


def change_setting(db: Database, actor: Actor, key: str, value: bool | int, reason: str | None = None) -> bool | int:
    """Set an installation setting (administrators only); the change and its reason are audited."""
    require(actor, "manage_users")
    if key not in SETTINGS:
        raise ValidationError({"key": f"there is no setting {key!r}; the settings are {', '.join(SETTINGS)}"})
    bounds = SETTINGS[key].bounds
    if bounds is not None:
        if isinstance(value, bool) or not isinstance(value, int) or not bounds[0] <= value <= bounds[1]:
            raise ValidationError({"value": f"a whole number from {bounds[0]} to {bounds[1]}"})
    elif not isinstance(value, bool):
        raise ValidationError({"value": "on or off"})
    with UnitOfWork(db, actor) as uow:
        s = uow.session
        before = setting_in(s, key)
        row = s.get(AppSetting, key)
        if row is None:
            s.add(AppSetting(key=key, value=_text(value), updated_by=actor.login))
            s.flush()
        else:
            row.value = _text(value)
            flush_versioned(uow, row, f"setting {key}")
        uow.audit("setting.update", "setting", key, key, before={key: _text(before)}, after={key: _text(value)},
                  reason=(reason or "").strip() or None)
        uow.commit()
        return value

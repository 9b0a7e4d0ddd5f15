"""Installation-wide settings kept in the database: read by the rules, changed only by an
administrator through an audited use case (reachable from `idc-console settings` and the
console's settings)."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from models import AppSetting

from ..audit import Actor
from ..auth import require
from ..db import Database
from ..errors import ValidationError
from ..uow import UnitOfWork
from .common import flush_versioned

CONTRACT_FOUR_EYES = "contract_four_eyes"


@dataclass(frozen=True)
class SettingSpec:
    key: str
    default: bool
    description: str


SETTINGS: dict[str, SettingSpec] = {
    CONTRACT_FOUR_EYES: SettingSpec(
        CONTRACT_FOUR_EYES, True,
        "a contract is approved by someone other than who drafted or submitted it (turn off for a one-person shop)"),
}


def _text(value: bool) -> str:
    return "on" if value else "off"


def setting_in(session: Session, key: str) -> bool:
    """The setting's value inside the caller's transaction (its default when never set)."""
    spec = SETTINGS[key]
    row = session.get(AppSetting, key)
    return spec.default if row is None else row.value == "on"


def get_setting(db: Database, key: str) -> bool:
    with db.session() as s:
        return setting_in(s, key)


def four_eyes_required(db: Database) -> bool:
    return get_setting(db, CONTRACT_FOUR_EYES)


def change_setting(db: Database, actor: Actor, key: str, value: bool, reason: str | None = None) -> bool:
    """Set an installation setting (administrators only); the change and its reason are audited."""
    require(actor, "manage_users")
    if key not in SETTINGS:
        raise ValidationError({"key": f"there is no setting {key!r}; the settings are {', '.join(SETTINGS)}"})
    if not isinstance(value, bool):
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

"""The console's settings, declared once (key, default, what it means, the bounds of a number), and a
setting's value as the rules read it inside a transaction. Changing one is app.services.settings's."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from models import AppSetting

CONTRACT_FOUR_EYES = "contract_four_eyes"
POWER_LIMIT_PCT = "power_breaker_limit_pct"
OVERDUE_SUSPENSION_DAYS = "overdue_suspension_days"  # receivables: overdue longer proposes suspension
TICKET_REOPEN_DAYS = "ticket_reopen_days"            # operations: a resolved ticket may be reopened this long
TICKET_ATTACHMENT_KB = "ticket_attachment_max_kb"    # operations: the largest file a ticket keeps
MAINTENANCE_NOTICE_HOURS = "maintenance_notice_hours"  # operations: planned work is noticed this long before
CAPACITY_HOLD_DAYS = "capacity_hold_days"  # a hold on offered nodes expires after this many days


@dataclass(frozen=True)
class SettingSpec:
    key: str
    default: bool | int
    description: str
    bounds: tuple[int, int] | None = None  # a whole-number setting's range (None: on/off)


SETTINGS: dict[str, SettingSpec] = {
    CONTRACT_FOUR_EYES: SettingSpec(
        CONTRACT_FOUR_EYES, True,
        "a contract is approved by someone other than who drafted or submitted it (turn off for a one-person shop)"),
    POWER_LIMIT_PCT: SettingSpec(
        POWER_LIMIT_PCT, 80,
        "the share of a circuit's breaker its load may reach, in percent (the 80 % rule; app/services/power.py)",
        bounds=(1, 100)),
    OVERDUE_SUSPENSION_DAYS: SettingSpec(
        OVERDUE_SUSPENSION_DAYS, 60,
        "customers with an amount overdue more than this many days are proposed for suspension (a person decides)",
        bounds=(0, 3650)),
    TICKET_REOPEN_DAYS: SettingSpec(
        TICKET_REOPEN_DAYS, 7, "a resolved or closed ticket may be reopened within this many days of its resolution",
        bounds=(0, 365)),
    TICKET_ATTACHMENT_KB: SettingSpec(
        TICKET_ATTACHMENT_KB, 10240, "the largest photo or file a ticket keeps, in KB (larger ones are refused)",
        bounds=(1, 512000)),
    MAINTENANCE_NOTICE_HOURS: SettingSpec(
        MAINTENANCE_NOTICE_HOURS, 72,
        "planned maintenance is confirmed at least this many hours before it starts (else it counts against the SLA)",
        bounds=(0, 720)),
    CAPACITY_HOLD_DAYS: SettingSpec(
        CAPACITY_HOLD_DAYS, 7,
        "a hold on offered GPU nodes expires after this many days unless it is moved to a contract "
        "(app/services/capacity/holds.py)", bounds=(1, 90)),
}


def setting_in(session: Session, key: str) -> bool | int:
    """The setting's value inside the caller's transaction (its default when never set)."""
    spec = SETTINGS[key]
    row = session.get(AppSetting, key)
    if row is None:
        return spec.default
    return int(row.value) if spec.bounds is not None else row.value == "on"


def setting_of(key: str, stored: str | None) -> bool | int:
    """The setting's value from its stored text (None: never set, its default), as setting_in reads it;
    for a read that fetches the stored text within a larger query (a detail panel's one statement)."""
    spec = SETTINGS[key]
    if stored is None:
        return spec.default
    return int(stored) if spec.bounds is not None else stored == "on"

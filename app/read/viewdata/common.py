"""What the pictures' read models share: rounding, percentages, owner colours, a device's watts."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import func

from app.domain.money import percent
from models import (
    DeviceType,
)


ZERO = Decimal(0)
KW = Decimal(1000)

# Owner colours: distinguishable on white and under white text; the fleet (our own servers) has
# its own colour so "ours" versus "theirs" reads at a glance.
OWNER_PALETTE = (
    "#1e88e5", "#43a047", "#fb8c00", "#8e24aa", "#00897b", "#e53935",
    "#6d4c41", "#3949ab", "#c0ca33", "#d81b60", "#00acc1", "#7cb342",
)
FLEET_COLOUR = "#455a64"


# The power budget's figure for a device (app.services.dcim.check_placement): typical, else maximum.
DEVICE_WATTS = func.coalesce(DeviceType.typical_power_w, DeviceType.max_power_w, 0)


def owner_colour(customer_id: int | None) -> str:
    if customer_id is None:
        return FLEET_COLOUR
    return OWNER_PALETTE[customer_id % len(OWNER_PALETTE)]


def dec(value, places: str = "0.01") -> Decimal:
    if value is None:
        return ZERO
    return Decimal(str(value)).quantize(Decimal(places), rounding=ROUND_HALF_UP)  # as app/domain/money.py rounds


def pct(part: Decimal, whole: Decimal) -> Decimal:
    return percent(part, whole) if whole else ZERO

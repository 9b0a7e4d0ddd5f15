"""A device's power draw as the placement rule and the power chain count it (NetBox's allocated draw)."""
from __future__ import annotations

from models.choices import DeviceRole


def power_draw_w(dtype) -> tuple[int, bool] | None:
    """(watts, from the maximum?) a device of this type adds to its rack; None when it adds nothing.

    NetBox budgets a rack by allocated draw (Rack.get_power_utilization sums each power port's
    get_power_draw()['allocated']); our typical draw is that figure. A type that gives only a
    maximum counts its maximum, and says so, rather than nothing. PDUs, UPSs and passive parts
    carry no load of their own: NetBox leaves the draw of a port feeding outlets blank and
    counts the devices downstream instead.
    """
    if dtype.role in DeviceRole.NO_LOAD:
        return None
    if dtype.typical_power_w:
        return dtype.typical_power_w, False
    if dtype.max_power_w:
        return dtype.max_power_w, True
    return None

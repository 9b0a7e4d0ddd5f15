"""A GPU's warranty as the fleet's lists and reports judge it: expired, ending soon, or fine."""
from __future__ import annotations

import datetime as dt

# Within this many days of its end a warranty is "ending" (the list highlights it).
WARRANTY_WARN_DAYS = 90


def warranty_state(end: dt.date | None, today: dt.date) -> str | None:
    """'expired' (ended before today), 'ending' (within WARRANTY_WARN_DAYS) or None."""
    if end is None:
        return None
    if end < today:
        return "expired"
    if (end - today).days <= WARRANTY_WARN_DAYS:
        return "ending"
    return None

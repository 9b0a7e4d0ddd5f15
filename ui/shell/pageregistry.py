"""The main window's pages: their ids, labels and list kinds, and the dict that makes each page when first asked for."""
from __future__ import annotations

# (page id, English label, list kind or None)
PAGES = [
    ("dashboard", "Dashboard", None),
    ("sites", "Sites & coverage", "site"),
    ("racks", "Racks", "rack"),
    ("devices", "Devices", "device"),
    ("gpus", "GPUs", "gpu"),
    ("customers", "Customers", "customer"),
    ("contracts", "Contracts", "contract"),
    ("billing", "Billing", "statement"),
    ("xconnects", "Cross-connects", None),  # ui/pages/xconnects.py
    ("audit", "Audit log", "audit"),
    ("users", "Users & settings", "user"),
    ("operations", "Operations", None),     # ui/pages/operations/: tickets, SLA, on call (issue 24); Ctrl+J
    ("clusters", "GPU clusters", None),  # ui/pages/clusters/ (issue 25)
]
TICKET_OBJECTS = {"racks": "rack", "devices": "device", "gpus": "gpu"}   # list page -> ticket object type
SCROLLED_PAGES = {"dashboard"}   # pages in a scroll area: their minimum size does not bind the window
PAGE_IDS = [p[0] for p in PAGES]
LIST_PAGES = {pid for pid, _label, kind in PAGES if kind is not None}


class LazyPages(dict):
    """Page id → page, each page made when first shown or first asked for (`window.lists["gpus"]`):
    the window's first paint waits only for the page it shows (cold start, docs/performance.md).
    Iterating gives the pages made so far."""

    def __init__(self, make, ids):
        super().__init__()
        self._make, self._ids = make, ids

    def __missing__(self, pid):
        if pid not in self._ids:
            raise KeyError(pid)
        self._make(pid)
        return dict.__getitem__(self, pid)

    def get(self, pid, default=None):
        try:
            return self[pid]
        except KeyError:
            return default

    def __contains__(self, pid) -> bool:
        return pid in self._ids

"""Views that read when first shown, not when built, and again when what they show changes."""
from __future__ import annotations


class ReadWhenShown:
    """A mixin for a tab or page (before its Qt class): it reads (`load()`, which sets `loaded`) when first
    shown, and again on a change of a kind it `watches` once it has read; a change before its first show
    is read then anyway. Building a page costs no read for the tabs nobody opens (issue 26)."""

    watches: frozenset[str] = frozenset()
    loaded = False

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self.loaded:
            self.load()

    def _changed(self, changes) -> None:
        kinds = getattr(changes, "kinds", changes)
        if self.loaded and (not kinds or "*" in kinds or set(kinds) & self.watches):
            self.load()

    def load(self) -> None:
        raise NotImplementedError

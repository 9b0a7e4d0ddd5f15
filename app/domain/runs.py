"""Bulk runs (a billing run, an issue, an import, an upgrade, a verify, a reconcile) say in the program's
log when they started and how they ended. Stdlib logging only, so every layer may use it; where the
log goes is app/store/logs.py's business."""
from __future__ import annotations

import functools
import logging
import time
from typing import Any, Callable

from app.domain.errors import DomainError


def _fields(values: dict) -> str:
    shown = [f"{k}={v}" for k, v in values.items() if v is not None]
    return (": " + " ".join(shown)) if shown else ""


def logged_run(what: str, *, start: Callable[..., dict] | None = None,
               end: Callable[[Any], dict] | None = None, name: str | None = None):
    """Decorate a bulk run (a billing run, an issue, an import, an upgrade, a verify, a reconcile)
    so that the log says when it started (`start(*args, **kwargs)`: what it was asked) and how it
    ended: done with its counts (`end(result)`), or refused, cancelled or failed (with the
    traceback), and in how long. The run itself is unchanged: its result or error passes through.

        billing run started: period=2026-10 dry_run=False issue=True
        billing run done in 1.42 s: lines=31 statements=4 issued=4
    """
    def wrap(fn):
        logger = logging.getLogger(name or fn.__module__)

        @functools.wraps(fn)
        def run(*args, **kwargs):
            asked = _safe(start, args, kwargs)
            logger.info("%s started%s", what, _fields(asked))
            t0 = time.perf_counter()
            try:
                result = fn(*args, **kwargs)
            except DomainError as exc:
                logger.info("%s refused after %.2f s%s: %s", what, time.perf_counter() - t0, _fields(asked),
                            exc.message)
                raise
            except BaseException as exc:
                logger.error("%s failed after %.2f s%s: %s", what, time.perf_counter() - t0, _fields(asked),
                             type(exc).__name__, exc_info=exc)
                raise
            counts = _safe(end, (result,), {})
            outcome = "cancelled" if getattr(result, "cancelled", False) else "done"
            logger.info("%s %s in %.2f s%s", what, outcome, time.perf_counter() - t0, _fields(counts))
            return result
        return run
    return wrap


def _safe(describe, args, kwargs) -> dict:
    """What `describe` says of the run; a describer's own mistake is logged, never the run's failure."""
    if describe is None:
        return {}
    try:
        return describe(*args, **kwargs)
    except Exception:
        logging.getLogger(__name__).warning("could not describe a run for the log", exc_info=True)
        return {}

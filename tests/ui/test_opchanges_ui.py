"""The console announces what the services reported, for background and synchronous writes alike."""
from __future__ import annotations

import pytest

from app.domain.errors import ValidationError
from app.services.common import update_record
from tests.support.builders import build_site
from ui.shell.operations import apply, bus, run_op


def _listen():
    heard = []
    bus().changed.connect(heard.append)
    return heard


def test_a_background_write_announces_the_kinds_it_changed(qtbot, db, admin):
    ids = build_site(db, admin, racks=1)
    heard = _listen()
    op = run_op(None, lambda progress: update_record(db, admin, "rack", ids["racks"][0], {"name": "Z9"}),
                show_progress=False)
    with qtbot.waitSignal(op.done, timeout=10_000):
        pass
    assert heard == [frozenset({"rack", "audit"})]


def test_a_refused_background_write_announces_nothing(qtbot, db, admin):
    ids = build_site(db, admin, racks=1)
    heard, failures = _listen(), []
    op = run_op(None, lambda progress: update_record(db, admin, "rack", ids["racks"][0], {"name": ""}),
                show_progress=False, on_failure=failures.append)
    with qtbot.waitSignal(op.done, timeout=10_000):
        pass
    assert heard == [] and isinstance(failures[0], ValidationError)


def test_a_synchronous_write_goes_through_the_same_announcement(db, admin):
    ids = build_site(db, admin, racks=1)
    heard = _listen()
    apply(lambda: update_record(db, admin, "rack", ids["racks"][0], {"name": "Y1"}))
    with pytest.raises(ValidationError):
        apply(lambda: update_record(db, admin, "rack", ids["racks"][0], {"name": ""}))
    assert heard == [frozenset({"rack", "audit"})]


def test_a_read_announces_nothing(qtbot, db, admin):
    heard = _listen()
    op = run_op(None, lambda progress: 42, show_progress=False)
    with qtbot.waitSignal(op.done, timeout=10_000):
        pass
    assert heard == []

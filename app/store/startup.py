"""What happens before anything reads the database: backup, upgrade, refuse newer schemas."""
from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Callable

from app.store.db import Database


def prepare_database(db: Database, log: Callable[[str], None] = lambda m: None, in_transaction=None,
                     current: str | None | object = ...) -> Path | None:
    """Create or upgrade the schema. An existing SQLite file is backed up first.

    Returns the backup path, if one was made. `in_transaction(connection)` runs in the upgrade's own
    transaction (Database.upgrade); `current`: the revision as the caller read it.
    """
    if db.is_sqlite and db.engine.url.database not in (None, "", ":memory:"):
        Path(db.engine.url.database).parent.mkdir(parents=True, exist_ok=True)
    if db.check_not_newer(current) == db.head_revision():   # one read of the revision, not two
        return None
    backup = None
    if db.is_sqlite and db.current_revision() is not None:
        src = Path(db.engine.url.database)
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        backup = db.backup_sqlite(src.with_name(f"{src.stem}.before-upgrade-{stamp}{src.suffix}"))
        log(f"backed up {src} to {backup}")
    log(f"upgrading schema {db.current_revision() or '(empty)'} -> {db.head_revision()}")
    db.upgrade(in_transaction=in_transaction)
    return backup

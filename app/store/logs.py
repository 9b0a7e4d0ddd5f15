"""The program's log: a rotating file in the data directory, set up once at start.

    <data directory>/logs/idc-console.log   (then .1 … .5: 1 MB each, the oldest dropped)

The command line (app/cli/main.py main) and the console (ui/shell/main.py run_console) call
`setup_logging()` first; modules log through `logging.getLogger(__name__)`. The file and its
folder are made when the first record is written, so a command that logs nothing leaves the data
directory as it was. Records carry UTC times (as stored); nothing logged may hold a password.
"""
from __future__ import annotations

import logging
import logging.handlers
import time
from pathlib import Path

from app.store.config import data_dir

LOG_NAME = "idc-console.log"
MAX_BYTES = 1_000_000
BACKUPS = 5
OWN_PACKAGES = ("app", "ui", "models", "reports")  # logged from `level` on; other libraries from WARNING
FORMAT = "%(asctime)sZ %(levelname)s %(name)s: %(message)s"

file_handler: logging.Handler | None = None


def log_path() -> Path:
    return data_dir() / "logs" / LOG_NAME


class _FolderMakingHandler(logging.handlers.RotatingFileHandler):
    """A rotating file whose folder is made on the first record (delay=True opens the file then)."""

    def _open(self):
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()

    def handleError(self, record):  # an unwritable data directory must not stop the program
        pass


def setup_logging(level: int = logging.INFO) -> Path:
    """Send the program's records (the root logger's) to the rotating file; once (a second call
    changes nothing unless the data directory changed: then the file moves with it, as it does
    between tests). Returns the file's path."""
    global file_handler
    path = log_path()
    if file_handler is not None and Path(file_handler.baseFilename) != path.absolute():
        logging.getLogger().removeHandler(file_handler)
        file_handler.close()
        file_handler = None
    if file_handler is None:
        handler = _FolderMakingHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUPS,
                                       encoding="utf-8", delay=True)
        formatter = logging.Formatter(FORMAT, datefmt="%Y-%m-%d %H:%M:%S")
        formatter.converter = time.gmtime
        handler.setFormatter(formatter)
        logging.getLogger().addHandler(handler)   # libraries' warnings too (the root stays at WARNING)
        for name in OWN_PACKAGES:
            logging.getLogger(name).setLevel(level)
        file_handler = handler
    return Path(file_handler.baseFilename)


def current_log_path() -> Path:
    """The file records go to: the one set up, else where setup_logging would put it."""
    return Path(file_handler.baseFilename) if file_handler is not None else log_path()

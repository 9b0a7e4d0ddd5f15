"""Entry point for the frozen application (PyInstaller): the same as the `idc-console` script."""
import multiprocessing
import sys

from launcher import main

if __name__ == "__main__":
    # A worker process of `audit verify` (spawned) starts this program again: freeze_support() runs
    # the worker and exits instead of parsing its arguments as a command (PyInstaller's documented need).
    multiprocessing.freeze_support()
    sys.exit(main())

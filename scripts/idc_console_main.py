"""Entry point for the frozen application (PyInstaller): the same as the `idc-console` script."""
import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())

"""Entry point for the frozen application (PyInstaller): the same as the `idc-console` script."""
import sys

from launcher import main

if __name__ == "__main__":
    sys.exit(main())

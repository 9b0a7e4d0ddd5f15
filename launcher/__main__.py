"""`python -m launcher`: the same as the `idc-console` program."""
import sys

from launcher import main

sys.exit(main())

"""``python -m spiderette``: the command line (see :mod:`spiderette.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())

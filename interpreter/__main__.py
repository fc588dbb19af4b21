"""`python -m tarot` runs the tarot command."""

import sys

from tarot.cli import main

sys.exit(main())

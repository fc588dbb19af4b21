"""`python -m interpreter` runs the tarot command."""

import sys

from interpreter.cli import main

sys.exit(main())

"""``python -m voice`` is the same as the ``voice-chess`` command."""

import sys

from voice.cli import main

sys.exit(main())

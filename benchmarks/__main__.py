"""``python -m benchmarks asr|starts|web …`` from the repository root."""

import sys

from benchmarks.cli import main

sys.exit(main())

"""``python -m engine``: the engine's command line; see :mod:`engine.cli`."""
from __future__ import annotations

import sys

from .cli import main

sys.exit(main())

"""Game rows (players, seed commitment, action list) arrive with the play feature.

The rules themselves live in the pure `engine` package, never here.
"""

from __future__ import annotations

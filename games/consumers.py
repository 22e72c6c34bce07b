"""Websocket consumers for live games (one Channels group per game).

None yet: the game consumer arrives with the play feature and is routed in
`games/routing.py`.
"""

from __future__ import annotations

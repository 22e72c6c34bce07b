"""Chat (issue 25): lines in rooms named by plain strings (``game:12``,
``game:12/w``, ``tournament:7``), the checks every line goes through, muting and
chat timeouts. The lowest floor beside preferences: games, ladder and
tournaments decide who may read and write a room and call down into this app."""

"""The move tables built ahead of time (moves.fill_all, for long-lived servers)
are the ones built on first use."""

from __future__ import annotations

from engine.ace import moves


def test_filling_every_table_ahead_gives_the_same_entries_as_on_first_use() -> None:
    lazily = {(card, sq): moves._fill(card, sq) for card in range(52) for sq in range(64)}
    for row in moves.TABLES:
        row[:] = [None] * 64
    moves.fill_all()
    assert all(entry is not None for row in moves.TABLES for entry in row)
    assert {(card, sq): moves.TABLES[card][sq] for card in range(52) for sq in range(64)} == lazily

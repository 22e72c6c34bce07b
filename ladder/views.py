"""Ladder pages (standings, tournaments): none yet."""

from __future__ import annotations

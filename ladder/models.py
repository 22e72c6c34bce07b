"""Ladder rows (ratings, tournaments) arrive with the ladder feature."""

from __future__ import annotations

"""Admin registrations for games: none until the app has models."""

from __future__ import annotations

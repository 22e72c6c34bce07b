"""Admin registrations for the ladder: none until the app has models."""

from __future__ import annotations

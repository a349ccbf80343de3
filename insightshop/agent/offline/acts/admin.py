"""Acts for the admin intents (see acts/__init__.py)."""

from __future__ import annotations

"""Acts for the orders intents (see acts/__init__.py)."""

from __future__ import annotations

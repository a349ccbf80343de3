"""Acts for questions about products: sizes (size guide, numeric and age sizes), details and variants."""

from __future__ import annotations

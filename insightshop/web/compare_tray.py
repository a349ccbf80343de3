"""The compare tray lives in the browser session: a short list of product ids."""

from __future__ import annotations

from flask import request, session

TRAY_KEY = "compare"
# The tray follows the shopper while browsing; checkout, payment, receipts, accounts and admin pages stay clear.
BROWSING_BLUEPRINTS = ("shop", "compare", "wishlist")


def compare_tray() -> list[int]:
    return [i for i in session.get(TRAY_KEY, []) if isinstance(i, int)]


def save_tray(ids: list[int]) -> None:
    session[TRAY_KEY] = ids


def tray_on_this_page() -> list[int]:
    """The tray's ids where the page is for browsing, else nothing (the tray then renders empty and hidden)."""
    return compare_tray() if request.blueprint in BROWSING_BLUEPRINTS else []

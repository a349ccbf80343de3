"""The compare tray lives in the browser session: a short list of product ids."""

from __future__ import annotations

from flask import session

TRAY_KEY = "compare"


def compare_tray() -> list[int]:
    return [i for i in session.get(TRAY_KEY, []) if isinstance(i, int)]


def save_tray(ids: list[int]) -> None:
    session[TRAY_KEY] = ids

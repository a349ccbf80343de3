"""Extraction engines: a ReceiptDocument in, a ReceiptExtraction out. Engines are registered by name; `offline` is
the deterministic rule engine (offline.py), always available. Other engines (a model behind an API) register
themselves with register_engine and take the same arguments.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

from flask import current_app, has_app_context

from ...errors import Invalid, Unavailable
from ..document import ReceiptDocument, ReceiptExtraction
from . import offline

log = logging.getLogger(__name__)

Engine = Callable[..., ReceiptExtraction]  # engine(document, *, today) -> ReceiptExtraction

ENGINES: dict[str, Engine] = {"offline": offline.extract}

__all__ = ["ENGINES", "Engine", "available_engines", "default_engine", "extract", "register_engine"]


def register_engine(name: str, engine: Engine) -> None:
    """Make an engine available to extract() under a name (replacing any engine of that name)."""
    ENGINES[name] = engine


def available_engines() -> list[str]:
    """The names extract() accepts."""
    return sorted(ENGINES)


def default_engine() -> str:
    """RECEIPT_ENGINE when set; else `claude` when an Anthropic key is configured, `offline` otherwise."""
    config = current_app.config if has_app_context() else {}
    return config.get("RECEIPT_ENGINE") or ("claude" if config.get("ANTHROPIC_API_KEY") else "offline")


def extract(document: ReceiptDocument, *, engine: str = "offline", today: dt.date | None = None,
            source: bytes | None = None, content_type: str | None = None) -> ReceiptExtraction:  # fmt: skip
    """Extract a receipt's fields and items with the named engine; dates after `today` (default today) are
    never chosen. `source` is the original file, for engines that look at the picture (claude).
    When the Claude API is unavailable the offline engine reads the receipt instead."""
    today = today or dt.date.today()
    if engine == "claude":
        from .claude_engine import extract_with_claude

        try:
            return extract_with_claude(document, source=source, content_type=content_type, today=today)
        except Unavailable as error:
            kind = (error.details[0] or {}).get("kind") if error.details else None
            log.warning("Claude could not read the receipt (%s); the offline engine reads it instead", kind)
            engine = "offline"
    try:
        run = ENGINES[engine]
    except KeyError:
        raise Invalid(f"Unknown extraction engine {engine!r}", details=available_engines()) from None
    return run(document, today=today)

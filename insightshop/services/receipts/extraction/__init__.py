"""Extraction engines: a ReceiptDocument in, a ReceiptExtraction out. Engines are registered by name; `offline` is
the deterministic rule engine (offline.py), always available. Other engines (a model behind an API) register
themselves with register_engine and take the same arguments.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from ...errors import Invalid
from ..document import ReceiptDocument, ReceiptExtraction
from . import offline

Engine = Callable[..., ReceiptExtraction]  # engine(document, *, today) -> ReceiptExtraction

ENGINES: dict[str, Engine] = {"offline": offline.extract}

__all__ = ["ENGINES", "Engine", "available_engines", "extract", "register_engine"]


def register_engine(name: str, engine: Engine) -> None:
    """Make an engine available to extract() under a name (replacing any engine of that name)."""
    ENGINES[name] = engine


def available_engines() -> list[str]:
    """The names extract() accepts."""
    return sorted(ENGINES)


def extract(document: ReceiptDocument, *, engine: str = "offline", today: dt.date | None = None) -> ReceiptExtraction:
    """Extract a receipt's fields and items with the named engine; dates after `today` (default today) are
    never chosen."""
    try:
        run = ENGINES[engine]
    except KeyError:
        raise Invalid(f"Unknown extraction engine {engine!r}", details=available_engines()) from None
    return run(document, today=today or dt.date.today())

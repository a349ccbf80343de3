"""Kept for old imports: the offline engine now lives in the package `insightshop.agent.offline`."""

from .offline import Interpretation, PlannedCall, interpret

__all__ = ["Interpretation", "PlannedCall", "interpret"]

"""Chat engines behind one interface: plan(message, context, is_admin, history) → calls + reply/follow-up."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Plan:
    calls: list = field(default_factory=list)  # objects with .name and .arguments
    reply: str | None = None
    follow_up: str | None = None
    wants_login_form: bool = False
    context: dict = field(default_factory=dict)


class OfflineEngine:
    """The built-in deterministic engine: no network, no key."""

    name = "offline"

    def plan(self, message: str, context: dict, *, is_admin: bool, history: list[dict]) -> Plan:
        from .offline_parser import interpret

        result = interpret(message, context, is_admin=is_admin)
        return Plan(result.calls, result.reply, result.follow_up, result.wants_login_form, result.context)


def engine_for():
    """The configured engine. Only the offline engine exists so far (the Claude engine is the next step)."""
    return OfflineEngine()

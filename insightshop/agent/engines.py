"""Chat engines behind one interface: plan(message, context, is_admin, history) → calls + reply/follow-up."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


@dataclass
class Plan:
    calls: list = field(default_factory=list)  # objects with .name and .arguments
    reply: str | None = None
    follow_up: str | None = None
    wants_login_form: bool = False
    context: dict = field(default_factory=dict)


class EngineUnavailable(RuntimeError):
    """The engine's service failed this turn (rate limit, overload, timeout, bad key); the offline engine answers."""


@dataclass
class Call:
    name: str
    arguments: dict


_STYLING = re.compile(
    r"\b(goes? (well )?with|go together|match(es)? with|wear with|pair (it )?with|outfit|style (it|this|that))\b", re.I
)
_PRODUCT_ID = re.compile(r"(?:product|item|#)\s*#?(\d{1,9})\b", re.I)


def styling_call(message: str, context: dict) -> Call | None:
    """ "What goes with product 3?", "outfit ideas for my cart": the suggest_outfit tool."""
    if not _STYLING.search(message):
        return None
    found = _PRODUCT_ID.search(message)
    if found:
        return Call("suggest_outfit", {"product_id": int(found.group(1))})
    if re.search(r"\b(it|this|that)\b", message, re.I) and context.get("last_product_id"):
        return Call("suggest_outfit", {"product_id": int(context["last_product_id"])})
    return Call("suggest_outfit", {"from_cart": True})


class OfflineEngine:
    """The built-in deterministic engine: no network, no key."""

    name = "offline"

    def plan(self, message: str, context: dict, *, is_admin: bool, history: list[dict]) -> Plan:
        from .offline import interpret

        styling = styling_call(message, context)
        if styling is not None:
            return Plan(calls=[styling], context=context)
        result = interpret(message, context, is_admin=is_admin)
        return Plan(result.calls, result.reply, result.follow_up, result.wants_login_form, result.context)

    def respond(self, message: str, context: dict, *, is_admin: bool, history: list[dict], execute) -> Plan:
        plan = self.plan(message, context, is_admin=is_admin, history=history)
        for call in plan.calls:
            if execute(call.name, call.arguments) is None:
                break
        return plan


def engine_for():
    """The configured engine: Claude when ANTHROPIC_API_KEY is set, else the offline engine."""
    from flask import current_app

    if current_app.config.get("ANTHROPIC_API_KEY"):
        from .claude import ClaudeEngine

        return ClaudeEngine(current_app.config)
    return OfflineEngine()


def respond(message: str, context: dict, actor, history: list[dict], execute, observe=None):
    """One turn with the configured engine; if its service fails, the offline engine answers this turn."""
    engine = engine_for()
    try:
        if isinstance(engine, OfflineEngine) or observe is None:
            return engine, engine.respond(message, context, is_admin=actor.is_admin, history=history, execute=execute)
        return engine, engine.respond(
            message, context, is_admin=actor.is_admin, history=history, execute=execute, observe=observe
        )
    except EngineUnavailable as error:
        fallback = OfflineEngine()
        plan = fallback.respond(message, context, is_admin=actor.is_admin, history=history, execute=execute)
        plan.context = {**(plan.context or {}), "engine_notice": f"(The AI service is unavailable right now: {error}. "
                        "The built-in assistant answered instead.)"}  # fmt: skip
        return fallback, plan


def engine_status(app_config: dict) -> dict:
    """What the admin settings page shows about the engine."""
    claude = bool(app_config.get("ANTHROPIC_API_KEY"))
    return {"engine": "claude" if claude else "offline", "model": app_config.get("ANTHROPIC_MODEL") if claude else None,
            "key_configured": claude, "mcp_servers": bool(app_config.get("ANTHROPIC_MCP_SERVERS"))}  # fmt: skip


def test_connection(app_config: dict) -> tuple[bool, str]:
    """One tiny call to the configured model; (worked, what happened)."""
    if not app_config.get("ANTHROPIC_API_KEY"):
        return True, "The offline engine needs no connection."
    import anthropic

    client = anthropic.Anthropic(api_key=app_config["ANTHROPIC_API_KEY"], http_client=app_config.get("ANTHROPIC_HTTP_CLIENT"),
                                 max_retries=0, timeout=15.0)  # fmt: skip
    try:
        client.messages.create(
            model=app_config["ANTHROPIC_MODEL"], max_tokens=1, messages=[{"role": "user", "content": "ping"}]
        )
    except anthropic.APIError as error:
        return False, f"The call failed: {type(error).__name__}"
    return True, f"{app_config['ANTHROPIC_MODEL']} answered."

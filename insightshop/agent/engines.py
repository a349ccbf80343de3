"""Chat engines behind one interface: plan(message, context, is_admin, history) → calls + reply/follow-up."""

from __future__ import annotations

import logging
import re
import warnings
from dataclasses import dataclass, field

log = logging.getLogger(__name__)
# What a shopper is told; an admin also sees why (the settings page shows the last error in full).
CONFIGURATION_ERRORS = {"auth", "model_not_found", "deprecated_model"}


@dataclass
class Plan:
    calls: list = field(default_factory=list)  # objects with .name and .arguments
    reply: str | None = None
    follow_up: str | None = None
    wants_login_form: bool = False
    context: dict = field(default_factory=dict)
    citations: list = field(
        default_factory=list
    )  # [{"text", "url"}]: cited values the reply links (Claude's citations)


class EngineUnavailable(RuntimeError):
    """The engine's service failed this turn (rate limit, overload, timeout, bad key, unknown model). Before any
    tool ran, the offline engine answers; after, the turn ends there (a turn never runs twice)."""

    def __init__(self, message: str, *, kind: str = "status", detail: str | None = None):
        super().__init__(message)
        self.kind, self.detail = kind, detail


@dataclass
class Call:
    name: str
    arguments: dict


_STYLING = re.compile(
    r"\b(goes? (well )?with|go together|match(es)? with|wear with|pair (it )?with|outfit|style (it|this|that))\b", re.I
)
_CART_THINGS = re.compile(
    r"\b(cart|basket|bag|trolley|bought|ordered|i have|i've got|my (stuff|things|clothes|items))\b", re.I
)
_PRODUCT_ID = re.compile(r"(?:product|item|#)\s*#?(\d{1,9})\b", re.I)


def styling_call(message: str, context: dict) -> Call | None:
    """ "What goes with product 3?", "outfit ideas for my cart": the suggest_outfit tool."""
    if not _STYLING.search(message):
        return None
    found = _PRODUCT_ID.search(message)
    if found:
        return Call("suggest_outfit", {"product_id": int(found.group(1))})
    named = _named_product(message)
    if named is not None:  # "what goes with the linen shirt?": that product (adults' first, as the shop resolves names)
        return Call("suggest_outfit", {"product_id": named})
    if re.search(r"\b(it|this|that)\b", message, re.I) and context.get("last_product_id"):
        return Call("suggest_outfit", {"product_id": int(context["last_product_id"])})
    if not _CART_THINGS.search(message):
        return None  # "an outfit for a hot holiday": a need to search for (the brief), not the cart to style
    return Call("suggest_outfit", {"from_cart": True})


def _named_product(message: str) -> int | None:
    from .offline import entities, load_vocabulary
    from .offline.rules import Msg

    msg = Msg(message)
    mentions = entities.product_mentions(message, load_vocabulary(), msg.types or None)
    if len(mentions) != 1 or not (mentions[0].score == 1 or mentions[0].telling or mentions[0].hits >= 2):
        return None
    fitting = entities.choose(mentions[0].products, msg.colors[0] if msg.colors else None, msg.category)
    return fitting[0].id if fitting else None


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
        previous = None
        waiting = list(plan.calls)
        while waiting:
            call = waiting.pop(0)
            if getattr(call, "after_success", False) and (previous is None or previous["outcome"] != "executed"):
                break  # e.g. a swap's removal, once its add failed: the line in the cart stays
            previous = execute(call.name, call.arguments)
            if previous is None:
                break
            then = getattr(call, "then", None)
            if then is not None and previous["outcome"] == "executed":
                decided, reply = then(previous["result"])  # e.g. the cart's lines decide what a count change does
                waiting[:0] = decided
                plan.reply = reply or plan.reply
        return plan


def engine_for():
    """The configured engine: Claude when ANTHROPIC_API_KEY is set, else the offline engine."""
    from flask import current_app

    if current_app.config.get("ANTHROPIC_API_KEY"):
        from .claude import ClaudeEngine

        return ClaudeEngine(current_app.config)
    return OfflineEngine()


def respond(message: str, context: dict, actor, history: list[dict], execute, observe=None, *,
            conversation_id: str | None = None):  # fmt: skip
    """One turn with the configured engine. If its service fails before any tool ran, the offline engine answers
    this turn; once a tool ran, the turn ends with what was done (re-running it would repeat the tool calls)."""
    engine = engine_for()
    if isinstance(engine, OfflineEngine):
        return engine, engine.respond(message, context, is_admin=actor.is_admin, history=history, execute=execute)
    ran: list[dict] = []

    def tracked(name: str, arguments: dict):
        entry = execute(name, arguments)
        if entry is not None:
            ran.append(entry)
        return entry

    def observed(entry: dict) -> None:
        ran.append(entry)
        observe(entry)

    extra = {"observe": observed} if observe is not None else {}
    if getattr(engine, "takes_caller", False):
        extra |= {"actor": actor, "conversation_id": conversation_id}
    try:
        return engine, engine.respond(
            message, context, is_admin=actor.is_admin, history=history, execute=tracked, **extra
        )
    except EngineUnavailable as error:
        record_engine_error(getattr(engine, "model", None), error)
        if ran:
            return engine, Plan(reply=interrupted_reply(error, ran), context=context)
        fallback = OfflineEngine()
        plan = fallback.respond(message, context, is_admin=actor.is_admin, history=history, execute=execute)
        plan.context = {**(plan.context or {}), "engine_notice": _notice(error, actor)}
        return fallback, plan


def interrupted_reply(error: EngineUnavailable, ran: list[dict]) -> str:
    """The honest end of a turn whose AI service failed after tools ran: what was done, nothing repeated."""
    from .replies import compose

    return (f"The AI service stopped partway through ({error}), so I stopped too. What was done: {compose(ran)} "
            "Nothing else was changed; check the result before asking again.")  # fmt: skip


def _notice(error: EngineUnavailable, actor) -> str:
    notice = f"(The AI service is unavailable right now: {error}. The built-in assistant answered instead."
    if actor.is_admin and error.kind in CONFIGURATION_ERRORS:
        notice += " Admin → Assistant shows what to fix."
    return notice + ")"


def record_engine_error(model: str | None, error: EngineUnavailable) -> None:
    """Log the failure and keep it for the admin's assistant page (in the audit log: every app server sees it)."""
    from ..extensions import db
    from ..services import audit
    from ..services.actors import ANONYMOUS

    level = logging.ERROR if error.kind in CONFIGURATION_ERRORS else logging.WARNING
    log.log(level, "Claude engine failed (%s, model %s): %s %s", error.kind, model, error, error.detail or "")
    try:
        audit.record(ANONYMOUS, "engine.error", "engine", (model or "")[:64] or None, outcome="error",
                     after={"kind": error.kind, "message": str(error), "detail": (error.detail or "")[:500]})  # fmt: skip
        db.session.commit()
    except Exception:
        db.session.rollback()
        log.exception("Could not record the engine error")


def last_engine_error() -> dict | None:
    """The most recent engine failure: {at, model, kind, message, detail}, or None."""
    from ..services import audit

    entries = audit.list_entries(action="engine.error", limit=1)
    if not entries:
        return None
    entry, after = entries[0], entries[0].after or {}
    return {"at": entry.created_at, "model": entry.target_id, "kind": after.get("kind"), "message": after.get("message"),
            "detail": after.get("detail")}  # fmt: skip


def engine_status(app_config: dict) -> dict:
    """What the admin settings page shows about the engine: which one, the model (and whether the SDK marks it
    deprecated), the connector, and the last error the engine met."""
    claude = bool(app_config.get("ANTHROPIC_API_KEY"))
    model = app_config.get("ANTHROPIC_MODEL") if claude else None
    return {"engine": "claude" if claude else "offline", "model": model, "key_configured": claude,
            "mcp_servers": bool(app_config.get("ANTHROPIC_MCP_SERVERS")), "model_retires": model_retirement(model),
            "last_error": last_engine_error() if claude else None}  # fmt: skip


def model_retirement(model: str | None) -> str | None:
    """The end-of-life date the installed SDK lists for a deprecated model, else None."""
    try:
        from anthropic.resources.messages.messages import DEPRECATED_MODELS
    except ImportError:  # the SDK moved it: the API's own answer still reaches the admin page
        return None
    return DEPRECATED_MODELS.get(model) if model else None


def test_connection(app_config: dict) -> tuple[bool, str]:
    """One tiny call to the configured model; (worked, what happened). A failure is recorded like a chat's."""
    if not app_config.get("ANTHROPIC_API_KEY"):
        return True, "The offline engine needs no connection."
    import anthropic

    from ..services.anthropic_client import anthropic_client
    from .claude import unavailable

    model = app_config["ANTHROPIC_MODEL"]
    client = anthropic_client(app_config, max_retries=0, timeout=15.0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # model_retirement() reports it below
            client.messages.create(model=model, max_tokens=1, messages=[{"role": "user", "content": "ping"}])
    except anthropic.APIError as error:
        failure = unavailable(error, model)
        record_engine_error(model, failure)
        return False, f"The call failed: {failure}." + (f" {failure.detail}" if failure.detail else "")
    retires = model_retirement(model)
    if retires:
        return (
            True,
            f"{model} answered, but it is deprecated and reaches end-of-life on {retires}: choose a current model.",
        )
    return True, f"{model} answered."

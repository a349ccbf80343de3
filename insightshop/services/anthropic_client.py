"""The shop's one way to reach the Anthropic API: the official SDK's client built from the app config (the key,
ANTHROPIC_HTTP_CLIENT for tests' recorded traffic), and what a failed call means in words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import anthropic


def anthropic_client(config: Mapping, *, max_retries: int = 1, timeout: float = 30.0) -> anthropic.Anthropic:
    """A client for ANTHROPIC_API_KEY; the SDK retries passing failures (429, 5xx, timeouts) max_retries times."""
    return anthropic.Anthropic(api_key=config["ANTHROPIC_API_KEY"], http_client=config.get("ANTHROPIC_HTTP_CLIENT"),
                               max_retries=max_retries, timeout=timeout)  # fmt: skip


@dataclass(frozen=True)
class ApiFailure:
    """A failed call told apart by kind: configuration problems (auth, model_not_found, deprecated_model) from
    passing ones (rate_limit, timeout, connection, status)."""

    message: str
    kind: str
    detail: str | None = None


def describe_failure(error: anthropic.APIError, model: str) -> ApiFailure:
    """What an SDK error means for the shop: a short message, its kind and the API's own words."""
    message = getattr(error, "message", "") or str(error)
    if isinstance(error, anthropic.AuthenticationError):
        return ApiFailure("the API key was refused", "auth")
    if isinstance(error, anthropic.NotFoundError) and "model" in message.lower():
        return ApiFailure(f"the model {model} was not found", "model_not_found", message)
    if isinstance(error, anthropic.BadRequestError) and "deprecat" in message.lower():
        return ApiFailure(f"the model {model} is deprecated", "deprecated_model", message)
    if isinstance(error, anthropic.RateLimitError):
        return ApiFailure("too many requests", "rate_limit")
    if isinstance(error, anthropic.APITimeoutError):
        return ApiFailure("it timed out", "timeout")
    if isinstance(error, anthropic.APIConnectionError):
        return ApiFailure("it could not be reached", "connection")
    if isinstance(error, anthropic.APIStatusError):
        return ApiFailure(f"it answered {error.status_code}", "status", message)
    return ApiFailure("it failed", "status", message)

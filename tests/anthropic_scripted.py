"""Anthropic's HTTP layer replaced by scripted responses: the official SDK still builds, sends and parses everything.
Used by the chat engine's tests and the receipt engine's."""

from __future__ import annotations

import json

import httpx2


def message(content, stop_reason="end_turn", message_id="msg_1"):
    return {"id": message_id, "type": "message", "role": "assistant", "model": "claude-sonnet-5-5", "content": content,
            "stop_reason": stop_reason, "stop_sequence": None,
            "usage": {"input_tokens": 900, "output_tokens": 40, "cache_read_input_tokens": 850, "cache_creation_input_tokens": 0}}  # fmt: skip


def tool_use(use_id, name, arguments):
    return {"type": "tool_use", "id": use_id, "name": name, "input": arguments}


def text(value):
    return {"type": "text", "text": value}


class ScriptedAnthropic:
    """Answers POST /v1/messages with the next scripted response — (status, payload), (status, payload, headers) or
    a callable making one of those from the request body; keeps every request body and its headers."""

    def __init__(self, *responses):
        self.responses = list(responses)
        self.requests = []
        self.headers = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        self.headers.append(dict(request.headers))
        response = self.responses.pop(0)
        status, payload, *extra = response(body) if callable(response) else response
        headers = {"request-id": f"req_{len(self.requests)}", **(extra[0] if extra else {})}
        return httpx2.Response(status, json=payload, headers=headers)


def install(app, *responses) -> ScriptedAnthropic:
    """Configure the app for Claude with a test key and the scripted transport; the script, for assertions."""
    script = ScriptedAnthropic(*responses)
    app.config.update(
        ANTHROPIC_API_KEY="sk-ant-test", ANTHROPIC_HTTP_CLIENT=httpx2.Client(transport=httpx2.MockTransport(script))
    )
    return script

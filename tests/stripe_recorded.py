"""Stripe's HTTP layer replaced by recorded responses: the official SDK still builds, sends and parses everything."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from pathlib import Path
from urllib.parse import parse_qs

import stripe

FIXTURES = Path(__file__).parent / "fixtures" / "stripe"


class RecordedStripe(stripe.HTTPClient):
    """Answers each (method, path) with a recorded JSON body; remembers every request for assertions."""

    name = "recorded"

    def __init__(self, routes: dict[tuple[str, str], tuple[str, int]] | None = None):
        super().__init__()
        self.routes = routes or {
            ("post", "/v1/payment_intents"): ("payment_intent_created.json", 200),
            ("post", "/v1/refunds"): ("refund_created.json", 200),
            ("get", "/v1/payment_intents/*"): ("payment_intent_retrieved.json", 200),
        }
        self.requests: list[dict] = []

    def request(self, method, url, headers, post_data=None, *, _usage=None):
        path = "/" + url.split("://", 1)[-1].split("/", 1)[-1].split("?", 1)[0]
        form = {k: v[0] for k, v in parse_qs(post_data or "").items()}
        self.requests.append({"method": method, "path": path, "headers": dict(headers or {}), "form": form})
        # "/v1/payment_intents/*" answers for any id under that path
        fixture, status = self.routes.get((method, path)) or self.routes[(method, path.rsplit("/", 1)[0] + "/*")]
        body = json.loads((FIXTURES / fixture).read_text())
        if path == "/v1/payment_intents" and status == 200:  # echo what the shop sent, as Stripe does
            body.update(amount=int(form["amount"]), metadata={"order_id": form["metadata[order_id]"]})
        return json.dumps(body), status, {"Request-Id": f"req_recorded_{len(self.requests)}"}

    def request_stream(self, method, url, headers, post_data=None, *, _usage=None):
        """The same recorded answer, as a stream of bytes (the SDK streams only for file downloads)."""
        body, status, response_headers = self.request(method, url, headers, post_data, _usage=_usage)
        return iter([body.encode()]), status, response_headers

    def close(self):
        pass


def signed(payload: dict, secret: str, *, timestamp: int | None = None) -> tuple[bytes, str]:
    """A webhook body and its Stripe-Signature header, computed the way Stripe computes them."""
    body = json.dumps(payload).encode()
    stamp = timestamp or int(time.time())
    signature = hmac.new(secret.encode(), f"{stamp}.{body.decode()}".encode(), hashlib.sha256).hexdigest()
    return body, f"t={stamp},v1={signature}"


def intent_event(event_id: str, kind: str, intent_id: str, amount: int, order_id: int, **intent_fields) -> dict:
    return {
        "id": event_id,
        "object": "event",
        "api_version": "2025-09-30.clover",
        "created": int(time.time()),
        "type": kind,
        "livemode": False,
        "data": {"object": {"id": intent_id, "object": "payment_intent", "amount": amount, "currency": "usd",
                            "metadata": {"order_id": str(order_id)}, "status": kind.split(".")[-1], **intent_fields}},
    }  # fmt: skip

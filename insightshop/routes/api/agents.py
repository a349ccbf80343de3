"""The category agent over HTTP: POST /api/agents/categorize-item (seed 003)."""

from __future__ import annotations

from ...agent.category_agent import categorize_item_with_agent
from ...schemas.categories import CATEGORIZE_ITEM_BODY
from ...schemas.validation import validate
from ...web.auth import client_address, current_actor
from . import api, json_body


@api.post("/agents/categorize-item")
def categorize_item():
    actor = current_actor()
    actor.require_user()
    body = validate(json_body(), CATEGORIZE_ITEM_BODY, what="item")
    return categorize_item_with_agent(actor, body["item_name"], client=client_address())

"""What a conversation remembers between turns (the products just shown or added, pending questions), so follow-ups
like "add the first one", "the cheapest one" or "make that 3" point at real things. Engine-independent."""

from __future__ import annotations


def remember(context: dict, tool_calls: list[dict]) -> dict:
    """Products the shopper just saw or added, so "add the first one" or "compare them" point at real ids."""
    for entry in tool_calls:
        if entry["outcome"] != "executed" or not isinstance(entry.get("result"), dict):
            continue
        result = entry["result"]
        shown = [p["id"] for p in result.get("products", []) if isinstance(p, dict) and "id" in p]
        if shown:
            context["last_product_ids"] = shown[:10]
            context["last_product_id"] = shown[0]
        for added in result.get("added", []):
            context["last_product_id"] = added.get("product_id", context.get("last_product_id"))
    return context

"""One guarded path for every tool call — chat, JSON API, offline agent and MCP clients alike.

run_tool(name, arguments, actor): tool exists → arguments match its schema → caller may use it → the
service runs → a clean result {ok, data | error{code, message}}; every call, allowed or refused, is audited.
The seed's legacy agent API (parse_agent_response, can_execute_action, execute_action) maps onto it.
"""

from __future__ import annotations

import json
import logging
import re
import time
from datetime import date

from flask import current_app, g, has_request_context

from ..extensions import db
from ..mcp import service_handlers
from ..mcp.admin_handlers import ADMIN_HANDLERS, ADMIN_PRECONDITIONS
from ..mcp.tools_registry import check_tool_call, get_tool_definition, registry
from ..models.accounts import ApiToken
from ..observability import metrics
from ..services import (
    accounts,
    admin_orders,
    admin_products,
    admin_shop,
    api_tokens,
    audit,
    cart,
    catalog,
    compare,
    orders,
    payments,
    reviews,
    search_terms,
)  # fmt: skip
from ..services.actors import Actor
from ..services.errors import DomainError, ErrorCode, Invalid, NotFound
from ..services.vocabulary import normalise_color, normalise_size

log = logging.getLogger(__name__)

LEGACY_ACTIONS = {
    "add_item": "cart_add_item",
    "remove_item": "cart_remove_item",
    "show_cart": "cart_show",
    "clear_cart": "cart_clear",
}
LEGACY_PARAMS = {"color": "selected_color", "size": "selected_size"}


CONFIRMATION_REQUIRED = "confirmation_required"


def run_tool(name: str, arguments, actor: Actor, *, api_token: ApiToken | None = None, confirmed: bool = True) -> dict:
    """Decide everything about one tool call as the actor, and run it unless it must wait; never raises.

    The tool exists → the arguments match its schema → the caller may use it (permission; an owner for non-public
    tools) → with confirmed=False, a tool whose definition says confirm is not run: its PRECONDITIONS check runs
    (a call that could not succeed is refused now) and the answer is a proposal → the service runs (ownership,
    stock, prices: the service's rules) → audited. Results:
      {"ok": True, "data": ...}
      {"ok": False, "error": {"code", "message", "details"?}}
      {"ok": False, "needs_confirmation": True, "tool": name, "arguments": {...},
       "error": {"code": "confirmation_required", "message": ...}}
    """
    started = time.perf_counter()
    refusal = check_tool_call(name, arguments, actor.is_admin)
    definition = get_tool_definition(name) if refusal is None else None
    if refusal is None and not definition["public"] and not actor.has_owner:
        refusal = ("unauthorized", f"{name} needs a logged-in user or a guest session")
    if refusal is not None:
        result = {"ok": False, "error": {"code": refusal[0], "message": refusal[1]}}
    elif definition["confirm"] and not confirmed:
        result = _propose(name, arguments, actor)
    else:
        result = _execute(name, arguments, actor, api_token)
    _audit(actor, name, arguments, result, started)
    _count(name, result)
    return result


def _propose(name: str, arguments: dict, actor: Actor) -> dict:
    """A consequential call that could run: the proposal; one that could not: its error, before anyone approves."""
    check = PRECONDITIONS.get(name)
    if check is not None:
        try:
            _with_request_context(lambda: check(actor, dict(arguments)))
        except DomainError as error:
            db.session.rollback()
            return {"ok": False, "error": {"code": error.code, "message": error.message, "details": error.details}}
        except Exception as error:
            if _database_unavailable(error):
                raise  # an outage, not this call's failure: every door answers it (503 with Retry-After)
            db.session.rollback()
            log.exception("Precondition of %s failed", name)
            return {
                "ok": False,
                "error": {"code": ErrorCode.INTERNAL_ERROR.value, "message": f"{name} failed unexpectedly"},
            }
    return {"ok": False, "needs_confirmation": True, "tool": name, "arguments": dict(arguments),
            "error": {"code": CONFIRMATION_REQUIRED,
                      "message": f"{name} changes something: it runs only after the person approves it"}}  # fmt: skip


def _with_request_context(work):
    """Run work inside a request context (MCP over stdio and the CLI have none): results carry the shop's URLs."""
    if has_request_context():
        return work()
    with current_app.test_request_context("/"):
        g.tool_request_is_synthetic = True  # its address is nobody's: the login limits count it as "stdio"
        try:
            return work()
        finally:
            g.pop("tool_request_is_synthetic", None)


def _execute(name: str, arguments: dict, actor: Actor, api_token: ApiToken | None) -> dict:
    if not has_request_context():
        return _with_request_context(lambda: _execute(name, arguments, actor, api_token))
    try:
        data = HANDLERS[name](actor, dict(arguments), api_token)
    except DomainError as error:
        db.session.rollback()
        return {"ok": False, "error": {"code": error.code, "message": error.message, "details": error.details}}
    except Exception as error:  # a bug must not reach the model or the client as a stack trace
        if _database_unavailable(error):
            raise  # an outage, not a failed tool: every door answers it (503 with Retry-After)
        db.session.rollback()
        log.exception("Tool %s failed", name)
        return {
            "ok": False,
            "error": {"code": ErrorCode.INTERNAL_ERROR.value, "message": f"{name} failed unexpectedly"},
        }
    return {"ok": True, "data": data}


def _database_unavailable(error: Exception) -> bool:
    from ..web.errors import DATABASE_UNAVAILABLE

    return isinstance(error, DATABASE_UNAVAILABLE)


def _audit(actor: Actor, name: str, arguments, result: dict, started: float) -> None:
    try:
        audit.record(actor, f"tool.{name}"[:64], "tool", name[:64] if isinstance(name, str) else None,
                     after={"arguments": arguments if isinstance(arguments, dict) else {"value": str(arguments)[:200]},
                            "error": result.get("error", {}).get("code")},
                     outcome=_outcome(result),
                     duration_ms=int((time.perf_counter() - started) * 1000))  # fmt: skip
        db.session.commit()
    except Exception:
        db.session.rollback()
        log.exception("Could not audit tool call %s", name)


def _count(name, result: dict) -> None:
    # A name that is not a tool is whatever the client or model made up: one "<unknown>" series, not one per name.
    known = isinstance(name, str) and name in registry().definitions
    metrics.count_tool_call(name if known else None, _outcome(result))


REFUSALS = {"unknown_tool", "invalid_arguments", "forbidden", "unauthorized"}


def _outcome(result: dict) -> str:
    if result["ok"]:
        return "ok"
    if result.get("needs_confirmation"):
        return "proposed"
    return "refused" if result["error"]["code"] in REFUSALS else "error"


# Product resolution ------------------------------------------------------------------------------


def canonical_clothing_type(word: str | None) -> str | None:
    """ "shirts", "tees", "trousers", "T-Shirt" → the shop's clothing type (or None); the catalog's vocabulary."""
    return search_terms.canonical_clothing_type(word)


def resolve_product(clothing_type: str | None, color: str | None = None, size: str | None = None,
                    category: str | None = None, quantity: int = 1):  # fmt: skip
    """The catalog's rule (services.catalog.resolve_product): adult before kids' unless a department is named,
    "ambiguous" when several fit equally."""
    return catalog.resolve_product(clothing_type, color, size, category, quantity)


# Tool handlers: each one calls one service -------------------------------------------------------


def _auth_login(actor, args, _token):
    user = accounts.authenticate(args["email"], args["password"], client=_tool_client())
    if actor.guest_id:
        cart.merge_guest_cart(actor.guest_id, user.id)
    token, record = api_tokens.issue_token(user)
    from ..schemas.shop import user_to_dict

    return {"token": token, "expires_at": record.expires_at.isoformat(), "user": user_to_dict(user)}


def _tool_client() -> str:
    """Who is calling a tool, for the login limits: the HTTP caller's address (the API, chat, MCP over HTTP),
    else a fixed label for the local stdio MCP server."""
    from ..mcp.server import mcp_client_address

    client = mcp_client_address()
    if client:
        return client
    if has_request_context() and not getattr(g, "tool_request_is_synthetic", False):
        from ..web.auth import client_address

        return client_address()
    return "stdio"


def _auth_logout(actor, _args, token):
    token = token or _bearer_of_request(actor)
    if token is not None:
        api_tokens.revoke_token(token)
    # A browser's chat: its login record is revoked here, and the chat route ends the flask-login session.
    browser = token is None and accounts.end_current_login_session(actor)
    return {
        "logged_out": actor.is_authenticated or token is not None,
        "end_browser_session": browser,
        "message": "You are logged out." if browser else "Discard the token; it no longer works.",
    }


def _bearer_of_request(actor):
    """The bearer token of the HTTP request this call came in (a chat turn through the API), when it is the actor's."""
    if not has_request_context() or getattr(g, "tool_request_is_synthetic", False):
        return None
    from ..web.auth import current_api_token

    try:
        token = current_api_token()
    except DomainError:
        return None
    if token is None or (token.user_id, token.guest_id) != (actor.user.id if actor.user else None,
                                                            None if actor.user else actor.guest_id):  # fmt: skip
        return None
    return token


# The assistant's brief (several garments or colours, exclusions, fabrics, seasons): tool-only arguments, validated
# by the tool's schema, added to the search body the API shares.
BRIEF_SEARCH_ARGS = {"clothing_types": "clothing_type", "colors": "color", "exclude_colors": "color_out",
                     "materials": "fabric", "exclude_materials": "fabric_out", "seasons": "season",
                     "exclude_product_ids": "exclude_ids"}  # fmt: skip


def _search_products(_actor, args, _token):
    from dataclasses import replace

    from ..schemas.catalog import search_body
    from ..schemas.products import page_to_dict

    body = {k: v for k, v in args.items() if k not in BRIEF_SEARCH_ARGS}
    query = search_body({**body, "per_page": 10})
    extra: dict = {}
    for name, field in BRIEF_SEARCH_ARGS.items():
        if args.get(name):
            extra[field] = tuple(dict.fromkeys((*getattr(query, field), *args[name])))
    return page_to_dict(catalog.search_catalog(replace(query, **extra) if extra else query))


def _cart_add_item(actor, args, _token):
    from ..schemas.shop import cart_line_to_dict, cart_to_dict

    quantity = args.get("quantity", 1)
    color, size = args.get("selected_color"), args.get("selected_size")
    if "product_id" in args:
        product_id, alternatives = args["product_id"], []
    elif args.get("clothing_type"):
        product, alternatives = catalog.resolve_product(args["clothing_type"], color, size, args.get("category"),
                                                        quantity)  # fmt: skip
        product_id = product.id
        color = normalise_color(color) if color else None
    else:
        raise Invalid("Say which product: product_id, or clothing_type with colour and size",
                      details=[{"field": "product_id", "message": "product_id or clothing_type is required"}])  # fmt: skip
    line = cart.add_item(actor, product_id, quantity, color, size)
    added = {**cart_line_to_dict(line), "quantity_added": quantity}
    return {"message": f"Added {quantity} × {_line_label(added)}.", "added": [added],
            "alternatives": [{"product_id": p.id, "name": p.name, "category": p.category} for p in alternatives],
            "cart": cart_to_dict(cart.get_cart(actor))}  # fmt: skip


def _line_label(added: dict) -> str:
    """ "Oxford Button-Down Shirt (Men's, White, L)" """
    department = {"men": "Men's", "women": "Women's", "kids": "Kids'"}.get(added.get("category"), "")
    details = ", ".join(filter(None, [department, str(added.get("color") or "").capitalize(), added.get("size")]))
    return f"{added['name']} ({details})" if details else added["name"]


def _cart_remove_item(actor, args, _token):
    from ..schemas.shop import cart_to_dict

    current = cart.get_cart(actor)
    kind = canonical_clothing_type(args.get("clothing_type")) if args.get("clothing_type") else None
    color = normalise_color(args["selected_color"]) if args.get("selected_color") else None
    size = normalise_size(args["selected_size"]) if args.get("selected_size") else None
    lines = [
        line for line in current.lines
        if ("product_id" not in args or line.product.id == args["product_id"]) and (kind is None or line.product.clothing_type == kind)
        and (color is None or line.variant.color == color) and (size is None or line.variant.size == size)
    ]  # fmt: skip
    if not lines:
        raise NotFound("Nothing in your cart matches that")
    if len(lines) > 1:
        raise Invalid("Several cart lines match; say which", code="ambiguous",
                      details=[{"product_id": ln.product.id, "name": ln.product.name, "color": ln.variant.color,
                                "size": ln.variant.size} for ln in lines])  # fmt: skip
    line = lines[0]
    had, product_id, name = line.item.quantity, line.product.id, line.product.name
    left = cart.remove_item(actor, line.item.id, args.get("quantity"))
    removed = {"product_id": product_id, "name": name, "quantity": had - left}
    return {
        "message": f"Removed {removed['quantity']} × {name}.",
        "removed": removed,
        "cart": cart_to_dict(cart.get_cart(actor)),
    }


def _cart_show(actor, _args, _token):
    from ..schemas.shop import cart_to_dict

    return {"cart": cart_to_dict(cart.get_cart(actor))}


def _cart_clear(actor, _args, _token):
    from ..schemas.shop import cart_to_dict

    removed = cart.clear_cart(actor)
    return {"removed_lines": removed, "cart": cart_to_dict(cart.get_cart(actor))}


def _compare_products(_actor, args, _token):
    from ..schemas.products import product_to_dict

    return {"products": [product_to_dict(p) for p in compare.compare_products(args["product_ids"])]}


def _review_create(actor, args, _token):
    from ..schemas.shop import review_to_dict

    # Every door counts against the same per-client key as the review form and the API.
    client = _tool_client()
    review, created = reviews.save_review(actor, args["product_id"], args["rating"], args.get("comment", ""),
                                          args.get("user_name"), client=client)  # fmt: skip
    return {"review": review_to_dict(review), "created": created}


def _checkout_proceed(actor, args, _token):
    from ..schemas.orders import order_to_dict

    # The same per-client and per-cart checkout limits as the page and the API.
    order = orders.place_order(actor, orders.ShippingDetails(**args), client=_tool_client())
    intent = payments.create_intent(order)
    # A signed, short-lived pay link: the order's long-lived token never goes into a URL.
    pay_url = f"/orders/{order.id}/pay" + ("" if order.user_id else f"?link={orders.order_link_token(order)}")
    return {"order": order_to_dict(order), "order_token": order.guest_token,
            "payment": {"provider": intent.provider, "payment_intent_id": intent.payment_intent_id,
                        "client_secret": intent.client_secret, "amount": f"{intent.amount:.2f}",
                        "pay_url": pay_url}}  # fmt: skip


def _orders_list_mine(actor, args, _token):
    actor.require_owner()
    return {"orders": [_my_order(actor, order) for order in orders.recent_orders(actor, args.get("limit", 5))]}


def _my_order(actor, order) -> dict:
    # A guest's order page opens with a signed, short-lived link (its long-lived token never goes into a URL).
    link = "" if actor.user is not None else f"?link={orders.order_link_token(order)}"
    return {"id": order.id, "status": order.status, "total": f"{order.total:.2f}", "currency": order.currency,
            "created_at": order.created_at.isoformat(), "item_count": order.item_count, "carrier": order.carrier,
            "tracking_number": order.tracking_number, "url": f"/orders/{order.id}{link}"}  # fmt: skip


def _search_shop_policies_and_faqs(_actor, args, _token):
    from ..services import shop_policies

    return {"answers": shop_policies.search(args["query"], args.get("context"))}


def _admin_dashboard(_actor, args, _token):
    from ..services import dashboard

    figures = dashboard.summary(args.get("period", "week"), args.get("low_stock_threshold", 5))
    return {"period": figures.period, "from": figures.start.isoformat() if figures.start else None,
            "to": figures.end.isoformat(), "currency": "USD", "revenue": f"{figures.revenue:.2f}",
            "orders": figures.orders, "average_order_value": f"{figures.average_order_value:.2f}",
            "by_status": figures.by_status,
            "low_stock": [{"product_id": v.product_id, "name": v.product.name, "size": v.size, "color": v.color,
                           "sku": v.sku, "stock": v.stock} for v in figures.low_stock],
            "top_products": _top_products(figures.start)}  # fmt: skip


def _top_products(since) -> list[dict]:
    """The period's best sellers: the ten first by units and the ten first by revenue (a reply ranks either way)."""
    from ..services import dashboard

    found = {}
    for by in ("units", "revenue"):
        for name, units, revenue in dashboard.top_products(10, since, by=by):
            found[name] = (name, units, revenue)
    ranked = sorted(found.values(), key=lambda row: (-row[1], -row[2], row[0]))
    return [{"name": name, "units": units, "revenue": f"{revenue:.2f}"} for name, units, revenue in ranked]


def _order_status(_actor, args, _token):
    from ..schemas.orders import order_lookup_to_dict

    return {"order": order_lookup_to_dict(orders.order_status(args["order_id"], args["email"], client=_tool_client()))}


def _order_track(_actor, args, _token):
    from ..schemas.orders import tracking_to_dict

    return {"shipment": tracking_to_dict(orders.track_order(args["tracking_number"]))}


def _admin_product_create(actor, args, _token):
    from ..schemas.products import product_to_dict

    return {"product": product_to_dict(admin_products.create_product(actor, args))}


def _admin_product_update(actor, args, _token):
    from ..schemas.products import product_to_dict

    product_id = args.pop("product_id")
    return {"product": product_to_dict(admin_products.update_product(actor, product_id, args))}


def _admin_product_delete(actor, args, _token):
    from ..schemas.products import product_to_dict

    return {"product": product_to_dict(admin_products.set_active(actor, args["product_id"], False))}


def _admin_orders_list(_actor, args, _token):
    from ..schemas.orders import order_to_dict

    page = admin_orders.list_orders(page=args.get("page", 1), per_page=args.get("per_page", 20), status=args.get("status"),
                                    user_id=args.get("user_id"), search=args.get("search"),
                                    sort=args.get("sort", "newest"))  # fmt: skip
    return {"orders": [order_to_dict(o, full=False) for o in page.orders],
            "pagination": {"page": page.page, "per_page": page.per_page, "total": page.total, "pages": page.pages}}  # fmt: skip


def _admin_order_update_status(actor, args, _token):
    from ..schemas.orders import order_to_dict

    # The panel's rule (admin_orders.change_status): shipping needs a carrier and a tracking number.
    order = admin_orders.change_status(actor, args["order_id"], args["status"], carrier=args.get("carrier"),
                                       tracking_number=args.get("tracking_number"),
                                       note=args.get("note") or "Changed through the assistant")  # fmt: skip
    return {"order": order_to_dict(order)}


def _admin_sale_create(actor, args, _token):
    from ..schemas.admin import sale_to_dict

    for field in ("start_date", "end_date"):
        args[field] = date.fromisoformat(args[field])
    return {"sale": sale_to_dict(admin_shop.create_sale(actor, args))}


def _admin_sale_run_automation(actor, _args, _token):
    report = admin_shop.run_automation(actor)
    return {"created": report.created, "activated": report.activated, "deactivated": report.deactivated}


def _admin_cart_clear_user(actor, args, _token):
    return {"removed": admin_shop.clear_user_cart(actor, args["user_id"])}


def _admin_review_delete(actor, args, _token):
    admin_shop.delete_review(actor, args["review_id"])
    return {"deleted": True}


def _suggest_outfit(actor, args, _token):
    from ..schemas.products import product_to_dict
    from ..services import styling

    product_id = args.get("product_id")
    if product_id is None and args.get("from_cart") and actor.has_owner:
        lines = cart.get_cart(actor).lines
        product_id = lines[0].product.id if lines else None
    if product_id is None:
        raise Invalid("Say which product to style (product_id), or put something in the cart first",
                      details=[{"field": "product_id", "message": "required"}])  # fmt: skip
    base, picks, reason = styling.suggest_outfit(product_id, args.get("limit", 4))
    return {"base": product_to_dict(base), "products": [product_to_dict(p) for p in picks], "reason": reason}


def _categorize_item(actor, args, _token):
    from ..services.receipts import categorize

    return categorize.categorize_item(actor, args["item_name"])


def _estimate_expiration_date(actor, args, _token):
    from ..services.receipts import expiration

    return expiration.estimate_expiration_date(actor, args["item_name"], date.fromisoformat(args["purchase_date"]),
                                               args.get("category_id"))  # fmt: skip


def _receipts_list(actor, args, _token):
    from ..schemas.cited_values import cited_value
    from ..schemas.receipts import filters_from, receipt_to_dict
    from ..services.receipts import library

    filters = filters_from(args)
    found = library.list_receipts(actor, filters, page=args.get("page", 1), per_page=args.get("per_page", 10))
    spent = library.spending(actor, filters)
    summary = ("id", "status", "merchant_name", "purchase_date", "total_amount", "currency", "url")
    return {
        "receipts": [{key: receipt_to_dict(r, full=False)[key] for key in summary}
                     | {"total_citation": cited_value(r) if r.total_amount is not None else None}
                     for r in found.receipts],
        "total_count": found.total, "page": found.page, "pages": found.pages,
        "spent": [{"currency": currency, "total": f"{total:.2f}", "receipts": spent["counts"][currency]}
                  for currency, total in spent["totals"].items()],
    }  # fmt: skip


def _receipt_get(actor, args, _token):
    from ..schemas.receipts import agent_response, receipt_to_dict
    from ..services.receipts import library

    receipt = library.get_receipt(actor, args["receipt_id"])
    return {"receipt": receipt_to_dict(receipt), "result": None if receipt.is_pending else agent_response(receipt)}


def _extract_receipt_metadata(actor, args, _token):
    from ..schemas.receipts import extraction_metadata
    from ..services.receipts import reading_again

    return extraction_metadata(reading_again.extract_for_owner(actor, args["receipt_id"], args.get("receipt_text")))


def _extract_line_items(actor, args, _token):
    from ..schemas.receipts import extraction_items
    from ..services.receipts import reading_again

    return extraction_items(reading_again.extract_for_owner(actor, args["receipt_id"], args.get("receipt_text")))


def _validate_extraction(_actor, args, _token):
    from ..services.receipts.validation import validate_extraction

    return validate_extraction(args["receipt_data"]).to_dict()


# Citation tools (issue 14, seed 004): owner-only reads through services.citations.search -------------------------


def _citation_query(args: dict, text_key: str = "query"):
    from ..services.citations.search import Query

    filters = {key: args[key] for key in ("merchant", "date_from", "date_to", "min_amount", "max_amount", "category")
               if key in args}  # fmt: skip
    return Query(text=args.get(text_key), filters=filters, citation_format=args.get("citation_format", "long"),
                 today=date.today())  # fmt: skip


def _search_documents(actor, args, _token):
    from ..schemas.citations import with_urls
    from ..services.citations import search

    found = search.search_documents(actor, _citation_query(args), include_citations=args.get("include_citations", True),
                                    full=args.get("include_full_citations", False), limit=args.get("limit", 20))  # fmt: skip
    return with_urls(found)


def _get_field_provenance(actor, args, _token):
    from ..schemas.citations import provenance_to_dict
    from ..services.citations import search

    receipt, field, data = search.field_provenance(actor, args["document_id"], args["field_name"])
    return provenance_to_dict(receipt, field, data, args.get("citation_format", "long"))


def _aggregate_with_citations(actor, args, _token):
    from ..services.citations import search

    return search.aggregate_with_citations(actor, args["operation"], args.get("field", "total_amount"),
                                           _citation_query(args))  # fmt: skip


CITATION_HANDLERS = {
    "search_documents": _search_documents,
    "get_field_provenance": _get_field_provenance,
    "aggregate_with_citations": _aggregate_with_citations,
}


HANDLERS = {
    "receipts_list": _receipts_list,
    "receipt_get": _receipt_get,
    "extract_receipt_metadata": _extract_receipt_metadata,
    "extract_line_items": _extract_line_items,
    "validate_extraction": _validate_extraction,
    "categorize_item": _categorize_item,
    "estimate_expiration_date": _estimate_expiration_date,
    "search_shop_policies_and_faqs": _search_shop_policies_and_faqs,
    "orders_list_mine": _orders_list_mine,
    "admin_dashboard": _admin_dashboard,
    "auth_login": _auth_login, "auth_logout": _auth_logout, "search_products": _search_products,
    "cart_add_item": _cart_add_item, "cart_remove_item": _cart_remove_item, "cart_show": _cart_show,
    "cart_clear": _cart_clear, "compare_products": _compare_products, "review_create": _review_create,
    "checkout_proceed": _checkout_proceed, "order_status": _order_status, "order_track": _order_track,
    "admin_product_create": _admin_product_create, "admin_product_update": _admin_product_update,
    "admin_product_delete": _admin_product_delete, "admin_orders_list": _admin_orders_list,
    "admin_order_update_status": _admin_order_update_status, "admin_sale_create": _admin_sale_create,
    "admin_sale_run_automation": _admin_sale_run_automation, "admin_cart_clear_user": _admin_cart_clear_user,
    "admin_review_delete": _admin_review_delete,
    "suggest_outfit": _suggest_outfit,
    **CITATION_HANDLERS,
    **ADMIN_HANDLERS,
    **service_handlers.HANDLERS,
}  # fmt: skip


# The seed's legacy agent API ---------------------------------------------------------------------

# Checks that decide, before a confirmation is proposed, whether a consequential call could run at all (an order
# transition that cannot happen is refused now, not after the shopper approves). name -> fn(actor, arguments) that
# raises a DomainError when the call cannot succeed. Each asks the service that owns the rule; nothing is changed.
PRECONDITIONS: dict = {
    "admin_order_update_status": lambda _actor, a: admin_orders.check_status_change(
        a["order_id"], a["status"], a.get("carrier"), a.get("tracking_number")
    ),
    "admin_product_delete": lambda _actor, a: admin_products.get_any_product(a["product_id"]),
    "admin_product_update": lambda _actor, a: admin_products.get_any_product(a["product_id"]),
    "admin_review_delete": lambda _actor, a: admin_shop.get_review(a["review_id"]),
    "admin_cart_clear_user": lambda _actor, a: admin_shop.get_user(a["user_id"]),
    "checkout_proceed": lambda actor, _a: orders.check_checkout(actor),
    "cart_clear": lambda actor, _a: _cart_not_empty(actor),
    **ADMIN_PRECONDITIONS,
    **service_handlers.PRECONDITIONS,
}


def _cart_not_empty(actor: Actor) -> None:
    if cart.get_cart(actor).is_empty:
        raise Invalid("Your cart is already empty", code=ErrorCode.CART_EMPTY)


_JSON_OBJECT = re.compile(r"\{.*\}", re.S)


def parse_agent_response(text: str) -> dict:
    """An LLM reply as {"type": "message", "content"} or {"type": "action", "action", "params"} (JSON found in it)."""
    match = _JSON_OBJECT.search(text or "")
    if match:
        try:
            data = json.loads(match.group(0))
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("action"), str):
            params = data.get("params") or data.get("parameters") or {}
            return {"type": "action", "action": data["action"], "params": params if isinstance(params, dict) else {}}
    return {"type": "message", "content": (text or "").strip()}


def can_execute_action(action: str, actor: Actor, params: dict | None = None) -> bool:
    """Whether the legacy action maps to a tool this actor may run with these parameters."""
    if action == "none":
        return True
    name = LEGACY_ACTIONS.get(action)
    return name is not None and check_tool_call(name, _legacy_params(params or {}), actor.is_admin) is None


def execute_action(action: str, params: dict, actor: Actor) -> dict:
    """Run a legacy action through run_tool (add_item → cart_add_item, color → selected_color …)."""
    if action == "none":
        return {"ok": True, "data": None}
    name = LEGACY_ACTIONS.get(action)
    if name is None:
        return {"ok": False, "error": {"code": "unknown_tool", "message": f"Unknown action: {str(action)[:50]}"}}
    return run_tool(name, _legacy_params(params), actor)


def _legacy_params(params: dict) -> dict:
    return {LEGACY_PARAMS.get(key, key): value for key, value in params.items()}

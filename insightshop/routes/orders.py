"""Checkout, payment, order pages, receipts, lookup, tracking and return requests in the browser."""

from __future__ import annotations

import contextlib
import uuid

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, session, url_for

from ..forms.checkout import CardForm, CheckoutForm, LookupForm, ReturnForm
from ..services import cart, order_receipts, order_timeline, orders, payments, pricing, returns
from ..services.errors import DomainError, NotFound
from ..services.payments import offline
from ..services.rate_limits import RateLimited
from ..web.auth import client_address, current_actor, ensure_guest
from ..web.forms import show_error
from ..web.receipt_pdf import render_receipt
from ..web.rendering import render_page
from ..web.security_headers import STRIPE_CONTENT_SECURITY_POLICY

order_pages = Blueprint("orders", __name__)
TOKENS_KEY = "order_tokens"


def remember_order(order) -> None:
    """Let this browser see a guest order later (the session keeps the order's token)."""
    tokens = dict(session.get(TOKENS_KEY, {}))
    tokens[str(order.id)] = order.guest_token
    session[TOKENS_KEY] = dict(list(tokens.items())[-20:])


def _order(order_id: int):
    return orders.get_order(current_actor(), order_id, _session_token(order_id))


def _session_token(order_id: int) -> str | None:
    return session.get(TOKENS_KEY, {}).get(str(order_id))


@order_pages.before_request
def take_token_from_url():
    """A signed short-lived link (?link=) or an old ?token= link: keep the order's token in the session and
    redirect to the same page without it, so it does not linger in the address bar, history or logs."""
    order_id = (request.view_args or {}).get("order_id")
    if request.method != "GET" or order_id is None or not {"link", "token"} & set(request.args):
        return None
    token = orders.token_from_link(order_id, request.args.get("link")) or request.args.get("token")
    with contextlib.suppress(NotFound):  # the page itself answers 404
        remember_order(orders.get_order(current_actor(), order_id, token))
    kept = {key: value for key, value in request.args.items() if key not in ("link", "token")}
    return redirect(url_for(request.endpoint, **request.view_args, **kept), 303)


@order_pages.route("/checkout", methods=["GET", "POST"])
def checkout():
    actor = ensure_guest()
    current = cart.get_cart(actor)
    if current.is_empty:
        flash("Your cart is empty.", "info")
        return redirect(url_for("cart.show_cart"))
    form = CheckoutForm()
    if request.method == "GET":
        form.idempotency_key.data = uuid.uuid4().hex
        _prefill(form, actor)
    if form.validate_on_submit():
        details = orders.ShippingDetails(**{name: getattr(form, name).data or None for name in (
            "email", "shipping_name", "shipping_address", "shipping_city", "shipping_state", "shipping_zip",
            "shipping_phone")}, shipping_country=form.shipping_country.data or "US",
            shipping_method=form.shipping_method.data)  # fmt: skip
        try:
            order = orders.place_order(actor, details, form.idempotency_key.data, client=client_address())
        except RateLimited:
            raise  # the 429 page, with Retry-After
        except DomainError as error:
            show_error(form, error, aliases={"email": "email"})
        else:
            remember_order(order)
            return redirect(url_for("orders.pay", order_id=order.id), 303)
    method = form.shipping_method.data if form.is_submitted() else request.args.get("shipping_method", "standard")
    method = method if method in pricing.SHIPPING_METHODS else "standard"
    form.shipping_method.data = method
    status = 422 if form.is_submitted() else 200
    # The radio buttons ask for the summary block alone (htmx) so the total always shows what payment will charge.
    return render_page("orders/checkout.html", ["checkout_summary"], status, form=form, cart=current,
                       quote=orders.quote(actor, method), delivery=orders.delivery_options(actor),
                       free_from=pricing.free_shipping_threshold())  # fmt: skip


def _prefill(form: CheckoutForm, actor) -> None:
    """The last address this shopper (or this guest's abandoned checkout) used, else their account's name."""
    last = orders.last_shipping_details(actor) or {}
    for name, value in last.items():
        getattr(form, name).data = value
    if actor.user:
        form.email.data = form.email.data or actor.user.email
        form.shipping_name.data = form.shipping_name.data or actor.user.display_name


@order_pages.route("/orders/<int:order_id>/pay", methods=["GET", "POST"])
def pay(order_id: int):
    order = _order(order_id)
    if not order.can_pay():
        return redirect(url_for("orders.show_order", order_id=order.id))
    form, error = CardForm(), None
    try:
        intent = payments.create_intent(order)  # created once per order, reused on every later view
    except DomainError as problem:  # expired meanwhile, or paid from another tab
        flash(problem.message, "error")
        return redirect(url_for("orders.show_order", order_id=order_id), 303)
    if intent.provider == offline.NAME and form.validate_on_submit():
        try:
            offline.confirm(order, form.card_number.data, actor=order.email)
        except DomainError as problem:
            error = problem.message
            show_error(form, problem)
        else:
            flash("Payment received — thank you! Your receipt is ready.", "success")
            return redirect(url_for("orders.show_order", order_id=order.id), 303)
    html = render_template("orders/pay.html", order=order, form=form, intent=intent, error=error,
                           stripe_key=current_app.config.get("STRIPE_PUBLISHABLE_KEY"),
                           show_test_cards=current_app.config.get("APP_ENV") != "production")  # fmt: skip
    response = Response(html, 422 if form.is_submitted() and error else 200)
    if intent.provider == "stripe":
        response.headers["Content-Security-Policy"] = STRIPE_CONTENT_SECURITY_POLICY
    return response


@order_pages.get("/orders/<int:order_id>")
def show_order(order_id: int):
    order = _order(order_id)
    return render_template("orders/order.html", order=order, timeline=order_timeline.customer_timeline(order),
                           return_form=ReturnForm(), returns=returns.returns_for_order(order),
                           returnable=returns.returnable_quantities(order),
                           return_days=current_app.config["RETURN_WINDOW_DAYS"])  # fmt: skip


@order_pages.get("/orders/<int:order_id>/receipt")
def show_receipt(order_id: int):
    order = _order(order_id)
    return render_template("orders/receipt.html", order=order, lines=order_receipts.receipt_lines(order))


@order_pages.get("/orders/<int:order_id>/receipt.pdf")
def receipt_pdf(order_id: int):
    order = _order(order_id)
    response = Response(render_receipt(order), mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="insightshop-receipt-{order.id}.pdf"'
    return response


@order_pages.post("/orders/<int:order_id>/returns")
def request_return(order_id: int):
    order = _order(order_id)
    form = ReturnForm()
    if form.validate_on_submit():
        try:
            returns.request_return(current_actor(), order.id, [{"order_item_id": form.order_item_id.data,
                                   "quantity": form.quantity.data, "reason": form.reason.data}],
                                   _session_token(order.id))  # fmt: skip
        except DomainError as error:
            flash(error.message, "error")
        else:
            flash("Your return request is in; we will email you once it is reviewed.", "success")
    else:
        flash("Tell us how many and why, please.", "error")
    return redirect(url_for("orders.show_order", order_id=order.id), 303)


@order_pages.route("/orders/lookup", methods=["GET", "POST"])
def lookup():
    form, order, error, status, retry_after, link_sent = LookupForm(), None, None, None, None, False
    if form.validate_on_submit():
        try:
            order = orders.order_status(form.order_id.data, form.email.data, client=client_address())
        except (NotFound, RateLimited) as problem:  # too many tries: the form again, with the message
            error, status, retry_after = problem.message, problem.status, getattr(problem, "retry_after", None)
        else:
            if orders.can_access(current_actor(), order, _session_token(order.id)):  # the buyer's own browser
                return redirect(url_for("orders.show_order", order_id=order.id), 303)
            link_sent = order.user_id is None and orders.send_order_link(order)
    status = status or (422 if form.is_submitted() and not order else 200)
    html = render_template("orders/lookup.html", form=form, order=order, error=error, link_sent=link_sent)
    response = Response(html, status)
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


@order_pages.get("/orders/track")
def track():
    number = (request.args.get("tracking_number") or "").strip()
    order, error = None, None
    if number:
        if len(number) > 100:
            abort(400)
        try:
            order = orders.track_order(number)
        except NotFound as problem:
            error = problem.message
    timeline = order_timeline.customer_timeline(order, public=True) if order else []
    return render_template("orders/track.html", number=number, order=order, timeline=timeline,
                           error=error), 404 if error else 200  # fmt: skip

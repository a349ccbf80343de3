"""Order emails (HTML with a plain-text part) for every moment of an order: placed, paid (receipt PDF attached),
shipped (carrier and tracking link), delivered, cancelled, and returns requested / approved / declined.

Composed when a service announces the change (the order's data is at hand inside its transaction) and sent only
after that transaction commits: a rolled-back change mails nobody, and a failing mail server never fails an order."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from decimal import Decimal

from flask import Flask, current_app, has_request_context, url_for
from sqlalchemy import event
from sqlalchemy.orm import Session

from ..extensions import db
from ..models.orders import Order
from ..services.mail import Attachment, send_mail
from ..services.order_events import order_changed
from ..services.orders import hold_minutes, order_link_token
from . import receipt_pdf

log = logging.getLogger(__name__)
PENDING = "insightshop.order_mail"


@dataclass(frozen=True)
class OutgoingMail:
    to: str
    subject: str
    text: str
    html: str
    attachments: tuple[Attachment, ...] = ()


def init_app(app: Flask) -> None:
    order_changed.connect(queue_order_mail)
    if not event.contains(Session, "after_commit", send_pending):
        event.listen(Session, "after_commit", send_pending)
        event.listen(Session, "after_soft_rollback", drop_pending)


def queue_order_mail(order: Order, *, kind: str, facts: dict) -> None:
    """Compose the email now, send it when the order's transaction commits."""
    try:
        mail = compose(order, kind, facts)
    except Exception:  # a template bug must never undo an order
        log.exception("Could not compose the %s email of order %s", kind, order.id)
        return
    db.session.info.setdefault(PENDING, []).append(mail)


def send_pending(session: Session) -> None:
    for mail in session.info.pop(PENDING, []):
        try:
            send_mail(mail.to, mail.subject, mail.text, html=mail.html, attachments=mail.attachments)
        except Exception:
            log.exception("Could not send %r to %s", mail.subject, mail.to)


def drop_pending(session: Session, _previous_transaction) -> None:
    session.info.pop(PENDING, None)


def compose(order: Order, kind: str, facts: dict) -> OutgoingMail:
    """Subject, text and HTML of one order email (what it says is decided here; the templates lay it out)."""
    headline, lines = _wording(order, kind, facts)
    context = {
        "order": order,
        "headline": headline,
        "lines": lines,
        "items": [
            (item.quantity, item.name, f"{item.color.capitalize()} / {item.size}", item.line_total)
            for item in order.items
        ],  # fmt: skip
        "totals": _totals(order),
        "order_url": _order_url(order, signed=kind == "link"),
        "tracking_url": _link("orders.track", tracking_number=order.tracking_number) if order.tracking_number else None,
        "shop_url": current_app.config["PUBLIC_BASE_URL"],
    }
    attachments = ()
    if kind == "paid":
        attachments = (Attachment(f"insightshop-receipt-{order.id}.pdf", "application/pdf",
                                  receipt_pdf.render_receipt(order)),)  # fmt: skip
    return OutgoingMail(order.email, f"{headline} — order #{order.id}", _render("email/order.txt", context),
                        _render("email/order.html", context), attachments)  # fmt: skip


def _render(name: str, context: dict) -> str:
    # Straight from the Jinja environment: mail is also composed outside requests (CLI, cron), where the page
    # context processors (the signed-in actor, the cart badge) have nothing to say.
    return current_app.jinja_env.get_template(name).render(**context)


def _wording(order: Order, kind: str, facts: dict) -> tuple[str, list[str]]:
    name = (order.shipping_name or "").split(" ")[0] or "there"
    hello = f"Hello {name},"
    if kind == "placed":
        return "We have your order", [hello, "Thank you for shopping with us. Your order is reserved for you; it ships "
                                      "as soon as the payment is through."]  # fmt: skip
    if kind == "paid":
        return "Payment received", [hello, f"We received your payment of ${order.total:,.2f}. Your receipt is "
                                    "attached, and we will email you again when your parcel ships."]  # fmt: skip
    if kind == "shipped":
        return "Your order is on its way", [hello, f"Your parcel has left our warehouse with {order.carrier}, "
                                            f"tracking number {order.tracking_number}."]  # fmt: skip
    if kind == "delivered":
        days = current_app.config["RETURN_WINDOW_DAYS"]
        return "Delivered", [hello, f"Your order has been delivered. Not quite right? Returns are free within {days} "
                             "days from your order page."]  # fmt: skip
    if kind == "cancelled":
        if (facts.get("note") or "").startswith("Expired"):
            minutes = hold_minutes(order)
            return "Your order was cancelled", [hello, f"Order #{order.id} was not paid within {minutes} minutes, so "
                                                "we released its items. Your cart still has them if you want to "
                                                "try again."]  # fmt: skip
        refund = " Your payment has been refunded to your card." if order.is_paid else ""
        return "Your order was cancelled", [hello, f"Order #{order.id} has been cancelled.{refund}"]
    if kind == "link":
        minutes = current_app.config.get("ORDER_LINK_MINUTES") or 60
        return "Your order link", [hello, f"Someone looked up order #{order.id} with this email address. The link "
                                   f"below opens the whole order (address, payment, tracking, returns) for the next "
                                   f"{minutes} minutes. If it was not you, you can ignore this email."]  # fmt: skip
    if kind == "return_requested":
        return "Return request received", [hello, "We have your return request and will review it shortly. Please keep "
                                           "the items with their tags until then."]  # fmt: skip
    if kind == "return_approved":
        amount = Decimal(str(facts.get("refund", "0")))
        return "Return approved", [
            hello,
            f"Your return is approved and ${amount:,.2f} is on its way back to your card.",
        ]
    return "Return declined", [hello, "We could not accept this return. " + (facts.get("note") or "Reply to this email "
                                                                               "if you have questions.")]  # fmt: skip


def _totals(order: Order) -> list[tuple[str, Decimal]]:
    rows = [
        ("Subtotal", order.items_subtotal),
        ("Shipping", order.shipping),
        ("Tax", order.tax),
        ("Total", order.total),
    ]
    if order.discount:  # already in the line prices: said, never taken off again
        rows.append(("Sale savings, in the prices above", order.discount))
    return rows


def _order_url(order: Order, *, signed: bool = False) -> str:
    # A customer opens their order page after logging in; a guest finds it with the order number and email, and
    # a lookup from another browser mails a signed, short-lived link to the whole order.
    if signed:
        return _link("orders.show_order", order_id=order.id, link=order_link_token(order))
    return _link("orders.show_order", order_id=order.id) if order.user_id else _link("orders.lookup")


def _link(endpoint: str, **values) -> str:
    """An absolute link from PUBLIC_BASE_URL (never the request's Host), also outside a request (CLI, cron)."""
    if has_request_context():
        path = url_for(endpoint, **values)
    else:
        with current_app.test_request_context():
            path = url_for(endpoint, **values)
    return current_app.config["PUBLIC_BASE_URL"] + path

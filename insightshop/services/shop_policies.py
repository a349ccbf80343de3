"""Shop knowledge: shipping, delivery times, returns, sizes, payments, orders, accounts and contact, answered from
the same configuration the checkout, the returns service and the size guide use (never a second copy).

A question is matched to answers with a small table of keywords and phrases per answer, scored; a question about
none of them (the weather, a poem) gets no answers at all."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from flask import current_app

from . import size_guide
from .pricing import SHIPPING_LABELS, quantize
from .vocabulary import SIZES

TOPICS = ("shipping", "returns", "sizes", "payments", "orders", "account", "contact")

# Delivery methods the checkout offers: name -> (label, delivery time). The checkout form's choices read this.
DELIVERY_OPTIONS = SHIPPING_LABELS  # one table: the checkout page and these answers read the same delivery times
SUPPORT_EMAIL = "help@insightshop.example"

MIN_SCORE = 3  # one strong keyword (3), or a weaker one backed by another


@dataclass(frozen=True)
class Faq:
    topic: str
    question: str
    keywords: dict[str, int]  # word or phrase -> weight (3 = on its own enough, 1–2 = needs support)
    answer: Callable[[str], str]  # the question's text (lower case) -> the answer
    url: Callable[[str], str]


def delivery_label(method: str) -> str:
    """ "Standard (3–5 business days)": the checkout's label for a delivery method."""
    label, days = DELIVERY_OPTIONS[method]
    return f"{label} ({days})"


def shipping_rates() -> dict:
    """The checkout's shipping rates, from its configuration: standard, express and the free-shipping threshold."""
    config = current_app.config
    return {
        "standard": quantize(Decimal(str(config["SHIPPING_STANDARD"]))),
        "express": quantize(Decimal(str(config["SHIPPING_EXPRESS"]))),
        "free_from": quantize(Decimal(str(config["FREE_SHIPPING_FROM"]))),
    }


def return_window_days() -> int:
    """How many days after delivery a return may be requested (the returns service's rule)."""
    return int(current_app.config["RETURN_WINDOW_DAYS"])


def _money(amount: Decimal) -> str:
    return f"${amount:,.2f}"


# Answers -----------------------------------------------------------------------------------------


def _shipping_cost(_text: str) -> str:
    rates = shipping_rates()
    return (f"Standard delivery costs {_money(rates['standard'])}, and it is free on orders of "
            f"{_money(rates['free_from'])} or more (after sale discounts). Express delivery costs "
            f"{_money(rates['express'])} on any order.")  # fmt: skip


def _delivery_times(_text: str) -> str:
    standard, express = (DELIVERY_OPTIONS[m][1] for m in ("standard", "express"))
    return (f"Standard delivery takes {standard} and express {express} from dispatch. Once your order ships "
            "you get its carrier and tracking number, shown on your order page.")  # fmt: skip


def _international(_text: str) -> str:
    rates = shipping_rates()
    standard, express = (DELIVERY_OPTIONS[m][1] for m in ("standard", "express"))
    return (f"The checkout takes a delivery address in any country (the country field starts as the US), at the "
            f"same delivery prices: standard {_money(rates['standard'])}, free from {_money(rates['free_from'])}, "
            f"express {_money(rates['express'])}. The delivery times we quote (standard {standard}, express "
            f"{express}) are from dispatch; for an estimate to another country, email us at {SUPPORT_EMAIL} "
            "before you order.")  # fmt: skip


def _returns_policy(_text: str) -> str:
    days = return_window_days()
    return (f"You can return items within {days} days of delivery, unworn and with their tags. Open your order "
            "(your account's order list, or Order status with the order number and email), choose Request return "
            "next to the item and say why; once we approve it you are refunded to your original payment method, "
            "including the item's share of the tax.")  # fmt: skip


def _exchanges(_text: str) -> str:
    days = return_window_days()
    return (f"We don't swap items directly: return the one that doesn't fit within {days} days of delivery "
            "for a refund and order the size you need; the size guide helps you pick it.")  # fmt: skip


def _sizes(text: str) -> str:
    wanted = _department(text)
    tables = [size_guide.table_for(wanted)] if wanted else list(size_guide.size_tables())
    parts = []
    for table in tables:
        first = table.columns[0]
        ranges = ", ".join(f"{size} {values[0]}" for size, values in table.rows.items())
        parts.append(f"{table.title}, by {first}: {ranges}.")
    lead = "Our sizes run from " + f"{SIZES[0]} to {SIZES[-1]}" + ". "
    return lead + " ".join(parts) + " The size guide has every measurement and how to measure."


def _discount_codes(_text: str) -> str:
    return ("InsightShop has no discount codes or vouchers (and no gift cards): a running sale comes off the price by itself, shown on "
            "each product and in your cart. Ask \"what's on sale?\" to see what is discounted now.")  # fmt: skip


def _payments(text: str) -> str:
    from .payments import provider_name

    if provider_name() == "stripe":
        answer = ("We take debit and credit cards (Visa, Mastercard, American Express and others) through Stripe's "
                  "secure checkout; your card details never touch our servers.")  # fmt: skip
    else:
        answer = ("This shop runs in test mode: payment goes through its offline test provider with Stripe's test "
                  "cards (for example 4242 4242 4242 4242, any future expiry) and no money moves.")  # fmt: skip
    unsupported = [name for word, name in _UNSUPPORTED_PAYMENTS.items() if re.search(rf"\b{word}\b", text)]
    if unsupported:
        answer += f" We don't take {_join(sorted(set(unsupported)))} at the moment."
    return answer + " You pay after placing the order, on its payment page."


_UNSUPPORTED_PAYMENTS = {"paypal": "PayPal", "apple pay": "Apple Pay", "google pay": "Google Pay", "klarna": "Klarna",
                         "afterpay": "Afterpay", "cash": "cash", "crypto": "crypto", "bitcoin": "crypto",
                         "bank transfer": "bank transfer", "cheque": "cheques", "check": "cheques"}  # fmt: skip


def _order_tracking(_text: str) -> str:
    return ("Signed in, your account page lists your orders with their status and tracking number (or ask me "
            "\"where is my order\"). As a guest, use Order status with your order number and email, or Track a "
            "parcel with the tracking number from your shipping email.")  # fmt: skip


def _cancel_order(_text: str) -> str:
    return ("An order can be cancelled until it ships: unpaid orders are released automatically, and for a paid "
            "order contact us with the order number and we cancel and refund it. To change the delivery address of "
            f"an order that has not shipped yet, email {SUPPORT_EMAIL} with the order number and the new address.")  # fmt: skip


def _account(_text: str) -> str:
    return ("Create an account with your email to keep your orders, wishlist and cart together; you can shop as a "
            "guest too. Forgot your password? Use Forgot password on the login page and we email you a reset link. "
            "Your account page lets you change your password and log out everywhere.")  # fmt: skip


def _contact(text: str) -> str:
    lead = "There is no price-match policy I can quote you. " if "price match" in text else ""
    return lead + (f"Email us at {SUPPORT_EMAIL} with your order number if you have one; we answer within one business "
            "day. I can also help right here with orders, returns, sizes and shipping.")  # fmt: skip


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _department(text: str) -> str | None:
    for category, words in _DEPARTMENT_WORDS.items():
        if any(re.search(rf"\b{word}\b", text) for word in words):
            return category
    return None


_DEPARTMENT_WORDS = {
    "kids": ("kids?", "child", "children", "boys?", "girls?", "sons?", "daughters?", "toddlers?", "nieces?",
             "nephews?", r"\d+ ?(?:-| )?years? ?(?:-| )?old", "baby", "teen"),
    "women": ("women", "womens", "woman", "ladies", "lady", "her", "wife", "girlfriend", "female"),
    "men": ("men", "mens", "man", "him", "husband", "boyfriend", "male", "gents"),
}  # fmt: skip


# The pages that say the same at length (routes/help.py, routes/orders.py); tests check each one answers 200.
HELP_PAGE = "/help"
SIZE_GUIDE_PAGE = "/size-guide"
ORDER_LOOKUP_PAGE = "/orders/lookup"


def _page(path: str, anchor: str | None = None) -> Callable[[str], str]:
    return lambda _text: f"{path}#{anchor}" if anchor else path


def _size_guide_url(text: str) -> str:
    wanted = _department(text)
    return SIZE_GUIDE_PAGE + (f"#{wanted}" if wanted else "")


FAQS: tuple[Faq, ...] = (
    Faq("shipping", "How much does shipping cost?",
        {"shipping": 3, "postage": 3, "delivery": 3, "delivery cost": 3, "delivery fee": 3, "shipping cost": 2, "free shipping": 3,
         "free delivery": 3, "how much is delivery": 3, "delivery charge": 3, "deliver": 1,
         "ship": 2, "express": 2, "how much": 1, "cost": 1, "price": 1, "free": 1, "fee": 1, "charge": 1,
         "minimum": 1, "threshold": 1}, _shipping_cost, _page(HELP_PAGE, "shipping")),
    Faq("shipping", "How long does delivery take?",
        {"how long": 3, "delivery time": 3, "delivery times": 3, "when will": 2, "arrive": 2, "get here": 2,
         "how fast": 2, "how quickly": 2, "business days": 3, "delivery": 2, "deliver": 2, "shipping": 1,
         "ship": 1, "dispatch": 3, "days": 1, "express": 1, "next day": 3, "overnight": 3},
        _delivery_times, _page(HELP_PAGE, "shipping")),
    Faq("shipping", "Do you ship internationally?",
        {"internationally": 3, "international": 3, "abroad": 3, "overseas": 3, "worldwide": 3, "outside the us": 3,
         "outside the usa": 3, "outside the united states": 3, "other countries": 3, "another country": 3,
         "which countries": 3, "what countries": 3, "country": 2, "countries": 2, "canada": 3, "mexico": 3,
         "uk": 3, "united kingdom": 3, "england": 3, "ireland": 3, "europe": 3, "eu": 3, "germany": 3,
         "france": 3, "spain": 3, "italy": 3, "australia": 3, "new zealand": 3, "japan": 3, "india": 3,
         "ship": 1, "shipping": 1, "deliver": 1, "delivery": 1, "send": 1}, _international, _page(HELP_PAGE, "shipping")),
    Faq("returns", "What is the returns policy, and how do I return something?",
        {"return": 3, "returns": 3, "returning": 3, "refund": 3, "refunds": 3, "send it back": 3, "send back": 3,
         "send them back": 3, "take it back": 3, "money back": 3, "return policy": 3, "returns window": 3,
         "doesnt fit": 2, "does not fit": 2, "didnt fit": 2, "unworn": 2, "change my mind": 2,
         "changed my mind": 2, "back": 1}, _returns_policy, _page(HELP_PAGE, "returns")),
    Faq("returns", "Can I exchange an item for another size?",
        {"exchange": 3, "swap": 3, "another size": 2, "different size": 2, "too small": 2, "too big": 2,
         "too large": 2, "too tight": 2, "too loose": 2, "doesnt fit": 1},
        _exchanges, _page(HELP_PAGE, "returns")),
    Faq("sizes", "Which size should I pick?",
        {"size guide": 3, "size chart": 3, "sizing": 3, "what size": 3, "which size": 3, "my size": 3,
         "size am i": 3, "sizes": 2, "size": 2, "fit": 1, "fits": 1, "measure": 3, "measurements": 3,
         "chest": 2, "waist": 2, "bust": 2, "hips": 2, "inches": 2, "cm": 1, "true to size": 3,
         "run small": 3, "run large": 3, "runs small": 3, "runs large": 3, "too small": 1, "too big": 1,
         "years old": 1, "year old": 1, "height": 2, "tall": 1, "sizes run": 3, "size run": 3, "run big": 3,
         "runs big": 3, "come up small": 3, "come up big": 3, "come up large": 3, "sizes come up": 3}, _sizes,
        _size_guide_url),
    Faq("payments", "Which payment methods do you accept?",
        {"pay": 2, "payment": 3, "payments": 3, "paying": 2, "payment methods": 3, "credit card": 3,
         "debit card": 3, "card": 2, "cards": 2, "visa": 3, "mastercard": 3, "amex": 3, "american express": 3,
         "paypal": 3, "apple pay": 3, "google pay": 3, "klarna": 3, "afterpay": 3, "cash": 2, "crypto": 3,
         "bitcoin": 3, "bank transfer": 3, "stripe": 3, "take": 1, "accept": 1, "secure": 1, "checkout": 1},
        _payments, _page(HELP_PAGE, "payments")),
    Faq("payments", "Do you have discount codes?",
        {"coupon": 3, "coupons": 3, "coupon code": 3, "promo code": 3, "promo codes": 3, "discount code": 3,
         "discount codes": 3, "voucher": 3, "vouchers": 3, "voucher code": 3, "gift card": 3, "gift cards": 3, "gift certificate": 3, "code": 1,
         "discount": 3},
        _discount_codes, _page(HELP_PAGE, "payments")),
    Faq("orders", "Where is my order, and how do I track it?",
        {"where is my order": 3, "my order": 2, "my orders": 2, "track": 3, "tracking": 3, "tracking number": 3,
         "order status": 3, "parcel": 2, "package": 2, "shipment": 2, "hasnt arrived": 3, "not arrived": 3,
         "still waiting": 2, "lost": 1, "order number": 2, "where is": 1, "order": 1},
        _order_tracking, _page(ORDER_LOOKUP_PAGE)),
    Faq("orders", "Can I cancel or change my order?",
        {"cancel my order": 3, "cancel an order": 3, "cancel": 2, "cancellation": 3, "change my order": 3,
         "change the address": 2, "wrong address": 3, "order": 1, "change my address": 3, "change my shipping address": 3,
         "change my delivery address": 3, "shipping address": 2, "delivery address": 2, "new address": 2, "address": 1},
        _cancel_order, _page(HELP_PAGE, "orders")),
    Faq("account", "How do I manage my account or reset my password?",
        {"account": 2, "password": 3, "forgot password": 3, "forgot my password": 3, "reset": 2, "sign up": 3,
         "signup": 3, "register": 3, "create an account": 3, "guest": 1, "login": 2, "log in": 2, "sign in": 2,
         "email address": 1, "delete my account": 3, "newsletter": 2, "profile": 2},
        _account, _page(HELP_PAGE, "account")),
    Faq("contact", "How can I contact the shop?",
        {"contact": 3, "customer service": 3, "customer support": 3, "support": 2, "help desk": 3, "email you": 3,
         "phone": 2, "call you": 3, "speak to": 2, "talk to": 2, "human": 2, "person": 1, "complaint": 3,
         "complain": 3, "reach you": 3, "get in touch": 3, "opening hours": 3, "store hours": 3, "shop hours": 3,
         "business hours": 3, "hours": 2, "are you open": 3, "open": 1, "price match": 3, "price matching": 3},
        _contact, _page(HELP_PAGE, "contact")),
)  # fmt: skip

_KEYWORD_WORDS = sorted({word for faq in FAQS for key in faq.keywords for word in key.split() if len(word) >= 5})
_CONTRACTIONS = {"what's": "what is", "where's": "where is", "doesn't": "doesnt", "don't": "dont",
                 "didn't": "didnt", "hasn't": "hasnt", "isn't": "isnt", "can't": "cant", "i'm": "i am"}  # fmt: skip


def normalise(text: str) -> str:
    """Lower case, contractions folded, punctuation gone, long words corrected against the keywords."""
    text = (text or "").lower().replace("’", "'")
    for contraction, plain in _CONTRACTIONS.items():
        text = text.replace(contraction, plain)
    words = re.findall(r"[a-z0-9]+", text.replace("'", ""))
    return " ".join(_correct(word) for word in words)


def _correct(word: str) -> str:
    if len(word) < 5 or word in _KEYWORD_WORDS:
        return word
    close = difflib.get_close_matches(word, _KEYWORD_WORDS, n=1, cutoff=0.8)
    return close[0] if close else word


def _score(faq: Faq, text: str) -> int:
    padded = f" {text} "
    return sum(weight for key, weight in faq.keywords.items() if f" {key} " in padded)


def search(query: str, context: str | None = None, *, limit: int = 3) -> list[dict]:
    """Answers to a shopper's question about the shop, best first: [{topic, question, answer, url}];
    an empty list when the question is not about the shop."""
    text = normalise(query)
    scored = sorted(((_score(faq, text), index, faq) for index, faq in enumerate(FAQS)), key=lambda t: (-t[0], t[1]))
    best = scored[0][0] if scored else 0
    if best < MIN_SCORE:
        return []
    detail = f"{text} {normalise(context or '')}".strip()
    picked = [faq for score, _, faq in scored if score >= MIN_SCORE and score * 2 >= best][:limit]
    return [answer_for(faq, detail) for faq in picked]


def topic_of(query: str) -> str | None:
    """The topic the shop's answers to this question would be about, or None when it has none (no answer built)."""
    text = normalise(query)
    scored = sorted(((_score(faq, text), index, faq) for index, faq in enumerate(FAQS)), key=lambda t: (-t[0], t[1]))
    return scored[0][2].topic if scored and scored[0][0] >= MIN_SCORE else None


def answer_for(faq: Faq, text: str = "") -> dict:
    return {"topic": faq.topic, "question": faq.question, "answer": faq.answer(text), "url": faq.url(text)}


def all_answers() -> dict[str, list[dict]]:
    """Every answer, by topic (the help page shows them all)."""
    by_topic: dict[str, list[dict]] = {topic: [] for topic in TOPICS}
    for faq in FAQS:
        by_topic[faq.topic].append(answer_for(faq))
    return by_topic


TOPIC_LABELS = {"shipping": "Shipping and delivery", "returns": "Returns and exchanges", "sizes": "Sizes",
                "payments": "Payment", "orders": "Orders and tracking", "account": "Your account",
                "contact": "Contact us"}  # fmt: skip


# How to look after each fabric (the product page's "Care" line).
CARE_BY_FABRIC = {
    "cotton": "Machine wash at 30°C, tumble dry low.", "linen": "Machine wash at 30°C, iron while damp.",
    "wool": "Hand wash cold or dry clean; dry flat.", "cashmere": "Hand wash cold; dry flat, never wring.",
    "denim": "Wash inside out at 30°C with like colours.", "polyester": "Machine wash at 40°C; quick to dry.",
    "fleece": "Machine wash at 30°C; no fabric softener.", "silk": "Dry clean or hand wash cold.",
    "leather": "Wipe clean; condition now and then.", "nylon": "Machine wash at 30°C; line dry.",
    "viscose": "Hand wash cold; iron on low.", "jersey": "Machine wash at 30°C; dry flat to keep its shape.",
    "corduroy": "Wash inside out at 30°C; no tumble drying.",
}  # fmt: skip


@dataclass(frozen=True)
class BuyingFacts:
    delivery: str
    returns: str
    care: str | None


def buying_facts(fabric: str | None) -> BuyingFacts:
    """What a shopper wants next to "Add to cart": delivery cost and time, the returns window, care."""
    rates = shipping_rates()
    standard_days = DELIVERY_OPTIONS["standard"][1]
    return BuyingFacts(
        delivery=f"Standard delivery {standard_days}, free from {_money(rates['free_from'])} "
                 f"(otherwise {_money(rates['standard'])}); express {DELIVERY_OPTIONS['express'][1]}.",
        returns=f"Free returns within {return_window_days()} days of delivery.",
        care=CARE_BY_FABRIC.get(fabric or ""),
    )  # fmt: skip

"""Help pages: the size guide and the shop's policies and FAQs (the same answers the assistant gives)."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..services import shop_policies, size_guide

help_pages = Blueprint("help", __name__)


@help_pages.get("/size-guide")
def show_size_guide():
    return render_template("help/size_guide.html", tables=size_guide.size_tables(), tips=size_guide.FIT_TIPS)


@help_pages.get("/help")
def show_help():
    answers = shop_policies.all_answers()
    for answer in (a for topic in answers.values() for a in topic):  # a link only to another page
        answer["link"] = None if answer["url"].startswith(shop_policies.HELP_PAGE + "#") else answer["url"]
    sections = [(topic, shop_policies.TOPIC_LABELS[topic], answers[topic]) for topic in shop_policies.TOPICS]
    return render_template("help/faq.html", sections=sections)


@help_pages.get("/privacy")
def show_privacy():
    return render_template("help/privacy.html", support_email=shop_policies.SUPPORT_EMAIL)


@help_pages.get("/terms")
def show_terms():
    return render_template(
        "help/terms.html",
        support_email=shop_policies.SUPPORT_EMAIL,
        return_days=shop_policies.return_window_days(),
        rates=shop_policies.shipping_rates(),
    )

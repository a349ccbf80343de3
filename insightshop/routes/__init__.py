"""Blueprints: thin views over the services."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    from .admin import admin
    from .ai_agent import assistant
    from .api import api
    from .api.admin import admin_api
    from .auth import auth
    from .cart import cart_pages
    from .compare import compare_pages
    from .help import help_pages
    from .orders import order_pages
    from .receipts import receipt_pages
    from .reviews import review_pages
    from .shop import shop
    from .wishlist import wishlist_pages

    for blueprint in (
        shop,
        auth,
        cart_pages,
        wishlist_pages,
        compare_pages,
        review_pages,
        order_pages,
        receipt_pages,
        help_pages,
        assistant,
        admin,
        api,
        admin_api,
    ):
        app.register_blueprint(blueprint)

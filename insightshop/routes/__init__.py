"""Blueprints: thin views over the services."""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    from .api import api
    from .shop import shop

    app.register_blueprint(shop)
    app.register_blueprint(api)

"""InsightShop: a clothing web shop with an AI shopping assistant."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from .config import load_config
from .extensions import csrf, db, htmx, limiter, migrate
from .web.url_memo import MemoizedUrlFlask


def create_app(config: dict | None = None) -> Flask:
    """Application factory: configuration, extensions, blueprints, CLI and error handlers."""
    # INSTANCE_PATH (tests, several shops on one machine) moves the instance folder: its files, such as the page
    # cache's catalog generation, are shared by every process that uses the same folder.
    instance_path = (config or {}).get("INSTANCE_PATH")
    app = MemoizedUrlFlask(__name__, instance_path=instance_path, instance_relative_config=True)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.update(load_config(app.instance_path, config))
    app.json.sort_keys = False  # keep the documented field order in API responses
    from . import models, observability  # noqa: F401  (importing models registers the mappers)
    from .services import pricing, rate_limit_storage, search_index

    # First, so that its hooks run before every other one (the rate limiter's and CSRF's refusals included): each
    # answer gets a request id, an access line and its metrics.
    observability.init_app(app)
    db.init_app(app)
    migrate.init_app(
        app,
        db,
        directory=str(Path(app.root_path).parent / "migrations"),
        render_as_batch=True,
        compare_type=True,
        include_name=search_index.include_in_migrations,
    )
    csrf.init_app(app)
    htmx.init_app(app)
    limiter.init_app(app)
    rate_limit_storage.init_app(app)

    search_index.install_sync()
    pricing.install_memo_reset()
    app.before_request(pricing.forget_running_sales)

    from .cli import register_cli
    from .routes import register_blueprints
    from .web import register_web
    from .web.request_guard import install_converters

    install_converters(app)
    register_blueprints(app)
    register_web(app)
    register_cli(app)
    # Outermost, so that every layer inside (the page cache's server too) sees the visitor's address and scheme;
    # with_mcp() puts the same decision in front of /mcp (whichever layer comes first decides, once).
    from .web.forwarded import TrustedProxies

    app.wsgi_app = TrustedProxies(app.wsgi_app, app.config)
    return app

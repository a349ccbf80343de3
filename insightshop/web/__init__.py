"""HTTP plumbing shared by every blueprint: security headers, template filters, error pages."""

from __future__ import annotations

from flask import Flask

from . import auth, errors, filters, hold_sweeper, order_mail, page_cache, request_guard, security_headers


def register_web(app: Flask) -> None:
    auth.init_app(app)
    security_headers.init_app(app)
    filters.init_app(app)
    errors.init_app(app)
    request_guard.init_app(app)
    order_mail.init_app(app)
    page_cache.init_app(app)  # its hits skip every hook: only a stored 200 for the identical URL is served
    hold_sweeper.init_app(app)  # outside the page cache's server: a hit may be the request that sweeps

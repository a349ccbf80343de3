"""The admin panel at /admin: thin views over the admin services; every route needs an admin."""

from __future__ import annotations

from flask import Blueprint

from ...web.admin_access import require_admin

admin = Blueprint("admin", __name__, url_prefix="/admin")
admin.before_request(require_admin)

from . import catalog_views, order_views, people_views  # noqa: E402,F401  (routes register on the blueprint)

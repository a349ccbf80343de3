"""The one admin policy: the panel and /api/admin need an admin (is_admin, which every superadmin also has);
changing roles additionally needs a superadmin (checked in services.admin_users)."""

from __future__ import annotations

from flask import redirect, request, url_for

from ..services.actors import Unauthorized
from ..services.errors import Forbidden
from .auth import current_actor
from .errors import wants_json


def require_admin():
    """before_request for every admin blueprint: visitors log in first, non-admins get 403 on any method."""
    actor = current_actor()
    if actor.user is None:
        if wants_json():
            raise Unauthorized("Log in as an admin")
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    if not actor.is_admin:
        raise Forbidden("Admins only")
    return None

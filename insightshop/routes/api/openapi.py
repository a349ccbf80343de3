"""GET /api/openapi.json."""

from __future__ import annotations

from ...schemas.openapi import build_openapi
from . import api


@api.get("/openapi.json")
def openapi_document():
    return build_openapi()

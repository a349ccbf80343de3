import pytest


@pytest.fixture(autouse=True)
def _app_context(app):
    """Service tests call services directly, inside the test's app context."""
    return app

"""Schemathesis against the app's own /api/openapi.json, in process (WSGI), on a throwaway database.

Every documented operation gets a bounded, deterministic set of generated requests: the coverage phase's boundary
and invalid values (missing fields, wrong types, other methods), then EXAMPLES_PER_OPERATION fuzzed ones, valid and
invalid. Every answer must be free of server errors and conform to the document: a status documented for the
operation, JSON, the documented schema. The callers, their turns, the seeded data and the reset before each request
are in tests/api/fuzzing.py, shared with bench/fuzz_http.py (the same run against gunicorn on PostgreSQL). Nothing
is excluded. Rate limits are off in this app: otherwise they would turn most answers into 429 (the API tests, whose
every answer is checked against the document too, show where 429 is answered).
"""

from __future__ import annotations

import os
import shutil

import pytest
import schemathesis
import sqlalchemy as sa

from insightshop import create_app
from insightshop.extensions import db
from tests.api.fuzzing import CHECKS, ROLES, credentials, make_config, next_role, seed_stage
from tests.api_conformance import ConformingClient

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("TEST_DATABASE_URL")),
    reason="schemathesis runs on SQLite only: it checks the API's contract (statuses and bodies), which does not "
    "depend on the database; on PostgreSQL the API tests cover the same routes, every answer checked against the "
    "OpenAPI document too",
)

EXAMPLES_PER_OPERATION = 25  # fuzzed requests per operation, on top of the coverage phase's
CONFIG = make_config(EXAMPLES_PER_OPERATION)


@pytest.fixture(scope="module")
def fuzz_app(migrated_database, tmp_path_factory):
    """A throwaway copy of the migrated database with a small catalog, a customer with orders, and an admin."""
    _, template = migrated_database
    folder = tmp_path_factory.mktemp("schemathesis")
    shutil.copyfile(template, folder / "fuzz.db")
    app = create_app({"APP_ENV": "testing", "SECRET_KEY": "schemathesis-" + "x" * 32, "RATELIMIT_ENABLED": False,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'fuzz.db'}"})  # fmt: skip
    app.instance_path = str(folder / "instance")
    app.test_client_class = ConformingClient
    with app.app_context():
        # A throwaway database need not survive a power cut: without a sync per commit the run is several times faster
        sa.event.listen(db.engine, "connect", lambda connection, _: connection.execute("PRAGMA synchronous=OFF"))
        seed_stage()
        db.session.remove()
    yield app
    with app.app_context():
        db.engine.dispose()


def _document_app():
    """An app with no database behind it, only to serve /api/openapi.json while the tests are collected."""
    return create_app(
        {"APP_ENV": "testing", "SECRET_KEY": "document-" + "x" * 32, "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )


# The document as the app serves it; the requests go to the fuzzing app (call_and_validate(app=...)). The filter
# selects every operation: without one, schemathesis leaves out the operation that served the document.
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", _document_app(), config=CONFIG).include(
    path_regex="^/api/"
)


# The callers as a parameter: it names them in every test id, and with pytest 9.2 schemathesis puts the operation in
# the test id only when the test is parametrized.
@pytest.mark.parametrize("callers", [ROLES], ids=["-".join(ROLES)])
@schema.parametrize()
def test_every_answer_conforms_to_the_document(case, fuzz_app, callers):
    role = next_role(case.operation.label, callers)
    try:
        case.call_and_validate(app=fuzz_app, headers=credentials(fuzz_app, role), checks=CHECKS)
    except Exception as failure:
        failure.add_note(f"{case.operation.label}, called as {role}.")
        raise

import warnings

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import current_app

from insightshop.extensions import db
from insightshop.services.search_index import include_in_migrations


def test_migrations_have_a_single_head(app):
    config = current_app.extensions["migrate"].migrate.get_config()
    assert len(ScriptDirectory.from_config(config).get_heads()) == 1


def test_migrated_schema_matches_the_models(app):
    # SQLAlchemy cannot reflect expression indexes (categories' lower(name) uniqueness); that index is
    # checked by behaviour in the category tests instead.
    with warnings.catch_warnings(), db.engine.connect() as connection:
        warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression-based index")
        warnings.filterwarnings("ignore", "autogenerate skipping metadata-specified expression-based index")
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "include_name": include_in_migrations}
        )
        differences = compare_metadata(context, db.metadata)
    assert differences == []


def test_migrations_create_the_search_index(app):
    tables = db.inspect(db.engine).get_table_names()
    assert "product_search" in tables

"""The full-text index behind catalog search: SQLite FTS5 or PostgreSQL tsvector, kept in sync on flush.

Both backends index the same derived document per product (see `product_document`), so synonyms,
the joined "tshirt" word and the colours of every variant are searchable the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Float, Integer, bindparam, event, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from ..models.catalog import Product, ProductVariant
from .search_terms import ParsedQuery, normalise_text

# Column weights: a match on the garment type or colour says more than one in the description.
SQLITE_COLUMNS = ("kind", "colors", "name", "material", "details")
SQLITE_WEIGHTS = "10.0, 6.0, 4.0, 2.0, 1.0"

SQLITE_DDL = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS product_search USING fts5("
    "kind, colors, name, material, details, tokenize = 'porter unicode61')",
)
POSTGRES_DDL = (
    "CREATE TABLE IF NOT EXISTS product_search ("
    " product_id INTEGER PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,"
    " document TSVECTOR NOT NULL)",
    "CREATE INDEX IF NOT EXISTS ix_product_search_document ON product_search USING GIN (document)",
)
DROP_DDL = ("DROP TABLE IF EXISTS product_search",)

SEARCH_TABLES = frozenset({"product_search"})


def is_search_table(name: str) -> bool:
    """True for the index's own tables (FTS5 adds shadow tables), which migrations leave alone."""
    return name in SEARCH_TABLES or name.startswith("product_search_")


def create_schema(connection: Connection) -> None:
    """Create the index structures for the connection's database."""
    for statement in POSTGRES_DDL if _is_postgres(connection) else SQLITE_DDL:
        connection.execute(text(statement))


def product_document(product: dict, colors: Iterable[str]) -> dict[str, str]:
    """The searchable text of one product, split into weighted fields."""
    kind = normalise_text(product["clothing_type"]).replace("-", "")
    return {
        "kind": kind,
        "colors": " ".join(dict.fromkeys([product["color"], *colors])),
        "name": normalise_text(product["name"]),
        "material": " ".join(filter(None, [product.get("fabric"), product.get("season")])),
        "details": normalise_text(product.get("description") or ""),
    }


def reindex(connection: Connection, product_ids: Iterable[int] | None = None) -> int:
    """(Re)build the index rows of the given products, or of every product when ids is None."""
    ids = None if product_ids is None else sorted(set(product_ids))
    if ids == []:
        return 0
    products = _load_documents(connection, ids)
    table_delete = "DELETE FROM product_search" + (
        "" if ids is None else f" WHERE {'product_id' if _is_postgres(connection) else 'rowid'} IN :ids"
    )
    statement = text(table_delete)
    if ids is not None:
        statement = statement.bindparams(bindparam("ids", expanding=True))
        for chunk in _chunks(ids, 500):
            connection.execute(statement, {"ids": chunk})
    else:
        connection.execute(statement)
    if products:
        connection.execute(text(_insert_sql(connection)), products)
    return len(products)


def match_subquery(connection_or_dialect, query: ParsedQuery, *, any_group: bool = False):
    """A subquery (product_id, score) of products matching the query; lower score ranks first."""
    dialect = getattr(connection_or_dialect, "dialect", connection_or_dialect)
    if dialect.name == "postgresql":
        joiner = " | " if any_group else " & "
        expression = joiner.join(
            "(" + " | ".join(_pg_term(term) for term in group) + ")" for group in query.groups
        )
        sql = (
            "SELECT product_id, -ts_rank(document, q, 1) AS score FROM product_search, "
            "to_tsquery('english', :match) AS q WHERE document @@ q"
        )
    else:
        joiner = " OR " if any_group else " AND "
        expression = joiner.join(
            "(" + " OR ".join(_fts_term(term) for term in group) + ")" for group in query.groups
        )
        sql = (
            f"SELECT rowid AS product_id, bm25(product_search, {SQLITE_WEIGHTS}) AS score "
            "FROM product_search WHERE product_search MATCH :match"
        )
    return (
        text(sql)
        .bindparams(match=expression)
        .columns(product_id=Integer, score=Float)
        .subquery("matches")
    )


def install_sync(session_class=Session) -> None:
    """Keep the index in step with every ORM flush that touches products or variants."""
    if not event.contains(session_class, "after_flush", _sync_after_flush):
        event.listen(session_class, "after_flush", _sync_after_flush)


def _sync_after_flush(session: Session, _flush_context) -> None:
    touched: set[int] = set()
    for obj in (*session.new, *session.dirty, *session.deleted):
        if isinstance(obj, Product) and obj.id is not None:
            touched.add(obj.id)
        elif isinstance(obj, ProductVariant) and obj.product_id is not None:
            touched.add(obj.product_id)
    if touched:
        reindex(session.connection(), touched)


def _load_documents(connection: Connection, ids: list[int] | None) -> list[dict]:
    columns = (Product.id, Product.name, Product.clothing_type, Product.color, Product.fabric,
               Product.season, Product.description)  # fmt: skip
    colors: dict[int, list[str]] = {}
    rows = []
    for chunk in [None] if ids is None else _chunks(ids, 500):
        product_query = select(*columns)
        variant_query = select(ProductVariant.product_id, ProductVariant.color).order_by(ProductVariant.id)
        if chunk is not None:
            product_query = product_query.where(Product.id.in_(chunk))
            variant_query = variant_query.where(ProductVariant.product_id.in_(chunk))
        rows.extend(connection.execute(product_query).mappings().all())
        for product_id, color in connection.execute(variant_query):
            colors.setdefault(product_id, []).append(color)
    return [{"id": row["id"], **product_document(dict(row), colors.get(row["id"], []))} for row in rows]


def _insert_sql(connection: Connection) -> str:
    if _is_postgres(connection):
        return (
            "INSERT INTO product_search (product_id, document) VALUES (:id, "
            "setweight(to_tsvector('english', :kind), 'A') || setweight(to_tsvector('english', :colors), 'A') || "
            "setweight(to_tsvector('english', :name), 'B') || setweight(to_tsvector('english', :material), 'C') || "
            "setweight(to_tsvector('english', :details), 'D'))"
        )
    return (
        "INSERT INTO product_search (rowid, kind, colors, name, material, details) "
        "VALUES (:id, :kind, :colors, :name, :material, :details)"
    )


def _fts_term(term: str) -> str:
    # Terms are [a-z0-9]+ (optionally ending in *), so quoting cannot be broken out of.
    return f'"{term[:-1]}"*' if term.endswith("*") else f'"{term}"'


def _pg_term(term: str) -> str:
    return f"{term[:-1]}:*" if term.endswith("*") else term


def _is_postgres(connection: Connection) -> bool:
    return connection.dialect.name == "postgresql"


def _chunks(items: list[int], size: int):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def include_in_migrations(name: str | None, type_: str, _parent_names) -> bool:
    """Alembic autogenerate filter: the search index is created by its own migration step."""
    return not (type_ == "table" and name and is_search_table(name))

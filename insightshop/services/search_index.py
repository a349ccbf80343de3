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
from .search_terms import normalise_text

# Column weights: a match on the garment type or colour says more than one in the description.
# The facets column holds filter tokens (colwhite, szl, catmen, instock …) and never affects rank.
SQLITE_COLUMNS = ("kind", "colors", "name", "material", "details", "facets")
SQLITE_WEIGHTS = "10.0, 6.0, 4.0, 2.0, 1.0, 0.0"

# Facet filters are answered by the index itself (posting-list intersections) instead of
# joins over every matching product: the difference between milliseconds and a table scan.
FACET_PREFIXES = {
    "category": "cat",
    "clothing_type": "type",
    "color": "col",
    "size": "sz",
    "fabric": "fab",
    "season": "sea",
}
IN_STOCK_TOKEN = "instock"

SQLITE_DDL = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS product_search USING fts5("
    "kind, colors, name, material, details, facets, tokenize = 'porter unicode61', prefix = '2 3')",
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


def facet_token(facet: str, value: str) -> str:
    """The index word standing for one facet value, e.g. ("size", "XL") → "szxl"."""
    return FACET_PREFIXES[facet] + "".join(ch for ch in value.lower() if ch.isalnum())


def product_document(product: dict, variants: Iterable[tuple[str, str, int]]) -> dict[str, str]:
    """The searchable text of one product, split into weighted fields; variants are (color, size, stock)."""
    variants = list(variants)
    colors = list(dict.fromkeys([product["color"], *(color for color, _, _ in variants)]))
    sizes_in_stock = dict.fromkeys(size for _, size, stock in variants if stock > 0)
    tokens = [
        facet_token("category", product["category"]),
        facet_token("clothing_type", product["clothing_type"]),
        *(facet_token("color", color) for color in colors),
        *(facet_token("size", size) for size in sizes_in_stock),
        *([facet_token("fabric", product["fabric"])] if product.get("fabric") else []),
        *([facet_token("season", product["season"])] if product.get("season") else []),
        *([IN_STOCK_TOKEN] if sizes_in_stock else []),
    ]
    return {
        "kind": normalise_text(product["clothing_type"]).replace("-", ""),
        "colors": " ".join(colors),
        "name": normalise_text(product["name"]),
        "material": " ".join(filter(None, [product.get("fabric"), product.get("season")])),
        "details": normalise_text(product.get("description") or ""),
        "facets": " ".join(tokens),
    }


def reindex(connection: Connection, product_ids: Iterable[int] | None = None) -> int:
    """(Re)build the index rows of the given products, or of every product when ids is None.

    Only active products are indexed, so a match is always something a shopper may see."""
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


def _match_sql(dialect, groups, any_group, filters, with_score, param="match") -> tuple[str, str]:
    """SQL selecting product_id (and score) of matching products, and the bound match expression."""
    postgres = dialect.name == "postgresql"
    term = _pg_term if postgres else _fts_term
    either, both = (" | ", " & ") if postgres else (" OR ", " AND ")
    text_part = (either if any_group else both).join("(" + either.join(map(term, g)) + ")" for g in groups)
    parts = ([f"({text_part})"] if text_part else []) + ["(" + either.join(map(term, f)) + ")" for f in filters]
    expression = both.join(parts)
    if postgres:
        score = ", -ts_rank(document, q, 1) AS score" if with_score else ""
        sql = f"SELECT product_id{score} FROM product_search, to_tsquery('english', :{param}) AS q WHERE document @@ q"
    else:
        score = f", bm25(product_search, {SQLITE_WEIGHTS}) AS score" if with_score else ""
        sql = f"SELECT rowid AS product_id{score} FROM product_search WHERE product_search MATCH :{param}"
    return sql, expression


def match_subquery(connection_or_dialect, groups, *, any_group=False, filters=(), with_score=False, name="matches"):
    """A common table expression (product_id[, score]) of active products matching the text groups
    (all of them, or any with any_group) and every filter group; a lower score ranks first. Statements that join
    several differently filtered matches give each its own name."""
    dialect = getattr(connection_or_dialect, "dialect", connection_or_dialect)
    param = f"{name}_match"  # each match of one statement binds its own expression
    sql, expression = _match_sql(dialect, groups, any_group, filters, with_score, param)
    columns = {"product_id": Integer, **({"score": Float} if with_score else {})}
    # Materialised so the index is queried once and drives the join; as a plain subquery SQLite may
    # nest it inside a scan of products and run the full-text query once per product.
    return text(sql).bindparams(**{param: expression}).columns(**columns).cte(name).prefix_with("MATERIALIZED")


def count_matches(connection_or_dialect, groups, *, any_group=False, filters=()):
    """How many active products match, counted inside the index."""
    dialect = getattr(connection_or_dialect, "dialect", connection_or_dialect)
    sql, expression = _match_sql(dialect, groups, any_group, filters, False)
    return text(f"SELECT count(*) FROM ({sql}) AS matches").bindparams(match=expression)


def ranked_ids(connection_or_dialect, groups, *, any_group=False, filters=(), limit: int, offset: int = 0):
    """One page of matching product ids, best match first, ranked inside the index."""
    dialect = getattr(connection_or_dialect, "dialect", connection_or_dialect)
    sql, expression = _match_sql(dialect, groups, any_group, filters, True)
    # A plain ORDER BY … LIMIT lets SQLite keep a top-N sorter instead of sorting every match.
    return text(f"{sql} ORDER BY score, product_id DESC LIMIT :limit OFFSET :offset").bindparams(
        match=expression, limit=limit, offset=offset
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
    columns = (Product.id, Product.name, Product.category, Product.clothing_type, Product.color, Product.fabric,
               Product.season, Product.description)  # fmt: skip
    variants: dict[int, list[tuple[str, str, int]]] = {}
    rows = []
    for chunk in [None] if ids is None else _chunks(ids, 500):
        product_query = select(*columns).where(Product.is_active)
        variant_query = select(
            ProductVariant.product_id, ProductVariant.color, ProductVariant.size, ProductVariant.stock
        ).order_by(ProductVariant.id)
        if chunk is not None:
            product_query = product_query.where(Product.id.in_(chunk))
            variant_query = variant_query.where(ProductVariant.product_id.in_(chunk))
        rows.extend(connection.execute(product_query).mappings().all())
        for product_id, color, size, stock in connection.execute(variant_query):
            variants.setdefault(product_id, []).append((color, size, stock))
    return [{"id": row["id"], **product_document(dict(row), variants.get(row["id"], []))} for row in rows]


def _insert_sql(connection: Connection) -> str:
    if _is_postgres(connection):
        return (
            "INSERT INTO product_search (product_id, document) VALUES (:id, "
            "setweight(to_tsvector('english', :kind), 'A') || setweight(to_tsvector('english', :colors), 'A') || "
            "setweight(to_tsvector('english', :name), 'B') || setweight(to_tsvector('english', :material), 'C') || "
            "setweight(to_tsvector('english', :details), 'D') || to_tsvector('english', :facets))"
        )
    return (
        "INSERT INTO product_search (rowid, kind, colors, name, material, details, facets) "
        "VALUES (:id, :kind, :colors, :name, :material, :details, :facets)"
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

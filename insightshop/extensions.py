"""Flask extensions, created unbound and initialised in create_app."""

from flask import request, session
from flask_limiter import Limiter
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

# Named constraints keep Alembic migrations reproducible (and SQLite batch mode working).
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)
migrate = Migrate()


class ShopLoginManager(LoginManager):
    """Flask-Login with its strong session protection checked only for a session that carries a login.

    Flask-Login skips the check for an empty session but not for an anonymous one holding a CSRF secret or a guest
    cart: every such request failed it, which marked the session changed and sent a fresh session cookie and a
    remember-cookie deletion with every answer. There is no login in such a session to protect; a remember cookie
    arriving with it is treated as with an empty session (and is still checked against its server-side record)."""

    def _session_protection_failed(self) -> bool:
        if "_user_id" not in session:
            return False
        return super()._session_protection_failed()


login_manager = ShopLoginManager()
csrf = CSRFProtect()
htmx = Htmx()


def _client_key() -> str:
    # The same client key as every other per-client limit (web.forwarded: an IPv6 client's /64).
    from .web.forwarded import client_key_of

    return client_key_of(request.environ)


# Storage (Redis when REDIS_URL is set, the database otherwise) is chosen in create_app via RATELIMIT_STORAGE_URI.
limiter = Limiter(key_func=_client_key, default_limits=[], headers_enabled=True)

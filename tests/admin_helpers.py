"""Admin fixtures shared by the admin tests."""

from insightshop.services.accounts import register_user


def make_admin(email: str = "boss@example.com", *, superadmin: bool = True):
    return register_user(
        email, "an admin password", first_name="Boss", is_admin=True, is_superadmin=superadmin, is_verified=True
    )

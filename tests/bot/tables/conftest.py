"""The table logic's tests: a migrated database (SQLite; PostgreSQL too when TEST_DATABASE_URL is set)."""

from tests.storage.conftest import db, target

__all__ = ["db", "target"]

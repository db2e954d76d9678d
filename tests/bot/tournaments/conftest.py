"""The tournament tests' migrated database (SQLite; PostgreSQL too when TEST_DATABASE_URL is set)."""

from tests.storage.tournaments.conftest import db, target

__all__ = ["db", "target"]

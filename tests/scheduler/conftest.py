"""The scheduler tests use the storage tests' database fixtures (SQLite, and PostgreSQL when set)."""

from tests.storage.conftest import counting_game, db, target  # noqa: F401  (pytest fixtures)

"""The tournament tests' migrated database with a few users (tests/storage/tournaments/conftest.py)."""

from tests.storage.tournaments.conftest import db, target

__all__ = ["db", "target"]

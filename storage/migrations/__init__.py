"""Alembic migrations of the storage package (one linear history; run by storage.db.open_database)."""

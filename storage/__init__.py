"""Storage: SQLAlchemy 2 models, the async database (``storage.db.open_database``), Alembic migrations
(``storage/migrations``, applied at start-up) and the game service (``storage.service``)."""

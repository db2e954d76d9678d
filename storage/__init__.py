"""Storage: SQLAlchemy 2 models, the async database (``storage.db.open_database``), Alembic migrations
(``storage/migrations``, applied at start-up) and one module per job: ``user_repo`` (users, chats),
``table_repo`` (tables, seats, a tournament table's seed mix), ``match_repo`` (start, read, replay, deals),
``action_repo`` (one action = one transaction), ``message_repo`` (messages of record), ``selection_repo``
(tap-to-select), ``pending_send_repo`` (the outbox's sends across a restart), ``match_cache`` (engine states
and committed rows in memory), ``errors``; ``storage.tournaments`` for the tournaments."""

"""The Telegram edge: the application, handlers, the one callback codec, bad input and per-user limits."""

"""Delivery: every call to Telegram (the outbox), shared rate limits, message claims between processes."""

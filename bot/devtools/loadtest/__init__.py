"""``make loadtest``: the real bot, in its own process, against the Bot API simulator at Telegram's rates.

N tables (one group each, four simulated people each) play at a human pace; the harness prints what a
tournament round on one token would see: cards per minute per table, message calls per card, calls per
second, turn latency, group lag, 429s, the bot's CPU per card and its memory. Method and figures:
docs/performance.md, "Bot under load".
"""

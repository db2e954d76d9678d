"""What Telegram's refusal of a call means for the outbox: wait (``RetryAfter``, that chat only), try again
(a network error, bounded), nothing to do (the edit changes nothing), the message is gone (its owner may send a
new one), the chat refuses the bot (``Forbidden``, "chat not found": handed to ``on_error``, never raised), a
plain failure (logged), or a send Telegram may have made (no answer after the whole request went: not repeated)."""

from __future__ import annotations

import enum
import warnings
from datetime import timedelta

import httpx
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut


class Refusal(enum.Enum):
    RETRY_AFTER = "retry_after"  # Telegram's flood control: that chat waits, then the call goes again
    NETWORK = "network"  # timed out / network error: tried again after a short back-off
    NOT_MODIFIED = "not_modified"  # the edit shows what the message shows already: done
    MESSAGE_GONE = "message_gone"  # the edited message was deleted
    CHAT_REFUSES = "chat_refuses"  # blocked, never started, chat or user not found
    FAILED = "failed"  # any other bad request
    # a send (not an edit) that went out whole and got no answer within its read timeout: Telegram may have made
    # it (it completes a request it received), so it is not sent again; a message is never shown twice
    UNCONFIRMED = "unconfirmed"


def refusal(exc: Exception, *, edit: bool) -> Refusal | None:
    """What ``exc`` raised by a call means (``edit``: the call edits a known message); None: not an answer of
    Telegram's (a bug: the caller logs it)."""
    if isinstance(exc, RetryAfter):
        return Refusal.RETRY_AFTER
    if isinstance(exc, BadRequest):  # before NetworkError: PTB's BadRequest is one
        msg = str(exc).lower()
        if "not modified" in msg:
            return Refusal.NOT_MODIFIED
        if "message to edit not found" in msg and edit:
            return Refusal.MESSAGE_GONE
        if "chat not found" in msg or "user not found" in msg or "bot was blocked" in msg:
            return Refusal.CHAT_REFUSES
        return Refusal.FAILED
    if isinstance(exc, Forbidden):
        return Refusal.CHAT_REFUSES
    if isinstance(exc, TimedOut) and not edit and isinstance(exc.__cause__, httpx.ReadTimeout):
        return Refusal.UNCONFIRMED  # a connect, write or pool timeout: the request did not reach Telegram
    if isinstance(exc, TimedOut | NetworkError):
        return Refusal.NETWORK
    return None


def retry_after_seconds(exc: RetryAfter) -> float:
    """The wait Telegram asks for, in (Telegram) seconds."""
    with warnings.catch_warnings():  # PTB 22.2+: retry_after may become a timedelta
        warnings.simplefilter("ignore")
        value: int | float | timedelta = exc.retry_after
    if isinstance(value, timedelta):
        return value.total_seconds()
    return float(value)


def network_backoff(tries: int, rate_scale: float) -> float:
    """Seconds before a call that met a network error goes again (its ``tries`` so far)."""
    return min(2.0, 0.2 * (2.0**tries)) / max(1.0, rate_scale / 4)

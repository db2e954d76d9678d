"""Telegram Mini App ``initData``: check it (HMAC-SHA256 with the bot token, ``auth_date`` freshness)
and, for local play and tests only, sign it.

Telegram's scheme (Mini Apps, "Validating data received via the Mini App"): ``initData`` is a URL
query string; ``secret = HMAC_SHA256(key="WebAppData", msg=bot_token)``; the data-check string is
every field but ``hash``, decoded, sorted by key, ``key=value`` joined by newlines; the field
``hash`` must equal ``hex(HMAC_SHA256(key=secret, msg=data_check_string))``.

A short function of the standard library (``hmac``, ``hashlib``) rather than a dependency: the
PyPI packages for it (``init-data-py``, ``init-data-python``) are young, one-maintainer projects,
and the check is twenty lines that the tests below pin down (tests/webapp/test_auth.py).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

DEFAULT_MAX_AGE = 24 * 3600  # seconds an initData stays valid (a Mini App kept open for a long match)
FUTURE_SKEW = 300  # an auth_date this far ahead of our clock is refused too


class InitDataError(Exception):
    """``initData`` refused; ``code`` is the i18n key suffix (``web.auth_<code>``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class WebAppUser:
    """The Telegram user an ``initData`` speaks for."""

    id: int
    first_name: str
    username: str | None
    language_code: str | None
    start_param: str | None
    auth_date: int


def secret_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: dict[str, str]) -> bytes:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash").encode()


def validate_init_data(
    init_data: str, bot_token: str, *, max_age: int = DEFAULT_MAX_AGE, now: float | None = None
) -> WebAppUser:
    """The user of a genuine, fresh ``initData``; ``InitDataError`` (``missing``, ``malformed``,
    ``bad_hash``, ``expired``) otherwise."""
    if not init_data or not isinstance(init_data, str):
        raise InitDataError("missing")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise InitDataError("malformed") from None
    fields = dict(pairs)
    if len(fields) != len(pairs) or "hash" not in fields:
        raise InitDataError("malformed")  # a repeated key, or no signature at all
    expected = hmac.new(secret_key(bot_token), _check_string(fields), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, fields["hash"].lower()):
        raise InitDataError("bad_hash")
    try:
        auth_date = int(fields.get("auth_date", ""))
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (ValueError, KeyError, TypeError):
        raise InitDataError("malformed") from None
    clock = time.time() if now is None else now
    if auth_date > clock + FUTURE_SKEW or clock - auth_date > max_age:
        raise InitDataError("expired")
    return WebAppUser(
        id=user_id,
        first_name=str(user.get("first_name") or ""),
        username=user.get("username"),
        language_code=user.get("language_code"),
        start_param=fields.get("start_param"),
        auth_date=auth_date,
    )


def sign_init_data(
    bot_token: str,
    user: dict[str, object],
    *,
    auth_date: int | None = None,
    start_param: str | None = None,
    query_id: str = "dev",
) -> str:
    """An ``initData`` string signed with ``bot_token`` (the local dev mode and the tests; Telegram
    signs the real ones)."""
    fields = {
        "auth_date": str(int(time.time()) if auth_date is None else auth_date),
        "query_id": query_id,
        "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")),
    }
    if start_param is not None:
        fields["start_param"] = start_param
    fields["hash"] = hmac.new(secret_key(bot_token), _check_string(fields), hashlib.sha256).hexdigest()
    return urlencode(fields)

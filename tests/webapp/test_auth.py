"""initData: Telegram's HMAC-SHA256 check with the bot token and the freshness of auth_date."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import parse_qsl, urlencode

import pytest

from bot.webapp.auth import InitDataError, sign_init_data, validate_init_data

TOKEN = "123456:ABCdefGhIJKlmNoPQRstuVWxyZ"
NOW = 1_800_000_000
USER = {"id": 1001, "first_name": "张伟", "language_code": "zh-hans"}


def telegram_style(token: str, fields: dict[str, str]) -> str:
    """initData as Telegram builds it, written out from its documentation (independent of bot.webapp)."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return urlencode({**fields, "hash": hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()})


def test_a_genuine_init_data_gives_its_user():
    init = telegram_style(
        TOKEN,
        {
            "auth_date": str(NOW - 60),
            "query_id": "AAH",
            "start_param": "m12",
            "user": json.dumps(USER, ensure_ascii=False),
            "signature": "abc",
        },
    )
    user = validate_init_data(init, TOKEN, now=NOW)
    assert (user.id, user.first_name, user.language_code, user.start_param) == (
        1001,
        "张伟",
        "zh-hans",
        "m12",
    )


def test_signing_and_checking_agree():
    user = validate_init_data(sign_init_data(TOKEN, USER, auth_date=NOW), TOKEN, now=NOW + 10)
    assert user.id == 1001


@pytest.mark.parametrize(
    "field,value", [("user", json.dumps({"id": 1002, "first_name": "王芳"})), ("auth_date", str(NOW + 5))]
)
def test_an_altered_field_is_refused(field, value):
    fields = dict(parse_qsl(sign_init_data(TOKEN, USER, auth_date=NOW)))
    fields[field] = value
    with pytest.raises(InitDataError) as err:
        validate_init_data(urlencode(fields), TOKEN, now=NOW)
    assert err.value.code == "bad_hash"


def test_init_data_signed_with_another_token_is_refused():
    with pytest.raises(InitDataError) as err:
        validate_init_data(sign_init_data("999:other", USER, auth_date=NOW), TOKEN, now=NOW)
    assert err.value.code == "bad_hash"


def test_expired_and_future_init_data_are_refused():
    init = sign_init_data(TOKEN, USER, auth_date=NOW)
    assert validate_init_data(init, TOKEN, now=NOW + 3600, max_age=3600).id == 1001
    with pytest.raises(InitDataError) as err:
        validate_init_data(init, TOKEN, now=NOW + 3601, max_age=3600)
    assert err.value.code == "expired"
    with pytest.raises(InitDataError) as err:
        validate_init_data(init, TOKEN, now=NOW - 3600)
    assert err.value.code == "expired"


@pytest.mark.parametrize(
    "init,code", [("", "missing"), ("garbage", "malformed"), ("user=%7B%7D&auth_date=1", "malformed")]
)
def test_missing_and_malformed_init_data(init, code):
    with pytest.raises(InitDataError) as err:
        validate_init_data(init, TOKEN, now=NOW)
    assert err.value.code == code


def test_a_repeated_key_is_refused_even_when_one_copy_is_signed():
    genuine = sign_init_data(TOKEN, USER, auth_date=NOW)
    with pytest.raises(InitDataError) as err:
        validate_init_data(genuine + "&user=" + json.dumps({"id": 1}), TOKEN, now=NOW)
    assert err.value.code == "malformed"

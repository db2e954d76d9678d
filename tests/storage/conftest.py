from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from engine import registry
from storage.db import Database
from tests.storage.support import BACKENDS, CountingGame, Target


@pytest.fixture(params=BACKENDS)
async def target(request: pytest.FixtureRequest, tmp_path: object) -> AsyncIterator[Target]:
    t = Target(request.param, tmp_path)
    await t.setup()
    try:
        yield t
    finally:
        await t.cleanup()


@pytest.fixture
async def db(target: Target) -> Database:
    return await target.open()


@pytest.fixture
def counting_game(monkeypatch: pytest.MonkeyPatch) -> type[CountingGame]:
    """Register the fake game with the engine's registry for one test."""
    monkeypatch.setitem(registry.GAMES, "counting", registry.Game(dict, CountingGame, dict))
    return CountingGame

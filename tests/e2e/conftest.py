"""Fixtures for the end-to-end tests: the real bot Application against the Bot API simulator.

* ``harness``: simulator (rate_scale 20) + four players who have started the bot + a group, bot running.
* ``harness_factory``: ``async with harness_factory(rate_scale=..., players_started=..., **settings) as h``.

Both skip the test with a clear reason while ``bot.app`` cannot be imported.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import E2EHarness, HarnessFactory, e2e_harness


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


def _require_bot_app() -> None:
    try:
        import bot.app  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"bot.app cannot be imported yet ({exc}); the end-to-end tests need the real bot Application")


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[E2EHarness]:
    _require_bot_app()
    async with e2e_harness(tmp_path) as h:
        yield h


@pytest.fixture
def harness_factory(tmp_path: Path) -> HarnessFactory:
    _require_bot_app()
    counter = iter(range(1_000_000))

    def factory(**kwargs: Any) -> Any:
        folder = tmp_path / f"h{next(counter)}"
        folder.mkdir()
        return e2e_harness(folder, **kwargs)

    return factory

"""Fixtures for the end-to-end tests: the real bot Application against the Bot API simulator.

* ``harness``: simulator (rate_scale 20) + four players who have started the bot + a group, bot running.
* ``harness_factory``: ``async with harness_factory(rate_scale=..., players_started=..., **settings) as h``.

``bot.edge.app`` is imported at collection: a broken import fails the end-to-end suite, never skips it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.edge.app  # noqa: F401  (a broken bot.edge.app must fail the suite loudly, not skip it)
from tests.e2e.harness import E2EHarness, HarnessFactory, e2e_harness


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[E2EHarness]:
    async with e2e_harness(tmp_path) as h:
        yield h


@pytest.fixture
def harness_factory(tmp_path: Path) -> HarnessFactory:
    counter = iter(range(1_000_000))

    def factory(**kwargs: Any) -> Any:
        folder = tmp_path / f"h{next(counter)}"
        folder.mkdir()
        return e2e_harness(folder, **kwargs)

    return factory

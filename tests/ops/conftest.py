"""Fixtures of the operations tests (issue 21): the end-to-end harness (tests/e2e) reused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import bot.edge.app  # noqa: F401  (a broken bot.edge.app must fail these tests loudly, not skip them)
from tests.e2e.harness import HarnessFactory, e2e_harness


@pytest.fixture
def harness_factory(tmp_path: Path) -> HarnessFactory:
    counter = iter(range(1_000_000))

    def factory(**kwargs: Any) -> Any:
        folder = tmp_path / f"h{next(counter)}"
        folder.mkdir()
        return e2e_harness(folder, **kwargs)

    return factory

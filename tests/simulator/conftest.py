"""Fixtures for the simulator's own tests: a running simulator and a PTB Bot pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from bot.devtools.simulator import DEFAULT_TOKEN, BotApiSimulator

PRIVATE_USER = 101
OTHER_USER = 102
STRANGER = 103  # never started the bot
GROUP = -1001234567890


class FakeClock:
    """A monotonic clock the test moves by hand (deterministic rate-limit tests)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def populate(sim: BotApiSimulator) -> None:
    sim.add_user(PRIVATE_USER, "Alice", username="alice", language_code="zh-hans", started=True)
    sim.add_user(OTHER_USER, "Bob", language_code="en", started=True)
    sim.add_user(STRANGER, "Carol")
    sim.add_group(GROUP, "牌桌 1", [PRIVATE_USER, OTHER_USER, STRANGER], [PRIVATE_USER])


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def sim(clock: FakeClock) -> AsyncIterator[BotApiSimulator]:
    """rate_scale=1 with a hand-moved clock: rate limits are Telegram's, and deterministic."""
    async with BotApiSimulator(clock=clock) as simulator:
        populate(simulator)
        yield simulator


@pytest.fixture
async def bot(sim: BotApiSimulator) -> AsyncIterator[Bot]:
    async with Bot(DEFAULT_TOKEN, base_url=sim.base_url, base_file_url=sim.base_file_url) as ptb_bot:
        yield ptb_bot

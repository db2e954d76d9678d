"""Smoke test of the end-to-end harness: the real bot answers through the simulator, and survives a restart."""

from __future__ import annotations

from tests.e2e.harness import E2EHarness


async def test_real_bot_answers_start_and_help_and_survives_a_restart(harness: E2EHarness) -> None:
    sim = harness.sim
    # The fixture's players sent /start and each got an answer in the private chat.
    for player in harness.players:
        assert sim.bot_messages(player.user_id), f"no answer to /start for {harness.name(player.user_id)}"
    assert sim.commands, "the bot registers its commands with setMyCommands at start-up"

    before = sim.last_bot_message(harness.group_id)
    harness.players[0].say(harness.group_id, "/help")
    help_message = await sim.wait_for_message(harness.group_id, after=before)
    assert help_message.text

    await harness.restart()
    assert harness.starts == 2
    harness.players[1].say(harness.group_id, "/help")
    again = await sim.wait_for_message(harness.group_id, after=help_message)
    assert again.text
    assert sim.stats.statuses.get(500, 0) == 0

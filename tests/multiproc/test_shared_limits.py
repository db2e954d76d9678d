"""Telegram's per-token limits shared by two bot processes (bot/delivery/shared_limits.py, Redis at 127.0.0.1:6379).

The unit part: two limiters (as two processes) reserve slots for one group, one private chat and many chats; the
slots are spread as Telegram's limits want.  The end-to-end part: two real processes behind the round-robin
splitter answer a burst of /help in one group and one private chat; with TELEGRAM_LIMITS_URL they get no 429,
without it (each process pacing itself alone) the same burst is refused (the measured comparison)."""

from __future__ import annotations

import secrets

import pytest

from bot.delivery.shared_limits import SharedLimits
from tests.multiproc.harness import REDIS, bots


def token() -> str:
    return f"{secrets.randbelow(10**9) + 10**9}:limits-{secrets.token_hex(4)}"


async def reserved_times(limiters: list[SharedLimits], chats: list[int]) -> list[float]:
    """Reserve a slot for each chat in turn, alternating between the limiters; the slots' times (seconds of
    Redis's clock, which every process shares)."""
    times = []
    for i, chat in enumerate(chats):
        _wait, at = await limiters[i % len(limiters)].reserve_at(chat)
        times.append(at)
    return sorted(times)


@pytest.mark.redis
async def test_two_limiters_share_the_group_the_private_chat_and_the_token_budget():
    tok = token()
    limiters = [SharedLimits(REDIS, tok, rate_scale=20), SharedLimits(REDIS, tok, rate_scale=20)]
    for limiter in limiters:
        await limiter.start()
    try:
        group = await reserved_times(limiters, [-100123] * 30)
        private = await reserved_times(limiters, [4242] * 30)
        many = await reserved_times(limiters, list(range(1, 121)))
        other_bot = SharedLimits(REDIS, token(), rate_scale=20)
        await other_bot.start()
        try:
            assert await other_bot.reserve(-100123) < 0.01  # another token has budgets of its own
        finally:
            await other_bot.stop()
    finally:
        for limiter in limiters:
            await limiter.stop()
    jitter = 0.0005  # the script's arithmetic in milliseconds, rounded
    # a group: 20 a minute (scaled by 20: one call per 0.15 s at most, spread evenly)
    assert min(b - a for a, b in zip(group, group[1:], strict=False)) >= 3 * 1.05 / 20 - jitter
    assert group[-1] - group[0] >= 29 * 3 / 20
    # a private chat: about one a second (scaled: one per 0.05 s)
    assert min(b - a for a, b in zip(private, private[1:], strict=False)) >= 1.05 / 20 - jitter
    # the token: 30 a second (scaled: 600 a second), whatever the chats
    window = 1 / 20
    assert max(sum(1 for t in many if s <= t < s + window) for s in many) <= 30


@pytest.mark.redis
async def test_an_edit_older_than_what_another_process_showed_is_not_sent():
    tok = token()
    a, b = SharedLimits(REDIS, tok, rate_scale=1000), SharedLimits(REDIS, tok, rate_scale=1000)
    await a.start()
    await b.start()
    try:
        assert await a.wait_turn(4242, 7, version=12)
        assert not await b.wait_turn(4242, 7, version=11)  # B's edit was rendered before A's: stale
        assert await b.wait_turn(4242, 7, version=12)  # the same version (a card tap): sent
        assert await b.wait_turn(4242, 7, version=13)
        assert await a.wait_turn(4242, 8, version=1)  # another message: its own record
        assert await a.wait_turn(4242, 7)  # no version (a lobby, a first message): always sent
        assert (a.stale, b.stale) == (0, 1)
    finally:
        await a.stop()
        await b.stop()


async def test_redis_down_means_in_process_pacing_only():
    limiter = SharedLimits("redis://127.0.0.1:1/0", token(), rate_scale=20)
    await limiter.start()
    try:
        assert await limiter.wait_turn(-100123) is True  # the call goes
        assert limiter.failures == 1
    finally:
        await limiter.stop()


async def burst(shared: bool) -> dict[str, float]:
    """Two processes answer 48 /help in a group and 30 in a private chat, alternately: the 429 answers, the replies,
    the most group replies in any 2.85 s (the group's 20 a minute, scaled by 20, less the simulator's 5 %
    tolerance) and the send attempts (429s included) per second while the group was being answered."""
    settings = {"TELEGRAM_LIMITS_URL": REDIS if shared else ""}
    async with bots(2, db="postgres", **settings) as group:
        sim = group.sim
        users = [300_001 + i for i in range(4)]
        for uid in users:
            sim.add_user(uid, f"U{uid}", language_code="zh-hans", started=True)
        chat = -1_005_000_000_001
        sim.add_group(chat, "人多", users, users[:1])
        help_text = "🃏 双升 / 掼蛋 机器人"
        for i in range(48):
            sim.user_sends_text(users[i % 4], chat, "/help")
        for _ in range(30):
            sim.user_sends_text(users[0], users[0], "/help")

        def replies(chat_id: int) -> list[float]:
            return sorted(m.versions[0].at for m in sim.bot_messages(chat_id) if help_text in (m.text or ""))

        await sim.wait_for(lambda: len(replies(chat)) == 48 and len(replies(users[0])) == 30, timeout=120)
        counts = group.splitter.count_by_process()
        assert counts[0] == counts[1] == 39  # the splitter alternated
        assert group.errors() == []
        sent = replies(chat)
        attempts = sim.stats.calls_by_chat_kind[("sendMessage", "group")]
        return {
            "429": sim.stats.rate_limited,
            "group": len(sent),
            "private": len(replies(users[0])),
            "group_max_window": max(sum(1 for t in sent if s <= t < s + 2.85) for s in sent),
            "group_attempts_per_s": attempts / max(1e-9, sent[-1] - sent[0]),
        }


@pytest.mark.postgres
@pytest.mark.redis
async def test_two_processes_with_the_shared_limiter_get_no_429_and_without_it_do():
    shared = await burst(shared=True)
    alone = await burst(shared=False)
    print(
        f"\ntwo processes, 48 group + 30 private replies, rate_scale 20: shared limiter {shared}; alone {alone}"
    )
    assert (shared["429"], shared["group"], shared["private"]) == (0, 48, 30)
    assert shared["group_max_window"] <= 20  # the group's budget, for both processes together
    assert (alone["group"], alone["private"]) == (
        48,
        30,
    )  # delivered in the end (the outbox retries a 429) ...
    assert alone["429"] > 0  # ... but each process pacing itself alone, the two together went over the limits

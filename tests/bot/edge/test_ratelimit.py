"""Per-user rate limit (bot/edge/ratelimit.py): buckets, one "slow down" answer per burst, bounded memory."""

from __future__ import annotations

from types import SimpleNamespace

from bot.edge.ratelimit import RateLimiter, UpdateGuard, command_of, counted


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def update(
    user_id: int, text: str | None = None, press: bool = False, chat_type: str = "group"
) -> SimpleNamespace:
    msg = None if press else SimpleNamespace(text=text, chat=SimpleNamespace(type=chat_type))
    return SimpleNamespace(
        effective_user=SimpleNamespace(id=user_id, language_code="zh-hans"),
        effective_message=msg,
        callback_query=SimpleNamespace() if press else None,
    )


def test_burst_then_one_warning_then_quiet_drops_then_refill():
    clock = Clock()
    rl = RateLimiter(rate=2.0, burst=3, clock=clock)
    assert [rl.check(1) for _ in range(6)] == ["ok", "ok", "ok", "warn", "drop", "drop"]
    assert rl.check(2) == "ok"  # another user is not affected
    clock.now += 0.5  # one token back
    assert rl.check(1) == "ok"
    assert rl.check(1) == "warn"  # a new burst over the limit is told again, once


def test_memory_is_bounded_and_forgetting_never_blocks():
    clock = Clock()
    rl = RateLimiter(rate=1.0, burst=2, max_users=100, clock=clock)
    for uid in range(10_000):
        rl.check(uid)
    assert len(rl) == 100
    assert rl.check(0) == "ok"  # user 0 was dropped: a full bucket again


def test_guard_counts_presses_commands_and_private_text_but_not_group_chatter():
    assert counted(update(1, press=True))
    assert counted(update(1, "/help"))
    assert counted(update(1, "♥5", chat_type="private"))
    assert not counted(update(1, "hello all", chat_type="group"))
    assert command_of(update(1, "/Bracket@tourney_bot 3")) == "bracket"
    assert command_of(update(1, "hi")) is None


def test_heavy_commands_have_their_own_slower_bucket():
    clock = Clock()
    guard = UpdateGuard(rate=100.0, burst=100, heavy_rate=0.2, heavy_burst=2, clock=clock)
    verdicts = [guard.decide(update(7, "/bracket")) for _ in range(20)]
    assert verdicts[:2] == ["ok", "ok"] and verdicts[2] == "warn" and set(verdicts[3:]) == {"drop"}
    assert guard.decide(update(7, "/help")) == "ok"  # light commands still pass
    assert guard.decide(update(8, "/bracket")) == "ok"  # and other users' heavy ones
    assert guard.refused == 18

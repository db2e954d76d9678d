"""The load test's figures from recorded runs: what "turn latency", "group lag", cards per minute and calls per
card mean, computed from hand-made records whose answers are known."""

from __future__ import annotations

import os
import time

from bot.devtools.loadtest.botprocess import sample
from bot.devtools.loadtest.players import PlayRecord
from bot.devtools.loadtest.report import compute, group_lags, quantile, turn_latencies

NEXT = 501


def play(
    seq: int, at: float, *, marker: str | None = None, completes: bool = False, next_user: int | None = NEXT
) -> PlayRecord:
    return PlayRecord(
        table=0, seq=seq, seat=0, committed=at, next_user=next_user, marker=marker, completes_trick=completes
    )


def test_quantiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert quantile(values, 0.5) == 50.0
    assert quantile(values, 0.99) == 99.0
    assert quantile([], 0.5) is None


def test_turn_latency_runs_from_the_commit_to_the_next_players_first_your_turn_after_it() -> None:
    plays = [play(1, 100.0), play(2, 110.0), play(3, 120.0, next_user=None), play(4, 130.0)]
    turn_times = {NEXT: [99.0, 100.4, 101.0, 112.5]}  # 99.0 is an older "your turn"
    latencies, missing = turn_latencies(plays, turn_times, start=95.0, end=200.0)
    assert [round(x, 2) for x in latencies] == [0.4, 2.5]
    assert missing == 1  # the play at 130 was never followed by "your turn"; the deal's last play is skipped
    only_late, _ = turn_latencies(plays, turn_times, start=105.0, end=200.0)
    assert [round(x, 2) for x in only_late] == [2.5]


def test_group_lag_counts_until_the_group_shows_the_trick_or_a_later_state() -> None:
    plays = [
        play(1, 10.0, marker="本轮  A ♠5"),
        play(2, 11.0, marker="上一轮  A ♠5 │ B ♠6", completes=True),
        play(3, 12.0, marker="本轮  B ♥9"),
        play(4, 13.0, marker="上一轮  B ♥9 │ A ♥2", completes=True),
        play(5, 14.0, marker="本轮  A ♣3"),
        play(6, 15.0, marker="上一轮  A ♣3 │ B ♣4", completes=True),
    ]
    versions = [
        (10.5, "table\n本轮  A ♠5 │ B …"),
        (13.0, "table\n上一轮  A ♠5 │ B ♠6"),  # trick 1 shown 2 s after it ended
        (16.0, "table\n本轮  A ♣3 │ B …"),  # trick 2 never shown on its own: a later state shows at 16
    ]
    lags, missing = group_lags(plays, versions, start=0.0, end=100.0)
    assert [round(x, 2) for x in lags] == [2.0, 3.0]
    assert missing == 1  # trick 3 (ended at 15) never shown


def test_figures_of_a_window() -> None:
    plays = {0: [play(1, 100.0), play(2, 130.0), play(3, 160.0)], 1: [play(1, 100.0), play(2, 115.0)]}
    figures = compute(
        tables=2,
        plays_by_table=plays,
        finished_at={0: None, 1: 115.0},
        turn_times={NEXT: [100.5, 115.5, 130.5, 160.5]},
        group_versions={},
        group_of_table={0: -1, 1: -2},
        start=100.0,
        end=160.0,
        calls_delta={
            ("editMessageText", "private"): 6,
            ("editMessageText", "group"): 2,
            ("sendMessage", "group"): 1,
            ("deleteMessage", "private"): 1,
            ("answerCallbackQuery", "none"): 9,
        },
        rate_limited={"group": 2},
        cpu_seconds=0.5,
        rss_mb=100.0,
        peak_rss_mb=120.0,
    )
    v = figures.values
    assert v["cards"] == 4  # the play at 160 is outside [100, 160)
    # table 0 plays 60 s (2 cards), table 1 plays 15 s until its deal ended (2 cards): 4 cards in 1.25 min
    assert round(v["cards_per_min_per_table"], 2) == 3.2
    assert v["message_calls"] == 10  # answerCallbackQuery is no message call
    assert v["calls_per_card"]["total"] == 2.5
    assert v["calls_per_card"]["edit"] == 2.0
    assert v["calls_per_card"]["group"] == 0.75
    assert round(v["message_calls_per_s"], 3) == round(10 / 60, 3)
    assert v["rate_limited"] == 2
    assert v["bot_cpu_ms_per_card"] == 125.0
    assert "| 2 | 3.2 | 4 |" in figures.line()


def test_process_sample_reads_cpu_time_and_memory() -> None:
    before = sample(os.getpid())
    end = time.process_time() + 0.05
    while time.process_time() < end:
        pass
    after = sample(os.getpid())
    assert after.cpu_seconds >= before.cpu_seconds + 0.03
    assert 10 < after.rss_mb <= after.peak_rss_mb


def test_the_group_line_the_harness_looks_for_is_the_one_the_bot_renders() -> None:
    """The harness times group lag by finding a trick's line in the group's table message: the line it builds from
    its replica of the match must be the one ``bot.presentation.render.table_message`` shows for the same state."""
    import json
    import random

    from bot.devtools.loadtest.players import Table, _group_marker
    from bot.presentation.render import table_message
    from engine.options import options_to_dict
    from engine.registry import load_preset, match_from_stored

    preset = load_preset("shengji-17-deals").with_overrides({"deals": 1, "bid_window_seconds": 0})
    options = json.loads(json.dumps(options_to_dict(preset.rules)))
    table = Table(
        index=0,
        group_id=-1,
        user_ids=[1, 2, 3, 4],
        names=["甲", "乙", "丙", "丁"],
        seed=5,
        game="shengji",
        replica=match_from_stored("shengji", options, 5),
    )
    rng = random.Random(5)
    checked = {False: 0, True: 0}
    for _ in range(400):
        m = table.replica
        if m.finished:
            break
        turns = [tr for tr in m.turns() if tr.required]
        bids = [
            a
            for tr in m.turns()
            if not tr.required
            for a in [m.ai_action(tr.seat, rng)]
            if a and a.split()[1] == "bid"
        ]
        step = m.system_step()
        if turns:
            action = m.ai_action(turns[0].seat, rng) or m.auto_action(turns[0].seat)
        elif bids:  # a computer player declares trump while the cards are dealt
            action = bids[0]
        elif step is not None:  # dealing, closing the bids: what the bot's runtime applies itself
            action = step
        else:
            break
        m.apply(action)
        if action.split()[0] == "sys" or action.split()[1] != "play":
            continue
        marker, completes = _group_marker(table)
        text, _ = table_message("zh", "shengji", m.public_view(), table.names, None, None, "桌")
        if marker is not None:
            assert marker in text
            checked[completes] += 1
    assert checked[True] >= 5 and checked[False] >= 5


def test_an_error_in_the_bots_log_is_reported_with_its_traceback(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from bot.devtools.loadtest.botprocess import BotProcess

    log = tmp_path / "bot.log"
    log.write_text(
        "2026-11-30 23:20:20,300 INFO bot.delivery.outbox: sent\n"
        "2026-11-30 23:20:20,305 ERROR bot.edge.handlers: error while handling an update\n"
        "Traceback (most recent call last):\n"
        '  File "bot/edge/handlers.py", line 120, in cmd_help\n'
        "    lang = await _lang(context, update)\n"
        "asyncpg.exceptions.TooManyConnectionsError: sorry, too many clients already\n"
        "2026-11-30 23:20:20,400 INFO bot.delivery.outbox: sent\n"
    )
    found = BotProcess({}, log).errors_logged()
    assert found[0].endswith("error while handling an update")
    assert found[-1].startswith("asyncpg.exceptions.TooManyConnectionsError")  # the cause is in the report
    assert not any("INFO" in line for line in found)

"""Duplicate deals (issue 20, "Duplicate deals"): the tables of a comparison deal the same boards with the
hands turned one seat (what ``python -m bot.verify_deal`` recomputes from each table's revealed seed),
each table keeps its own verifiable commitments, the comparison's scoring follows the documented rule, and
a bad ``duplicate`` value in a file or in the guided set-up gets one clear translated answer."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.edge.tournament import organiser, setup
from bot.tables.deal_proof import check_proof, proof_for, proof_json, review_fairness
from bot.verify_deal import main as verify_main
from engine.cards import card_text
from engine.game import Match, computer_step
from engine.registry import load_preset
from engine.tournament.duplicate import compare, deal_score, duplicate_result, partner_table, table_turn
from engine.tournament.results import TableResult, played_table
from storage import tournaments as ts
from storage.db import Database
from tests.bot.edge.tournament.test_setup_guided import USER, FakeBot, _at, _state
from tests.engine.tournament.helpers import board_table, played_board_table

SEED = 4_242_424_242


def _play_until_dealt(m: Match, rng: random.Random) -> None:
    while m.dealt_cards() is None:
        action = computer_step(m, rng)
        assert action is not None
        m.apply(action)


def _printed_hands(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, set[str]]:
    """What ``python -m bot.verify_deal <proof>`` prints for each seat (it must say VERIFIED)."""
    assert verify_main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "VERIFIED" in out and "NOT VERIFIED" not in out, out
    hands = {}
    for line in out.splitlines():
        seat, sep, cards = line.partition(" (")
        if sep and seat in ("S", "E", "N", "W"):
            hands[seat] = set(cards.split("): ", 1)[1].split())
    return hands


@pytest.mark.parametrize("preset_id", ["shengji-17-deals", "guandan-team"])
def test_both_tables_hold_the_same_hands_turned_as_verify_deal_recomputes_them(
    preset_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Table 2's North/South hold what table 1's East/West held (and the other way round), checked from
    each table's revealed seed and salt with the command a player runs."""
    game = load_preset(preset_id).game
    printed = []
    for turn in (0, 1):
        m = board_table(preset_id, turn, SEED)
        _play_until_dealt(m, random.Random(turn))
        dealt = m.dealt_cards()
        assert dealt is not None
        proof = proof_for(game, SEED, 1, 0, turn)
        data = proof_json(
            proof,
            preset=preset_id,
            match_id=turn + 1,
            first_drawer=dealt.first_drawer,
            hands=[[card_text(c) for c in h] for h in dealt.hands],
            kitty=[card_text(c) for c in dealt.kitty],
        )
        path = tmp_path / f"table-{turn + 1}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        printed.append(_printed_hands(capsys, path))
    t1, t2 = printed
    assert t2["N"] == t1["E"] and t2["S"] == t1["W"]  # side a now holds what side b held
    assert t2["E"] == t1["S"] and t2["W"] == t1["N"]
    assert t1["S"] != t2["S"]


def test_each_table_has_its_own_commitment_and_a_swapped_salt_fails() -> None:
    one, two = proof_for("guandan", SEED, 3, 0, 0), proof_for("guandan", SEED, 3, 0, 1)
    assert one.seed == two.seed  # the same board ...
    assert one.commitment != two.commitment  # ... committed to separately at each table
    base = {"game": "guandan", "deal_seed": str(one.seed), "board_turn": 1}
    assert check_proof({**base, "salt": two.salt.hex(), "commitment": two.commitment}).ok
    assert not check_proof({**base, "salt": one.salt.hex(), "commitment": two.commitment}).ok


def test_tables_pair_up_odd_with_even() -> None:
    assert [table_turn(k) for k in (1, 2, 3, 4)] == [0, 1, 0, 1]
    assert [partner_table(k) for k in (1, 2, 3, 4)] == [2, 1, 4, 3]


@pytest.mark.parametrize("preset_id", ["shengji-17-deals", "guandan-team"])
def test_the_comparison_scores_each_board_as_documented_on_played_matches(preset_id: str) -> None:
    """Two matches played out by computers on the same boards: each compared board scores side a's signed
    level steps at table 1 plus at table 2, the total decides, a zero total leaves the ordinary rule."""
    game = load_preset(preset_id).game
    t1, t2 = (
        played_board_table(preset_id, 0, SEED, 3, rng_seed=7),
        played_board_table(preset_id, 1, SEED, 3, rng_seed=7),
    )
    boards = compare(game, {1: list(t1.history), 2: list(t2.history)}, 2)
    assert [b.deal_no for b in boards] == [1, 2, 3]
    for board, s1, s2 in zip(boards, t1.history, t2.history, strict=True):
        if game == "shengji":
            by_hand = [s["steps"] if s["winner"] == 0 else -s["steps"] for s in (s1, s2)]
        else:
            by_hand = [s["gain"] if s["winner_side"] == 0 else -s["gain"] for s in (s1, s2)]
        assert list(board.scores) == by_hand and board.score == sum(by_hand)
        assert deal_score(game, s1) == by_hand[0]
    total = sum(b.score for b in boards)
    r1, r2 = t1.result(), t2.result()
    tables = [
        played_table("a" if r["winner"] == 0 else "b", r["levels"][0], r["levels"][1], table=k)
        for k, r in ((1, r1), (2, r2))
    ]
    res = duplicate_result(tables, boards)
    assert res.extra["duplicate"]["total"] == total
    if total:
        assert (res.winner, res.decided_by) == ("a" if total > 0 else "b", "duplicate")
    else:
        assert res.decided_by != "duplicate"


def test_a_zero_total_falls_back_to_the_team_rule_and_the_total_overrides_tables() -> None:
    tables = [TableResult(1, "a", 9, 5), TableResult(2, "b", 4, 6)]
    even = compare(
        "guandan",
        {1: [{"deal_no": 1, "winner_side": 0, "gain": 2}], 2: [{"deal_no": 1, "winner_side": 1, "gain": 2}]},
        2,
    )
    assert duplicate_result(tables, even).decided_by == "level_difference"  # 0 on the boards: 4 - 2 levels
    ahead = compare(
        "guandan",
        {
            1: [{"deal_no": 1, "winner_side": 0, "gain": 1}, {"deal_no": 2, "winner_side": 1, "gain": 1}],
            2: [{"deal_no": 1, "winner_side": 1, "gain": 3}],  # table 2's match ended after one deal
        },
        2,
    )
    res = duplicate_result(tables, ahead)
    assert [b.deal_no for b in ahead] == [1]  # deal 2 was played at table 1 only: not compared
    assert (res.winner, res.decided_by, res.extra["duplicate"]["total"]) == ("b", "duplicate", -2)


# --- bad values: one clear translated answer ------------------------------------------------------------

FILE = """name = "复式杯"
preset = "{preset}"
first_round = "2030-01-10 14:00"

[tournament]
{extra}
"""


async def _file_answer(db: Database, lang: str, text: str) -> str:
    sent: list[str] = []
    tb: Any = SimpleNamespace(
        ctx=SimpleNamespace(db=db, send=lambda chat, msg, *a: sent.append(msg), glang=lambda: lang),
        timers=SimpleNamespace(arm_tournament=lambda row: _nothing()),
    )
    await organiser.create_from_toml(tb, USER, lang, text)
    assert len(sent) == 1, sent
    return sent[0]


async def _nothing() -> None:
    return None


@pytest.mark.parametrize(
    ("lang", "preset", "extra", "needle"),
    [
        ("zh", "shengji-17-deals", "duplicate = true", "固定搭档的复式（duplicate = true）只用于积分编排"),
        ("en", "shengji-17-deals", "duplicate = true", "duplicate = true for pairs needs Swiss rounds"),
        ("zh", "shengji-17-deals", 'format = "groups_then_knockout"\nduplicate = true', "只用于积分编排"),
        ("en", "guandan-team", 'format = "swiss"\nduplicate = true', "an even number of pairs per team"),
        ("zh", "guandan-team", "duplicate = true", "本比赛每场 3 桌"),
        ("en", "guandan-team", "duplicate = true", "has 3 table(s) per match"),
        ("zh", "guandan-team", 'duplicate = "yes"', "duplicate"),
        ("en", "guandan-team", 'duplicate = "yes"', "true | false"),
    ],
)
async def test_a_bad_duplicate_value_in_a_file_is_explained_and_creates_nothing(
    db: Database, lang: str, preset: str, extra: str, needle: str
) -> None:
    answer = await _file_answer(db, lang, FILE.format(preset=preset, extra=extra))
    assert answer.startswith("文件有误，比赛未创建" if lang == "zh" else "The file has a problem"), answer
    assert needle in answer, answer
    assert "Traceback" not in answer
    assert await ts.all_tournaments(db) == []


async def test_a_good_duplicate_file_makes_a_duplicate_team_tournament(db: Database) -> None:
    text = FILE.format(preset="guandan-team", extra="pairs_per_team = 2\nduplicate = true")
    answer = await _file_answer(db, "en", text)
    assert "nothing was created" not in answer, answer
    (row,) = await ts.all_tournaments(db)
    assert row.settings_json["duplicate"] is True and row.settings_json["pairs_per_team"] == 2


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_guided_set_up_offers_duplicate_and_refuses_it_for_three_pairs(
    db: Database, lang: str
) -> None:
    tb = FakeBot(db)
    row = await _at(tb, lang, "entrant")
    await setup.ask(tb, row, USER, lang)
    assert tb.labels()[3] == (
        "团体（每队 2 对）· 复式：两桌同牌"
        if lang == "zh"
        else "teams of 2 pairs · duplicate: both tables play the same deals"
    )
    before = _state(row)
    await setup.answer(tb, row, USER, lang, "3 复式" if lang == "zh" else "3 duplicate")
    assert _state(await ts.get_tournament(db, row.id)) == before  # nothing changed
    assert ("每队对数须为双数" if lang == "zh" else "an even number of pairs per team") in tb.last
    assert ("未作更改" if lang == "zh" else "Nothing was changed") in tb.last
    await setup.button(tb, USER, lang, ["pick", "entrant", "2d"])
    row = await ts.get_tournament(db, row.id)
    s = row.settings_json
    assert (s["entrant"], s["pairs_per_team"], s["duplicate"], row.setup_step) == ("team", 2, True, "tz")


def test_the_review_fairness_of_a_duplicate_table_can_hide_the_seeds() -> None:
    rec = SimpleNamespace(deal_no=1, redeals=0, finished=True, first_drawer=None)
    hidden = review_fairness("guandan", "guandan-team", SEED, rec, 1, reveal=False)
    shown = review_fairness("guandan", "guandan-team", SEED, rec, 1)
    assert set(hidden) == {"commitment"}
    assert shown["deal_seed"] == str(proof_for("guandan", SEED, 1, 0, 1).seed)
    assert shown["verify"].endswith("--board-turn 1")


async def test_no_seed_of_a_duplicate_table_is_shown_while_its_partner_table_still_plays(
    db: Database,
) -> None:
    """Table 1 of a comparison has finished; table 2 is still playing (the same last deal): a /review at
    table 1 must not reveal its seeds yet (they give table 2's hands, turned); once table 2 is over it may."""
    from storage import table_repo
    from storage.tournaments.duplicate import comparison_over

    one = await table_repo.create_table(
        db, -1, "guandan-team", {"board_turn": 0}, tournament_ref="t7:R1-M1:1"
    )
    two = await table_repo.create_table(
        db, -2, "guandan-team", {"board_turn": 1}, tournament_ref="t7:R1-M1:2"
    )
    casual = await table_repo.create_table(db, -3, "guandan-team")
    await table_repo.set_table_status(db, one.id, "finished")
    await table_repo.set_table_status(db, two.id, "playing")
    assert not await comparison_over(db, one.id)
    assert await comparison_over(db, casual.id)  # not a duplicate table: nothing to wait for
    await table_repo.set_table_status(db, two.id, "finished")
    assert await comparison_over(db, one.id) and await comparison_over(db, two.id)

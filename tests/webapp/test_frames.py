"""What a table page receives: the public table for everybody, a seat's hand only in its own frame."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

from bot.presentation.keyboards import group_hand
from bot.webapp import frames
from engine.cards import counts_of, parse_cards
from engine.registry import match_from_stored

NAMES = ["A", "B", "C", "D"]
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def frame(m, seat, game, computers=(False, True, True, True), options=None):
    return frames.state_frame(
        game=game,
        match_id=1,
        version=len(m.log),
        status="playing",
        public=frames.public_part(game, m),
        me=None if seat is None else frames.seat_part(game, m, seat),
        seat=seat,
        names=NAMES,
        computers=list(computers),
        options=options or {},
        since=NOW,
        now=NOW,
    )


def play_through(game: str, seed: int, options=None):
    """Yield the match after every action of a computer-played deal."""
    m = match_from_stored(game, options or {"deals": 1}, seed)
    rng = random.Random(seed)
    for _ in range(4000):
        if m.finished:
            return
        step = m.system_step()
        if step:
            m.apply(step)
        else:
            for turn in m.turns():
                action = m.ai_action(turn.seat, rng)
                if action:
                    m.apply(action)
                    break
            else:
                return
        yield m


def test_frames_of_a_whole_shengji_deal_keep_hidden_cards_hidden():
    kitty_seen = set()
    for m in play_through("shengji", 5):
        spectator = frame(m, None, "shengji")
        assert "me" not in spectator
        assert spectator["table"] == m.public_view()["table"]
        for seat in range(4):
            f = frame(m, seat, "shengji")
            assert f["table"] == spectator["table"]  # the rest is exactly what a spectator gets
            shown = [c for g in f["me"]["hand"] for c in parse_cards(" ".join(g["cards"]))]
            assert counts_of(shown) == counts_of(m.hands[seat])
            if "kitty" in f["me"]:
                kitty_seen.add(seat)
                assert seat == m.burier
        json.dumps(f)  # JSON-able
    assert len(kitty_seen) == 1


def test_shengji_hand_is_grouped_like_the_hand_message_trumps_first():
    for m in play_through("shengji", 7):
        if m.phase == "play":
            break
    f = frame(m, 0, "shengji")
    p = m.public_view()["table"]
    expected = group_hand("shengji", parse_cards(" ".join(m.seat_view(0)["hand"])), p["trump"], p["level"])
    assert [(g["label"], parse_cards(" ".join(g["cards"]))) for g in f["me"]["hand"]] == expected
    assert f["me"]["hand"][0]["label"] == "trump"


def test_guandan_frames_hide_other_hands_and_offer_the_turns_actions():
    saw_play = saw_pass = False
    for m in play_through("guandan", 3, {"deals": 1}):
        spectator = frame(m, None, "guandan", options={"play_clock": 20})
        assert "me" not in spectator
        for seat in range(4):
            f = frame(m, seat, "guandan")
            assert f["table"] == spectator["table"]
            shown = [c for g in f["me"]["hand"] for c in parse_cards(" ".join(g["cards"]))]
            assert counts_of(shown) == counts_of(m.hands[seat])
            turns = [t.seat for t in m.turns()]
            actions = f["me"]["actions"]
            assert actions["play"] == (seat in turns and m.phase == "play")
            saw_play |= actions["play"]
            saw_pass |= actions["pass"]
    assert saw_play and saw_pass


def test_the_move_clock_runs_only_for_a_person_and_ends_at_its_deadline():
    m = next(m for m in play_through("guandan", 3, {"deals": 1, "play_clock": 20}) if m.phase == "play")
    seat = m.turns()[0].seat
    only_it_computer = [s == seat for s in range(4)]
    assert (
        frame(m, None, "guandan", computers=only_it_computer)["clock"] is None
    )  # a computer's turn: no clock
    everyone = [False] * 4
    f = frame(m, None, "guandan", computers=everyone)
    seconds = m.options.play_clock
    assert f["clock"] == {
        "seat": seat,
        "seconds": seconds,
        "deadline": int((NOW + timedelta(seconds=seconds)).timestamp() * 1000),
    }


def test_action_texts_from_page_requests():
    me = {"actions": {"turns": ["return"], "return": ["♠3"]}}
    assert frames.action_text("guandan", 2, me, "tribute", parse_cards("♠3"), None) == "2 return ♠3"
    assert (
        frames.action_text("guandan", 2, {"actions": {}}, "play", parse_cards("♠3 ♥3"), "p3.2")
        == "2 play ♠3 ♥3 as p3.2"
    )
    assert (
        frames.action_text("shengji", 1, {"actions": {"pass_overturn": True}}, "pass_bid", [], None)
        == "1 pass_overturn"
    )
    assert frames.action_text("shengji", 1, {"actions": {}}, "explode", [], None) is None

"""Both games speak one event vocabulary and offer everything the bot uses through ``engine.game.Match``."""

from __future__ import annotations

import json
import random

import pytest

from engine.events import Event, upgrade_event
from engine.game import Match, computer_step
from engine.registry import load_preset, new_match

PRESETS = ("shengji-17-deals", "shengji-timed-2h", "shengji-50min", "guandan-team")


def _match(preset: str, seed: int = 11, **over: object) -> Match:
    p = load_preset(preset)
    rules = p.with_overrides(over).rules if over else p.rules
    return new_match(p.game, rules, seed)


def _play(m: Match, rng: random.Random, until_deals: int) -> list[Event]:
    events: list[Event] = []
    while not m.finished and len(m.history) < until_deals:
        action = computer_step(m, rng)
        assert action is not None
        events += m.apply(action)
    return events


@pytest.mark.parametrize("preset", PRESETS)
def test_deal_events_use_one_vocabulary_in_both_games(preset: str) -> None:
    m = _match(preset)
    events = _play(m, random.Random(3), 3)
    kinds = [e.kind for e in events]
    assert "deal_start" not in kinds
    started = [e.data for e in events if e.kind == "deal_started"]
    over = [e.data for e in events if e.kind == "deal_over"]
    assert [d["deal_no"] for d in over] == [1, 2, 3]
    # the next deal's start names the deal that then is in progress
    assert [d["deal_no"] for d in started][-2:] == [2, 3]
    assert all("deal" not in d for d in started + over)
    assert over == list(m.history)
    assert m.deal_no == 3
    # everything the engines hand over is JSON as it is (no conversion needed by storage)
    assert json.loads(json.dumps([e.data for e in events], ensure_ascii=False)) == [e.data for e in events]


@pytest.mark.parametrize("preset", ["shengji-17-deals", "guandan-team"])
def test_time_up_and_abandoned_deal_name_the_deal(preset: str) -> None:
    m = _match(preset, time_up_finishes_deal=False)
    _play(m, random.Random(4), 1)
    m.apply("sys next_deal")
    events = m.apply("sys time_up")
    data = {e.kind: e.data for e in events}
    assert data["time_up"]["deal_no"] == 2
    assert data["deal_abandoned"]["deal_no"] == 2
    result = m.result()
    assert result is not None and result["abandoned_deal"] == 2 and result["deals"] == 1
    assert data["match_over"] == result


def test_old_stored_events_read_back_in_the_current_vocabulary() -> None:
    ev = upgrade_event("deal_start", {"deal": 4, "dealer": 1})
    assert ev == Event("deal_started", {"deal_no": 4, "dealer": 1})
    summary = upgrade_event(
        "deal_over",
        {"deal": 2, "points": 85, "charges": [{"deal": 2, "seat": 1, "points": 10, "signed": 10}]},
    )
    assert summary.data["deal_no"] == 2 and summary.data["charges"][0]["deal_no"] == 2
    # new events and other kinds pass unchanged
    assert upgrade_event("deal_started", {"deal_no": 3}) == Event("deal_started", {"deal_no": 3})
    assert upgrade_event("play", {"seat": 1, "cards": "♠3"}) == Event("play", {"seat": 1, "cards": "♠3"})


@pytest.mark.parametrize(
    "preset, clock, seconds", [("shengji-17-deals", "lead_clock", 25), ("guandan-team", "play_clock", 20)]
)
def test_clock_seconds_and_timeout_action_follow_the_options(preset: str, clock: str, seconds: int) -> None:
    m = _match(preset, **{clock: seconds})
    rng = random.Random(5)
    while not any(t.clock == clock for t in m.turns()):
        action = computer_step(m, rng)
        assert action is not None
        m.apply(action)
    turn = next(t for t in m.turns() if t.clock == clock)
    assert m.clock_seconds(turn.clock) == seconds
    assert m.clock_seconds(None) == 0
    assert m.timeout_action(turn.seat) == m.auto_action(turn.seat)
    forfeiting = _match(preset, on_timeout="forfeit_deal", **{clock: seconds})
    for action in m.log:
        forfeiting.apply(action)
    assert forfeiting.timeout_action(turn.seat) == f"sys forfeit_deal {turn.seat}"
    forfeiting.apply(forfeiting.timeout_action(turn.seat))
    assert forfeiting.history[-1]["forfeit"] == turn.seat


def test_readings_for_offers_a_choice_only_where_the_game_has_one() -> None:
    from engine.cards import parse_cards

    sj = _match("shengji-17-deals")
    assert sj.readings_for(0, parse_cards("♠3")) == []
    assert sj.redeal_no == 0

    gd = _match("guandan-team")
    gd.apply("sys next_deal")
    assert gd.redeal_no == 0 and gd.deal_no == 1
    seat = gd.turns()[0].seat
    view = gd.seat_view(seat)
    one = parse_cards(view["hand"][-1])
    readings = gd.readings_for(seat, one)
    assert [r.reading_id() for r in readings] and all(r.label(2) for r in readings)


@pytest.mark.parametrize("preset", ["shengji-17-deals", "guandan-team"])
def test_dealt_cards_are_the_hands_as_dealt_and_stay_so_during_play(preset: str) -> None:
    m = _match(preset)
    rng = random.Random(8)
    assert m.dealt_cards() is None  # Shengji: nothing dealt yet; Guandan: before the first deal
    first = None
    while not m.finished and len(m.history) < 1:
        if first is None and m.dealt_cards() is not None:
            first = m.dealt_cards()
            assert first is not None
            assert [sorted(h) for h in first.hands] == [sorted(m.hand(s)) for s in range(4)]
            assert sum(len(h) for h in first.hands) + len(first.kitty) == 108  # two decks in both games
        action = computer_step(m, rng)
        assert action is not None
        m.apply(action)
    assert first is not None
    # the deal over, the record of the deal is unchanged though every card was played
    assert m.dealt_cards() == first
    if m.game == "shengji":
        assert all(not m.hand(s) for s in range(4))


@pytest.mark.parametrize("preset", ["shengji-17-deals", "guandan-team"])
def test_current_trick_is_what_the_public_view_shows_and_forced_action_only_without_choice(
    preset: str,
) -> None:
    m = _match(preset)
    rng = random.Random(9)
    forced = 0
    while not m.finished and len(m.history) < 2:
        if m.phase == "play":
            for seat, cards in m.current_trick():
                assert 0 <= seat < 4 and all(isinstance(c, int) for c in cards)
        for turn in m.turns():
            action = m.forced_action(turn.seat)
            if action is not None:
                forced += 1
                hand = m.hand(turn.seat)
                trick = m.current_trick()
                # no choice: the last card, or following with every card held
                assert len(hand) == 1 or (trick and all(len(c) == len(hand) for _, c in trick))
                assert action == m.auto_action(turn.seat)
        action = computer_step(m, rng)
        assert action is not None
        m.apply(action)
    if m.game == "shengji":
        assert forced > 0  # every Shengji deal ends with a last trick nobody can choose
    else:
        assert forced == 0

"""Deal review (bot/tables/review.py): the replayed log cut into deals, the HTML file, and who may see it."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bot.tables.review import deal_records, may_review, parse_deal_arg, review_html
from engine.cards import card_text, full_deck, parse_cards, points
from engine.options import options_to_dict
from engine.registry import load_preset, match_from_stored
from engine.rng import rng_for

NAMES = ["张伟", "王芳", "<b>李娜</b>", "刘洋"]


def computer_match(preset: str, overrides: dict[str, str], seed: int) -> tuple[str, dict, list[str]]:
    """A match played to its end by the computer players: (game, options, action log)."""
    p = load_preset(preset).with_overrides(overrides)
    opts = options_to_dict(p.rules)
    m = match_from_stored(p.game, opts, seed)
    log: list[str] = []
    for i in range(20000):
        if m.finished:
            break
        action = None
        for tr in m.turns():
            action = m.ai_action(tr.seat, rng_for(seed, "ai", i, tr.seat))
            if action:
                break
        action = action or m.system_step() or "sys close_bidding"
        m.apply(action)
        log.append(action)
    assert m.finished
    return p.game, opts, log


@pytest.fixture(scope="module")
def shengji():
    return computer_match("shengji-17-deals", {"deals": "2"}, 7)


@pytest.fixture(scope="module")
def guandan():
    return computer_match("guandan-team", {"deals": "2"}, 11)


def test_shengji_deals_show_the_whole_deck_every_card_played_and_the_points(shengji):
    game, opts, log = shengji
    recs = deal_records(game, opts, 7, log)
    assert [r.deal_no for r in recs] == [1, 2] and all(r.finished for r in recs)
    deck = Counter(full_deck(2))
    for r in recs:
        assert [len(h) for h in r.hands] == [25, 25, 25, 25] and len(r.kitty) == 8
        assert Counter([c for h in r.hands for c in h] + r.kitty) == deck
        played = [c for tr in r.tricks for _, cards in tr.plays for c in parse_cards(cards or "")]
        assert len(played) == 100
        # the defenders' trick points are the tricks they won
        dealer = r.summary["dealer"]
        won = sum(tr.points for tr in r.tricks if tr.winner % 2 != dealer % 2)
        assert won == r.summary["trick_points"]
        assert sum(tr.points for tr in r.tricks) == sum(points(c) for c in played)
        assert r.buried and len(parse_cards(r.buried[-1][1])) == 8


def test_guandan_deals_show_the_whole_deck_and_the_tricks(guandan):
    game, opts, log = guandan
    recs = deal_records(game, opts, 11, log)
    assert [r.deal_no for r in recs] == [1, 2] and all(r.finished for r in recs)
    for r in recs:
        assert Counter(c for h in r.hands for c in h) == Counter(full_deck(2))
        assert all(tr.winner is not None for tr in r.tricks)
    assert recs[1].tribute or recs[1].summary  # deal 2 follows deal 1's order (tribute when due)


def test_review_html_is_self_contained_translated_and_escaped(shengji):
    game, opts, log = shengji
    recs = deal_records(game, opts, 7, log)
    page = review_html("zh", game=game, title="双升", names=NAMES, records=recs, deal_nos=[2])
    assert page.startswith("<!DOCTYPE html>") and 'charset="utf-8"' in page
    assert not re.search(r"<script|src=|href=|@import|url\(", page)
    assert "<b>李娜</b>" not in page and "&lt;b&gt;李娜&lt;/b&gt;" in page
    assert "第 2 副" in page and "第 1 副" not in page
    assert "起手牌" in page and "计分与升级" in page and "review." not in page
    for hand in recs[1].hands:  # every starting card is shown
        for c in set(hand):
            assert card_text(c).replace("BJ", "大王").replace("SJ", "小王") in page
    english = review_html("en", game=game, title="Shengji", names=NAMES, records=recs)
    assert "Starting hands" in english and "Deal 1" in english and "Deal 2" in english


def test_an_unfinished_deal_is_marked_for_referees(shengji):
    game, opts, log = shengji
    recs = deal_records(game, opts, 7, log[:150])
    assert not recs[-1].finished
    page = review_html("zh", game=game, title="x", names=NAMES, records=recs)
    assert "本副尚未结束" in page


@pytest.mark.parametrize(
    "seated,referee,deal_done,match_done,in_group,allowed",
    [
        (True, False, True, False, False, True),  # a player, a finished deal, in private
        (True, False, False, False, False, False),  # a player, the deal in progress: never
        (False, False, True, False, False, False),  # a stranger, match in progress
        (False, False, True, True, False, False),  # a stranger in private, even after the match
        (False, False, True, False, True, False),  # the group while the match goes on
        (False, False, True, True, True, True),  # the group after the match
        (False, False, False, True, True, False),  # an unfinished (abandoned) deal: not to the group
        (False, True, False, False, False, True),  # a referee: any deal, in progress too
    ],
)
def test_who_may_review_a_deal(seated, referee, deal_done, match_done, in_group, allowed):
    assert (
        may_review(
            seated=seated,
            referee=referee,
            deal_finished=deal_done,
            match_finished=match_done,
            in_group=in_group,
        )
        is allowed
    )


def test_deal_argument():
    assert parse_deal_arg(None) is None and parse_deal_arg(" ") is None
    assert parse_deal_arg("3") == 3
    for bad in ("0", "-1", "x", "99999", "1.5"):
        with pytest.raises(ValueError):
            parse_deal_arg(bad)

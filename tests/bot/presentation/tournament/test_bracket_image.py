"""The /bracket image: a PNG within Telegram's photo limits, Chinese names drawn, winners highlighted."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.presentation.tournament import bracket_image
from bot.presentation.tournament.bracket_image import GOLD, WIN_FILL, bracket_png, render_bracket
from bot.presentation.tournament.fonts import draws_glyphs, load_font
from bot.presentation.tournament.labels import match_title, placement_title, round_title
from tests.bot.presentation.tournament.helpers import groups_knockout, single_elim


def _decode(buf: io.BytesIO) -> Image.Image:
    data = buf.getvalue()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _within_telegram_limits(buf: io.BytesIO) -> Image.Image:
    image = _decode(buf)
    wd, ht = image.size
    assert 600 <= wd <= bracket_image.MAX_WIDTH
    assert ht >= 150 and wd + ht <= bracket_image.MAX_SIDES
    assert len(buf.getvalue()) < 10 * 1024 * 1024
    return image


def _count(image: Image.Image, colour: tuple[int, int, int]) -> int:
    rgb = image.convert("RGB")
    return sum(1 for px in rgb.get_flattened_data() if px == colour)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_single_elimination_with_byes_and_third_place_is_a_sendable_png(lang: str) -> None:
    t = single_elim(6)  # 6 pairs in a bracket of 8: two byes; shengji-timed-2h has a 3rd-place match
    buf = bracket_png(t, lang)
    assert buf.name == "bracket.png" and buf.tell() == 0
    _within_telegram_limits(buf)


def test_groups_then_knockout_draws_group_tables_above_the_tree() -> None:
    t = groups_knockout(10)
    done = render_bracket(t, "zh")
    early = render_bracket(groups_knockout(10, stop_after=3), "zh")
    # group tables plus the knockout tree need more height than the group tables alone
    assert done.size[1] > early.size[1]
    _within_telegram_limits(bracket_png(t, "en"))


def test_every_entry_name_is_drawn_with_real_glyphs() -> None:
    """No tofu: every character of every Chinese name and title has a glyph in the image's font."""
    t = single_elim(6)
    font = load_font(21)
    text = "".join(e.name + e.union_group for e in t.entries)
    text += (
        "".join(round_title(r, 3, "zh") for r in (1, 2, 3)) + placement_title(3, 4, "zh") + "冠军轮空弃权待定"
    )
    assert draws_glyphs(font, text.replace("/", ""))


def test_champion_box_is_filled_only_once_the_final_is_decided() -> None:
    finished = render_bracket(single_elim(6), "zh")
    unfinished = render_bracket(single_elim(6, play=False), "zh")
    assert _count(finished, GOLD) > 1000
    assert _count(unfinished, GOLD) == 0


def test_winners_are_highlighted_as_results_come_in() -> None:
    none_played = render_bracket(single_elim(8, play=False), "zh")
    all_played = render_bracket(single_elim(8), "zh")
    assert _count(none_played, WIN_FILL) == 0
    assert _count(all_played, WIN_FILL) > 5 * _count(render_bracket(single_elim(2), "zh"), WIN_FILL) // 2 > 0


def test_a_large_bracket_is_scaled_into_the_photo_limits() -> None:
    t = single_elim(130, "shengji-17-deals", play=False)  # a bracket of 256: 8 rounds
    image = _within_telegram_limits(bracket_png(t, "zh"))
    assert image.size[0] <= 2000


def test_round_titles_in_both_languages() -> None:
    assert [round_title(r, 4, "zh") for r in (1, 2, 3, 4)] == ["第1轮", "第2轮", "半决赛", "决赛"]
    assert [round_title(r, 3, "en") for r in (1, 2, 3)] == ["Round 1", "Semi-final", "Final"]
    assert placement_title(3, 4, "zh") == "三四名决赛" and placement_title(3, 4, "en") == "3rd place"
    t = single_elim(8)
    assert match_title(t, "R1-M3", "zh") == "第1轮 第3场"
    assert match_title(t, "R3-M1", "en") == "Final"
    assert match_title(t, "P5-8-M2", "zh") == "第5-8名排位赛 第2场"


def test_a_large_bracket_can_be_drawn_from_a_later_round_readably() -> None:
    """40 pairs (bracket of 64): from the round of 32 on, the image needs no scaling on a phone."""
    t = single_elim(40, "shengji-17-deals", play=False)
    start = bracket_image.readable_from_round(t)
    assert start == 2
    whole = render_bracket(t, "zh")
    part = render_bracket(t, "zh", from_round=start)
    assert part.size[1] < whole.size[1] and part.size[0] <= bracket_image.MAX_WIDTH
    assert part.size[0] + part.size[1] <= bracket_image.MAX_SIDES
    assert bracket_image.readable_from_round(single_elim(6, play=False)) == 1


def test_before_the_draw_the_image_says_the_bracket_comes_with_the_draw() -> None:
    from engine.tournament.tournament import Tournament
    from tests.bot.presentation.tournament.helpers import pairs, settings

    t = Tournament.create("赛前", settings("shengji-50min", group_quota=0), pairs(5))
    image = _within_telegram_limits(bracket_png(t, "zh"))
    assert _count(image, WIN_FILL) == 0 and _count(image, GOLD) == 0


def test_double_forfeit_and_disqualification_render() -> None:
    """A double forfeit sends nobody on (the next opponent walks over); a disqualified pair loses."""
    from engine.tournament.conduct import ConductRecord
    from engine.tournament.results import forfeit_result
    from tests.bot.presentation.tournament.helpers import play_all

    t = single_elim(8, "shengji-17-deals", play=False)
    first, second = t.ready_matches()[:2]
    t.record(first, forfeit_result("both"))
    a, _ = t.sides(second)
    assert a is not None
    for n in (1, 2):
        t.add_conduct(ConductRecord(f"c{n}", "violation", a, "player", second))
    play_all(t, forfeit_first=False)
    assert t.finished
    image = _within_telegram_limits(bracket_png(t, "en"))
    assert _count(image, GOLD) > 1000


def test_the_photo_limits_hold_for_any_shape() -> None:
    """Telegram: width + height <= 10000 and a side ratio of at most 20."""
    for size in ((30000, 100), (100, 30000), (2500, 9000), (500, 500)):
        out = bracket_image._fit_limits(Image.new("RGB", size, "white"))
        wd, ht = out.size
        assert wd <= bracket_image.MAX_WIDTH and wd + ht <= bracket_image.MAX_SIDES
        assert max(wd, ht) <= 20 * min(wd, ht)

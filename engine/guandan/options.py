"""Every Guandan rule option (docs/rules.md section 2 and decisions D2, D6, D7, D8, D10), with its default.

Decisions of docs/rules.md section 5 as options (docs/rules-decisions.md has the table):
D2 ``time_up_finishes_deal``, D6 ``on_timeout``, D7 ``tribute_on_one_four``,
D8 ``return_max_rank``, D10 ``play_clock`` / ``tribute_clock`` / ``return_clock``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import opt


@dataclass(frozen=True)
class GuandanOptions:
    always_show_counts: bool = opt(
        False, "Show every player's card count all the time (otherwise ask, 不问不报)"
    )
    a_failures_reset: bool = opt(False, "After three failed deals at A the side goes back to 2")
    tribute_on_one_four: str = opt(
        "pay", "上游 and 末游 on one side: 末游 still pays 上游 (D7), or no tribute", ("pay", "none")
    )
    return_max_rank: int = opt(
        10,
        'Highest rank a returned tribute card may have (还贡 "10以下" includes 10, D8); a receiver with no '
        "such card returns their lowest card",
        minimum=2,
        maximum=14,
    )
    start_level: int = opt(2, "Level both sides start at", minimum=2, maximum=14)
    deals: int = opt(0, "Deals in a match (0: no deal limit)", minimum=0, maximum=200)
    time_limit_minutes: int = opt(
        60, "Match time limit in minutes (0: none); see time_up_finishes_deal", minimum=0, maximum=1440
    )
    time_up_finishes_deal: bool = opt(
        True,
        "When the time limit passes mid-deal the deal is played out (docs/rules.md 2.7, D2); false: the match "
        "ends at once on time up and the unfinished deal does not count (the first deal is always played out)",
    )
    play_clock: int = opt(
        0, "Seconds to play or pass (0: no clock; 20 when turned on, D10)", minimum=0, maximum=600
    )
    tribute_clock: int = opt(
        0, "Seconds to pay tribute (0: no clock; 15 when turned on, D10)", minimum=0, maximum=600
    )
    return_clock: int = opt(
        0, "Seconds to return tribute (0: no clock; 30 when turned on, D10)", minimum=0, maximum=600
    )
    on_timeout: str = opt(
        "autoplay",
        "What a move-clock expiry does (D6): auto-play (pass when allowed, else the lowest "
        "legal play), or forfeit the deal",
        ("autoplay", "forfeit_deal"),
    )
    # --- duplicate deals (tournaments; docs/engine.md "Duplicate boards") -----------------------
    board_turn: int = opt(
        -1,
        "Duplicate deals: -1 deals as usual; 0..3 deals each deal as a board by compass seat, every hand "
        "turned this many seats (two tables with the same seed and turns 0 and 1 hold each other's hands)",
        minimum=-1,
        maximum=3,
    )
    # --- computer players (engine.ai.levels; not a rule: no replay depends on it) ---------------
    ai: str = opt(
        "normal",
        "Computer players' level: easy (plays at random now and then), normal, strong "
        "(searches, in worker processes)",
        ("easy", "normal", "strong"),
    )

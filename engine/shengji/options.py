"""Every Shengji rule option (docs/rules.md section 1 and decisions D1-D6), with its default.

Decisions of docs/rules.md section 5 as options (docs/rules-decisions.md has the table):
D1 ``throw_check_partner``, D2 ``time_up_finishes_deal``, D3 ``passing_a_ends_match``,
D4 ``double_blackout``, D5 ``kitty_multiplier`` (past the last row), D6 ``on_timeout``.
D9 (charges are events a referee may reverse, ``sys reverse_charge <index>``) is not an option.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import opt


@dataclass(frozen=True)
class ShengjiOptions:
    # --- bidding (docs/rules.md 1.3) -----------------------------------------------------------
    bid_style: str = opt(
        "joker_level",
        "How trump is declared: level card + matching joker, or a single level card",
        ("joker_level", "level_only"),
    )
    overturn_style: str = opt(
        "ladder",
        "How a declaration is overturned: the 17-deals ladder, 50min reinforce/overturn lock, or 2h suit order",
        ("ladder", "lock", "suit_order"),
    )
    direct_fix: bool = opt(True, "A declaration may be made directly with a level pair + joker (定主 / 亮死)")
    declarer_overturn_after_other: bool = opt(
        True, "The declarer may overturn only after somebody else has overturned (17-deals)"
    )
    public_trump: bool = opt(
        False, "A joker pair turns an unlocked declaration into no trump (反公主, 50min)"
    )
    first_deal_overturn_changes_dealer: bool = opt(
        True, "In the first deal an overturner becomes dealer (反主反打); otherwise trump only"
    )
    late_overturn: str = opt(
        "rebury",
        "Overturns after the kitty is buried, offered in turn from the dealer: the overturner re-buries "
        "(反主抄底; not in a deal whose dealer was grabbed), the kitty stays as buried, or none",
        ("rebury", "in_turn", "none"),
    )
    dealer_side_no_bid: str = opt(
        "own_level",
        "When the dealer side has no declaration: the others may declare (at their own level too), "
        "the dealer turns a kitty card (定主), or blackout (停电)",
        ("own_level", "kitty_turn", "blackout"),
    )
    max_redeals_before_pause: int = opt(
        3, "Redeals in a row with no bid before the table pauses", minimum=1, maximum=20
    )
    # --- play (docs/rules.md 1.5) --------------------------------------------------------------
    throws: bool = opt(True, "Throws (甩牌) are allowed")
    throw_check_partner: bool = opt(
        True,
        "A throw is checked against all three other hands, partner included (D1); "
        "false: only the two opponents' hands",
    )
    throw_penalty_per_card: int = opt(10, "Points charged per card of a failed throw", minimum=0, maximum=100)
    failed_throw_choice: str = opt(
        "lowest",
        "Who picks the unit a failed thrower must play: the lowest failing unit, or the opponents",
        ("lowest", "opponents"),
    )
    # --- scoring (docs/rules.md 1.6, 1.7) ------------------------------------------------------
    kitty_multiplier: str = opt(
        "doubling",
        "Kitty multiplier table: 2,4,8,16 doubling; 2,4,6,8 +2 per pair; 2,4,6,16 then doubling "
        "(D5: past the last row doubling per extra pair, plus_two +2 per pair)",
        ("doubling", "plus_two", "fifty_min"),
    )
    offsuit_kitty_half: bool = opt(False, "A last trick won with off-suit cards captures half (副牌抠底)")
    level_table: str = opt(
        "seventeen",
        "Level-change table: 17-deals (capped at +3), timed-2h (+1 per 40, no cap), 50min (takeover 60)",
        ("seventeen", "timed", "fifty_min"),
    )
    # --- match end (docs/rules.md 1.8) ---------------------------------------------------------
    deals: int = opt(17, "Deals in a match (0: no deal limit)", minimum=0, maximum=200)
    time_limit_minutes: int = opt(
        0, "Match time limit in minutes (0: none); see time_up_finishes_deal", minimum=0, maximum=1440
    )
    time_up_finishes_deal: bool = opt(
        True,
        "When the time limit passes mid-deal the deal is played out (D2); false: the match ends at once "
        "on time up and the unfinished deal does not count",
    )
    passing_a_ends_match: bool = opt(
        True,
        "Passing A ends the match at once, even under a deal limit (D3); false: with a deal limit the side "
        "stays at A and play goes on to the deal (or time) limit",
    )
    double_blackout: str = opt(
        "turn_kitty",
        "Double blackout (双停电, D4): turn kitty cards until one is a side's level, that side deals "
        "(none: redeal); or redeal at once",
        ("turn_kitty", "redeal"),
    )
    tie_break: str = opt(
        "dealer_side",
        "Equal levels at the end: the dealing side wins, or cut the cards (搬点)",
        ("dealer_side", "cut"),
    )
    start_level: int = opt(2, "Level both sides start at", minimum=2, maximum=14)
    # --- move clocks (docs/rules.md 1.9, D6) ---------------------------------------------------
    lead_clock: int = opt(0, "Seconds to lead a trick (0: no clock)", minimum=0, maximum=600)
    follow_clock: int = opt(0, "Seconds to follow or discard (0: no clock)", minimum=0, maximum=600)
    kitty_clock: int = opt(0, "Seconds to take and bury the kitty (0: no clock)", minimum=0, maximum=600)
    bid_window_seconds: int = opt(
        10, "Seconds the bid window stays open after the last card is dealt", minimum=0, maximum=600
    )
    on_timeout: str = opt(
        "autoplay",
        "What a move-clock expiry does (D6): auto-play the lowest legal play and "
        "record a timeout, or forfeit the deal",
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

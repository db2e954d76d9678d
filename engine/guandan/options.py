"""Every Guandan rule option (rules.md section 2 and decisions D7, D8, D10), with its default."""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import opt


@dataclass(frozen=True)
class GuandanOptions:
    always_show_counts: bool = opt(False, "Show every player's card count all the time (otherwise ask, 不问不报)")
    a_failures_reset: bool = opt(False, "After three failed deals at A the side goes back to 2")
    tribute_on_one_four: str = opt("pay", "上游 and 末游 on one side: 末游 still pays 上游 (D7), or no tribute",
                                   ("pay", "none"))
    start_level: int = opt(2, "Level both sides start at", minimum=2, maximum=14)
    deals: int = opt(0, "Deals in a match (0: no deal limit)", minimum=0, maximum=200)
    time_limit_minutes: int = opt(60, "Match time limit in minutes (0: none); the deal in progress finishes",
                                  minimum=0, maximum=1440)
    play_clock: int = opt(0, "Seconds to play or pass (0: no clock; 20 when turned on, D10)", minimum=0, maximum=600)
    tribute_clock: int = opt(0, "Seconds to pay tribute (0: no clock; 15 when turned on)", minimum=0, maximum=600)
    return_clock: int = opt(0, "Seconds to return tribute (0: no clock; 30 when turned on)", minimum=0, maximum=600)
    on_timeout: str = opt("autoplay", "What a move-clock expiry does: auto-play (pass when allowed, else the lowest "
                          "legal play), or forfeit the deal", ("autoplay", "forfeit_deal"))

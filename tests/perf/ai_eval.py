"""Paired-deal evaluation of the computer players (docs/performance.md "Computer players").

    python -m tests.perf.ai_eval --game shengji --a strong --b normal --pairs 200 --jobs 2 --out FILE

Each pair is one fresh seed played twice — the first deal of a new match — with player ``a`` at seats
0/2 and ``b`` at 1/3, then with the sides swapped; everything else (cards, dealer draw, options) is
equal.  The net of a pair is the level steps ``a``'s side gained minus those it lost over both deals,
so the cards cancel out.  It prints the mean net per pair with a 95 % interval (normal approximation),
pairs won / tied / lost, and the CPU time per decision of player ``a`` (median, p99; a decision is a
call that acted on a required turn).

Seeds are fresh each run (``secrets``) unless ``--seed`` fixes the first.  With ``--out`` every finished
pair is appended to that file as one JSON line, so a run may be stopped and resumed (the file's pairs
count toward ``--pairs``) and several runs may add to one file; ``--jobs`` plays pairs in parallel
processes.  Each line records the commit of the players' code (``commit``; ``+dirty`` when engine/ had
uncommitted changes), so a file resumed after the players changed shows it.  Run it under ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from engine.ai.levels import Player, play_first_deal, player_for
from engine.guandan.options import GuandanOptions
from engine.registry import new_match
from engine.shengji.options import ShengjiOptions
from tests.perf.machine import describe

PLAYERS = ("random", "easy", "normal", "strong", "strong-bf8a442", "normal+search", "strong-66ef9fd")
"""``strong-bf8a442``: the strong player as frozen at that commit (its non-play decisions the baseline's: the
yardstick for what was added since); ``normal+search``: the baseline with only those added decisions
searched (measures them alone, cheaply); ``strong-66ef9fd``: the strong player as it was at that commit
(Shengji: declarations, overturns and late overturns the baseline's, ``engine.shengji.ai_declare`` off)."""


def _options(game: str) -> Any:
    return ShengjiOptions() if game == "shengji" else GuandanOptions()


def eval_player(game: str, name: str) -> Player:
    """The player ``name`` of PLAYERS."""
    if name == "strong-66ef9fd":
        return _without_declare_search(game)
    if name not in ("strong-bf8a442", "normal+search"):
        return player_for(game, name)
    normal, strong = player_for(game, "normal"), player_for(game, "strong")
    added = searched_beyond_play(game)

    def play(m: Any, seat: int, rng: random.Random) -> str | None:
        if added(m, seat):
            return (normal if name == "strong-bf8a442" else strong)(m, seat, rng)
        return (strong if name == "strong-bf8a442" else normal)(m, seat, rng)

    return play


def _without_declare_search(game: str) -> Player:
    """The strong player with its declarations the baseline's (as before ``engine.shengji.ai_declare``)."""
    normal, strong = player_for(game, "normal"), player_for(game, "strong")
    if game != "shengji":
        return strong
    from engine.shengji.ai_declare import PHASES

    def play(m: Any, seat: int, rng: random.Random) -> str | None:
        return (normal if m.phase in PHASES else strong)(m, seat, rng)

    return play


def searched_beyond_play(game: str) -> Callable[[Any, int], bool]:
    """Whether a decision of ``seat`` now is one the strong player searches since ``bf8a442`` (there it was
    the baseline's): the Shengji dealer's bury, declarations, overturns and late overturns."""
    if game == "shengji":
        from engine.shengji.ai_declare import PHASES

        return lambda m, seat: (
            not m.finished and (m.phase in PHASES or (m.phase == "bury" and m.dealer == seat))
        )
    return lambda m, seat: False


def play_deal(
    game: str, seed: int, players: tuple[Player, Player], timed: int
) -> tuple[int, list[float], list[float]]:
    """Deal 1 of a new match of ``seed`` with ``players[side]`` at the seats of each side: the level steps
    side 0 gained (negative: side 1 gained), the CPU seconds of each decision of side ``timed`` (a call
    that acted on a required turn) and, Shengji only, of each time side ``timed`` was asked whether to
    declare or overturn while the cards were dealt (every call in ``engine.shengji.ai_declare.PHASES``,
    declaring or not: the declaration search runs in those)."""
    m = new_match(game, _options(game), seed)
    times: list[float] = []
    declare_times: list[float] = []
    declaring = _declaration_phases(game)

    def timing(player: Player) -> Player:
        def play(match: Any, seat: int, rng: random.Random) -> str | None:
            asked_to_declare = match.phase in declaring
            t0 = time.process_time()
            action = player(match, seat, rng)
            spent = time.process_time() - t0
            if asked_to_declare:
                declare_times.append(spent)
            elif action is not None and any(t.seat == seat and t.required for t in match.turns()):
                times.append(spent)
            return action

        return play

    seats = [timing(players[s % 2]) if s % 2 == timed else players[s % 2] for s in range(4)]
    play_first_deal(m, seats, random.Random(seed ^ 0x5EED))
    summary: Any = m.history[0]
    if game == "shengji":
        steps, winner = int(summary["steps"]), int(summary["winner"])
    else:
        steps, winner = int(summary["gain"]), int(summary["winner_side"])
    return (steps if winner == 0 else -steps), times, declare_times


def _declaration_phases(game: str) -> tuple[str, ...]:
    if game != "shengji":
        return ()
    from engine.shengji.ai_declare import PHASES

    return PHASES


def play_pair(job: tuple[str, str, str, int, str]) -> dict[str, Any]:
    """One pair: ``a`` at side 0 then at side 1, on the same seed (``commit``: the players' code, recorded)."""
    game, a, b, seed, commit = job
    pa, pb = eval_player(game, a), eval_player(game, b)
    first, times1, declare1 = play_deal(game, seed, (pa, pb), timed=0)
    second, times2, declare2 = play_deal(game, seed, (pb, pa), timed=1)
    return {
        "game": game,
        "a": a,
        "b": b,
        "seed": seed,
        "commit": commit,
        "nets": [first, -second],
        "net": first - second,
        "times": [round(t, 5) for t in times1 + times2],
        "declare_times": [round(t, 5) for t in declare1 + declare2],
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    nets = [r["net"] for r in rows]
    n = len(nets)
    mean = statistics.fmean(nets) if nets else 0.0
    half = 1.96 * statistics.stdev(nets) / math.sqrt(n) if n > 1 else float("nan")
    times = sorted(t for r in rows for t in r["times"])
    declare = sorted(t for r in rows for t in r.get("declare_times", ()))  # rows before 2026-12-03 lack it
    won = sum(1 for x in nets if x > 0)
    lost = sum(1 for x in nets if x < 0)
    return {
        "pairs": n,
        "mean": mean,
        "low": mean - half,
        "high": mean + half,
        "won": won,
        "tied": n - won - lost,
        "lost": lost,
        "decided_won": won / (won + lost) if won + lost else float("nan"),
        "decisions": len(times),
        "cpu_median": _quantile(times, 0.5),
        "cpu_p99": _quantile(times, 0.99),
        "cpu_max": times[-1] if times else float("nan"),
        "declare_asked": len(declare),
        "declare_median": _quantile(declare, 0.5),
        "declare_p99": _quantile(declare, 0.99),
        "declare_max": declare[-1] if declare else float("nan"),
    }


def _quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def report(game: str, a: str, b: str, rows: list[dict[str, Any]], wall: float) -> str:
    s = summarise(rows)
    return (
        f"{game}: {a} vs {b}, {s['pairs']} pairs: net {s['mean']:+.2f} level steps per pair "
        f"(95 % interval {s['low']:+.2f} .. {s['high']:+.2f}); pairs won/tied/lost "
        f"{s['won']}/{s['tied']}/{s['lost']} ({100 * s['decided_won']:.0f} % of decided pairs won); "
        f"CPU per decision of {a}: median {s['cpu_median'] * 1000:.1f} ms, p99 {s['cpu_p99'] * 1000:.1f} ms, "
        f"max {s['cpu_max'] * 1000:.1f} ms over {s['decisions']} decisions"
        + (
            f"; CPU per declaration question: median {s['declare_median'] * 1000:.1f} ms, "
            f"p99 {s['declare_p99'] * 1000:.1f} ms, max {s['declare_max'] * 1000:.1f} ms "
            f"over {s['declare_asked']} questions"
            if s["declare_asked"]
            else ""
        )
        + f"; wall {wall:.0f} s"
    )


def _load(path: str | None, game: str, a: str, b: str) -> list[dict[str, Any]]:
    if path is None or not os.path.exists(path):
        return []
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                row = json.loads(line)
                if (row["game"], row["a"], row["b"]) == (game, a, b):
                    rows.append(row)
    return rows


def code_commit() -> str:
    """The commit the players' code is at (``+dirty`` when engine/ has uncommitted changes), or ``unknown``
    outside a git checkout."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        head = subprocess.run(
            ["git", "-C", here, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", here, "status", "--porcelain", "--", "engine"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def run(
    game: str,
    a: str,
    b: str,
    pairs: int,
    jobs: int,
    out: str | None,
    seed: int | None,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    rows = _load(out, game, a, b)
    done = {r["seed"] for r in rows}
    start = seed if seed is not None else secrets.randbits(48)
    todo = [s for s in range(start, start + pairs) if s not in done][: max(0, pairs - len(rows))]
    commit = code_commit()
    jobs_list = [(game, a, b, s, commit) for s in todo]
    results: Iterator[dict[str, Any]]
    pool = None
    if jobs > 1 and len(jobs_list) > 1:
        pool = multiprocessing.get_context("spawn").Pool(jobs)
        results = pool.imap_unordered(play_pair, jobs_list)
    else:
        results = map(play_pair, jobs_list)
    try:
        for row in results:
            rows.append(row)
            if out is not None:
                with open(out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
            if progress is not None and len(rows) % 10 == 0:
                s = summarise(rows)
                progress(f"  {len(rows)} pairs: net {s['mean']:+.2f} ({s['low']:+.2f} .. {s['high']:+.2f})")
    finally:
        if pool is not None:
            pool.terminate()
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--game", choices=("shengji", "guandan", "both"), default="both")
    p.add_argument("--a", choices=PLAYERS, default="strong", help="the player measured (default strong)")
    p.add_argument("--b", choices=PLAYERS, default="normal", help="its opponent (default normal)")
    p.add_argument("--pairs", type=int, default=20, help="pairs of deals per game (default 20)")
    p.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    p.add_argument("--out", help="JSON-lines file: append each pair, resume from the pairs already in it")
    p.add_argument("--seed", type=int, help="first seed (default: fresh random seeds)")
    args = p.parse_args(argv)
    print(describe(), flush=True)
    games = ("shengji", "guandan") if args.game == "both" else (args.game,)
    for game in games:
        t0 = time.perf_counter()
        out = None if args.out is None else (args.out if len(games) == 1 else f"{args.out}.{game}")
        rows = run(
            game,
            args.a,
            args.b,
            args.pairs,
            args.jobs,
            out,
            args.seed,
            progress=lambda text: print(text, file=sys.stderr, flush=True),
        )
        print(report(game, args.a, args.b, rows, time.perf_counter() - t0), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Tournaments played out in storage for the season tests: a Swiss of four pairs in two union groups,
every match won by the pair with the lower player ids (so the expected table is known)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from engine.tournament import Tournament as Engine
from engine.tournament import pair_result
from storage import tournaments as ts
from storage.db import Database

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
GROUPS = ("机关", "理学院")


async def played_swiss(
    db: Database, name: str, organiser: int, players: Sequence[int], rounds: int = 2
) -> int:
    """A Swiss of ``len(players) // 2`` pairs (players 2k and 2k+1; the first half of the pairs in 机关,
    the rest in 理学院), created by ``organiser``, drawn and played for ``rounds`` rounds."""
    row = await ts.create_tournament(
        db,
        name=name,
        preset_id="shengji-timed-2h",
        created_by=organiser,
        settings_overrides={"format": "swiss", "swiss_rounds": rounds},
        union_groups=[{"name": g, "quota": 0} for g in GROUPS],
        registration_deadline=NOW + timedelta(days=1),
        first_round_at=NOW + timedelta(days=2),
    )
    await ts.add_table_group(db, row.id, organiser, -500 - row.id, "桌1")
    pairs = len(players) // 2
    for k in range(pairs):
        group = GROUPS[0] if k < pairs // 2 else GROUPS[1]
        inv = await ts.create_invite(db, row.id, players[2 * k], group, NOW)
        await ts.accept_invite(db, inv.token, players[2 * k + 1], NOW)
    await ts.freeze(db, row.id, bytes(range(32)))
    await ts.hold_draw(db, row.id)
    strength = {str(e.id): min(int(p) for p in e.players_json) for e in await ts.entries(db, row.id)}
    for _ in range(rounds):
        eng = await ts.engine_state(db, row.id)
        for key in eng.ready_matches():
            m = await ts.get_match(db, row.id, key)
            a_wins = strength[m.side_a or ""] < strength[m.side_b or ""]
            await ts.record_result(db, row.id, key, pair_result("a" if a_wins else "b", 14, 9), None)
    return row.id


async def engines(db: Database, tids: Sequence[int]) -> list[tuple[Engine, Mapping[str, Sequence[str]]]]:
    """The season table's input read the plain way (engine state and entries of each tournament)."""
    out: list[tuple[Engine, Mapping[str, Sequence[str]]]] = []
    for tid in tids:
        entries = await ts.entries(db, tid, include_withdrawn=True)
        out.append(
            (await ts.engine_state(db, tid), {str(e.id): [str(p) for p in e.players_json] for e in entries})
        )
    return out

"""Duplicate deals at the tables of a team match (``duplicate = true``; the rules: engine/tournament/duplicate.py,
the organiser's view: docs/organiser-guide.md, "Duplicate deals").

* **Opening.** Table *k* gets the option ``board_turn`` (0 for odd tables, 1 for even ones); the even table
  commits to its partner's server seed (``storage.tournaments.duplicate``).
* **Starting.** The two tables of a comparison start together, once both are complete (or a referee
  forces them, or the partner table was forfeited), both with the comparison seed; a table whose partner
  started before a restart takes the partner's seed.
* **Lockstep.** A table deals board *d* + 1 only when its partner has finished board *d* (or its match is
  over, or it was never played): ``may_deal`` is the play side's deal gate, asked before every
  ``sys next_deal``; a table that waits asks again every ``POLL_SECONDS``.  So no table ever shows a card of a
  board its partner has not dealt, and the two tables play each board at the same time.
* **Result.** When every table is in, the boards are compared (``duplicate_result``).
* **Reveal.** A duplicate table's deal summaries and final summary do not reveal its seeds (the partner
  table may still be playing that deal); once every table of the match is over, ``reveal`` posts in each
  table's group its server seed and every deal's seed and salt, with the ``bot.verify_deal`` command.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from bot.presentation.tournament.texts import tt
from bot.tournaments.context import TournamentContext
from engine.errors import RuleError
from engine.fairness import deal_salt, deal_seed
from engine.game import Match
from engine.registry import load_preset
from engine.tournament.duplicate import compare, duplicate_result, partner_table, table_turn
from engine.tournament.results import PairingResult, TableResult
from storage import table_repo
from storage import tournaments as ts
from storage.models import GameTable
from storage.tournament_models import Tournament, TournamentMatch
from storage.tournaments import duplicate as store

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0


def is_duplicate(row: Tournament) -> bool:
    return bool((row.settings_json or {}).get("duplicate"))


def table_options(row: Tournament, options: Mapping[str, Any], table_no: int) -> dict[str, Any]:
    """The option values of table ``table_no`` of a match (its ``board_turn`` when duplicate)."""
    out = dict(options)
    if is_duplicate(row):
        out["board_turn"] = table_turn(table_no)
    return out


def parse_ref(ref: str | None) -> tuple[int, str, int] | None:
    """``t<tournament>:<match>:<table no>`` -> its parts (None: not a tournament table)."""
    if not ref or not ref.startswith("t") or ref.count(":") != 2:
        return None
    head, key, k = ref.split(":")
    if not head[1:].isdigit() or not k.isdigit():
        return None
    return int(head[1:]), key, int(k)


def _table_id(m: TournamentMatch, k: int) -> int | None:
    if k < 1 or k > len(m.game_tables) or m.game_tables[k - 1] is None:
        return None
    return int(m.game_tables[k - 1])


class Duplicate:
    def __init__(self, ctx: TournamentContext) -> None:
        self.ctx = ctx

    async def on_opened(self, row: Tournament, ids: Sequence[int | None]) -> None:
        """The match's tables exist: each even table commits to its odd partner's server seed."""
        if not is_duplicate(row):
            return
        for k in range(2, len(ids) + 1, 2):
            odd, even = ids[k - 2], ids[k - 1]
            if odd is not None and even is not None:
                await store.share_server_seed(self.ctx.db, int(even), int(odd))

    async def start_seed(
        self, row: Tournament, m: TournamentMatch, k: int, ready: Mapping[int, bool]
    ) -> tuple[bool, int | None]:
        """(hold, seed) for starting table ``k``: hold while its partner table is open and not ready;
        else the seed to start with (None: the table's own, when it plays no comparison)."""
        if not is_duplicate(row):
            return False, None
        p = partner_table(k)
        partner = _table_id(m, p)
        own = _table_id(m, k)
        if partner is None or own is None or str(p) in m.table_results:
            return False, None
        table = await table_repo.get_table(self.ctx.db, partner)
        if table is None or table.status == "aborted":
            return False, None
        if table.status == "open":
            if not ready.get(p, False):
                return True, None
            pair = (own, partner) if k % 2 else (partner, own)
            return False, await store.comparison_seed(self.ctx.db, pair)
        return False, await store.started_seed(self.ctx.db, partner)

    async def may_deal(self, match_id: int, m: Match, table: GameTable | None) -> bool:
        """The deal gate: may this table deal its next board now?  (Any table not of a duplicate match: yes.)"""
        if table is None:
            return True
        turn = (table.options_json or {}).get("board_turn")
        if turn is None or int(turn) < 0:
            return True
        parts = parse_ref(table.tournament_ref)
        if parts is None:
            return True
        tid, key, k = parts
        try:
            tm = await ts.get_match(self.ctx.db, tid, key)
        except RuleError:
            return True
        partner = _table_id(tm, partner_table(k))
        if partner is None:
            return True
        done = await store.deals_done(self.ctx.db, partner)
        if done is None:
            return True
        status, deals = done
        if status in ("finished", "aborted"):
            return True
        if status == "open":
            return False  # not started yet (both start together; a restart in between)
        return deals >= len(m.history)

    async def result(
        self, row: Tournament, m: TournamentMatch, tables: Sequence[TableResult]
    ) -> PairingResult:
        """The match result of a duplicate team match once every table is in."""
        game = _game_of(row)
        histories: dict[int, list[dict[str, Any]]] = {}
        for k in range(1, len(m.game_tables) + 1):
            table_id = _table_id(m, k)
            tr = next((t for t in tables if t.table == k), None)
            if table_id is None or tr is None or tr.absent is not None:
                continue
            got = await store.history(self.ctx.db, table_id)
            if got is not None:
                histories[k] = got
        return duplicate_result(tables, compare(game, histories, len(m.game_tables)))

    async def reveal(self, row: Tournament, m: TournamentMatch) -> None:
        """Every table of the match is over: each table group gets its seeds (the module docstring)."""
        if not is_duplicate(row):
            return
        game = _game_of(row)
        lang = self.ctx.glang()
        for k in range(1, len(m.game_tables) + 1):
            table_id = _table_id(m, k)
            if table_id is None:
                continue
            table = await table_repo.get_table(self.ctx.db, table_id)
            seed = await store.started_seed(self.ctx.db, table_id)
            if table is None or seed is None:
                continue
            turn = table_turn(k)
            lines = [
                tt(lang, "dup.reveal", key=m.match_key, table=k, server_seed=table.server_seed, turn=turn)
            ]
            for deal_no, redeal_no in await store.played_deals(self.ctx.db, table_id):
                board = deal_seed(game, seed, deal_no, redeal_no)
                salt = deal_salt(seed, deal_no, redeal_no, turn).hex()
                lines.append(tt(lang, "dup.reveal_deal", deal=deal_no, seed=board, salt=salt))
            lines.append(tt(lang, "dup.reveal_check", preset=row.preset_id, turn=turn))
            self.ctx.send(int(table.chat_id), "\n".join(lines))


def _game_of(row: Tournament) -> str:
    return load_preset(row.preset_id).game

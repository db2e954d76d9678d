"""Duplicate deals (``duplicate = true``; the rules: engine/tournament/duplicate.py, the organiser's view:
docs/organiser-guide.md, "Duplicate deals"): the two tables of a comparison are tables 1+2 (3+4 ...) of a
team match, or in a Swiss of pairs the one table each of matches 1+2 (3+4 ...) of a round.

* **Opening.** Table *k* gets the option ``board_turn`` (0 for odd tables, 1 for even ones; pairs: 0 for the
  odd match's table, 1 for the even one's, none for a match without a partner); the table opened second
  commits to its partner's server seed (``storage.tournaments.duplicate``) before its lobby is shown.
* **Starting.** The two tables of a comparison start together, once both are complete (or a referee
  forces them, or the partner table was forfeited), both with the comparison seed; a table whose partner
  started before a restart takes the partner's seed.
* **Lockstep.** A table deals board *d* + 1 only when its partner has finished board *d* (or its match is
  over, or it was never played): ``may_deal`` is the play side's deal gate, asked before every
  ``sys next_deal``; a table that waits asks again every ``POLL_SECONDS``.  So no table ever shows a card of a
  board its partner has not dealt, and the two tables play each board at the same time.
* **Result.** Teams: when every table is in, the boards are compared (``duplicate_result``).  Pairs: a
  match whose table is over waits for its partner's; then both results are made and recorded together
  (``pair_comparison_result``, ``record_comparison``).  A partner decided otherwise (forfeit, referee,
  disqualification) leaves the other match its own table's result, and starts its table if it was held.
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
from engine.tournament.duplicate import (
    Board,
    compare,
    duplicate_result,
    pair_comparison_result,
    partner_table,
    swiss_turn,
    table_turn,
)
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


def is_pairs_duplicate(row: Tournament) -> bool:
    """A Swiss of pairs with duplicate deals (its comparisons are two matches of a round)."""
    return is_duplicate(row) and ts.settings_of(row).pairs_duplicate


def table_options(row: Tournament, options: Mapping[str, Any], turn: int | None) -> dict[str, Any]:
    """The option values of a table of a match (its ``board_turn`` when it plays a comparison)."""
    out = dict(options)
    if turn is not None:
        out["board_turn"] = turn
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

    async def partner_match(self, row: Tournament, m: TournamentMatch) -> TournamentMatch | None:
        """The other match of ``m``'s comparison in a Swiss of pairs (None: teams, or no comparison)."""
        if not is_pairs_duplicate(row):
            return None
        return await store.swiss_partner_match(self.ctx.db, row.id, m.match_key)

    async def turn_of(self, row: Tournament, m: TournamentMatch, k: int) -> int | None:
        """The ``board_turn`` of table ``k`` of ``m`` (None: ordinary deals)."""
        if not is_duplicate(row):
            return None
        if not is_pairs_duplicate(row):
            return table_turn(k)
        return None if await self.partner_match(row, m) is None else swiss_turn(m.match_key)

    async def share_seed(
        self, row: Tournament, m: TournamentMatch, k: int, table_id: int, ids: Sequence[int | None]
    ) -> None:
        """Table ``k`` of ``m`` has just been made (its lobby not shown yet): an even table commits to its odd
        partner's server seed; in a Swiss of pairs the table opened second to the first one's."""
        if not is_duplicate(row):
            return
        source: int | None = None
        if is_pairs_duplicate(row):
            pm = await self.partner_match(row, m)
            source = _table_id(pm, 1) if pm is not None else None
        elif k % 2 == 0 and len(ids) >= k - 1:
            source = ids[k - 2]
        if source is not None:
            await store.share_server_seed(self.ctx.db, table_id, int(source))

    async def start_seed(
        self, row: Tournament, m: TournamentMatch, k: int, ready: Mapping[int, bool], force: bool = False
    ) -> tuple[bool, int | None]:
        """(hold, seed) for starting table ``k``: hold while its partner table is open and not ready (pairs:
        or not opened yet, unless a referee forces this match); else the seed to start with (None: the
        table's own, when it plays no comparison)."""
        if not is_duplicate(row):
            return False, None
        own = _table_id(m, k)
        if is_pairs_duplicate(row):
            pm = await self.partner_match(row, m)
            if pm is None or pm.result_json is not None or own is None:
                return False, None
            partner = _table_id(pm, 1)
            if partner is None:
                return not force, None
            partner_ready = await self._all_checked_in(row.id, pm)
            odd_first = swiss_turn(m.match_key) == 0
        else:
            p = partner_table(k)
            partner = _table_id(m, p)
            if partner is None or own is None or str(p) in m.table_results:
                return False, None
            partner_ready = ready.get(p, False)
            odd_first = k % 2 == 1
        table = await table_repo.get_table(self.ctx.db, partner)
        if table is None or table.status == "aborted":
            return False, None
        if table.status == "open":
            if not partner_ready and not (force and is_pairs_duplicate(row)):
                return True, None
            pair = (own, partner) if odd_first else (partner, own)
            return False, await store.comparison_seed(self.ctx.db, pair)
        return False, await store.started_seed(self.ctx.db, partner)

    async def _all_checked_in(self, tid: int, m: TournamentMatch) -> bool:
        present = await ts.checkins(self.ctx.db, tid, m.match_key)
        return all(u in present for pa, pb in await ts.match_players(self.ctx.db, m) for u in (*pa, *pb))

    async def held_partner(self, row: Tournament, m: TournamentMatch) -> str | None:
        """Pairs: the partner match's key when its table is open (held for this one, which has just started
        or been decided), so the caller tries to start it now."""
        pm = await self.partner_match(row, m)
        if pm is None or pm.result_json is not None:
            return None
        partner = _table_id(pm, 1)
        table = None if partner is None else await table_repo.get_table(self.ctx.db, partner)
        return pm.match_key if table is not None and table.status == "open" else None

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
        if await store.pairs_tournament(self.ctx.db, table.tournament_ref):
            pm = await store.swiss_partner_match(self.ctx.db, tid, key)
            if pm is None:
                return True
            partner = _table_id(pm, 1)
            if partner is None:  # not opened yet: wait for it, unless it was decided without its table
                return pm.result_json is not None
        else:
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

    async def pair_boards(
        self, row: Tournament, m: TournamentMatch, pm: TournamentMatch
    ) -> tuple[Board, ...]:
        """The compared boards of a Swiss pairs comparison (the odd match's table first)."""
        odd, even = (m, pm) if swiss_turn(m.match_key) == 0 else (pm, m)
        histories: dict[int, list[dict[str, Any]]] = {}
        for k, x in ((1, odd), (2, even)):
            table_id = _table_id(x, 1)
            got = None if table_id is None else await store.history(self.ctx.db, table_id)
            if got is not None:
                histories[k] = got
        return compare(_game_of(row), histories, 2)

    @staticmethod
    def pair_results(
        m: TournamentMatch,
        own: PairingResult,
        pm: TournamentMatch,
        other: PairingResult,
        boards: Sequence[Board],
    ) -> list[tuple[str, PairingResult]]:
        """Both matches' results of a comparison, the odd match first."""
        out = [
            (m.match_key, pair_comparison_result(own, boards, pm.match_key)),
            (pm.match_key, pair_comparison_result(other, boards, m.match_key)),
        ]
        return out if swiss_turn(m.match_key) == 0 else out[::-1]

    async def reveal(self, row: Tournament, m: TournamentMatch) -> None:
        """Every table of the comparison is over: each duplicate table of ``m`` gets its seeds in its group
        (the module docstring); a table still in play, or one that plays ordinary deals, is left out."""
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
            if table is None or seed is None or table.status in ("open", "playing", "paused"):
                continue
            turn_value = (table.options_json or {}).get("board_turn")
            if turn_value is None or int(turn_value) < 0:
                continue
            turn = int(turn_value)
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

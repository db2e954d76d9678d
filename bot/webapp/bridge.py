"""What the table page needs from the running bot, in one place: names, languages, seats, and
applying an action the way a button press does (``storage.action_repo.apply_action`` with the page's
version and a dedupe key, under the runtime's per-match lock; then the runtime's usual after-step:
announcements, the move clock, the chat messages, the computer players' turn)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from sqlalchemy import select

from bot.presentation.i18n import normalize, t
from bot.webapp import frames
from bot.webapp.frames import Frame
from scheduler.deadlines import DeadlineData
from storage import action_repo, match_repo, table_repo
from storage import tournaments as ts
from storage.action_repo import ApplyResult
from storage.db import Database
from storage.models import GameTable
from storage.tournaments import duplicate as duplicate_store
from storage.tournaments import roles as tournament_roles

REFEREE_ROLES = ("referee", "chief_referee", "organiser")


@dataclass(frozen=True)
class PagePolicy:
    """What a match's page allows: hints of the cards that may be played (always at a casual table, the
    organiser's ``page_hints`` at a tournament table) and who may watch (``page_watch``: anyone |
    participants | referees; a casual table: anyone)."""

    tournament: int | None = None
    hints: bool = True
    watch: str = "anyone"


CASUAL = PagePolicy()


class SeatNames(Protocol):
    """The names at a table (``bot.tables.names.TableNames``)."""

    async def player_names(self, table_id: int, lang: str) -> list[str]: ...

    async def table_names(self, table_id: int) -> tuple[list[str | None], list[bool], list[int | None]]:
        """(stored names, which seats a computer plays, user ids) of a table's four seats."""


class Steps(Protocol):
    """What the page asks of the driver (``bot.tables.driver.Driver``)."""

    async def user_match(self, user_id: int) -> tuple[int, int] | None:
        """The (match, seat) the user plays in now."""

    async def after(
        self, match_id: int, applied: ApplyResult, *, source: str, seat: int | None = None
    ) -> None:
        """What follows a committed action (announcements, the clock, the messages, the next step)."""


class PendingDeadlines(Protocol):
    """The deadline rows (``scheduler.deadlines.DeadlineScheduler``)."""

    async def pending(
        self, db: Database, kind: str | None = None, ref: str | None = None
    ) -> list[DeadlineData]: ...


class PlayingBot(Protocol):
    """The running bot as the page reaches it (``bot.boot.runtime.Runtime``)."""

    @property
    def db(self) -> Database: ...

    @property
    def names(self) -> SeatNames: ...

    @property
    def driver(self) -> Steps: ...

    @property
    def scheduler(self) -> PendingDeadlines | None: ...

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str: ...

    def lock(self, match_id: int) -> asyncio.Lock:
        """The lock that serialises everything done to one match."""


class RuntimeBridge:
    """The page's view of ``bot.boot.runtime.Runtime``."""

    def __init__(self, runtime: PlayingBot) -> None:
        self.rt = runtime

    @property
    def db(self) -> Database:
        return self.rt.db

    async def user_lang(self, user_id: int, tg_code: str | None) -> str:
        return normalize(await self.rt.user_lang(user_id, tg_code))

    async def names(self, table_id: int, lang: str) -> tuple[list[str], list[bool]]:
        names = await self.rt.names.player_names(table_id, lang)
        _, computers, _ = await self.rt.names.table_names(table_id)
        return list(names), list(computers)

    async def user_match(self, user_id: int) -> int | None:
        found = await self.rt.driver.user_match(user_id)
        return None if found is None else int(found[0])

    async def submit(
        self,
        match_id: int,
        seat: int,
        action: str,
        *,
        expected_version: int,
        user_id: int,
        dedupe_key: str,
        on_committed: Callable[[ApplyResult], Awaitable[None]] | None = None,
    ) -> ApplyResult:
        """Apply ``action`` for ``seat`` if the match is still at ``expected_version``.

        Returns the ``ApplyResult`` (``duplicate`` when this dedupe key was applied before);
        raises ``RuleError`` (the engine's reason, ``match_finished``...) or ``StaleVersion``.
        ``on_committed(applied)`` runs once the action is committed, before the after-step (the page's
        answer need not wait for the chat messages)."""
        async with self.rt.lock(match_id):  # apply_action refuses a missing or finished match itself
            applied = await action_repo.apply_action(
                self.db,
                match_id,
                action,
                expected_version=expected_version,
                actor_user_id=user_id,
                dedupe_key=dedupe_key,
            )
            if on_committed is not None:
                await on_committed(applied)
            if not applied.duplicate:
                await self.rt.driver.after(match_id, applied, source="player", seat=seat)
            return applied

    async def deadline(self, match_id: int, kind: str) -> datetime | None:
        """When the match's pending ``kind`` deadline is due: ``bid_window`` (the bidding window) or
        ``match_time`` (the timed presets' match clock); None when none is pending."""
        scheduler = self.rt.scheduler
        if scheduler is None:
            return None
        ref = f"match:{match_id}:{'window' if kind == 'bid_window' else 'time'}"
        found = await scheduler.pending(self.db, kind, ref)
        if not found:
            return None
        due: datetime = found[0].due_at
        return due if due.tzinfo is not None else due.replace(tzinfo=UTC)

    async def tournament_of(self, match_id: int) -> int | None:
        """The tournament a match belongs to (its table's ``tournament_ref`` is ``t<id>:<match>:<table>``)."""
        row = await match_repo.get_match_row(self.db, match_id)
        table = None if row is None else await table_repo.get_table(self.db, row.table_id)
        ref = getattr(table, "tournament_ref", None) or ""
        head = ref.split(":", 1)[0]
        return int(head[1:]) if head.startswith("t") and head[1:].isdigit() else None

    async def is_referee(self, match_id: int, user_id: int) -> bool:
        """Whether ``user_id`` referees (or organises) the tournament of ``match_id``."""
        tid = await self.tournament_of(match_id)
        if tid is None:
            return False
        roles = await tournament_roles.role_members(self.db, tid)
        return any(r.user_id == user_id and r.role in REFEREE_ROLES for r in roles)

    async def tournament_tables(self, match_id: int) -> list[Frame]:
        """The running matches of the tournament of ``match_id`` (public: levels, deal, the match clock's
        end in epoch ms), for a spectator's or a referee's table list; [] outside a tournament."""
        tid = await self.tournament_of(match_id)
        if tid is None:
            return []
        async with self.db.session() as s:
            tables = (
                (
                    await s.execute(
                        select(GameTable)
                        .where(
                            GameTable.tournament_ref.like(f"t{tid}:%"),
                            GameTable.status.in_(("playing", "paused")),
                        )
                        .order_by(GameTable.id)
                    )
                )
                .scalars()
                .all()
            )
        out: list[Frame] = []
        for table in tables:
            row = await match_repo.current_match(self.db, table.id)
            if row is None or row.status not in ("playing", "paused"):
                continue
            _, m = await match_repo.load_match_row(self.db, row.id)
            p = frames.public_part(row.game, m)  # (Guandan's view has a "table" too: the play to beat)
            levels = p.get("level_texts") or [str(x) for x in p.get("levels") or []]
            due = await self.deadline(row.id, "match_time")
            out.append(
                {
                    "match": row.id,
                    "name": (table.tournament_ref or "").split(":", 1)[-1],
                    "game": row.game,
                    "levels": levels,
                    "deal": p.get("deal") or p.get("deal_no") or 0,
                    "deadline": int(due.timestamp() * 1000) if due is not None else None,
                }
            )
        return out

    async def page_policy(self, match_id: int) -> PagePolicy:
        """The page's policy for ``match_id`` (its tournament's settings; a casual table's defaults)."""
        tid = await self.tournament_of(match_id)
        if tid is None:
            return CASUAL
        settings = ts.settings_of(await ts.get_tournament(self.db, tid))
        return PagePolicy(tournament=tid, hints=settings.page_hints, watch=settings.page_watch)

    async def may_watch(self, match_id: int, user_id: int) -> bool:
        """Whether ``user_id``, not seated at ``match_id``, may watch it on the page (``page_policy``'s
        ``watch``: referees and the organiser always may; participants: anybody entered in the tournament)."""
        row = await match_repo.get_match_row(self.db, match_id)
        if row is not None and await duplicate_store.plays_partner_table(self.db, row.table_id, user_id):
            return False  # duplicate deals: a player of the partner table, which plays the same deals
        policy = await self.page_policy(match_id)
        if policy.watch == "anyone" or policy.tournament is None:
            return True
        if await self.is_referee(match_id, user_id):
            return True
        if policy.watch == "participants":
            return await ts.entry_of_user(self.db, policy.tournament, user_id) is not None
        return False

    def stale_text(self, lang: str) -> str:
        return t(lang, "web.stale")

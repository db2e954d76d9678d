"""The live hub: which pages watch which match, and pushing each its own frame on every new version.

``notify(match_id, version)`` (a storage version listener in this process, or a message from another
process through ``bot.webapp.relay``) schedules one push per match; pushes of one match never run
at the same time, and a notification that arrives during a push makes one more push after it (the
latest state wins, nothing is skipped at the end).  A page whose socket fails is dropped quietly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol, TypedDict

from bot.webapp import frames
from bot.webapp.bridge import CASUAL, PagePolicy
from bot.webapp.frames import Frame
from engine.ai.levels import DEFAULT_LEVEL, LEVELS
from storage import match_repo
from storage.action_repo import ApplyResult
from storage.db import Database
from storage.match_cache import MatchRow

log = logging.getLogger(__name__)
POLICY_SECONDS = 30.0  # a match's page policy is read again after this long (docs/webapp.md)


Send = Callable[[Frame], Awaitable[None]]  # a page's socket: one JSON frame out


class PageBridge(Protocol):
    """What the page's hub and server need of the running bot (``bot.webapp.bridge.RuntimeBridge``).  The
    optional parts a test's stand-in bridge may lack (``page_policy``, ``deadline``, ``may_watch``,
    ``is_referee``, ``tournament_tables``) are looked up by name."""

    @property
    def db(self) -> Database: ...

    async def user_lang(self, user_id: int, tg_code: str | None) -> str: ...

    async def names(self, table_id: int, lang: str) -> tuple[list[str], list[bool]]:
        """The names at a table and which seats a computer plays."""

    async def user_match(self, user_id: int) -> int | None:
        """The match the user plays now, if any."""

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
        """Apply a seat's action as a button press does."""


class Snapshot(TypedDict, total=False):
    """A match read at one version for its viewers (``Hub.snapshot``); a push shares one among them."""

    row: MatchRow
    public: Frame
    seats: dict[int, Frame]
    since: datetime | None
    hints: bool
    tournament: int | None
    deadlines: dict[str, datetime]


@dataclass(eq=False)
class Viewer:
    """One connected page: who (user id, seat or None), in which language, and how to send to it."""

    user_id: int
    match_id: int
    seat: int | None
    lang: str
    send: Send
    sent: tuple[int, str] | None = None  # (version, status) of the last state frame sent
    referee: bool = False  # a referee of the match's tournament: the frame tells which seats are connected


class Hub:
    def __init__(self, bridge: PageBridge) -> None:
        self.bridge = bridge
        self.viewers: dict[int, set[Viewer]] = {}
        self._dirty: set[int] = set()
        self._running: dict[int, asyncio.Task[None]] = {}
        self.pushes = 0
        self._names: dict[tuple[int, str], tuple[list[str], list[bool]]] = {}
        self._committed: dict[
            int, tuple[int, datetime]
        ] = {}  # watched match -> (version, when committed here)
        self._match_clock: dict[int, datetime | None] = {}  # watched match -> when its match clock runs out
        # watched match -> its page policy (hints, who may watch) and when it was read (kept POLICY_SECONDS)
        self._policy: dict[int, tuple[PagePolicy, float]] = {}
        self.on_local_version: list[Callable[[int, int], None]] = []  # the relay publishes through this
        # called with (match_id, user_id, seat) when a seat's last page on this process closes
        self.on_seat_closed: list[Callable[[int, int, int], None]] = []

    # --- viewers ---------------------------------------------------------------------------

    def add(self, viewer: Viewer) -> None:
        self.viewers.setdefault(viewer.match_id, set()).add(viewer)

    def remove(self, viewer: Viewer) -> None:
        group = self.viewers.get(viewer.match_id)
        if group is None or viewer not in group:
            return
        group.discard(viewer)
        if not group:
            self.viewers.pop(viewer.match_id, None)
            self._committed.pop(viewer.match_id, None)
            self._match_clock.pop(viewer.match_id, None)
            self._policy.pop(viewer.match_id, None)
        if viewer.seat is not None and not self.watching(viewer.match_id, viewer.user_id):
            for hook in list(self.on_seat_closed):
                try:
                    hook(viewer.match_id, viewer.user_id, viewer.seat)
                except Exception:
                    log.exception("seat-closed hook failed")

    def watching(self, match_id: int, user_id: int) -> bool:
        """Whether ``user_id`` has the page of ``match_id`` open on this process (as a seated player)."""
        return any(v.user_id == user_id and v.seat is not None for v in self.viewers.get(match_id, ()))

    def count(self) -> int:
        return sum(len(v) for v in self.viewers.values())

    # --- notifications ---------------------------------------------------------------------

    def local_version(self, match_id: int, version: int) -> None:
        """A version committed in this process (storage's version listener): its time is kept for the
        move clock of the frames (no database read per push)."""
        if match_id in self.viewers:
            self._committed[match_id] = (version, datetime.now(UTC))
        for hook in list(self.on_local_version):
            try:
                hook(match_id, version)
            except Exception:
                log.exception("relay hook failed")
        self.notify(match_id, version)

    def notify(self, match_id: int, version: int | None = None) -> None:
        """Match ``match_id`` has a new version: push it to its viewers (soon, once)."""
        if match_id not in self.viewers:
            return
        self._dirty.add(match_id)
        if match_id not in self._running:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            task = loop.create_task(self._drain(match_id))
            self._running[match_id] = task

    async def _drain(self, match_id: int) -> None:
        try:
            while match_id in self._dirty:
                self._dirty.discard(match_id)
                try:
                    await self.push(match_id)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("push failed for match %s", match_id)
        finally:
            self._running.pop(match_id, None)

    async def close(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    # --- frames ----------------------------------------------------------------------------

    async def committed_at(self, match_id: int, version: int) -> datetime | None:
        """When ``version`` was committed (the move clock of that version started then)."""
        if version <= 0:
            return None
        known = self._committed.get(match_id)
        if known is not None and known[0] == version:
            return known[1]
        return await match_repo.action_committed_at(self.bridge.db, match_id, version)

    async def policy(self, match_id: int) -> PagePolicy:
        """The match's page policy (a tournament table's read again after POLICY_SECONDS, so an organiser's
        change through ``/page_settings`` reaches the open pages; a stand-in bridge without one: casual)."""
        kept = self._policy.get(match_id)
        if kept is not None and (kept[0].tournament is None or time.monotonic() - kept[1] < POLICY_SECONDS):
            return kept[0]  # a casual table's policy never changes: read once
        read = getattr(self.bridge, "page_policy", None)
        known = CASUAL if read is None else await read(match_id)
        if match_id in self.viewers:
            self._policy[match_id] = (known, time.monotonic())
        return known

    async def snapshot(self, match_id: int, seats: tuple[int, ...] = (0, 1, 2, 3)) -> Snapshot:
        """The match's row, public part and ``seats``' parts (all four for a push), all of one version.

        Taken under the storage's match lock: the cached engine state is the live object that
        ``apply_action`` changes in place, so it is read only while no action is being applied.  A sole writer
        of the database answers from the row and state it committed last (``match_state``: no session, no
        statement per push); with other processes writing too, the row is read."""
        db = self.bridge.db
        policy = await self.policy(match_id)
        async with db.match_lock(match_id):
            row, m = await match_repo.match_state(db, match_id)
            public = frames.public_part(row.game, m)
            parts = {seat: frames.seat_part(row.game, m, seat, hints=policy.hints) for seat in seats}
            since = await self.committed_at(match_id, row.version)
        return {
            "row": row,
            "public": public,
            "seats": parts,
            "since": since,
            "hints": policy.hints,
            "tournament": policy.tournament,
            "deadlines": await self.deadlines(match_id, row, public),
        }

    async def deadlines(self, match_id: int, row: MatchRow, public: Frame) -> dict[str, datetime]:
        """The bidding window's end (read while a window is open) and the match clock's (read once per
        watched match: it does not move) of a running match."""
        read = getattr(self.bridge, "deadline", None)
        out: dict[str, datetime] = {}
        if read is None or row.status != "playing":
            return out
        if match_id not in self._match_clock and (row.options_json or {}).get("time_limit_minutes"):
            self._match_clock[match_id] = await read(match_id, "match_time")
        match_clock = self._match_clock.get(match_id)
        if match_clock is not None:
            out["match"] = match_clock
        turns = public.get("turns") or []
        if turns and all(t.get("required") is False for t in turns):
            window = await read(match_id, "bid_window")
            if window is not None:
                out["window"] = window
        return out

    def connected(self, match_id: int) -> list[bool]:
        """Which seats have a page open on this process (what a referee sees)."""
        seats = {v.seat for v in self.viewers.get(match_id, ()) if v.seat is not None}
        return [s in seats for s in range(4)]

    async def frame_for(
        self,
        match_id: int,
        seat: int | None,
        lang: str,
        context: Snapshot | None = None,
        *,
        referee: bool = False,
    ) -> Frame:
        """The current frame of a match for one viewer (``context`` caches what viewers share)."""
        ctx: Snapshot = context if context is not None else {}
        if "row" not in ctx:  # a shared context (a push) holds every seat; a single viewer's only its own
            own = () if seat is None else (seat,)
            ctx.update(
                await self.snapshot(match_id) if context is not None else await self.snapshot(match_id, own)
            )
        row = ctx["row"]
        key = (row.table_id, lang)
        if key not in self._names:  # seats do not change once a match is under way
            self._names[key] = await self.bridge.names(row.table_id, lang)
        names, computers = self._names[key]
        frame = frames.state_frame(
            game=row.game,
            match_id=match_id,
            version=row.version,
            status=row.status,
            public=ctx["public"],
            me=ctx["seats"].get(seat) if seat is not None else None,
            seat=seat,
            names=names,
            computers=computers,
            options=dict(row.options_json or {}),
            since=ctx["since"],
            now=datetime.now(UTC),
            deadlines=ctx.get("deadlines"),
        )
        frame["hints"] = bool(ctx.get("hints", True))
        if any(computers):  # the computer players' level (a tournament's stand-in plays strong)
            ai = "strong" if ctx.get("tournament") is not None else (row.options_json or {}).get("ai")
            frame["ai"] = ai if ai in LEVELS else DEFAULT_LEVEL
        if referee:
            frame["connected"] = self.connected(match_id)
        return frame

    async def push(self, match_id: int) -> None:
        viewers = list(self.viewers.get(match_id, ()))
        if not viewers:
            return
        context: Snapshot = {}
        for viewer in viewers:
            frame = await self.frame_for(match_id, viewer.seat, viewer.lang, context, referee=viewer.referee)
            await self.send(viewer, frame)
        self.pushes += 1

    async def send(self, viewer: Viewer, frame: Frame, *, again: bool = False) -> None:
        """Send ``frame`` to one page; a page never goes back, and gets a version once.

        A state frame older than the last one this page was sent is not sent: a frame read outside the match's
        pushes (a page's first frame at hello, the frame after a stale request) may reach here after a push sent
        a newer version to the same page.  One at the version and status the page was sent last is not sent
        either, unless ``again`` (the answer to a stale request: the page asked for it) or the page is a
        referee's (its frame also tells which seats are connected, which changes without a version)."""
        if frame.get("type") == "state" and viewer.sent is not None:
            version = int(frame["version"])
            if version < viewer.sent[0]:
                log.debug(
                    "match %s: version %s not sent to a page already at %s",
                    viewer.match_id,
                    version,
                    viewer.sent[0],
                )
                return
            if (version, str(frame["status"])) == viewer.sent and not (again or viewer.referee):
                return
        try:
            await viewer.send(frame)
        except Exception as exc:  # a closed or broken socket: that page reconnects by itself
            log.info("dropping a page of match %s: %s", viewer.match_id, exc)
            self.remove(viewer)
            return
        if frame.get("type") == "state":
            viewer.sent = (int(frame["version"]), str(frame["status"]))

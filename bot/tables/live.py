"""What a live match shows: the group's table message, each seat's private hand message, the group
announcements of events, and what happens when Telegram refuses or loses one of those messages.

Built from the engine's views through ``bot.presentation.render``; sent through the outbox, which nobody awaits.

A message is edited only when its reader needs something new (Telegram's budget: about one call
per card played, see docs/bot.md "Message budget"):

* a hand message when its owner must act (it then shows the current trick, the hand and the
  clock), when the deal's stage changes for everybody (cards dealt, a declaration, the kitty, the
  tribute), and when its owner taps a card (after a short delay, withdrawn when the play follows);
  the player who just played is answered on the button (their message is brought up to date at
  their next turn, and a button for a card already played is refused with a clear answer);
* the group's table message when a trick is completed (with its points and whose turn it is) and
  when the stage changes; clock auto-plays are folded into it instead of notes of their own.  In Mini
  App mode (every person seated has the table page open, ``links.page_open``) the players follow the
  play on the page: a completed trick then reaches the group's message at most once per
  ``WEBAPP_TABLE_EDIT_SECONDS`` (rendered again when that time is up) and only once
  ``MINI_APP_EDIT_CARDS`` cards have been played since its last edit; a deal's stage shows at once.

An edit already queued for a message is always brought up to date (that costs no call).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.presentation import render
from bot.presentation.games import presenter
from bot.presentation.games.base import stage_key
from bot.presentation.i18n import t
from bot.presentation.keyboards import resume_keyboard
from bot.tables.deal_proof import board_turn, reveal_line, table_lines
from bot.tables.names import table_title
from bot.tables.ports import LiveShared, LobbyLost, Markup, MessageKey, MoveClocks, Names, Pages, Stored
from bot.tables.seats import SeatInfo, match_context
from bot.webapp import links
from engine.cards import parse_cards
from engine.events import Event
from engine.game import Match
from engine.views import PublicView, SeatView
from storage import match_repo, message_repo, selection_repo, table_repo, user_repo
from storage.action_repo import ApplyResult
from storage.match_cache import MatchRow
from storage.models import GameTable, MatchRecord

log = logging.getLogger(__name__)

# Mini App mode: a completed trick reaches the group's table message only when this many cards have been
# played since its last edit (and WEBAPP_TABLE_EDIT_SECONDS have passed): the budget is per card played
MINI_APP_EDIT_CARDS = 10


def cards_in_hands(m: Match) -> int:
    """Cards still in the four hands (the cards played of a deal are the difference)."""
    return sum(len(m.hand(seat)) for seat in range(4))


def group_stage(game: str, public: PublicView) -> str:
    """What the group's table message must follow: the deal's stage and the completed tricks (not the plays
    inside a trick)."""
    shows = presenter(game)
    return stage_key(shows.group_deal_stage(public), *shows.group_tricks(public))


# How long a hand's stage change its owner need not act on may wait for their next turn (Telegram seconds,
# from the newest such change): about the time a dealer takes to bury and three players to play to the
# first trick.
HAND_NEWS_WAIT = 10.0


def bot_plays_last_trick(m: Match) -> bool:
    """Is the deal's last trick to be played, with no choice left for anybody (the driver plays it at once)?
    Then the group's edit for the trick before it waits for the deal's end, which shows both."""
    if m.phase != "play" or m.finished:
        return False
    turns = m.turns()
    return bool(turns) and m.forced_action(turns[0].seat) is not None


@dataclass
class _Notes:
    """Clock auto-plays of a match, shown in the table message through the next completed trick."""

    lines: list[str] = field(default_factory=list)
    shown_at: str | None = None  # the group stage when they were first shown


class Live:
    """Built by the composition root (bot/boot/runtime.py) from narrow ports (bot/tables/ports.py): the
    running bot's shared parts, the names shown at a table, the table pages open now, the move clocks the
    driver runs, and what shows an open table's lobby again when its message was deleted."""

    def __init__(
        self, shared: LiveShared, names: Names, pages: Pages, clocks: MoveClocks, lobby_lost: LobbyLost
    ) -> None:
        self.rt = shared  # (bot/delivery/message_claims.py reads it)
        self.names = names
        self.pages = pages
        self.clocks = clocks
        self.lobby_lost = lobby_lost
        self._group_stage: dict[int, str] = {}
        self._group_deal_stage: dict[int, str] = {}
        self._group_edit_at: dict[
            int, float
        ] = {}  # match -> when its table message was last edited (outbox clock)
        self._group_due: set[int] = (
            set()
        )  # matches whose table message is to be rendered again (Mini App mode)
        self._group_cards: dict[
            int, int
        ] = {}  # match -> cards in the hands when its table message was last edited
        self._hand_stage: dict[tuple[int, int], str] = {}
        self._hand_step: dict[tuple[int, int], str] = {}  # (match, seat) -> hand_step() when last rendered
        self._hand_refs: dict[
            tuple[int, int], tuple[int, int, int]
        ] = {}  # (match, seat) -> (chat, msg, deal)
        # messages being sent -> the newest content rendered meanwhile
        self._creating: dict[MessageKey, tuple[str, Markup | None] | None] = {}
        self._notes: dict[int, _Notes] = {}

    def remembers(self, match_id: int) -> bool:
        return (
            match_id in self._group_stage
            or match_id in self._notes
            or any(
                (match_id, seat) in self._hand_stage or (match_id, seat) in self._hand_refs
                for seat in range(4)
            )
        )

    def forget_match(self, match_id: int) -> None:
        self._group_stage.pop(match_id, None)
        self._group_deal_stage.pop(match_id, None)
        self._group_edit_at.pop(match_id, None)
        self._group_due.discard(match_id)
        self._group_cards.pop(match_id, None)
        self._notes.pop(match_id, None)
        for seat in range(4):
            self._hand_stage.pop((match_id, seat), None)
            self._hand_step.pop((match_id, seat), None)
            self._hand_refs.pop((match_id, seat), None)

    # --- announcements ----------------------------------------------------------------------

    async def announce(
        self,
        match_id: int,
        events: list[Event],
        *,
        source: str,
        seat: int | None = None,
        applied: ApplyResult | None = None,
    ) -> None:
        """``applied``: the ``ApplyResult`` these events come from (its committed state, nothing read again)."""
        rt = self.rt
        interesting = [e for e in events if e.kind in render.ANNOUNCED]
        if not interesting:
            return
        table: GameTable | None
        if applied is not None and applied.row is not None and applied.table is not None:
            row, table = applied.row, applied.table
        else:
            found = await match_repo.match_row(rt.db, match_id)
            if found is None:
                return
            row, table = found, await table_repo.get_table(rt.db, found.table_id)
        if table is None:
            return
        lang = await rt.chat_lang(table.chat_id)
        names = await self.names.player_names(row.table_id, lang)
        summary: str | None = (
            None  # a deal's summary waits for the match's result, if that follows: one message
        )
        for ev in interesting:
            try:
                text = render.announcement(lang, row.game, ev, names, table.options_json)
                # the deal's seed is revealed with its summary; duplicate deals (a board_turn) are revealed by
                # the tournament side once the partner table has finished too (bot/tournaments/duplicate.py)
                duplicate = board_turn(row.options_json or {}) is not None
                if text and ev.kind == "deal_over" and not duplicate:
                    m = (
                        applied.match
                        if applied is not None
                        else (await match_repo.match_state(rt.db, match_id))[1]
                    )
                    deal = int(ev.data.get("deal", ev.data.get("deal_no", 0)))
                    text += "\n" + reveal_line(lang, row.game, row.seed, deal, m.redeal_no)
                if text and ev.kind == "match_over" and table.server_seed is not None and not duplicate:
                    text += "\n" + t(lang, "sum.server_seed", seed=table.server_seed)
            except Exception:
                log.exception("could not render %s", ev.kind)
                text = None
            if ev.kind == "deal_over" and text and any(e.kind == "match_over" for e in interesting):
                summary = text
                text = None
            elif summary is not None and ev.kind == "match_over":
                text = summary + "\n\n" + text if text else summary
                summary = None
            if text:
                rt.messages.send(
                    table.chat_id, text, resume_keyboard(lang, match_id) if ev.kind == "paused" else None
                )
            if ev.kind == "match_over":  # the table was marked finished with the result (storage.action_repo)
                rt.seats.remove(match_id)
                await rt.scheduler.cancel(rt.db, "move_clock", f"match:{match_id}")
                await rt.scheduler.cancel(rt.db, "match_time", f"match:{match_id}:time")
                if rt.match_over_hooks:
                    rt.spawn(self._match_over(match_id, dict(ev.data)))
        if summary is not None:  # never lost, whatever the order of the events
            rt.messages.send(table.chat_id, summary)

    async def _match_over(self, match_id: int, data: dict[str, object]) -> None:
        """Run ``match_over_hooks`` (the tournament side records the result and moves the bracket on)."""
        for hook in list(self.rt.match_over_hooks):
            try:
                await hook(match_id, dict(data))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("match_over hook %r failed for match %s", hook, match_id)

    # --- the table message and the hand messages --------------------------------------------

    def note_autoplay(self, match_id: int, line: str) -> None:
        """A clock auto-play: folded into the table message (shown from its next edit on)."""
        notes = self._notes.setdefault(match_id, _Notes())
        if notes.shown_at is not None:  # the earlier ones have been shown through a trick: start again
            notes.lines, notes.shown_at = [], None
        notes.lines = (notes.lines + [line])[-4:]

    async def render_match(
        self, match_id: int, *, everything: bool = False, applied: ApplyResult | None = None
    ) -> None:
        """Bring the match's messages up to date for the readers who need it (``everything``: all of
        them, e.g. after a restart or a lost message; ``applied``: the ``ApplyResult`` of the action just
        committed under the match's lock, whose state is shown without reading it again)."""
        rt = self.rt
        row, m, table, seats = await match_context(rt.db, rt.seats, match_id, applied)
        if table is None or rt.outbox is None:
            return
        lang = await rt.chat_lang(table.chat_id)
        names = await self.names.player_names(row.table_id, lang)
        shows = presenter(row.game)
        public = shows.with_trick_before_last(m, m.public_view())
        stage = group_stage(row.game, public)
        deal_stage = shows.group_deal_stage(public)
        changed = everything or self._group_stage.get(match_id) != stage
        trick_only = changed and not everything and self._group_deal_stage.get(match_id) == deal_stage
        self._group_deal_stage[match_id] = deal_stage
        mid = table.table_message_id
        pending = mid is not None and rt.outbox.has_pending_edit(table.chat_id, mid)
        if trick_only and mid is not None and not pending and self.mini_app_mode(match_id, seats):
            last = self._group_edit_at.get(match_id)
            wait = (
                last + float(rt.settings.WEBAPP_TABLE_EDIT_SECONDS) - rt.outbox.clock()
                if last is not None
                else 0.0
            )
            before = self._group_cards.get(match_id)
            played = MINI_APP_EDIT_CARDS if before is None else before - cards_in_hands(m)
            if (
                wait > 0
            ):  # Mini App mode: a completed trick waits (the stage is kept, so it is still news then)
                self._edit_later(match_id, wait)
                changed = False
            elif (
                played < MINI_APP_EDIT_CARDS
            ):  # too few cards since the last edit: the next trick looks again
                changed = False
        # the bot plays the deal's last trick at once: the group waits for the deal's end, which shows the last
        # two tricks (an edit already queued keeps what it shows: never the last trick half played)
        waits = trick_only and mid is not None and bot_plays_last_trick(m)
        if waits:
            changed = False
        if changed:
            self._group_stage[match_id] = stage
        if not waits and (changed or mid is None or pending):
            deadline = self.clocks.get(match_id)
            computers = frozenset(s.seat for s in seats if s.is_computer)
            text, markup = render.table_message(
                lang,
                row.game,
                public,
                names,
                deadline,
                rt.bot_username,
                table_title(lang, table.preset_id),
                clocks=table.options_json,
                computers=computers,
            )
            text = "\n".join(
                [text, *table_lines(lang, row.game, row.seed, m, table)]
            )  # the deal's commitment
            text = self._with_notes(match_id, stage, lang, text)
            markup = links.with_table_button(
                markup, rt.settings, rt.bot_username, match_id, lang
            )  # the table page
            if mid is not None:
                rt.outbox.edit(table.chat_id, mid, text, markup, version=row.version)
                if changed:
                    self._group_edit_at[match_id] = rt.outbox.clock()
                    self._group_cards[match_id] = cards_in_hands(m)
            else:
                self.create(("table", table.id), table.chat_id, text, markup, self.table_created(table.id))
        # Mini App mode: a seat whose page is open needs nothing here (``render_hand`` says why)
        in_chat = [
            (s, s.user_id)
            for s in seats
            if s.user_id is not None and not self.pages.page_open(match_id, s.user_id)
        ]
        users = await user_repo.get_users(rt.db, [uid for _, uid in in_chat])
        for s, uid in in_chat:
            u = users.get(uid)
            if u is not None and u.blocked_bot:
                continue  # the table was told; their hand comes back when they /start again
            view = m.seat_view(s.seat)
            hstage = shows.hand_stage(view)
            key = (match_id, s.seat)
            acts = shows.must_act(view) and m.forced_action(s.seat) is None
            news = self._hand_stage.get(key) != hstage
            need = everything or acts or news
            delay: float | None = 0.0 if need else None  # None: an edit queued keeps its wait
            if news and not everything and shows.hand_news_waits(self._hand_step.get(key), view):
                delay = HAND_NEWS_WAIT / max(float(rt.settings.TELEGRAM_RATE_SCALE or 1.0), 1e-6)
            self._hand_stage[key] = hstage
            self._hand_step[key] = shows.hand_step(view)
            await self.render_hand(
                row, m, s.seat, uid, names, lang, view=view, only_if_queued=not need, delay=delay, urgent=acts
            )

    def _edit_later(self, match_id: int, wait: float) -> None:
        """Render the match again in ``wait`` seconds (once, however many tricks end meanwhile)."""
        if match_id in self._group_due:
            return
        self._group_due.add(match_id)

        async def due() -> None:
            async with self.rt.lock(match_id):
                await self.render_match(match_id)

        def fire() -> None:
            if match_id in self._group_due and not self.rt.stopping:  # not forgotten (the match is over)
                self._group_due.discard(match_id)
                self.rt.spawn(due())

        asyncio.get_running_loop().call_later(wait, fire)

    def edit_due(self, match_id: int) -> bool:
        """A held-back render of the group's table message is waiting for its time (Mini App mode)."""
        return match_id in self._group_due

    def mini_app_mode(self, match_id: int, seats: Sequence[SeatInfo]) -> bool:
        """Every person seated (computers aside) has the table page open."""
        people = [s.user_id for s in seats if s.user_id is not None and not s.is_computer]
        return bool(people) and all(self.pages.page_open(match_id, uid) for uid in people)

    def _with_notes(self, match_id: int, stage: str, lang: str, text: str) -> str:
        notes = self._notes.get(match_id)
        if notes is None or not notes.lines:
            return text
        if notes.shown_at is None:
            notes.shown_at = stage
        elif notes.shown_at != stage:  # shown through a completed trick: gone
            del self._notes[match_id]
            return text
        return text + "\n" + t(lang, "note.autoplayed", list="; ".join(notes.lines))

    async def render_hand(
        self,
        row: MatchRow | MatchRecord,
        m: Match,
        seat: int,
        user_id: int,
        names: list[str] | None = None,
        names_lang: str | None = None,
        *,
        view: SeatView | None = None,
        only_if_queued: bool = False,
        delay: float | None = 0.0,
        selection: list[int] | None = None,
        urgent: bool = False,
        asked: bool = False,
    ) -> None:
        """Show ``seat`` its hand (a new message for a new deal).  ``only_if_queued``: only bring an
        edit already queued up to date; ``delay``: the edit waits that long (a card tap; None: an edit
        already queued keeps its wait); ``urgent``: it tells its owner to act (it goes before other calls
        in the token's pacing).

        While the seat's table page is open (Mini App mode, ``links.page_open``) the hand message costs
        nothing: it is neither edited nor sent for a new deal (the page shows the hand); the page's
        closing brings it up to date, as a new message when a deal began meanwhile
        (``bot.webapp.catch_up``).  A tap on the message itself (``selection``) and ``asked`` (/start)
        are answered all the same."""
        rt = self.rt
        assert rt.outbox is not None
        view = view if view is not None else m.seat_view(seat)
        deal = render.deal_marker(row.game, view)
        if deal == 0:
            return  # nothing dealt yet (Guandan before deal 1): the hand message comes with the deal
        if selection is None and not asked and self.pages.page_open(row.id, user_id):
            return  # the table page shows this hand; the message catches up when the page closes
        ref = await self._hand_ref(row.id, seat)
        if ref is not None and ref[2] != deal and rt.claims is not None:  # another process may have sent it
            self._hand_refs.pop((row.id, seat), None)
            ref = await self._hand_ref(row.id, seat)
        creating = ("hand", row.id, seat, deal)
        if (
            only_if_queued
            and creating not in self._creating
            and (ref is None or ref[2] != deal or not rt.outbox.has_pending_edit(ref[0], ref[1]))
        ):
            return
        if (
            (ref is None or ref[2] != deal)
            and creating not in self._creating
            and not presenter(row.game).shows_a_hand(view)
        ):
            return  # Shengji while dealing: the hand message comes with the seat's first way to declare, or the last card
        lang = await rt.user_lang(user_id)
        if names is None or lang != names_lang:
            names = await self.names.player_names(row.table_id, lang)
        tapped = selection is not None  # a card tap (or a reading to choose) changed the selection
        if selection is None:
            sel_text, sel_deal = await selection_repo.selected(rt.db, row.id, seat)
            selection = parse_cards(sel_text) if sel_text and sel_deal == deal else []
        text, keyboard = render.hand_message(
            lang, row.game, row.id, m, seat, view, selection, names, self.clocks.get(row.id)
        )
        markup = links.with_hand_button(keyboard, rt.settings, row.id, lang)  # opens the table page
        if ref is not None and ref[2] == deal:
            if tapped and rt.claims is not None:  # another process may have shown another selection meanwhile
                rt.outbox.forget(ref[0], ref[1])
            rt.outbox.edit(ref[0], ref[1], text, markup, delay=delay, urgent=urgent, version=row.version)
            return
        self.create(creating, user_id, text, markup, self._hand_created(row.id, seat, user_id, deal))

    def drop_queued_hand(self, match_id: int, seat: int) -> None:
        """The seat just acted: an edit still queued for its hand (a card tap) is no longer needed."""
        ref = self._hand_refs.get((match_id, seat))
        if ref is not None and self.rt.outbox is not None:
            self.rt.outbox.drop_edit(ref[0], ref[1])

    async def _hand_ref(self, match_id: int, seat: int) -> tuple[int, int, int] | None:
        key = (match_id, seat)
        ref = self._hand_refs.get(key)
        if ref is None:
            row = await message_repo.get_hand_message(self.rt.db, match_id, seat)
            if row is not None:
                ref = self._hand_refs[key] = (row.chat_id, row.message_id, int(row.deal_no or 0))
        return ref

    def create(self, key: MessageKey, chat_id: int, text: str, markup: Markup | None, stored: Stored) -> None:
        """Send a new live message without waiting: ``stored(message id)`` records it; content
        rendered meanwhile is kept and edited in once the message exists."""
        rt = self.rt
        assert rt.outbox is not None
        if key in self._creating:
            self._creating[key] = (text, markup)
            return
        self._creating[key] = None
        if rt.claims is not None and key[0] == "hand":  # several processes: one of them sends it
            rt.spawn(rt.claims.create_hand(self, key, chat_id, text, markup, stored))
            return
        future = rt.messages.send(chat_id, text, markup)

        async def finish() -> None:
            mid = None
            try:
                mid = await future
                if mid is not None:
                    await stored(mid)
            except Exception:
                log.exception("could not record the new message %s", key)
            finally:
                newest = self._creating.pop(key, None)
            if isinstance(key, tuple) and key[0] == "hand" and self.pages.page_open(key[1], chat_id):
                newest = None  # Mini App mode: the page shows the hand; the message catches up when it closes
            if mid is not None and newest is not None and rt.outbox is not None:
                rt.outbox.edit(chat_id, mid, *newest)

        rt.spawn(finish())

    def table_created(self, table_id: int) -> Stored:
        async def stored(mid: int) -> None:
            rt = self.rt
            table = await table_repo.get_table(rt.db, table_id)
            if table is not None and rt.outbox is not None:
                await message_repo.set_table_message(
                    rt.db, table_id, table.chat_id, mid, text_hash=rt.outbox.known_hash(table.chat_id, mid)
                )

        return stored

    def _hand_created(self, match_id: int, seat: int, user_id: int, deal: int) -> Stored:
        async def stored(mid: int) -> None:
            rt = self.rt
            assert rt.outbox is not None
            self._hand_refs[(match_id, seat)] = (user_id, mid, deal)
            await message_repo.set_hand_message(
                rt.db,
                match_id,
                seat,
                user_id,
                mid,
                deal_no=deal,
                text_hash=rt.outbox.known_hash(user_id, mid),
            )

        return stored

    async def show_hand(self, match_id: int, seat: int, user_id: int) -> None:
        """After /start: show the user's current hand again (a new message if needed)."""
        async with self.rt.lock(match_id):
            row, m = await match_repo.load_match_row(self.rt.db, match_id)
            await self.render_hand(row, m, seat, user_id, asked=True)

    # --- outbox hooks -----------------------------------------------------------------------

    async def persist_hashes(self) -> None:
        """Store what the outbox says each live message shows (now and then, never between two calls)."""
        if self.rt.db is not None and self.rt.outbox is not None:
            # in one order: two processes storing at once lock the rows alike (no deadlock in PostgreSQL)
            changed = dict(sorted(self.rt.outbox.take_changed_hashes().items()))
            if changed:
                try:
                    await message_repo.set_message_hashes(self.rt.db, changed)
                except Exception:
                    log.exception("could not store %d message hashes", len(changed))

    async def message_gone(self, chat_id: int, message_id: int) -> None:
        """A live message was deleted: forget it and send a new one (in a task: the outbox is waiting)."""
        if self.rt.db is not None:
            self.rt.spawn(self._replace_message(chat_id, message_id))

    async def _replace_message(self, chat_id: int, message_id: int) -> None:
        rt = self.rt
        if rt.db is None:
            return
        ref = await message_repo.find_message_ref(rt.db, chat_id, message_id)
        if ref is None:
            if rt.claims is not None:  # several processes: another one replaced it; forget what pointed to it
                for key, (chat, mid, _deal) in list(self._hand_refs.items()):
                    if (chat, mid) == (chat_id, message_id):
                        del self._hand_refs[key]
            return
        await message_repo.delete_message_ref(rt.db, ref.id)
        if ref.purpose == "table" and ref.table_id is not None:
            await table_repo.set_table_message_id(rt.db, ref.table_id, None)
            table = await table_repo.get_table(rt.db, ref.table_id)
            if table is None:
                return
            if table.status == "open":
                await self.lobby_lost(table.id)
            else:  # the match may have ended meanwhile (computer players are quick): its final state is news too
                row = await match_repo.current_match(rt.db, table.id)
                if row is not None and table.status in ("playing", "paused", "finished"):
                    async with rt.lock(row.id):
                        await self.render_match(row.id, everything=True)
        elif ref.purpose == "hand" and ref.match_id is not None and ref.seat is not None:
            self._hand_refs.pop((ref.match_id, ref.seat), None)
            row = await match_repo.get_match_row(rt.db, ref.match_id)
            if row is not None and row.status == "playing":
                async with rt.lock(row.id):
                    _, m = await match_repo.load_match_row(rt.db, row.id)
                    await self.render_hand(row, m, ref.seat, chat_id)

    async def send_refused(self, chat_id: int, exc: Exception) -> None:
        """A private chat refused a message (blocked, never started): tell that user's table."""
        rt = self.rt
        if chat_id < 0 or rt.db is None:
            return
        before = await user_repo.get_user(rt.db, chat_id)
        if before is not None and before.blocked_bot:
            return  # reported already; nothing is sent to them until they /start again
        await user_repo.set_blocked(rt.db, chat_id, True)
        rt.seen_users.difference_update([k for k in rt.seen_users if k[0] == chat_id])
        for table in await table_repo.active_tables(rt.db):
            for seat in await table_repo.get_seats(rt.db, table.id):
                if seat.user_id == chat_id:
                    user = await user_repo.get_user(rt.db, chat_id)
                    name = user.first_name if user else str(chat_id)
                    lang = await rt.chat_lang(table.chat_id)
                    rt.messages.send(
                        table.chat_id,
                        t(lang, "note.cannot_dm", name=name, seat=render.seat_name(lang, seat.seat)),
                        render.open_chat_button(lang, rt.bot_username, f"t{table.id}"),
                    )

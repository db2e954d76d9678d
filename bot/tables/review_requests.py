"""``/review [deal]`` and ``/replay``: who asked, which deal, who may see it, where the file goes.

* In a private chat: the newest match the user holds a seat at.  In a group: the group's newest match.
* ``/review`` with no number: the last finished deal (a referee: the deal in progress when none is
  finished).  ``/replay``: every deal the asker may see.
* A finished deal goes to a seated player's private chat; once the whole match is over, to the
  group as well; a referee of the tournament gets any deal (also one in progress) in private only.
  Hands never go anywhere else (``bot.tables.review.may_review``); a refusal says why, translated.

The HTML is built off the event loop (``asyncio.to_thread``: the log is replayed) and sent through
the outbox without waiting for it.  A seated player asking for one finished deal in private also gets
the coach's notes on their own plays (``engine.ai.coach``, searched in the worker pool of
``bot.tables.thinking``; a message of its own after the file; never another seat's notes, never a deal in
progress).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from bot.presentation.echo import clip
from bot.presentation.i18n import cards as tcards
from bot.presentation.i18n import t
from bot.tables.deal_proof import board_turn, check_proof, record_proof, review_fairness
from bot.tables.ports import Chat, Markup, Person, Send
from bot.tables.review import DealRecord, deal_records, may_review, parse_deal_arg, review_html
from engine.ai.coach import CoachNote
from engine.registry import load_preset
from storage import match_repo, table_repo, user_repo
from storage.db import Database
from storage.models import GameTable, MatchRecord
from storage.tournaments import duplicate as duplicate_store
from storage.tournaments import roles_of

REFEREE_ROLES = {"referee", "chief_referee", "organiser"}


class Coach(Protocol):
    """The /review coach (bot/tables/thinking.py: searched in a worker process)."""

    async def coach(
        self,
        game: str,
        options_json: Mapping[str, object],
        seed: int,
        actions: list[str],
        deal_no: int,
        seat: int,
    ) -> list[CoachNote] | None: ...


class Documents(Protocol):
    def send_document_nowait(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", markup: Markup | None = None
    ) -> asyncio.Future[int | None]: ...


class ReviewShared(Protocol):
    """What /review and /replay read of the running bot (its ``thinker``, when it has one, coaches)."""

    @property
    def db(self) -> Database: ...

    @property
    def outbox(self) -> Documents | None: ...

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str: ...

    async def chat_lang(self, chat_id: int) -> str: ...

    @property
    def messages(self) -> Send: ...

    def spawn(self, coro: Coroutine[object, object, object]) -> None: ...


@dataclass
class Delivery:
    chat_id: int
    text: str | None = None
    document: tuple[bytes, str, str] | None = None  # (data, filename, caption)


async def is_referee(db: Database, tournament_ref: str | None, user_id: int) -> bool:
    """Whether ``user_id`` referees (or organises) the tournament a table belongs to (``t<id>:...``)."""
    if not tournament_ref or not tournament_ref.startswith("t"):
        return False
    head = tournament_ref[1:].split(":", 1)[0]
    if not head.isdigit():
        return False
    return bool(set(await roles_of(db, int(head), user_id)) & REFEREE_ROLES)


async def _names(db: Database, table_id: int, lang: str) -> list[str]:
    seats = await table_repo.get_seats(db, table_id)
    users = await user_repo.get_users(db, [s.user_id for s in seats if s.user_id is not None])
    out = []
    for s in seats:
        u = users.get(s.user_id) if s.user_id is not None else None
        if u is not None:
            out.append(u.first_name or str(u.id))
        elif s.is_computer:
            out.append(t(lang, "name.computer_n", n=s.seat + 1))
        else:
            out.append("?")
    return out


def _title(lang: str, preset_id: str) -> str:
    try:
        preset = load_preset(preset_id)
    except Exception:
        return preset_id
    return preset.title_zh if lang == "zh" else preset.title_en


async def review_request(
    rt: ReviewShared, user: Person, chat: Chat, args: list[str], *, whole_match: bool
) -> list[Delivery]:
    """What to send for a ``/review`` (``whole_match=False``) or ``/replay`` from ``user`` in ``chat``."""
    db = rt.db
    lang = await rt.user_lang(user.id, user.language_code)
    private = getattr(chat, "type", "") == "private"
    here = chat.id
    row = (
        await match_repo.latest_match_of_user(db, user.id)
        if private
        else await match_repo.latest_match_in_chat(db, chat.id)
    )
    if row is None:
        return [Delivery(here, t(lang, "review.no_match"))]
    asked: int | None = None
    if not whole_match:
        try:
            asked = parse_deal_arg(" ".join(args)[:40] if args else None)
        except ValueError:
            return [Delivery(here, t(lang, "review.bad_deal", arg=clip(" ".join(args))))]
    table = await table_repo.get_table(db, row.table_id)
    if table is None:
        return [Delivery(here, t(lang, "review.no_match"))]
    seats = await table_repo.get_seats(db, table.id)
    seated = any(s.user_id == user.id for s in seats)
    referee = await is_referee(db, table.tournament_ref, user.id)
    match_finished = row.status == "finished"
    actions = [a.action for a in await match_repo.action_log(db, row.id)]
    records: list[DealRecord] = await asyncio.to_thread(
        deal_records, row.game, row.options_json, row.seed, actions
    )
    if not records:
        return [Delivery(here, t(lang, "review.no_deal_yet"))]
    if whole_match:
        chosen = records
    elif asked is None:
        done = [r for r in records if r.finished]
        chosen = done[-1:] if done else (records[-1:] if referee else [])
        if not chosen:
            return [Delivery(here, t(lang, "review.not_finished"))]
    else:
        chosen = [r for r in records if r.deal_no == asked]
        if not chosen:
            return [Delivery(here, t(lang, "review.no_such_deal", deal=asked, n=len(records)))]

    def allowed(rec: DealRecord, in_group: bool) -> bool:
        return may_review(
            seated=seated,
            referee=referee and not in_group,
            deal_finished=rec.finished,
            match_finished=match_finished,
            in_group=in_group,
        )

    to_group = [] if private else [r for r in chosen if allowed(r, True)]
    if to_group and len(to_group) == len(chosen):
        return [await _document(rt, here, await rt.chat_lang(here), table, row, to_group, whole_match)]
    mine = [r for r in chosen if allowed(r, False)]
    if not mine:
        if any(not r.finished for r in chosen) and (seated or not private) and not whole_match:
            key = "review.not_finished"
        elif not seated and not private:
            key = "review.after_match"
        else:
            key = "review.not_seated"
        return [Delivery(here, t(lang, key))]
    out = [await _document(rt, user.id, lang, table, row, mine, whole_match)]
    thinker = getattr(rt, "thinker", None)
    seat = next((s.seat for s in seats if s.user_id == user.id), None)
    if thinker is not None and seat is not None and not whole_match and len(mine) == 1 and mine[0].finished:
        # the coach searches for a while: its notes follow the file, in their own message, to the asker only
        rt.spawn(_send_coach(rt, thinker, user.id, lang, row, actions, mine[0].deal_no, seat))
    if not private:
        out.append(Delivery(here, t(lang, "review.sent_private")))
    return out


async def _document(
    rt: ReviewShared,
    chat_id: int,
    lang: str,
    table: GameTable,
    row: MatchRecord,
    records: list[DealRecord],
    whole_match: bool,
) -> Delivery:
    names = await _names(rt.db, table.id, lang)
    title = _title(lang, table.preset_id)
    turn = board_turn(row.options_json or {})
    # duplicate: the seeds only once the whole comparison is over (the partner table may still play a deal)
    reveal = turn is None or (
        row.status == "finished" and await duplicate_store.comparison_over(rt.db, table.id)
    )
    fairness = {
        r.deal_no: review_fairness(row.game, table.preset_id, row.seed, r, turn, reveal) for r in records
    }
    page = await asyncio.to_thread(
        lambda: review_html(lang, game=row.game, title=title, names=names, records=records, fairness=fairness)
    )
    if whole_match:
        filename = f"match-{row.id}.html"
        caption = t(lang, "review.caption_match", title=title)
    else:
        filename = f"match-{row.id}-deal-{records[0].deal_no}.html"
        caption = t(lang, "review.caption_deal", title=title, deal=records[0].deal_no)
    return Delivery(chat_id, document=(page.encode("utf-8"), filename, caption))


def coach_text(lang: str, deal_no: int, notes: Sequence[CoachNote]) -> str:
    """The coach's notes as one message in ``lang`` (cards in the user's language)."""
    if not notes:
        return t(lang, "review.coach_none", deal=deal_no)

    def shown(text: str) -> str:
        return t(lang, "review.coach_pass") if text == "pass" else tcards(lang, text)

    lines = [t(lang, "review.coach_title", deal=deal_no)]
    lines += [
        t(
            lang,
            "review.coach_line",
            n=n.move_no,
            played=shown(n.played),
            suggested=shown(n.suggested),
            cost=f"{n.cost:.1f}",
        )
        for n in notes
    ]
    return "\n".join(lines)


async def _send_coach(
    rt: ReviewShared,
    thinker: Coach,
    user_id: int,
    lang: str,
    row: MatchRecord,
    actions: list[str],
    deal_no: int,
    seat: int,
) -> None:
    notes = await thinker.coach(row.game, row.options_json, row.seed, actions, deal_no, seat)
    if notes is not None:
        rt.messages.send(user_id, coach_text(lang, deal_no, notes))


def deliver(rt: ReviewShared, deliveries: list[Delivery]) -> None:
    """Queue the answers (texts and files) on the outbox; never waits for Telegram."""
    for d in deliveries:
        if d.document is not None:
            data, filename, caption = d.document
            assert rt.outbox is not None
            rt.outbox.send_document_nowait(d.chat_id, data, filename, caption)
        if d.text:
            rt.messages.send(d.chat_id, d.text)


async def save_match_files(
    db: Database, match_id: int, folder: str, lang: str, tag: str
) -> tuple[list[str], int, int]:
    """Write the match's review (``review-<tag>.html``) and one proof file per finished deal
    (``deal-proof-<tag>-<deal>.json``) into ``folder``; each proof is checked as ``python -m bot.verify_deal``
    would.  Returns (paths written, deals verified, deals)."""
    row = await match_repo.get_match_row(db, match_id)
    if row is None:
        return [], 0, 0
    table = await table_repo.get_table(db, row.table_id)
    actions = [a.action for a in await match_repo.action_log(db, row.id)]
    records = [
        r
        for r in await asyncio.to_thread(deal_records, row.game, row.options_json, row.seed, actions)
        if r.finished
    ]
    preset = table.preset_id if table is not None else row.game
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    names = await _names(db, row.table_id, lang)
    fairness = {
        r.deal_no: review_fairness(row.game, preset, row.seed, r, board_turn(row.options_json or {}))
        for r in records
    }
    page = review_html(
        lang, game=row.game, title=_title(lang, preset), names=names, records=records, fairness=fairness
    )
    paths = [str(out / f"review-{tag}.html")]
    Path(paths[0]).write_text(page, encoding="utf-8")
    verified = 0
    for rec in records:
        proof = record_proof(row.game, preset, row.id, row.seed, rec, board_turn(row.options_json or {}))
        path = out / f"deal-proof-{tag}-{rec.deal_no}.json"
        path.write_text(json.dumps(proof, ensure_ascii=False, indent=1), encoding="utf-8")
        paths.append(str(path))
        verified += check_proof(proof).ok
    return paths, verified, len(records)

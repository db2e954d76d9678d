"""The guided set-up (``/tournament`` in a private chat): a draft tournament row (status ``setup``)
whose ``setup_step`` says which answer comes next, so a restart in the middle loses nothing.

Questions (product issue 5, "Tournament set-up"), in this order::

    name -> preset (buttons) -> rule options (keep, or ``key = value`` lines) -> entrant kind (buttons:
    pairs, teams of 2 or 3 pairs, teams of 2 pairs with duplicate deals, or a number such as ``2`` or
    ``2 复式``) -> time zone -> union groups and quotas
    -> registration deadline -> draw time -> first round start -> format (buttons; groups-then-knockout
    asks the knockout size; Swiss rounds ask the number of rounds, then the size of a final knockout of
    the top entries, 0 for none) -> match length (deals or minutes) -> lateness limit -> the gap between a
    match's end and the next one (later rounds: real match length + this gap) -> prize table (buttons;
    by place asks the counts, by round asks the prize of each round) -> confirm (button).

Every question says the preset's default and has a "keep" button where a default exists.  Every
answer is validated; a bad one changes nothing and gets a translated explanation together with the
same question again.

The flow is here; the questions and their order in ``setup_questions``, the parsing of typed answers in
``setup_answers``.
"""

from __future__ import annotations

from typing import Protocol

from bot.edge.tournament.setup_answers import (
    ENTRANT_ANSWER,
    MAX_SWISS_ROUNDS,
    err,
    parse_groups,
    parse_length,
    parse_minutes,
    parse_options,
    parse_prize_counts,
    parse_round_prizes,
)
from bot.edge.tournament.setup_questions import FORMAT_CHOICES, next_step, question
from bot.presentation.tournament.texts import error_text, tt
from bot.tournaments.ports import Markup
from engine.errors import RuleError
from engine.registry import preset_ids
from storage import tournaments as ts
from storage.db import Database
from storage.tournament_models import Tournament


class SetupPorts(Protocol):
    """What the guided set-up needs: the database, sending, and arming a tournament's deadlines."""

    @property
    def db(self) -> Database: ...

    def send(self, chat_id: int, text: str, markup: Markup | None = None) -> object: ...

    async def arm_tournament(self, row: Tournament) -> None: ...


async def draft_of(tb: SetupPorts, user_id: int) -> Tournament | None:
    return await ts.draft_of(tb.db, user_id)


async def begin(tb: SetupPorts, user_id: int, lang: str) -> None:
    old = await ts.draft_of(tb.db, user_id)
    if old is not None:
        await ts.set_status(tb.db, old.id, "cancelled", user_id)
    row = await ts.create_tournament(
        tb.db, name="-", preset_id=preset_ids()[0], created_by=user_id, status="setup", setup_step="name"
    )
    await ask(tb, row, user_id, lang)


async def cancel(tb: SetupPorts, user_id: int, lang: str) -> bool:
    draft = await ts.draft_of(tb.db, user_id)
    if draft is None:
        return False
    await ts.set_status(tb.db, draft.id, "cancelled", user_id)
    tb.send(user_id, tt(lang, "setup.cancelled"))
    return True


async def ask(tb: SetupPorts, row: Tournament, user_id: int, lang: str, error: str | None = None) -> None:
    """Send the question of the row's current step (after ``error``, when an answer was refused)."""
    text, markup = question(lang, row)
    if error:
        text = tt(lang, "setup.try_again", error=error, question=text)
    tb.send(user_id, text, markup)


async def answer(tb: SetupPorts, row: Tournament, user_id: int, lang: str, text: str) -> None:
    """A typed answer to the current step: stored and the next question asked, or refused (nothing
    changes) with the reason and the same question."""
    step = row.setup_step or "confirm"
    text = text.strip()
    try:
        row = await _apply_text(tb, row, user_id, lang, step, text)
    except RuleError as err:
        await ask(tb, row, user_id, lang, error_text(lang, err))
        return
    await ask(tb, row, user_id, lang)


async def _apply_text(
    tb: SetupPorts, row: Tournament, user_id: int, lang: str, step: str, text: str
) -> Tournament:
    db = tb.db
    if step == "name":
        if not text or text.startswith("/"):
            raise err("missing_spec_key", "{key} is missing", key="name")
        return await ts.update_setup(db, row.id, user_id, name=text[:200], setup_step=next_step(step))
    if step == "options":
        return await ts.update_setup(
            db, row.id, user_id, rule_overrides=parse_options(text), setup_step=next_step(step)
        )
    if step == "entrant":
        found = ENTRANT_ANSWER.fullmatch(text.lower())
        if found is None or not 1 <= int(found.group(1)) <= 8:
            raise err("bad_pairs_per_team", "Send the number of pairs per team (1 = pairs)")
        return await _set_entrant(tb, row, user_id, int(found.group(1)), bool(found.group(2)))
    if step == "tz":
        return await ts.update_setup(db, row.id, user_id, time_zone=text, setup_step=next_step(step))
    if step == "groups":
        groups = parse_groups(text, int(row.settings_json.get("group_quota", 0)))
        return await ts.update_setup(db, row.id, user_id, union_groups=groups, setup_step=next_step(step))
    if step in ("deadline", "draw", "first"):
        when = ts.parse_local_time(text, row.time_zone)
        field = {"deadline": "registration_deadline", "draw": "draw_at", "first": "first_round_at"}[step]
        times = {
            "registration_deadline": row.registration_deadline,
            "draw_at": row.draw_at,
            "first_round_at": row.first_round_at,
            field: when,
        }
        ts.check_time_order(times["registration_deadline"], times["draw_at"], times["first_round_at"])
        return await ts.update_setup(db, row.id, user_id, **{field: when}, setup_step=next_step(step))
    if step == "knockout":
        if not text.isdigit() or int(text) < 2 or int(text) & (int(text) - 1):
            raise err("bad_knockout_size", "The knockout size is a power of two: 2, 4, 8, 16 ...")
        return await ts.update_setup(
            db, row.id, user_id, settings_overrides={"knockout_size": int(text)}, setup_step=next_step(step)
        )
    if step == "swiss_rounds":
        if not text.isdigit() or not 1 <= int(text) <= MAX_SWISS_ROUNDS:
            raise err(
                "bad_swiss_rounds",
                "The number of rounds is a whole number from 1 to {max}",
                max=MAX_SWISS_ROUNDS,
            )
        return await ts.update_setup(
            db, row.id, user_id, settings_overrides={"swiss_rounds": int(text)}, setup_step="swiss_top"
        )
    if step == "swiss_top":
        if not text.isdigit() or int(text) == 1 or int(text) & (int(text) - 1):
            raise err(
                "bad_swiss_top", "The knockout after the Swiss is 0 (none) or a power of two: 2, 4, 8 ..."
            )
        top = int(text)
        return await ts.update_setup(
            db,
            row.id,
            user_id,
            settings_overrides={"swiss_top": top, "third_place_match": top >= 4},
            setup_step=next_step(step),
        )
    if step == "length":
        return await ts.update_setup(
            db, row.id, user_id, rule_overrides=parse_length(text), setup_step=next_step(step)
        )
    if step == "late":
        return await ts.update_setup(
            db,
            row.id,
            user_id,
            settings_overrides={"late_forfeit_minutes": parse_minutes(text)},
            setup_step=next_step(step),
        )
    if step == "gap":
        return await ts.update_setup(
            db, row.id, user_id, round_gap_minutes=parse_minutes(text), setup_step=next_step(step)
        )
    if step == "prize_counts":
        return await ts.update_setup(
            db, row.id, user_id, settings_overrides=parse_prize_counts(text), setup_step=next_step(step)
        )
    if step == "prize_rounds":
        return await ts.update_setup(
            db, row.id, user_id, settings_overrides=parse_round_prizes(text), setup_step=next_step(step)
        )
    # preset, format, prizes, confirm: answered with the buttons
    raise err("use_buttons", "Press one of the buttons")


async def _set_entrant(
    tb: SetupPorts, row: Tournament, user_id: int, pairs: int, duplicate: bool = False
) -> Tournament:
    over: dict[str, object] = (
        {"entrant": "pair", "pairs_per_team": 1}
        if pairs == 1
        else {"entrant": "team", "pairs_per_team": pairs}
    )
    # refused (translated) for an odd number of tables, and for pairs unless the format is already Swiss
    # (pairs choose "Swiss rounds · duplicate" at the format step)
    over["duplicate"] = duplicate
    return await ts.update_setup(
        tb.db, row.id, user_id, settings_overrides=over, setup_step=next_step("entrant")
    )


async def button(tb: SetupPorts, user_id: int, lang: str, parts: list[str]) -> str | None:
    """A set-up button (``T:s:...``); a button of an earlier question does nothing."""
    row = await ts.draft_of(tb.db, user_id)
    if row is None:
        return tt(lang, "setup.cancelled")
    step = row.setup_step or "confirm"
    op = parts[0] if parts else ""
    try:
        if op == "preset" and step == "preset" and len(parts) > 1 and parts[1] in preset_ids():
            row = await ts.update_setup(
                tb.db, row.id, user_id, preset_id=parts[1], setup_step=next_step(step)
            )
        elif op == "keep" and len(parts) > 1 and parts[1] == step:
            row = await ts.update_setup(tb.db, row.id, user_id, setup_step=next_step(step))
        elif op == "pick" and len(parts) > 2 and parts[1] == step:
            row = await _pick_choice(tb, row, user_id, step, parts[2])
        elif op == "create" and step == "confirm":
            row = await ts.update_setup(tb.db, row.id, user_id, status="registration", setup_step=None)
            await tb.arm_tournament(row)
            tb.send(user_id, tt(lang, "setup.created", id=row.id, name=row.name))
            return None
        else:
            return None
    except RuleError as err:
        await ask(tb, row, user_id, lang, error_text(lang, err))
        return None
    await ask(tb, row, user_id, lang)
    return None


async def _pick_choice(tb: SetupPorts, row: Tournament, user_id: int, step: str, value: str) -> Tournament:
    db = tb.db
    if step == "entrant" and value.isdigit():
        return await _set_entrant(tb, row, user_id, int(value))
    if step == "entrant" and value == "2d":
        return await _set_entrant(tb, row, user_id, 2, duplicate=True)
    if step == "format" and value in FORMAT_CHOICES:
        choice = dict(FORMAT_CHOICES[value])
        if (row.settings_json or {}).get("entrant", "pair") == "pair":  # pairs: duplicate goes with the Swiss
            choice["duplicate"] = value == "swd"
        nxt = {"groups_then_knockout": "knockout", "swiss": "swiss_rounds"}.get(
            str(choice["format"]), next_step(step)
        )
        return await ts.update_setup(db, row.id, user_id, settings_overrides=choice, setup_step=nxt)
    if step in ("knockout", "swiss_rounds", "swiss_top") and value.isdigit():
        return await _apply_text(tb, row, user_id, "", step, value)
    if step == "prizes" and value == "places":
        return await ts.update_setup(db, row.id, user_id, setup_step="prize_counts")
    if step == "prizes" and value == "rounds":
        return await ts.update_setup(db, row.id, user_id, setup_step="prize_rounds")
    if step == "prizes" and value == "none":
        return await ts.update_setup(
            db,
            row.id,
            user_id,
            settings_overrides={"prize_table": "none", "champion_prize": "", "souvenir_for_all": False},
            setup_step=next_step(step),
        )
    return row

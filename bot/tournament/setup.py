"""The guided set-up (``/tournament`` in a private chat): a draft tournament row (status ``setup``)
whose ``setup_step`` says which answer comes next, so a restart in the middle loses nothing.

Steps: name -> preset (buttons) -> time zone -> union groups and quotas -> registration deadline
-> draw time -> first round -> match length -> lateness limit -> confirm (button).  Every answer is
validated; a bad one gets a translated explanation and the same question again.
"""

from __future__ import annotations

import re
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.tournament import views
from bot.tournament.texts import error_text, tt
from engine.errors import RuleError
from engine.options import load_preset, preset_ids
from storage import tournament_service as ts
from storage.tournament_models import Tournament

STEPS = ("name", "preset", "tz", "groups", "deadline", "draw", "first", "length", "late", "confirm")


async def draft_of(tb: Any, user_id: int) -> Tournament | None:
    return await ts.draft_of(tb.db, user_id)


async def begin(tb: Any, user_id: int, lang: str) -> None:
    old = await ts.draft_of(tb.db, user_id)
    if old is not None:
        await ts.set_status(tb.db, old.id, "cancelled", user_id)
    await ts.create_tournament(tb.db, name="-", preset_id=preset_ids()[0], created_by=user_id, status="setup",
                               setup_step="name")
    tb.send(user_id, tt(lang, "setup.name"))


async def cancel(tb: Any, user_id: int, lang: str) -> bool:
    draft = await ts.draft_of(tb.db, user_id)
    if draft is None:
        return False
    await ts.set_status(tb.db, draft.id, "cancelled", user_id)
    tb.send(user_id, tt(lang, "setup.cancelled"))
    return True


def _keep(lang: str, step: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(tt(lang, "setup.keep"), callback_data=f"T:s:keep:{step}")]])


async def ask(tb: Any, row: Tournament, user_id: int, lang: str) -> None:
    """Send the question of the row's current step."""
    step = row.setup_step or "confirm"
    tz = row.time_zone
    if step == "name":
        tb.send(user_id, tt(lang, "setup.name"))
    elif step == "preset":
        buttons = []
        for pid in preset_ids():
            p = load_preset(pid)
            buttons.append([InlineKeyboardButton(p.title_en if lang == "en" else p.title_zh,
                                                 callback_data=f"T:s:preset:{pid}")])
        tb.send(user_id, tt(lang, "setup.preset"), InlineKeyboardMarkup(buttons))
    elif step == "tz":
        tb.send(user_id, tt(lang, "setup.tz"), _keep(lang, "tz"))
    elif step == "groups":
        tb.send(user_id, tt(lang, "setup.groups"))
    elif step in ("deadline", "draw", "first"):
        tb.send(user_id, tt(lang, "setup." + step, tz=tz))
    elif step == "length":
        tb.send(user_id, tt(lang, "setup.length", default=views.length_text(lang, ts.rule_options(row))),
                _keep(lang, "length"))
    elif step == "late":
        tb.send(user_id, tt(lang, "setup.late", minutes=row.settings_json.get("late_forfeit_minutes")),
                _keep(lang, "late"))
    else:
        markup = InlineKeyboardMarkup([[InlineKeyboardButton(tt(lang, "setup.create"), callback_data="T:s:create")]])
        tb.send(user_id, tt(lang, "setup.confirm", summary=views.summary(lang, row),
                            prizes=views.prizes_text(lang, row)), markup)


def _next(step: str) -> str:
    return STEPS[STEPS.index(step) + 1]


def parse_groups(text: str, default_quota: int) -> list[dict[str, Any]]:
    if text.strip() in ("-", "无", "none", ""):
        return []
    out = []
    for part in re.split(r"[,，;；、\n]+", text):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(.+?)\s*(\d+)", part)
        name, quota = (m.group(1).strip(), int(m.group(2))) if m else (part, default_quota)
        out.append({"name": name, "quota": quota})
    return out


async def answer(tb: Any, row: Tournament, user_id: int, lang: str, text: str) -> None:
    """A typed answer to the current step."""
    step = row.setup_step or "confirm"
    text = text.strip()
    try:
        if step == "name":
            row = await ts.update_setup(tb.db, row.id, user_id, name=text[:200], setup_step=_next(step))
        elif step == "tz":
            row = await ts.update_setup(tb.db, row.id, user_id, time_zone=text, setup_step=_next(step))
        elif step == "groups":
            groups = parse_groups(text, int(row.settings_json.get("group_quota", 0)))
            row = await ts.update_setup(tb.db, row.id, user_id, union_groups=groups, setup_step=_next(step))
        elif step in ("deadline", "draw", "first"):
            when = ts.parse_local_time(text, row.time_zone)
            field = {"deadline": "registration_deadline", "draw": "draw_at", "first": "first_round_at"}[step]
            times = {"registration_deadline": row.registration_deadline, "draw_at": row.draw_at,
                     "first_round_at": row.first_round_at, field: when}
            ts.check_time_order(times["registration_deadline"], times["draw_at"], times["first_round_at"])
            row = await ts.update_setup(tb.db, row.id, user_id, **{field: when}, setup_step=_next(step))
        elif step == "length":
            m = re.fullmatch(r"(\d+)\s*(副|deals?)", text, re.I)
            n = re.fullmatch(r"(\d+)\s*(分钟|分|min|mins|minutes?)", text, re.I)
            if m:
                rules = {"deals": int(m.group(1)), "time_limit_minutes": 0}
            elif n:
                rules = {"time_limit_minutes": int(n.group(1)), "deals": 0}
            else:
                tb.send(user_id, tt(lang, "setup.bad_length"))
                return
            row = await ts.update_setup(tb.db, row.id, user_id, rule_overrides=rules, setup_step=_next(step))
        elif step == "late":
            if not text.isdigit():
                tb.send(user_id, tt(lang, "setup.bad_number"))
                return
            row = await ts.update_setup(tb.db, row.id, user_id, settings_overrides={"late_forfeit_minutes": int(text)},
                                        setup_step=_next(step))
        else:  # preset (buttons) or confirm: ask again
            pass
    except RuleError as err:
        tb.send(user_id, error_text(lang, err))
        return
    await ask(tb, row, user_id, lang)


async def button(tb: Any, user_id: int, lang: str, parts: list[str]) -> str | None:
    row = await ts.draft_of(tb.db, user_id)
    if row is None:
        return tt(lang, "setup.cancelled")
    step = row.setup_step or "confirm"
    if parts[0] == "preset" and step == "preset":
        row = await ts.update_setup(tb.db, row.id, user_id, preset_id=parts[1], setup_step=_next(step))
    elif parts[0] == "keep" and len(parts) > 1 and parts[1] == step:
        row = await ts.update_setup(tb.db, row.id, user_id, setup_step=_next(step))
    elif parts[0] == "create" and step == "confirm":
        row = await ts.update_setup(tb.db, row.id, user_id, status="registration", setup_step=None)
        await tb.arm_tournament(row)
        tb.send(user_id, tt(lang, "setup.created", id=row.id, name=row.name))
        return None
    else:
        return None
    await ask(tb, row, user_id, lang)
    return None

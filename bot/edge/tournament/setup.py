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
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any, Protocol

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.edge.callbacks import TournamentButton as TB
from bot.edge.callbacks import TournamentOp as Op
from bot.presentation.tournament.texts import error_text, tt
from bot.tournaments import views
from bot.tournaments.ports import Markup
from engine.errors import RuleError
from engine.registry import load_preset, preset_ids
from storage import tournaments as ts
from storage.db import Database
from storage.tournament_models import Tournament

# The main questions, in order; the sub-questions below follow the answer of their parent.
STEPS = (
    "name",
    "preset",
    "options",
    "entrant",
    "tz",
    "groups",
    "deadline",
    "draw",
    "first",
    "format",
    "length",
    "late",
    "gap",
    "prizes",
    "confirm",
)
SUB_STEPS = {
    "knockout": "format",
    "swiss_rounds": "format",
    "swiss_top": "format",
    "prize_counts": "prizes",
    "prize_rounds": "prizes",
}
QUESTIONS = len(STEPS) - 1

FORMAT_CHOICES = {  # button value -> settings
    "se": {"format": "single_elimination", "third_place_match": False},
    "se3": {"format": "single_elimination", "third_place_match": True},
    "gk": {"format": "groups_then_knockout", "third_place_match": False},
    "gk3": {"format": "groups_then_knockout", "third_place_match": True},
    "sw": {"format": "swiss", "third_place_match": False},
}
MAX_SWISS_ROUNDS = 15
# Prize names a user may type (either language) -> the stored prize keys (bot/presentation/tournament/texts.py ``prize.*``).
PRIZE_WORDS = {
    "纪念奖": "souvenir",
    "souvenir": "souvenir",
    "三等奖": "third",
    "third": "third",
    "二等奖": "second",
    "second": "second",
    "一等奖": "first",
    "first": "first",
    "优胜奖": "champion",
    "冠军": "champion",
    "champion": "champion",
    "代表参加学院比赛": "representative",
    "representative": "representative",
}
NUMBER_WORDS = {
    "零",
    "一",
    "二",
    "两",
    "三",
    "四",
    "五",
    "六",
    "七",
    "八",
    "九",
    "十",
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
}
MAX_LATE_MINUTES = 240
# The entrant answer typed: pairs per team, optionally marked duplicate ("2 复式", "2 duplicate").
ENTRANT_ANSWER = re.compile(r"(\d+)\s*(复式|duplicate|dup)?")


class SetupPorts(Protocol):
    """What the guided set-up needs: the database, sending, and arming a tournament's deadlines."""

    @property
    def db(self) -> Database: ...

    def send(self, chat_id: int, text: str, markup: Markup | None = None) -> object: ...

    async def arm_tournament(self, row: Tournament) -> None: ...


def _err(code: str, english: str, **params: Any) -> RuleError:
    return RuleError(code, english, **params)


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


# --- questions ----------------------------------------------------------------------------------------


def _button(lang: str, label: str, data: str) -> list[InlineKeyboardButton]:
    return [InlineKeyboardButton(label, callback_data=data)]


def _keep(lang: str, step: str) -> list[InlineKeyboardButton]:
    return _button(lang, tt(lang, "setup.keep"), TB(Op.SETUP, words=("keep", step)).encode())


def _pick(step: str, value: str) -> str:
    return TB(Op.SETUP, words=("pick", step, value)).encode()


def _step_label(lang: str, step: str) -> str:
    main = SUB_STEPS.get(step, step)
    if main not in STEPS or main == "confirm":
        return ""
    return tt(lang, "setup.step", i=STEPS.index(main) + 1, n=QUESTIONS)


def _preset_title(lang: str, preset_id: str) -> str:
    p = load_preset(preset_id)
    return p.title_en if lang == "en" else p.title_zh


def format_text(lang: str, settings: Mapping[str, Any]) -> str:
    """The format with its third-place match and knockout size, e.g. "单败淘汰，有三四名决赛"."""
    text = tt(lang, "format." + str(settings.get("format")))
    if settings.get("format") == "groups_then_knockout":
        text += tt(lang, "setup.knockout_of", n=settings.get("knockout_size"))
    if settings.get("format") == "swiss":
        text += tt(lang, "setup.swiss_of", n=settings.get("swiss_rounds"))
        top = int(settings.get("swiss_top") or 0)
        if not top:
            return text + tt(lang, "setup.swiss_no_top")
        text += tt(lang, "setup.knockout_of", n=top)
    return text + tt(lang, "setup.with_third" if settings.get("third_place_match") else "setup.without_third")


def _overrides_text(row: Tournament) -> str:
    def val(v: object) -> str:
        return ("true" if v else "false") if isinstance(v, bool) else str(v)

    return ", ".join(f"{k} = {val(v)}" for k, v in sorted((row.rule_overrides or {}).items()))


def question(lang: str, row: Tournament) -> tuple[str, InlineKeyboardMarkup | None]:
    """The text and buttons of the row's current question."""
    step = row.setup_step or "confirm"
    s = row.settings_json
    label = _step_label(lang, step)
    rows: list[list[InlineKeyboardButton]] = []
    if step == "name":
        text = tt(lang, "setup.q.name", step=label)
    elif step == "preset":
        text = tt(lang, "setup.q.preset", step=label)
        rows = [
            _button(lang, _preset_title(lang, pid), TB(Op.SETUP, words=("preset", pid)).encode())
            for pid in preset_ids()
        ]
    elif step == "options":
        preset = load_preset(row.preset_id)
        keys = ", ".join(sorted(ts.rule_options(row)))
        changed = _overrides_text(row) or "-"
        text = tt(
            lang,
            "setup.q.options",
            step=label,
            preset=_preset_title(lang, preset.id),
            keys=keys,
            changed=changed,
        )
        rows = [_keep(lang, step)]
    elif step == "entrant":
        text = tt(lang, "setup.q.entrant", step=label, default=views.entrant_text(lang, row))
        rows = [
            _button(lang, tt(lang, "entrant.pair"), _pick(step, "1")),
            _button(lang, tt(lang, "entrant.team", n=2), _pick(step, "2")),
            _button(lang, tt(lang, "entrant.team", n=3), _pick(step, "3")),
            _button(lang, tt(lang, "entrant.team_duplicate", n=2), _pick(step, "2d")),
            _keep(lang, step),
        ]
    elif step == "tz":
        text = tt(lang, "setup.q.tz", step=label, tz=row.time_zone)
        rows = [_keep(lang, step)]
    elif step == "groups":
        quota = int(s.get("group_quota") or 0)
        text = tt(
            lang,
            "setup.q.groups",
            step=label,
            quota=quota or tt(lang, "setup.no_quota"),
            unit=tt(lang, "unit.team" if s.get("entrant") == "team" else "unit.pair"),
        )
    elif step in ("deadline", "draw", "first"):
        text = tt(lang, "setup.q." + step, step=label, tz=row.time_zone)
    elif step == "format":
        text = tt(lang, "setup.q.format", step=label, default=format_text(lang, s))
        rows = [
            _button(lang, tt(lang, "setup.format." + value), _pick(step, value)) for value in FORMAT_CHOICES
        ]
        rows.append(_keep(lang, step))
    elif step == "knockout":
        text = tt(lang, "setup.q.knockout", step=label, n=s.get("knockout_size"))
        rows = [
            [InlineKeyboardButton(str(n), callback_data=_pick(step, str(n))) for n in (2, 4, 8, 16)],
            _keep(lang, step),
        ]
    elif step == "swiss_rounds":
        text = tt(lang, "setup.q.swiss_rounds", step=label, n=s.get("swiss_rounds"))
        rows = [
            [InlineKeyboardButton(str(n), callback_data=_pick(step, str(n))) for n in (5, 6, 7, 9)],
            _keep(lang, step),
        ]
    elif step == "swiss_top":
        text = tt(lang, "setup.q.swiss_top", step=label, n=s.get("swiss_top") or 0)
        rows = [
            [InlineKeyboardButton(tt(lang, "setup.swiss_none"), callback_data=_pick(step, "0"))]
            + [InlineKeyboardButton(str(n), callback_data=_pick(step, str(n))) for n in (4, 8, 16)],
            _keep(lang, step),
        ]
    elif step == "length":
        text = tt(lang, "setup.q.length", step=label, default=views.length_text(lang, ts.rule_options(row)))
        rows = [_keep(lang, step)]
    elif step == "late":
        text = tt(lang, "setup.q.late", step=label, minutes=s.get("late_forfeit_minutes"))
        rows = [_keep(lang, step)]
    elif step == "gap":
        text = tt(lang, "setup.q.gap", step=label, minutes=row.round_gap_minutes)
        rows = [_keep(lang, step)]
    elif step == "prizes":
        text = tt(lang, "setup.q.prizes", step=label, default=views.prizes_text(lang, row))
        rows = [
            _button(lang, tt(lang, "setup.prizes." + value), _pick(step, value))
            for value in ("places", "rounds", "none")
        ]
        rows.append(_keep(lang, step))
    elif step == "prize_counts":
        text = tt(lang, "setup.q.prize_counts", step=label)
    elif step == "prize_rounds":
        text = tt(lang, "setup.q.prize_rounds", step=label)
    else:
        extra = [tt(lang, "setup.confirm_format", format=format_text(lang, s))]
        if row.rule_overrides:
            extra.append(tt(lang, "setup.confirm_rules", rules=_overrides_text(row)))
        if s.get("duplicate"):
            extra.append(tt(lang, "setup.confirm_duplicate"))
        text = tt(
            lang,
            "setup.q.confirm",
            summary=views.summary(lang, row),
            extra="\n".join(extra),
            prizes=views.prizes_text(lang, row),
        )
        rows = [_button(lang, tt(lang, "setup.create"), TB(Op.SETUP, words=("create",)).encode())]
    return text, (InlineKeyboardMarkup(rows) if rows else None)


async def ask(tb: SetupPorts, row: Tournament, user_id: int, lang: str, error: str | None = None) -> None:
    """Send the question of the row's current step (after ``error``, when an answer was refused)."""
    text, markup = question(lang, row)
    if error:
        text = tt(lang, "setup.try_again", error=error, question=text)
    tb.send(user_id, text, markup)


def _next(step: str) -> str:
    return STEPS[STEPS.index(SUB_STEPS.get(step, step)) + 1]


# --- parsing answers ------------------------------------------------------------------------------------


def _quota(part: str, text: str) -> int:
    if not text.isdigit():
        raise _err("bad_quota", "A quota must be a whole number: {part}", part=part)
    return int(text)


def parse_groups(text: str, default_quota: int) -> list[dict[str, Any]]:
    """``机关 2，理学院 2`` / ``Admin: 2; Science`` -> [{name, quota}]; ``-`` for none.  A quota that is
    not a whole number (``机关 2.5``, ``Admin two``), an empty or a repeated name is a RuleError."""
    if text.strip() in ("-", "无", "none", ""):
        return []
    out: list[dict[str, Any]] = []
    for part in re.split(r"[,，;；、\n]+", text):
        part = part.strip()
        if not part:
            continue
        sep = re.split(r"\s*[:：=]\s*", part, maxsplit=1)
        if len(sep) == 2:
            name, quota = sep[0].strip(), _quota(part, sep[1].strip())
        elif m := re.fullmatch(r"(.*?[^\d.,+\-\s])\s*(\d+)", part):
            name, quota = m.group(1).strip(), int(m.group(2))
        else:
            words = part.rsplit(None, 1)
            last = words[-1] if len(words) == 2 else ""
            if last and (re.match(r"[-+]?\d", last) or last.lower() in NUMBER_WORDS):
                raise _err("bad_quota", "A quota must be a whole number: {part}", part=part)
            name, quota = part, default_quota
        if not name:
            raise _err("bad_quota", "A quota must be a whole number: {part}", part=part)
        if any(g["name"] == name for g in out):
            raise _err("duplicate_union_group", "{group} is given twice", group=name)
        out.append({"name": name[:100], "quota": quota})
    return out


def parse_options(text: str) -> dict[str, Any]:
    """``key = value`` lines (or ``;``-separated) -> rule overrides; values are TOML (``false``, ``3``,
    ``"x"``) or else plain text.  A line without ``=`` is a RuleError."""
    out: dict[str, Any] = {}
    for line in re.split(r"[\n;；]+", text):
        line = line.strip()
        if not line:
            continue
        key, eq, raw = line.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) or not raw:
            raise _err("bad_option_line", "Write one option per line as key = value: {line}", line=line)
        try:
            value: Any = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw.strip("\"'“”")
        out[key] = value
    if not out:
        raise _err("bad_option_line", "Write one option per line as key = value: {line}", line=text)
    return out


def parse_length(text: str) -> dict[str, int]:
    m = re.fullmatch(r"(\d+)\s*(副|deals?)", text, re.I)
    n = re.fullmatch(r"(\d+)\s*(分钟|分|min|mins|minutes?)", text, re.I)
    if m and int(m.group(1)) > 0:
        return {"deals": int(m.group(1)), "time_limit_minutes": 0}
    if n and int(n.group(1)) > 0:
        return {"time_limit_minutes": int(n.group(1)), "deals": 0}
    raise _err("bad_length", "Write 17 deals or 50 minutes")


def parse_minutes(text: str) -> int:
    """``10``, ``10分钟`` / ``10 分`` / ``10 min`` / ``10 minutes`` -> 10 (1 to MAX_LATE_MINUTES)."""
    m = re.fullmatch(r"(\d+)\s*(分钟|分|min|mins|minutes?)?", text.strip(), re.I)
    if m is None or not 1 <= int(m.group(1)) <= MAX_LATE_MINUTES:
        raise _err("bad_minutes", "Send a number of minutes, 1 to {max}", max=MAX_LATE_MINUTES)
    return int(m.group(1))


def parse_prize_counts(text: str) -> dict[str, Any]:
    """``1 2 3`` (first, second, third prizes), optionally ``+纪念奖`` / ``+souvenir`` for everybody else."""
    souvenir = bool(re.search(r"\+\s*(纪念奖|souvenirs?)", text, re.I))
    rest = re.sub(r"\+\s*(纪念奖|souvenirs?)", " ", text, flags=re.I)
    parts = [p for p in re.split(r"[\s,，、/]+", rest.strip()) if p]
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or not any(int(p) for p in parts):
        raise _err("bad_prize_counts", "Write three whole numbers, e.g. 1 2 3")
    return {
        "prize_table": "places_1_2_3",
        "prize_counts": [int(p) for p in parts],
        "souvenir_for_all": souvenir,
    }


def parse_round_prizes(text: str) -> dict[str, Any]:
    """Prizes of the losers of each round, in order (the last of them the final's loser), then the
    champion's: ``纪念奖 三等奖 二等奖 一等奖 优胜奖``.  Known names are stored as prize keys."""
    parts = [p for p in re.split(r"[\s,，、;；]+", text.strip()) if p]
    if len(parts) < 2:
        raise _err("bad_round_prizes", "Write at least two prizes: the final's loser, then the champion")
    keys = [PRIZE_WORDS.get(p.lower(), p[:40]) for p in parts]
    return {
        "prize_table": "by_round_eliminated",
        "round_prizes": keys[:-1],
        "champion_prize": keys[-1],
        "round_prizes_from": "final",
        "souvenir_for_all": False,
    }


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
            raise _err("missing_spec_key", "{key} is missing", key="name")
        return await ts.update_setup(db, row.id, user_id, name=text[:200], setup_step=_next(step))
    if step == "options":
        return await ts.update_setup(
            db, row.id, user_id, rule_overrides=parse_options(text), setup_step=_next(step)
        )
    if step == "entrant":
        found = ENTRANT_ANSWER.fullmatch(text.lower())
        if found is None or not 1 <= int(found.group(1)) <= 8:
            raise _err("bad_pairs_per_team", "Send the number of pairs per team (1 = pairs)")
        return await _set_entrant(tb, row, user_id, int(found.group(1)), bool(found.group(2)))
    if step == "tz":
        return await ts.update_setup(db, row.id, user_id, time_zone=text, setup_step=_next(step))
    if step == "groups":
        groups = parse_groups(text, int(row.settings_json.get("group_quota", 0)))
        return await ts.update_setup(db, row.id, user_id, union_groups=groups, setup_step=_next(step))
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
        return await ts.update_setup(db, row.id, user_id, **{field: when}, setup_step=_next(step))
    if step == "knockout":
        if not text.isdigit() or int(text) < 2 or int(text) & (int(text) - 1):
            raise _err("bad_knockout_size", "The knockout size is a power of two: 2, 4, 8, 16 ...")
        return await ts.update_setup(
            db, row.id, user_id, settings_overrides={"knockout_size": int(text)}, setup_step=_next(step)
        )
    if step == "swiss_rounds":
        if not text.isdigit() or not 1 <= int(text) <= MAX_SWISS_ROUNDS:
            raise _err(
                "bad_swiss_rounds",
                "The number of rounds is a whole number from 1 to {max}",
                max=MAX_SWISS_ROUNDS,
            )
        return await ts.update_setup(
            db, row.id, user_id, settings_overrides={"swiss_rounds": int(text)}, setup_step="swiss_top"
        )
    if step == "swiss_top":
        if not text.isdigit() or int(text) == 1 or int(text) & (int(text) - 1):
            raise _err(
                "bad_swiss_top", "The knockout after the Swiss is 0 (none) or a power of two: 2, 4, 8 ..."
            )
        top = int(text)
        return await ts.update_setup(
            db,
            row.id,
            user_id,
            settings_overrides={"swiss_top": top, "third_place_match": top >= 4},
            setup_step=_next(step),
        )
    if step == "length":
        return await ts.update_setup(
            db, row.id, user_id, rule_overrides=parse_length(text), setup_step=_next(step)
        )
    if step == "late":
        return await ts.update_setup(
            db,
            row.id,
            user_id,
            settings_overrides={"late_forfeit_minutes": parse_minutes(text)},
            setup_step=_next(step),
        )
    if step == "gap":
        return await ts.update_setup(
            db, row.id, user_id, round_gap_minutes=parse_minutes(text), setup_step=_next(step)
        )
    if step == "prize_counts":
        return await ts.update_setup(
            db, row.id, user_id, settings_overrides=parse_prize_counts(text), setup_step=_next(step)
        )
    if step == "prize_rounds":
        return await ts.update_setup(
            db, row.id, user_id, settings_overrides=parse_round_prizes(text), setup_step=_next(step)
        )
    # preset, format, prizes, confirm: answered with the buttons
    raise _err("use_buttons", "Press one of the buttons")


async def _set_entrant(
    tb: SetupPorts, row: Tournament, user_id: int, pairs: int, duplicate: bool = False
) -> Tournament:
    over: dict[str, Any] = (
        {"entrant": "pair", "pairs_per_team": 1}
        if pairs == 1
        else {"entrant": "team", "pairs_per_team": pairs}
    )
    over["duplicate"] = duplicate  # refused (translated) for pairs or an odd number of tables
    return await ts.update_setup(tb.db, row.id, user_id, settings_overrides=over, setup_step=_next("entrant"))


async def button(tb: SetupPorts, user_id: int, lang: str, parts: list[str]) -> str | None:
    """A set-up button (``T:s:...``); a button of an earlier question does nothing."""
    row = await ts.draft_of(tb.db, user_id)
    if row is None:
        return tt(lang, "setup.cancelled")
    step = row.setup_step or "confirm"
    op = parts[0] if parts else ""
    try:
        if op == "preset" and step == "preset" and len(parts) > 1 and parts[1] in preset_ids():
            row = await ts.update_setup(tb.db, row.id, user_id, preset_id=parts[1], setup_step=_next(step))
        elif op == "keep" and len(parts) > 1 and parts[1] == step:
            row = await ts.update_setup(tb.db, row.id, user_id, setup_step=_next(step))
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
        choice = FORMAT_CHOICES[value]
        nxt = {"groups_then_knockout": "knockout", "swiss": "swiss_rounds"}.get(
            str(choice["format"]), _next(step)
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
            setup_step=_next(step),
        )
    return row

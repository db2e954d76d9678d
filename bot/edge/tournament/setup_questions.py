"""The guided set-up's questions: the steps in order (``STEPS``, the sub-questions of ``SUB_STEPS``), and the
text and buttons of a draft's current question (``question``); the flow is ``setup``, the parsing of typed
answers ``setup_answers``."""

from __future__ import annotations

from collections.abc import Mapping

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.presentation.callbacks import TournamentButton as TB
from bot.presentation.callbacks import TournamentOp as Op
from bot.presentation.tournament.texts import tt
from bot.tournaments import views
from engine.registry import load_preset, preset_ids
from storage import tournaments as ts
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
    # pairs only (teams choose duplicate deals with the entrant): matches 1+2 (3+4 ...) of a round compared
    "swd": {"format": "swiss", "third_place_match": False, "duplicate": True},
}
PAIRS_ONLY_FORMATS = ("swd",)


def next_step(step: str) -> str:
    """The main question after ``step`` (a sub-question's parent's next)."""
    return STEPS[STEPS.index(SUB_STEPS.get(step, step)) + 1]


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


def format_text(lang: str, settings: Mapping[str, object]) -> str:
    """The format with its third-place match and knockout size, e.g. "单败淘汰，有三四名决赛"."""
    text = tt(lang, "format." + str(settings.get("format")))
    if settings.get("format") == "groups_then_knockout":
        text += tt(lang, "setup.knockout_of", n=settings.get("knockout_size"))
    if settings.get("format") == "swiss":
        text += tt(lang, "setup.swiss_of", n=settings.get("swiss_rounds"))
        top = settings.get("swiss_top") or 0  # a whole number once stored (the settings' to_dict)
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
        pairs = s.get("entrant", "pair") == "pair"
        rows = [
            _button(lang, tt(lang, "setup.format." + value), _pick(step, value))
            for value in FORMAT_CHOICES
            if pairs or value not in PAIRS_ONLY_FORMATS
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
            pairs = s.get("entrant", "pair") == "pair"
            extra.append(tt(lang, "setup.confirm_duplicate_pairs" if pairs else "setup.confirm_duplicate"))
        text = tt(
            lang,
            "setup.q.confirm",
            summary=views.summary(lang, row),
            extra="\n".join(extra),
            prizes=views.prizes_text(lang, row),
        )
        rows = [_button(lang, tt(lang, "setup.create"), TB(Op.SETUP, words=("create",)).encode())]
    return text, (InlineKeyboardMarkup(rows) if rows else None)

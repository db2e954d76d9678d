"""``/newtable`` arguments read in one pass: every problem found, each translated, reported together.

``read_request(lang, args, may_fix_seed=...)`` returns the table to open (preset with its option
overrides, computer seats, a fixed seed, practice mode) or the list of problems, each one line in
the user's language.  What a user typed is echoed at most ``ECHO_MAX`` characters.

``seed=N`` fixes the shuffle, so whoever knows N knows every hand: it is accepted from a bot
admin (``BOT_ADMIN_IDS``), or at a practice table (``practice=yes``), which the lobby and the
table show as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.presentation.echo import clip
from bot.presentation.i18n import t
from engine.errors import RuleError
from engine.options import OptionSpec, Preset, option_specs
from engine.registry import load_preset, options_class, preset_ids

MAX_ARGS = 40
YES = ("yes", "true", "on", "1", "是", "开")
NO = ("no", "false", "off", "0", "否", "关")


@dataclass
class TableRequest:
    preset: Preset
    bots: int = 0
    seed: int | None = None
    practice: bool = False
    problems: list[str] = field(default_factory=list)


def _allowed(lang: str, spec: OptionSpec) -> str:
    if spec.choices:
        return " | ".join(spec.choices)
    if spec.kind is bool:
        return "yes | no"
    lo = "" if spec.minimum is None else str(spec.minimum)
    hi = "" if spec.maximum is None else str(spec.maximum)
    return t(lang, "opt.integer_range", lo=lo, hi=hi) if (lo or hi) else t(lang, "opt.integer")


def read_request(lang: str, args: list[str], *, may_fix_seed: bool) -> TableRequest | list[str]:
    """The table asked for, or every problem (translated lines; the caller sends them as one message)."""
    if not args:
        return [t(lang, "newtable.usage", presets=", ".join(preset_ids()))]
    problems: list[str] = []
    preset_id, rest = args[0], args[1:]
    try:
        preset = load_preset(preset_id)
    except RuleError:
        return [t(lang, "opt.unknown_preset", preset=clip(preset_id), presets=", ".join(preset_ids()))]
    specs = {s.name: s for s in option_specs(options_class(preset.game))}
    overrides: dict[str, str] = {}
    bots, seed, practice = 0, None, False
    unknown: list[str] = []
    if len(rest) > MAX_ARGS:
        problems.append(t(lang, "opt.too_many", n=MAX_ARGS))
        rest = rest[:MAX_ARGS]
    for arg in rest:
        key, sep, value = arg.partition("=")
        key = key.strip().lower()
        if not sep or not key:
            problems.append(t(lang, "opt.not_key_value", arg=clip(arg)))
        elif key == "bots":
            if value.isdigit() and int(value) <= 4:
                bots = int(value)
            else:
                problems.append(t(lang, "opt.bad_value", field="bots", value=clip(value), allowed="0..4"))
        elif key == "seed":
            if value.isdigit() and len(value) <= 18:
                seed = int(value)
            else:
                problems.append(
                    t(lang, "opt.bad_value", field="seed", value=clip(value), allowed=t(lang, "opt.integer"))
                )
        elif key == "practice":
            if value.lower() in YES:
                practice = True
            elif value.lower() not in NO:
                problems.append(
                    t(lang, "opt.bad_value", field="practice", value=clip(value), allowed="yes | no")
                )
        elif key not in specs:
            unknown.append(clip(key, 20))
        else:
            try:
                specs[key].convert(value)
            except RuleError:
                problems.append(
                    t(lang, "opt.bad_value", field=key, value=clip(value), allowed=_allowed(lang, specs[key]))
                )
            else:
                overrides[key] = value
    if unknown:
        problems.append(t(lang, "opt.unknown", fields=", ".join(unknown), allowed=", ".join(specs)))
    if seed is not None and not (may_fix_seed or practice):
        problems.append(t(lang, "opt.seed_admin_only"))
    if not problems:
        try:
            preset = preset.with_overrides(overrides)
        except RuleError as err:  # options valid one by one but not together
            problems.append(
                t(
                    lang,
                    "opt.bad_value",
                    field=str(err.params.get("field", "?")),
                    value=clip(err.params.get("value", "")),
                    allowed=str(err.params.get("allowed", "")),
                )
            )
    if problems:
        return problems
    return TableRequest(preset=preset, bots=bots, seed=seed, practice=practice)


def problems_message(lang: str, problems: list[str]) -> str:
    """One message for every problem found."""
    if len(problems) == 1:
        return problems[0]
    return t(lang, "opt.problems", n=len(problems)) + "\n" + "\n".join(f"• {p}" for p in problems)

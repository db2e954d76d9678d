"""The engine's one registry of games: which games exist, how a match and its options are built.

Every part outside the engine (bot, storage, scheduler, tools) builds matches here, from a game's name:
``new_match``, ``match_from_stored``, ``replay``, ``options_class``, ``read_options`` and the presets (``load_preset``,
``preset_ids``, ``preset_from_toml``).  No game imports this module (the games import ``engine.game``,
the protocol, and ``engine.options``, the option fields), so adding a game is one entry in ``GAMES``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engine.errors import RuleError
from engine.game import Match
from engine.guandan.game import GuandanMatch
from engine.guandan.options import GuandanOptions
from engine.options import Preset, build_options
from engine.shengji.game import ShengjiMatch
from engine.shengji.options import ShengjiOptions

__all__ = [
    "GAMES",
    "Game",
    "load_preset",
    "match_from_stored",
    "new_match",
    "options_class",
    "preset_from_toml",
    "preset_ids",
    "read_options",
    "replay",
]


@dataclass(frozen=True)
class Game:
    """One game the engine plays: its option dataclass, its match class, how stored options are read."""

    options: type
    match: Callable[[Any, int], Match]  # ``match(options, seed)``
    read_options: Callable[[Mapping[str, object]], Any]  # stored (JSON) option values -> ``options``


def _reader(options: type) -> Callable[[Mapping[str, object]], Any]:
    return lambda values: build_options(options, values)


GAMES: dict[str, Game] = {
    "shengji": Game(ShengjiOptions, ShengjiMatch, _reader(ShengjiOptions)),
    "guandan": Game(GuandanOptions, GuandanMatch, _reader(GuandanOptions)),
}
"""The games by name.  Tests add a fake game here (``monkeypatch.setitem``); nothing else changes it."""


def _game(game: str) -> Game:
    entry = GAMES.get(game)
    if entry is None:
        raise RuleError(
            "unknown_game", "Unknown game {game}; games: {allowed}", game=game, allowed=", ".join(GAMES)
        )
    return entry


def options_class(game: str) -> type:
    """The option dataclass of ``game``; RuleError ``unknown_game`` otherwise."""
    return _game(game).options


def read_options(game: str, values: Mapping[str, object]) -> Any:
    """``game``'s options from stored (JSON) or typed ``values`` over the defaults (validated: OptionError)."""
    return _game(game).read_options(values)


def new_match(game: str, options: Any, seed: int) -> Match:
    """A new match of ``game`` with ``options`` (that game's option dataclass) and ``seed``."""
    return _game(game).match(options, seed)


def match_from_stored(game: str, options_json: Mapping[str, object], seed: int) -> Match:
    """A new match of ``game`` from its stored options (``options_to_dict`` of its options)."""
    entry = _game(game)
    return entry.match(entry.read_options(dict(options_json)), seed)


def replay(game: str, options: Any, seed: int, log: list[str]) -> Match:
    """The match rebuilt from its log (raises if an entry no longer applies)."""
    match = new_match(game, options, seed)
    for action in log:
        match.apply(action)
    return match


# --- presets ---------------------------------------------------------------------------


def preset_ids() -> list[str]:
    """Every preset shipped in engine/presets, sorted."""
    folder = resources.files("engine.presets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_preset(preset_id: str) -> Preset:
    """The preset of that id; RuleError ``unknown_preset`` listing the ids otherwise."""
    ids = preset_ids()
    if preset_id not in ids:
        raise RuleError(
            "unknown_preset",
            "Unknown preset {preset}; presets: {allowed}",
            preset=preset_id,
            allowed=", ".join(ids),
        )
    text = resources.files("engine.presets").joinpath(preset_id + ".toml").read_text(encoding="utf-8")
    return preset_from_toml(tomllib.loads(text), preset_id)


def preset_from_toml(data: Mapping[str, Any], preset_id: str | None = None) -> Preset:
    """A preset from parsed TOML (``game``, ``title_zh``, ``title_en``, ``[rules]``, ``[tournament]``)."""
    game = str(data.get("game", ""))
    rules: Any = read_options(game, dict(data.get("rules", {})))
    pid = preset_id or str(data.get("id", "custom"))
    return Preset(
        pid,
        game,
        str(data.get("title_zh", pid)),
        str(data.get("title_en", pid)),
        rules,
        dict(data.get("tournament", {})),
    )

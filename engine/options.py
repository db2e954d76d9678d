"""Rule options and presets: one typed, validated, self-describing field per rule.

Each game declares its options as a frozen dataclass whose fields carry ``opt(...)``
metadata (a one-line description and, for enumerations, the allowed values).  Presets
are TOML data files in ``engine/presets/`` (one per notice): a ``game``, a ``[rules]``
table of option values and a ``[tournament]`` table of event settings; ``engine.registry``
loads them (it knows the games; this module knows none, so every game may import it).

``build_options`` and ``Preset.with_overrides`` validate every value and raise
``OptionError`` naming the field and its allowed values.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.errors import OptionError, RuleError

T = TypeVar("T")


def opt(
    default: Any,
    doc: str,
    choices: tuple[str, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
) -> Any:
    """A dataclass field for a rule option."""
    return field(default=default, metadata={"doc": doc, "choices": choices, "min": minimum, "max": maximum})


@dataclass(frozen=True)
class OptionSpec:
    name: str
    kind: type
    default: object
    doc: str
    choices: tuple[str, ...] | None
    minimum: int | None
    maximum: int | None

    def allowed(self) -> str:
        if self.choices:
            return " | ".join(self.choices)
        if self.kind is bool:
            return "true | false"
        lo = "" if self.minimum is None else str(self.minimum)
        hi = "" if self.maximum is None else str(self.maximum)
        return f"an integer {lo}..{hi}".rstrip(".") if (lo or hi) else "an integer"

    def convert(self, value: object) -> object:
        """``value`` (typed or text) as this option's type; OptionError when not allowed."""
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("true", "yes", "on", "1", "是", "开"):
                return True
            if text in ("false", "no", "off", "0", "否", "关"):
                return False
            raise OptionError(self.name, value, self.allowed())
        if self.kind is int:
            try:
                number = (
                    value
                    if isinstance(value, int) and not isinstance(value, bool)
                    else int(str(value).strip())
                )
            except ValueError:
                raise OptionError(self.name, value, self.allowed()) from None
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise OptionError(self.name, value, self.allowed())
            return number
        text = str(value).strip()
        if self.choices and text not in self.choices:
            raise OptionError(self.name, value, self.allowed())
        return text


def option_specs(cls: type) -> list[OptionSpec]:
    """The options of a game's option dataclass, in declaration order."""
    specs = []
    for f in dataclasses.fields(cls):
        kind = {"bool": bool, "int": int, "str": str}[f.type if isinstance(f.type, str) else f.type.__name__]
        specs.append(
            OptionSpec(
                f.name,
                kind,
                f.default,
                f.metadata.get("doc", ""),
                f.metadata.get("choices"),
                f.metadata.get("min"),
                f.metadata.get("max"),
            )
        )
    return specs


def build_options(cls: type[T], values: Mapping[str, object], base: T | None = None) -> T:
    """An option object from ``values`` (typed or text) over ``base`` (or the defaults)."""
    specs = {s.name: s for s in option_specs(cls)}
    converted: dict[str, object] = {}
    for name, value in values.items():
        spec = specs.get(name)
        if spec is None:
            raise RuleError(
                "unknown_option",
                "Unknown option {field}; options: {allowed}",
                field=name,
                allowed=", ".join(specs),
            )
        converted[name] = spec.convert(value)
    if base is None:
        return cls(**converted)
    return dataclasses.replace(base, **converted)  # type: ignore[type-var]


def options_to_dict(options: object) -> dict[str, object]:
    """Plain dict of an option object (for storage and display)."""
    return dataclasses.asdict(options)  # type: ignore[call-overload, no-any-return]


# --- presets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    """A named set of option values taken from a notice, plus its tournament settings."""

    id: str
    game: str
    title_zh: str
    title_en: str
    rules: Any
    tournament: Mapping[str, Any]

    def with_overrides(self, values: Mapping[str, object]) -> Preset:
        """This preset with some rule options changed (validated)."""
        return dataclasses.replace(self, rules=build_options(type(self.rules), values, self.rules))

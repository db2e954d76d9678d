"""Times of a tournament: its time zone, parsing and showing local times, their order."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from storage.tournaments.common import error

DEFAULT_TZ = "Asia/Shanghai"


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise error("bad_time_zone", "Unknown time zone {zone}", zone=name) from exc


def parse_local_time(text: str, tz: str = DEFAULT_TZ) -> datetime:
    """``2026-12-01 18:00`` (or ``2026-12-01T18:00``, ``12-01 18:00`` this year) in ``tz`` -> UTC."""
    raw = text.strip().replace("T", " ")
    formats = ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M")
    for fmt in formats:
        try:
            naive = datetime.strptime(raw, fmt)
            break
        except ValueError:
            continue
    else:
        raise error("bad_time", "Not a time: {value} (write 2026-12-01 18:00)", value=text)
    return naive.replace(tzinfo=zone(tz)).astimezone(UTC)


def local_text(when: datetime | None, tz: str = DEFAULT_TZ) -> str:
    """A UTC time as shown on screen: the tournament's time zone, ``2026-12-01 18:00``."""
    if when is None:
        return "-"
    return when.astimezone(zone(tz)).strftime("%Y-%m-%d %H:%M")


def as_utc(value: Any, tz: str, key: str) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=zone(tz)).astimezone(UTC)
        return value.astimezone(UTC)
    if isinstance(value, str):
        return parse_local_time(value, tz)
    raise error("bad_spec_value", "{key} must be a date and time", key=key)


def check_time_order(deadline: datetime | None, draw_at: datetime | None, first: datetime | None) -> None:
    """Registration deadline <= draw time <= first round (RuleError ``times_out_of_order``)."""
    known = [t for t in (deadline, draw_at, first) if t is not None]
    if known != sorted(known):
        raise error(
            "times_out_of_order", "The registration deadline, the draw and the first round must be in order"
        )

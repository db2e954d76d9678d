"""The verifiable draw (抽签): commit, freeze, shuffle, reveal, verify.

The procedure (docs/draw.md gives it step by step, with the published JSON format):

1. Freeze: the entry list (registration order) and the draw options become one
   canonical byte string, :func:`canonical_bytes` (JSON, keys sorted, no spaces,
   UTF-8, non-ASCII characters unescaped).  ``list_hash`` = SHA-256 of it (hex).
2. Commit: the caller generates a 32-byte secret (never the engine: no randomness
   here) and publishes ``commitment`` = SHA-256(secret) together with ``list_hash``.
3. Draw: ``draw_seed`` = SHA-256(secret || list_hash as 32 raw bytes).  A byte stream
   ``SHA-256(draw_seed || counter)`` (counter: 8-byte big-endian, 0, 1, 2, ...) drives a
   Fisher-Yates shuffle of the unseeded entries with rejection sampling
   (:func:`shuffle`).  Seeded entries come first, by seed number.
4. Layout: single elimination places the order on the standard seeding positions of a
   bracket of the next power of two (byes face the first ranks); optionally a
   deterministic swap pass keeps entries of one union group apart in round 1.  Groups
   take the order in a snake (A B C D D C B A ...).  A Swiss pairs the order's top
   half with its bottom half in round 1 (:func:`swiss_slots`; odd: the last
   entry has the bye), with the same optional swap pass.
5. Reveal: the secret is published; :func:`verify` recomputes every step from the
   published JSON and reports each check.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleError
from engine.tournament.entries import Entry

PROCEDURE = "sha256-fisher-yates-v1"
FORMATS = ("single_elimination", "groups", "swiss")


# --- hashing -------------------------------------------------------------------------


def _json(data: object) -> bytes:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@dataclass(frozen=True)
class DrawOptions:
    """What the draw lays out: a bracket or ``groups`` groups; union-group separation in round 1."""

    format: str = "single_elimination"
    separate_union_groups: bool = False
    groups: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "separate_union_groups": self.separate_union_groups,
            "groups": self.groups,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> DrawOptions:
        return DrawOptions(
            str(data.get("format", "single_elimination")),
            bool(data.get("separate_union_groups", False)),
            int(data.get("groups", 0) or 0),
        )

    def check(self, entry_count: int) -> None:
        if self.format not in FORMATS:
            raise RuleError(
                "bad_draw_format",
                "Draw format {format} is not allowed; allowed: {allowed}",
                format=self.format,
                allowed=" | ".join(FORMATS),
            )
        if self.format == "groups" and not 1 <= self.groups <= max(1, entry_count // 2):
            raise RuleError(
                "bad_group_number",
                "{groups} groups cannot be made from {count} entries",
                groups=self.groups,
                count=entry_count,
            )


def canonical_bytes(tournament: str, entries: Sequence[Entry], options: DrawOptions) -> bytes:
    """The frozen list: ``{"entries": [...], "options": {...}, "tournament": ...}`` as canonical JSON."""
    return _json(
        {"tournament": tournament, "options": options.to_dict(), "entries": [e.to_dict() for e in entries]}
    )


def list_hash(tournament: str, entries: Sequence[Entry], options: DrawOptions) -> str:
    """SHA-256 (hex) of :func:`canonical_bytes`."""
    return hashlib.sha256(canonical_bytes(tournament, entries, options)).hexdigest()


def commitment(secret: bytes) -> str:
    """SHA-256 (hex) of the secret: published before the draw, checked after the reveal."""
    return hashlib.sha256(secret).hexdigest()


def draw_seed(secret: bytes, list_hash_hex: str) -> bytes:
    """SHA-256(secret || list hash bytes): neither the organiser nor the entrants fix it alone."""
    return hashlib.sha256(secret + bytes.fromhex(list_hash_hex)).digest()


# --- the shuffle ---------------------------------------------------------------------


class ByteStream:
    """SHA-256 in counter mode: block k = SHA-256(seed || k as 8-byte big-endian), k = 0, 1, ..."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.counter = 0
        self.buffer = b""

    def take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            self.buffer += hashlib.sha256(self.seed + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        out, self.buffer = self.buffer[:count], self.buffer[count:]
        return out

    def below(self, n: int) -> int:
        """Uniform integer in [0, n): 4-byte big-endian words, rejecting those >= 2**32 - 2**32 % n."""
        if n < 1:
            raise ValueError("n must be positive")
        limit = 2**32 - (2**32 % n)
        while True:
            x = int.from_bytes(self.take(4), "big")
            if x < limit:
                return x % n


def shuffle(items: Sequence[str], seed: bytes) -> list[str]:
    """Fisher-Yates: for i = len-1 down to 1, j = below(i + 1), swap items i and j."""
    out = list(items)
    stream = ByteStream(seed)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def lot_values(seed: bytes, ids: Sequence[str]) -> dict[str, int]:
    """A recorded lot: each id's number is the first 8 bytes (big-endian) of SHA-256(seed || "lot:" || id).

    Lower number = drawn first.  Standings use it as their last tiebreak.
    """
    return {
        i: int.from_bytes(hashlib.sha256(seed + b"lot:" + i.encode("utf-8")).digest()[:8], "big") for i in ids
    }


def lot_seed(seed: bytes) -> bytes:
    """The tournament's lot seed derived from its draw seed: SHA-256(draw_seed || "lot")."""
    return hashlib.sha256(seed + b"lot").digest()


# --- layouts -------------------------------------------------------------------------


def bracket_size(count: int) -> int:
    """The next power of two >= count (at least 2)."""
    size = 2
    while size < count:
        size *= 2
    return size


def seeding_order(size: int) -> list[int]:
    """Seed ranks (1-based) by bracket position: 2 -> [1,2]; 2m -> each s followed by 2m+1-s.

    8 -> [1, 8, 4, 5, 2, 7, 3, 6]: seeds 1 and 2 meet only in the final, 1..4 only in
    the semi-finals, and rank r faces rank size+1-r in round 1 (so byes, the ranks
    beyond the entry count, face the first ranks).
    """
    order = [1, 2]
    while len(order) < size:
        m = len(order) * 2
        order = [x for s in order for x in (s, m + 1 - s)]
    return order


def draw_order(entries: Sequence[Entry], seed: bytes) -> list[str]:
    """Seeded entries by seed number, then the unseeded ones (registration order) shuffled."""
    seeded = sorted((e for e in entries if e.seed_no is not None), key=lambda e: e.seed_no or 0)
    unseeded = [e.id for e in entries if e.seed_no is None]
    return [e.id for e in seeded] + shuffle(unseeded, seed)


def _conflicts(slots: Sequence[str | None], groups: Mapping[str, str], m: int) -> int:
    x, y = slots[2 * m], slots[2 * m + 1]
    return int(x is not None and y is not None and groups[x] == groups[y])


def separate_first_round(slots: list[str | None], entries: Sequence[Entry]) -> int:
    """Swap entries so round-1 opponents come from different union groups where possible.

    Passes repeat until a pass swaps nothing.  In a pass, for each round-1 match i (in
    bracket order) whose two entries share a union group, the first swap that lowers
    the number of such matches among i and j is made, trying positions p = second then
    first slot of i, matches j = 0, 1, ... (j != i), positions q = first then second
    slot of j.  Only unseeded entries move; byes stay.  Returns the conflicts left.
    """
    groups = {e.id: e.union_group for e in entries}
    seeded = {e.id for e in entries if e.seed_no is not None}
    matches = len(slots) // 2

    def movable(pos: int) -> bool:
        x = slots[pos]
        return x is not None and x not in seeded

    changed = True
    while changed:
        changed = False
        for i in range(matches):
            if not _conflicts(slots, groups, i):
                continue
            done = False
            for p in (2 * i + 1, 2 * i):
                if done or not movable(p):
                    continue
                for j in range(matches):
                    if j == i or done:
                        continue
                    for q in (2 * j, 2 * j + 1):
                        if not movable(q):
                            continue
                        before = _conflicts(slots, groups, i) + _conflicts(slots, groups, j)
                        slots[p], slots[q] = slots[q], slots[p]
                        if _conflicts(slots, groups, i) + _conflicts(slots, groups, j) < before:
                            done = changed = True
                            break
                        slots[p], slots[q] = slots[q], slots[p]
    return sum(_conflicts(slots, groups, m) for m in range(matches))


def bracket_slots(order: Sequence[str], size: int | None = None) -> list[str | None]:
    """Bracket positions: rank r (1-based, r-th in ``order``) goes where seeding_order puts r; None = bye."""
    size = size or bracket_size(len(order))
    return [order[r - 1] if r <= len(order) else None for r in seeding_order(size)]


def swiss_slots(order: Sequence[str]) -> list[str | None]:
    """Swiss round 1 from the order: (order[i], order[i + h]) for i < h = n // 2, then the bye.

    Positions 2m and 2m+1 are match m (the layout the separation pass works on); with
    an odd count the last entry of the order is followed by None (its bye).
    """
    h = len(order) // 2
    slots: list[str | None] = []
    for i in range(h):
        slots += [order[i], order[i + h]]
    if len(order) % 2:
        slots += [order[-1], None]
    return slots


def snake_groups(order: Sequence[str], groups: int) -> list[list[str]]:
    """Deal ``order`` into groups in a snake: A B C D, D C B A, A B ... (sizes differ by at most 1)."""
    out: list[list[str]] = [[] for _ in range(groups)]
    for i, entry_id in enumerate(order):
        row, col = divmod(i, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(entry_id)
    return out


def group_name(index: int) -> str:
    """A, B, ..., Z, AA, AB, ..."""
    name = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        name = chr(65 + rem) + name
    return name


# --- the draw record -----------------------------------------------------------------


@dataclass(frozen=True)
class Announcement:
    """Published before the draw: the frozen list's hash and the commitment to the secret."""

    tournament: str
    list_hash: str
    commitment: str

    def to_dict(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "list_hash": self.list_hash, "commitment": self.commitment}


def announce(tournament: str, entries: Sequence[Entry], options: DrawOptions, secret: bytes) -> Announcement:
    """Freeze the list and commit to ``secret`` (32 random bytes from the caller)."""
    if len(secret) != 32:
        raise RuleError("bad_secret", "The draw secret must be 32 bytes; it has {count}", count=len(secret))
    options.check(len(entries))
    return Announcement(tournament, list_hash(tournament, entries, options), commitment(secret))


@dataclass(frozen=True)
class DrawResult:
    """A finished draw: everything the published JSON holds (see :meth:`published`)."""

    tournament: str
    entries: tuple[Entry, ...]
    options: DrawOptions
    list_hash: str
    commitment: str
    secret: bytes
    order: tuple[str, ...]
    bracket: tuple[str | None, ...] = ()
    groups: tuple[tuple[str, ...], ...] = ()
    conflicts: int = 0

    @property
    def seed(self) -> bytes:
        return draw_seed(self.secret, self.list_hash)

    @property
    def lot_seed(self) -> bytes:
        return lot_seed(self.seed)

    def first_round(self) -> list[tuple[str | None, str | None]]:
        """Round-1 pairings of a bracket draw (None = bye)."""
        return [(self.bracket[i], self.bracket[i + 1]) for i in range(0, len(self.bracket), 2)]

    def published(self, reveal: bool = True) -> dict[str, Any]:
        """The published JSON (docs/draw.md); ``reveal=False`` leaves out the secret and the seed."""
        data: dict[str, Any] = {
            "procedure": PROCEDURE,
            "tournament": self.tournament,
            "options": self.options.to_dict(),
            "entries": [e.to_dict() for e in self.entries],
            "list_hash": self.list_hash,
            "commitment": self.commitment,
            "order": list(self.order),
            "separation_conflicts": self.conflicts,
        }
        if self.options.format == "single_elimination":
            data["bracket"] = list(self.bracket)
        elif self.options.format == "swiss":
            data["round_1"] = list(self.bracket)
        else:
            data["groups"] = {group_name(i): list(g) for i, g in enumerate(self.groups)}
        if reveal:
            data["secret"] = self.secret.hex()
            data["draw_seed"] = self.seed.hex()
        return data

    def to_dict(self) -> dict[str, Any]:
        return self.published(reveal=True)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> DrawResult:
        groups = data.get("groups") or {}
        return DrawResult(
            str(data["tournament"]),
            tuple(Entry.from_dict(e) for e in data["entries"]),
            DrawOptions.from_dict(data.get("options", {})),
            str(data["list_hash"]),
            str(data["commitment"]),
            bytes.fromhex(str(data["secret"])),
            tuple(data["order"]),
            tuple(data.get("bracket") or data.get("round_1") or ()),
            tuple(tuple(groups[k]) for k in sorted(groups, key=lambda n: (len(n), n))),
            int(data.get("separation_conflicts", 0)),
        )


def compute_layout(
    entries: Sequence[Entry], options: DrawOptions, seed: bytes
) -> tuple[list[str], list[str | None], list[list[str]], int]:
    """Order, bracket slots, groups and remaining union-group conflicts for ``seed``."""
    order = draw_order(entries, seed)
    slots: list[str | None] = []
    groups: list[list[str]] = []
    conflicts = 0
    if options.format == "single_elimination":
        slots = bracket_slots(order)
        if options.separate_union_groups:
            conflicts = separate_first_round(slots, entries)
    elif options.format == "swiss":
        slots = swiss_slots(order)
        if options.separate_union_groups:
            conflicts = separate_first_round(slots, entries)
    else:
        groups = snake_groups(order, options.groups)
    return order, slots, groups, conflicts


def make_draw(tournament: str, entries: Sequence[Entry], options: DrawOptions, secret: bytes) -> DrawResult:
    """Run the draw for a frozen list and a secret (32 random bytes generated by the caller)."""
    ann = announce(tournament, entries, options, secret)
    order, slots, groups, conflicts = compute_layout(entries, options, draw_seed(secret, ann.list_hash))
    return DrawResult(
        tournament,
        tuple(entries),
        options,
        ann.list_hash,
        ann.commitment,
        secret,
        tuple(order),
        tuple(slots),
        tuple(tuple(g) for g in groups),
        conflicts,
    )


# --- verification --------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass(frozen=True)
class VerifyReport:
    """Each check of :func:`verify`; ``ok`` when all passed."""

    checks: tuple[Check, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def failed(self) -> list[str]:
        return [c.name for c in self.checks if not c.ok]

    def lines(self) -> list[str]:
        return [f"{'OK  ' if c.ok else 'FAIL'} {c.name}: {c.detail}" for c in self.checks] + [
            "draw verified" if self.ok else "draw NOT verified: " + ", ".join(self.failed())
        ]


def verify(published: Mapping[str, Any], announced: Mapping[str, Any] | None = None) -> VerifyReport:
    """Recompute a published draw: list hash, commitment, (announced values), order, layout.

    ``announced`` (optional) is what was published before the draw (list_hash and
    commitment); the check then also proves neither changed afterwards.
    """
    checks: list[Check] = []
    try:
        entries = [Entry.from_dict(e) for e in published["entries"]]
        options = DrawOptions.from_dict(published.get("options", {}))
        tournament = str(published["tournament"])
        secret = bytes.fromhex(str(published["secret"]))
    except (KeyError, ValueError, TypeError) as exc:
        return VerifyReport((Check("format", False, f"unreadable published draw: {exc!r}"),))
    if published.get("procedure", PROCEDURE) != PROCEDURE:
        checks.append(Check("procedure", False, f"unknown procedure {published.get('procedure')}"))
    lh = list_hash(tournament, entries, options)
    checks.append(
        Check(
            "list_hash",
            lh == published.get("list_hash"),
            f"SHA-256 of the entry list is {lh}; published {published.get('list_hash')}",
        )
    )
    cm = commitment(secret)
    checks.append(
        Check(
            "commitment",
            cm == published.get("commitment"),
            f"SHA-256 of the secret is {cm}; published {published.get('commitment')}",
        )
    )
    if announced is not None:
        for key in ("list_hash", "commitment"):
            same = announced.get(key) == published.get(key)
            checks.append(
                Check(
                    f"announced_{key}",
                    same,
                    f"announced {announced.get(key)}; published {published.get(key)}",
                )
            )
    seed = draw_seed(secret, lh)
    if "draw_seed" in published:
        checks.append(Check("draw_seed", published["draw_seed"] == seed.hex(), f"recomputed {seed.hex()}"))
    order, slots, groups, conflicts = compute_layout(entries, options, seed)
    checks.append(
        Check("order", list(published.get("order", [])) == order, "recomputed order " + " ".join(order))
    )
    if options.format == "single_elimination":
        checks.append(
            Check(
                "bracket",
                list(published.get("bracket", [])) == slots,
                "recomputed bracket " + " ".join(s or "-" for s in slots),
            )
        )
    elif options.format == "swiss":
        checks.append(
            Check(
                "round_1",
                list(published.get("round_1", [])) == slots,
                "recomputed round 1 " + " ".join(s or "-" for s in slots),
            )
        )
    else:
        want = {group_name(i): g for i, g in enumerate(groups)}
        got = {str(k): list(v) for k, v in (published.get("groups") or {}).items()}
        checks.append(
            Check(
                "groups",
                got == want,
                "recomputed groups " + "; ".join(f"{k}: {' '.join(v)}" for k, v in want.items()),
            )
        )
    return VerifyReport(tuple(checks))

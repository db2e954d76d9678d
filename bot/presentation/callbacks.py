"""The one codec of the play side's button callback data: typed buttons, ``encode`` and ``parse``.

Telegram gives a button at most 64 bytes of callback data.  Every button of the play side is one of:

* table message: ``j:<table>:<seat>`` join, ``g:<table>`` start, ``l:<table>`` leave;
* ``L:<lang>`` choose a language, ``u:<match>`` resume a paused table;
* hand message (``<deal>`` is the deal marker: a press from an older deal's message is stale):
  ``s:<match>:<deal>:<card>:<copy>`` tap a card, ``c`` clear, ``p`` play the selection, ``k`` bury it,
  ``b:…:<c.c.c>`` bid / ``o:…:<c.c.c>`` overturn with those cards, ``n`` pass a bid or overturn,
  ``x`` pass (Guandan), ``r:…:<reading>`` play the selection as that reading, ``t`` tribute / return
  the selection, ``q`` ask the card counts, ``h:…:<what>`` choose after a failed throw.

The tournament side's buttons start with ``T:`` (``TournamentButton``, read by ``parse_tournament``):
``T:g:<tournament>:<union group no>`` choose the union group, ``T:a:<token>`` accept a partner's
invitation, ``T:r:<token>`` accept a replacement offer, ``T:d:<tournament>`` refresh a dashboard /
``T:ds:<tournament>`` stop following it, ``T:x:<tournament>:<cancel|delete|no>:<token>`` answer a
confirmation, ``T:c:<tournament>:<match>`` check in, ``T:s:<word>[:<word>...]`` a guided set-up button.

``parse`` returns None for the tournament side's buttons and for anything else it does not know;
``parse_tournament`` returns None for anything but a well-formed tournament button.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class TableOp(StrEnum):
    JOIN = "j"
    START = "g"
    LEAVE = "l"


class HandOp(StrEnum):
    TAP = "s"
    CLEAR = "c"
    PLAY = "p"
    BURY = "k"
    BID = "b"
    OVERTURN = "o"
    PASS_BID = "n"
    PASS = "x"
    PLAY_AS = "r"
    TRIBUTE = "t"
    ASK_COUNTS = "q"
    CHOOSE = "h"


# ops that carry a card and its copy / a list of cards / a word after the deal marker
_WITH_CARDS = (HandOp.BID, HandOp.OVERTURN)
_WITH_WORD = (HandOp.PLAY_AS, HandOp.CHOOSE)


@dataclass(frozen=True)
class TableButton:
    """A button of a table's lobby message."""

    op: TableOp
    table_id: int
    seat: int | None = None  # JOIN only

    def encode(self) -> str:
        if self.op is TableOp.JOIN:
            return f"j:{self.table_id}:{self.seat}"
        return f"{self.op.value}:{self.table_id}"


@dataclass(frozen=True)
class LangButton:
    lang: str

    def encode(self) -> str:
        return f"L:{self.lang}"


@dataclass(frozen=True)
class ResumeButton:
    match_id: int

    def encode(self) -> str:
        return f"u:{self.match_id}"


@dataclass(frozen=True)
class HandButton:
    """A button of a seat's hand message."""

    op: HandOp
    match_id: int
    deal: int
    card: int | None = None  # TAP: the card and which copy of it (0 or 1)
    copy: int = 0
    cards: tuple[int, ...] = ()  # BID / OVERTURN
    word: str = ""  # PLAY_AS: the reading id; CHOOSE: what to play after a failed throw

    def encode(self) -> str:
        head = f"{self.op.value}:{self.match_id}:{self.deal}"
        if self.op is HandOp.TAP:
            return f"{head}:{self.card}:{self.copy}"
        if self.op in _WITH_CARDS:
            return f"{head}:{'.'.join(str(c) for c in self.cards)}"
        if self.op in _WITH_WORD:
            return f"{head}:{self.word}"
        return head


Button = TableButton | LangButton | ResumeButton | HandButton


class TournamentOp(StrEnum):
    UNION_GROUP = "g"
    ACCEPT_INVITE = "a"
    ACCEPT_REPLACEMENT = "r"
    DASHBOARD = "d"
    DASHBOARD_STOP = "ds"
    CONFIRM = "x"
    CHECK_IN = "c"
    SETUP = "s"


_WITH_TOKEN = (TournamentOp.ACCEPT_INVITE, TournamentOp.ACCEPT_REPLACEMENT)
_DASHBOARD = (TournamentOp.DASHBOARD, TournamentOp.DASHBOARD_STOP)
_MAX_ID = 2**31 - 1  # tournament ids are 32-bit database integers


@dataclass(frozen=True)
class TournamentButton:
    """A button of the tournament side (``T:...``)."""

    op: TournamentOp
    tournament_id: int = 0  # every op but the two acceptances and the set-up's
    index: int = 0  # UNION_GROUP: which of the tournament's union groups
    token: str = (
        ""  # ACCEPT_*: the invitation's / offer's token; CONFIRM: the stored request's ("" before they were)
    )
    word: str = ""  # CONFIRM: cancel / delete / no; CHECK_IN: the match key
    words: tuple[str, ...] = ()  # SETUP: what the guided set-up's button says

    def encode(self) -> str:
        op = self.op
        if op is TournamentOp.UNION_GROUP:
            return f"T:g:{self.tournament_id}:{self.index}"
        if op in _WITH_TOKEN:
            return f"T:{op.value}:{self.token}"
        if op is TournamentOp.CONFIRM:
            return f"T:x:{self.tournament_id}:{self.word}:{self.token}"
        if op is TournamentOp.CHECK_IN:
            return f"T:c:{self.tournament_id}:{self.word}"
        if op is TournamentOp.SETUP:
            return ":".join(("T:s", *self.words))
        return f"T:{op.value}:{self.tournament_id}"


def _id(text: str) -> int:
    """A tournament id or index: ASCII digits only, within a 32-bit database integer."""
    if not (text.isascii() and text.isdigit()):
        raise ValueError(text)
    value = int(text)
    if value > _MAX_ID:
        raise ValueError(text)
    return value


def parse_tournament(data: str | None) -> TournamentButton | None:
    """The tournament button that ``data`` encodes, or None (not one, or malformed)."""
    if not data or not data.startswith("T:"):
        return None
    parts = data.split(":")
    code, args = parts[1], parts[2:]
    if code not in {op.value for op in TournamentOp}:
        return None
    op = TournamentOp(code)
    try:
        if op is TournamentOp.UNION_GROUP and len(args) == 2:
            return TournamentButton(op, _id(args[0]), index=_id(args[1]))
        if op in _WITH_TOKEN and len(args) == 1 and args[0]:
            return TournamentButton(op, token=args[0])
        if op in _DASHBOARD and len(args) == 1:
            return TournamentButton(op, _id(args[0]))
        if op is TournamentOp.CONFIRM and len(args) in (2, 3) and args[1]:
            return TournamentButton(op, _id(args[0]), word=args[1], token=args[2] if len(args) == 3 else "")
        if op is TournamentOp.CHECK_IN and len(args) == 2 and args[1]:
            return TournamentButton(op, _id(args[0]), word=args[1])
        if op is TournamentOp.SETUP:
            return TournamentButton(op, words=tuple(args))
    except ValueError:
        return None
    return None


def tap(match_id: int, deal: int, card: int, copy: int) -> str:
    return HandButton(HandOp.TAP, match_id, deal, card=card, copy=copy).encode()


def hand(op: HandOp, match_id: int, deal: int, *, cards: tuple[int, ...] = (), word: str = "") -> str:
    return HandButton(op, match_id, deal, cards=cards, word=word).encode()


# ids, deal markers and cards are stored as 32-bit integers (PostgreSQL's INTEGER): a bigger number is no button's
_INT_BOUND = 2**31 - 1


def number(text: str) -> int | None:
    """The integer a field of callback data holds (ASCII digits, an optional minus, within 32 bits), or None."""
    if not text or not (text.isascii() and (text.isdigit() or (text[0] == "-" and text[1:].isdigit()))):
        return None
    value = int(text)
    return value if abs(value) <= _INT_BOUND else None


def _int(text: str) -> int:
    value = number(text)
    if value is None:
        raise ValueError(text)
    return value


def parse(data: str | None) -> Button | None:
    """The button that ``data`` encodes, or None when it is not one of the play side's (or malformed)."""
    if not data:
        return None
    parts = data.split(":")
    code, args = parts[0], parts[1:]
    try:
        if code == "L" and len(args) == 1 and args[0]:
            return LangButton(args[0])
        if code == "u" and len(args) == 1:
            return ResumeButton(_int(args[0]))
        if code in {op.value for op in TableOp}:
            op = TableOp(code)
            if op is TableOp.JOIN and len(args) == 2:
                return TableButton(op, _int(args[0]), _int(args[1]))
            if op is not TableOp.JOIN and len(args) == 1:
                return TableButton(op, _int(args[0]))
            return None
        if code in {op.value for op in HandOp} and len(args) >= 2:
            hop = HandOp(code)
            match_id, deal, rest = _int(args[0]), _int(args[1]), args[2:]
            if hop is HandOp.TAP:
                if len(rest) != 2:
                    return None
                return HandButton(hop, match_id, deal, card=_int(rest[0]), copy=_int(rest[1]))
            if hop in _WITH_CARDS:
                if len(rest) != 1 or not rest[0]:
                    return None
                return HandButton(hop, match_id, deal, cards=tuple(_int(x) for x in rest[0].split(".")))
            if hop in _WITH_WORD:
                if len(rest) != 1 or not rest[0]:
                    return None
                return HandButton(hop, match_id, deal, word=rest[0])
            if rest:
                return None
            return HandButton(hop, match_id, deal)
    except ValueError:
        return None
    return None

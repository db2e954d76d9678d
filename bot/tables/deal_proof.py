"""What the bot publishes so a player can check a deal (docs/fairness.md): a commitment before it,
the seed after it, and a JSON proof file that ``python -m bot.verify_deal`` checks.

Built on ``engine.fairness`` (seeds, the salt, the SHA-256 commitment, recomputing the cards).  The bot adds a
16-byte salt per deal, derived from the match seed (so it is as secret as the seed until revealed),
which keeps the commitment hiding even against a search of all 2**64 deal seeds:

    salt(match_seed, deal, redeal) = sha256(b"deal-salt/v1\\x00" + seed_bytes(match_seed)
                                            + deal (4 bytes big-endian) + redeal (4 bytes big-endian))[:16]

* Before a deal: ``commitment(deal_seed, salt)`` (the table message shows its first
  ``SHOWN_DIGITS`` hex digits; the proof file has all 64).
* After the deal: the deal summary reveals ``deal_seed`` and the salt; the seeds of the other
  deals stay hidden (each is a SHA-256 derivation of the match seed).
* Duplicate boards (tournaments, option ``board_turn`` 0..3): the tables of one comparison share the
  match seed, hence the deal seeds; the salt adds the table's turn as one more byte, so each table has
  its own commitment, and the proof names the turn (``board_turn``) that ``verify_deal`` applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.presentation.games import presenter
from bot.presentation.i18n import t
from bot.tables.review import DealRecord
from engine.cards import card_text
from engine.fairness import (
    commitment,
    deal_salt,
    deal_seed,
    match_commitment,
    recompute_deal,
    verify_commitment,
)
from engine.game import Match
from storage.models import GameTable

SHOWN_DIGITS = 16
PROOF_FORMAT = "deal-proof/v1"
# A proof file's JSON object as the bot writes it and ``json.load`` reads it back (``check_proof`` checks each
# field it uses: a file from elsewhere may hold anything)
Proof = dict[str, Any]


def board_turn(options: object) -> int | None:
    """The duplicate turn of a match's options (its ``Options`` or their stored dict); None: ordinary deals."""
    value = options.get("board_turn", -1) if isinstance(options, dict) else getattr(options, "board_turn", -1)
    turn = int(value if value is not None else -1)
    return turn if turn >= 0 else None


@dataclass(frozen=True)
class DealProof:
    game: str
    deal_no: int
    redeal_no: int
    seed: int
    salt: bytes
    commitment: str
    turn: int | None = None

    @property
    def shown(self) -> str:
        """The commitment as the table message shows it (its first hex digits)."""
        return self.commitment[:SHOWN_DIGITS]


def proof_for(
    game: str, match_seed: int, deal_no: int, redeal_no: int = 0, turn: int | None = None
) -> DealProof:
    seed = deal_seed(game, match_seed, deal_no, redeal_no)
    salt = deal_salt(match_seed, deal_no, redeal_no, turn)
    return DealProof(game, deal_no, redeal_no, seed, salt, commitment(seed, salt), turn)


def live_deal(game: str, m: Match) -> tuple[int, int] | None:
    """(deal, redeal) whose commitment the table shows now: the deal in play, or the next one
    (Guandan before its first deal); None once the match is over."""
    if m.finished:
        return None
    if m.deal_no == 0 or m.phase in ("deal_over", "new"):  # between deals (Guandan: before the first one)
        return m.deal_no + 1, 0
    return m.deal_no, m.redeal_no


def proof_json(
    proof: DealProof,
    *,
    preset: str,
    match_id: int,
    first_drawer: int | None,
    hands: list[list[str]] | None = None,
    kitty: list[str] | None = None,
) -> Proof:
    """The published proof of one finished deal (checked by ``python -m bot.verify_deal``)."""
    data: Proof = {
        "format": PROOF_FORMAT,
        "game": proof.game,
        "preset": preset,
        "match": match_id,
        "deal": proof.deal_no,
        "redeal": proof.redeal_no,
        "deal_seed": str(proof.seed),
        "salt": proof.salt.hex(),
        "commitment": proof.commitment,
    }
    kitty_dealt = presenter(proof.game).BIDS_AND_KITTY
    if kitty_dealt:
        data["first_drawer"] = first_drawer
    if proof.turn is not None:
        data["board_turn"] = proof.turn
    if hands is not None:
        data["hands"] = hands
    if kitty is not None and kitty_dealt:
        data["kitty"] = kitty
    return data


@dataclass
class Check:
    ok: bool
    lines: list[str]
    hands: tuple[tuple[str, ...], ...] = ()
    kitty: tuple[str, ...] = ()


def check_proof(data: Proof) -> Check:
    """Recompute the cards from the revealed seed; check the commitment and any hands/kitty given."""
    lines: list[str] = []
    game = str(data.get("game") or "")
    if game not in ("shengji", "guandan"):
        preset = str(data.get("preset") or "")
        game = (
            "guandan" if preset.startswith("guandan") else "shengji" if preset.startswith("shengji") else ""
        )
    if not game:
        return Check(False, ["game or preset missing (shengji-… / guandan-…)"])
    try:
        seed = int(str(data["deal_seed"]), 0)
        salt = bytes.fromhex(str(data.get("salt") or ""))
    except (KeyError, ValueError):
        return Check(False, ["deal_seed (a number) and salt (hex) are needed"])
    first = int(data.get("first_drawer") or 0)
    turn = board_turn(data)
    if turn is not None:
        lines.append(f"--   duplicate board: hands turned {turn} seat(s)")
    try:
        cards = recompute_deal(game, seed, first_drawer=first, turn=turn)
    except ValueError as exc:
        return Check(False, [f"cannot recompute: {exc}"])
    ok = True
    expected = str(data.get("commitment") or "")
    if expected:
        good = len(expected) >= SHOWN_DIGITS and (
            verify_commitment(seed, expected, salt)
            if len(expected) == 64
            else commitment(seed, salt).startswith(expected.lower())
        )
        lines.append(
            ("OK   " if good else "FAIL ")
            + f"commitment {expected[:SHOWN_DIGITS]}… "
            + ("matches the seed" if good else "does NOT match the seed")
        )
        ok &= good
    else:
        lines.append("--   no commitment given: only the cards are recomputed")
    if "hands" in data:
        for seat, (given, real) in enumerate(zip(data["hands"], cards.hands, strict=False)):
            same = sorted(given) == sorted(real)
            ok &= same
            lines.append(
                ("OK   " if same else "FAIL ")
                + f"seat {seat} hand "
                + ("is what the seed deals" if same else "differs from what the seed deals")
            )
    if "kitty" in data and presenter(game).BIDS_AND_KITTY:
        same = sorted(data["kitty"]) == sorted(cards.kitty)
        ok &= same
        lines.append(
            ("OK   " if same else "FAIL ") + "kitty " + ("is what the seed deals" if same else "differs")
        )
    return Check(ok, lines, cards.hands, cards.kitty)


# --- lines for the table message and the deal summary ----------------------------------------------


def commitment_line(lang: str, game: str, match_seed: int, m: Match) -> str | None:
    """``🔒 本副承诺 …`` for the deal in play (or about to start); None once the match is over."""
    live = live_deal(game, m)
    if live is None:
        return None
    turn = board_turn(getattr(m, "options", None))
    return t(lang, "table.commitment", commitment=proof_for(game, match_seed, *live, turn=turn).shown)


def reveal_line(
    lang: str, game: str, match_seed: int, deal_no: int, redeal_no: int = 0, turn: int | None = None
) -> str:
    """``🔑 种子 … · salt …`` for a finished deal (its summary)."""
    proof = proof_for(game, match_seed, deal_no, redeal_no, turn)
    return t(lang, "sum.reveal", seed=proof.seed, salt=proof.salt.hex())


def match_commitment_line(lang: str, server_seed: int, words: int) -> str:
    """The lobby line of a tournament table: the commitment to its server seed."""
    return t(lang, "lobby.match_commitment", commitment=match_commitment(server_seed)[:SHOWN_DIGITS], n=words)


def record_proof(
    game: str, preset: str, match_id: int, match_seed: int, rec: DealRecord, turn: int | None = None
) -> Proof:
    """The proof file of a finished deal from its review record (``bot.tables.review.DealRecord``)."""
    proof = proof_for(game, match_seed, rec.deal_no, rec.redeals, turn)
    hands = [[card_text(c) for c in h] for h in rec.hands] if rec.hands else None
    kitty = [card_text(c) for c in rec.kitty] if rec.kitty else None
    return proof_json(
        proof, preset=preset, match_id=match_id, first_drawer=rec.first_drawer, hands=hands, kitty=kitty
    )


def review_fairness(
    game: str, preset: str, match_seed: int, rec: DealRecord, turn: int | None = None, reveal: bool = True
) -> dict[str, str]:
    """The fairness block of a deal in the review file: commitment, and once the deal is over (and
    ``reveal``: a duplicate table's match is over) its seed, salt and the command that checks it."""
    proof = proof_for(game, match_seed, rec.deal_no, rec.redeals, turn)
    out = {"commitment": proof.commitment}
    if rec.finished and reveal:
        out["deal_seed"] = str(proof.seed)
        out["salt"] = proof.salt.hex()
        drawer = f" --first-drawer {rec.first_drawer}" if rec.first_drawer is not None else ""
        turned = f" --board-turn {turn}" if turn is not None else ""
        out["verify"] = (
            f"python -m bot.verify_deal --preset {preset} --seed {proof.seed} --salt {proof.salt.hex()} "
            f"--commitment {proof.commitment}{drawer}{turned}"
        )
    return out


def lobby_lines(lang: str, table: GameTable) -> list[str]:
    """What the lobby says about the table's seed: a practice table's public seed, an admin's fixed seed,
    or a tournament table's commitment to its server seed (with how many /mix words so far)."""
    if table.practice and table.fixed_seed is not None:
        return [t(lang, "lobby.practice", seed=table.fixed_seed)]
    if table.fixed_seed is not None:
        return [t(lang, "lobby.fixed_seed")]
    if table.server_seed is not None:
        return [match_commitment_line(lang, table.server_seed, len(table.mix_words or []))]
    return []


def table_lines(lang: str, game: str, match_seed: int, m: Match, table: GameTable | None) -> list[str]:
    """What the live table message adds: the practice / fixed-seed mark and the current deal's commitment."""
    out = []
    if table is not None and table.practice:
        out.append(t(lang, "lobby.practice", seed=table.fixed_seed))
    elif table is not None and table.fixed_seed is not None:
        out.append(t(lang, "lobby.fixed_seed"))
    line = commitment_line(lang, game, match_seed, m)
    if line:
        out.append(line)
    return out

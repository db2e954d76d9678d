"""Per-deal commitment and reveal (bot/tables/deal_proof.py) and the checker ``python -m bot.verify_deal``."""

from __future__ import annotations

import json

import pytest

from bot import verify_deal
from bot.tables.deal_proof import SHOWN_DIGITS, check_proof, proof_for, record_proof, review_fairness
from bot.tables.review import deal_records, review_html
from engine.fairness import commitment
from tests.bot.tables.test_review import computer_match

SEED = 7


@pytest.fixture(scope="module")
def shengji():
    game, opts, log = computer_match("shengji-17-deals", {"deals": "2"}, SEED)
    return game, deal_records(game, opts, SEED, log)


@pytest.fixture(scope="module")
def guandan():
    game, opts, log = computer_match("guandan-team", {"deals": "2"}, SEED)
    return game, deal_records(game, opts, SEED, log)


def test_every_played_deal_verifies_from_its_revealed_seed(shengji, guandan):
    for game, records in (shengji, guandan):
        preset = "shengji-17-deals" if game == "shengji" else "guandan-team"
        for rec in records:
            proof = record_proof(game, preset, 1, SEED, rec)
            checked = check_proof(json.loads(json.dumps(proof)))
            assert checked.ok, checked.lines
            assert all(line.startswith("OK") for line in checked.lines)
            assert len(checked.lines) == 1 + 4 + (1 if game == "shengji" else 0)


def test_a_changed_card_or_commitment_is_caught(shengji):
    game, records = shengji
    proof = record_proof(game, "shengji-17-deals", 1, SEED, records[0])
    swapped = json.loads(json.dumps(proof))
    swapped["hands"][0][0], swapped["hands"][1][0] = swapped["hands"][1][0], swapped["hands"][0][0]
    if sorted(swapped["hands"][0]) != sorted(proof["hands"][0]):
        bad = check_proof(swapped)
        assert not bad.ok and any(line.startswith("FAIL seat 0") for line in bad.lines)
    other = dict(proof, commitment=record_proof(game, "shengji-17-deals", 1, SEED, records[1])["commitment"])
    assert not check_proof(other).ok
    kitty = dict(proof, kitty=proof["hands"][2][:8])
    assert not check_proof(kitty).ok


def test_commitments_hide_and_differ_per_deal():
    a, b = proof_for("shengji", SEED, 1), proof_for("shengji", SEED, 2)
    assert a.commitment != b.commitment and a.seed != b.seed and a.salt != b.salt
    assert a.commitment == commitment(a.seed, a.salt) and a.commitment != commitment(a.seed)
    assert len(a.shown) == SHOWN_DIGITS and a.commitment.startswith(a.shown)
    assert (
        proof_for("shengji", SEED, 1, 1).seed != a.seed
    )  # a redeal is a new shuffle with its own commitment


def test_the_command_line_checker(tmp_path, shengji, capsys):
    game, records = shengji
    proof = record_proof(game, "shengji-17-deals", 1, SEED, records[1])
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(proof, ensure_ascii=False), encoding="utf-8")
    assert verify_deal.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "VERIFIED" in out and "NOT VERIFIED" not in out and "kitty:" in out
    args = [
        "--preset",
        "shengji-17-deals",
        "--seed",
        proof["deal_seed"],
        "--salt",
        proof["salt"],
        "--commitment",
        proof["commitment"][:SHOWN_DIGITS],
        "--first-drawer",
        str(proof["first_drawer"]),
    ]
    assert verify_deal.main(args) == 0
    assert verify_deal.main(args[:-4] + ["--commitment", "0" * 64]) == 1
    assert "NOT VERIFIED" in capsys.readouterr().out
    assert verify_deal.main([str(tmp_path / "missing.json")]) == 2
    assert verify_deal.main([]) == 2


def test_review_file_shows_the_proof_of_finished_deals_only(shengji):
    game, records = shengji
    fairness = {r.deal_no: review_fairness(game, "shengji-17-deals", SEED, r) for r in records}
    page = review_html(
        "zh", game=game, title="双升", names=["a", "b", "c", "d"], records=records, fairness=fairness
    )
    assert fairness[1]["commitment"] in page and fairness[1]["deal_seed"] in page
    assert "python -m bot.verify_deal" in page
    unfinished = records[0].__class__(deal_no=3, first_seq=0)
    hidden = review_fairness(game, "shengji-17-deals", SEED, unfinished)
    assert set(hidden) == {"commitment"}  # the seed of a deal in play is never shown

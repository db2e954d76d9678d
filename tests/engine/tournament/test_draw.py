"""The verifiable draw (issue 5 "Draw (抽签), verifiable"; docs/draw.md)."""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.tournament.draw import (
    DrawOptions,
    DrawResult,
    announce,
    bracket_size,
    make_draw,
    seeding_order,
    shuffle,
    verify,
)
from engine.tournament.entries import Entry
from tests.engine.tournament.helpers import OTHER_SECRET, SECRET, pairs

ROOT = Path(__file__).resolve().parents[3]


def reference_draw(published: dict) -> tuple[list[str], list[str | None]]:
    """An independent reimplementation written from docs/draw.md only (no engine code)."""
    frozen = {
        "tournament": published["tournament"],
        "options": published["options"],
        "entries": published["entries"],
    }
    data = json.dumps(frozen, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    lh = hashlib.sha256(data).digest()
    seed = hashlib.sha256(bytes.fromhex(published["secret"]) + lh).digest()
    stream = b""
    counter = 0

    def word() -> int:
        nonlocal stream, counter
        if len(stream) < 4:
            stream += hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
            counter += 1
        x, stream = int.from_bytes(stream[:4], "big"), stream[4:]
        return x

    seeded = sorted((e for e in published["entries"] if e["seed_no"] is not None), key=lambda e: e["seed_no"])
    items = [e["id"] for e in published["entries"] if e["seed_no"] is None]
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        while True:
            x = word()
            if x < 2**32 - 2**32 % n:
                break
        j = x % n
        items[i], items[j] = items[j], items[i]
    order = [e["id"] for e in seeded] + items
    size = 2
    while size < len(order):
        size *= 2
    ranks = [1, 2]
    while len(ranks) < size:
        m = 2 * len(ranks)
        ranks = [y for r in ranks for y in (r, m + 1 - r)]
    return order, [order[r - 1] if r <= len(order) else None for r in ranks]


@pytest.mark.parametrize("count", [2, 3, 5, 8, 13, 32])
def test_draw_procedure_reimplemented_from_the_document_matches(count: int) -> None:
    """docs/draw.md: anyone following the written procedure gets the same order and bracket."""
    entries = pairs(count, seeds={0: 1} if count > 4 else None)
    published = make_draw("校工会双升", entries, DrawOptions(), SECRET).published()
    order, bracket = reference_draw(published)
    assert published["order"] == order
    assert published["bracket"] == bracket


def test_draw_is_deterministic_for_the_same_list_and_secret() -> None:
    a = make_draw("t", pairs(11), DrawOptions(), SECRET)
    b = make_draw("t", pairs(11), DrawOptions(), SECRET)
    assert a.order == b.order and a.bracket == b.bracket
    c = make_draw("t", pairs(11), DrawOptions(), OTHER_SECRET)
    assert c.order != a.order


def test_commitment_and_list_hash_are_published_before_the_draw_and_match_after() -> None:
    entries = pairs(6)
    ann = announce("t", entries, DrawOptions(), SECRET)
    assert ann.commitment == hashlib.sha256(SECRET).hexdigest()
    draw = make_draw("t", entries, DrawOptions(), SECRET)
    report = verify(draw.published(), ann.to_dict())
    assert report.ok, report.lines()
    assert [c.name for c in report.checks] == [
        "list_hash",
        "commitment",
        "announced_list_hash",
        "announced_commitment",
        "draw_seed",
        "order",
        "bracket",
    ]


def test_unrevealed_publication_holds_no_secret() -> None:
    data = make_draw("t", pairs(4), DrawOptions(), SECRET).published(reveal=False)
    assert "secret" not in data and "draw_seed" not in data


def test_tampered_entry_list_is_detected() -> None:
    published = make_draw("t", pairs(8), DrawOptions(), SECRET).published()
    bad = copy.deepcopy(published)
    bad["entries"][3]["name"] = "Someone else"
    report = verify(bad)
    assert not report.ok and "list_hash" in report.failed()


def test_wrong_secret_is_detected() -> None:
    published = make_draw("t", pairs(8), DrawOptions(), SECRET).published()
    bad = dict(published, secret=OTHER_SECRET.hex())
    report = verify(bad)
    assert not report.ok and "commitment" in report.failed()


def test_wrong_order_is_detected() -> None:
    published = make_draw("t", pairs(8), DrawOptions(), SECRET).published()
    bad = copy.deepcopy(published)
    bad["order"][0], bad["order"][1] = bad["order"][1], bad["order"][0]
    bad["bracket"][0], bad["bracket"][2] = bad["bracket"][2], bad["bracket"][0]
    report = verify(bad)
    assert set(report.failed()) == {"order", "bracket"}


def test_changed_announcement_is_detected() -> None:
    entries = pairs(8)
    ann = announce("t", entries[:7], DrawOptions(), SECRET)  # an entry slipped in after the announcement
    report = verify(make_draw("t", entries, DrawOptions(), SECRET).published(), ann.to_dict())
    assert report.failed() == ["announced_list_hash"]


def test_draw_options_are_part_of_the_frozen_list() -> None:
    """Turning on union-group separation after the commitment changes the list hash."""
    entries = pairs(8)
    plain = announce("t", entries, DrawOptions(), SECRET)
    apart = announce("t", entries, DrawOptions(separate_union_groups=True), SECRET)
    assert plain.list_hash != apart.list_hash


def test_secret_must_be_32_bytes() -> None:
    with pytest.raises(RuleError) as err:
        make_draw("t", pairs(4), DrawOptions(), b"short")
    assert err.value.code == "bad_secret"


def test_shuffle_is_a_permutation_and_pinned() -> None:
    """A pinned vector (also in docs/draw.md) so other implementations can check themselves."""
    items = [str(i) for i in range(10)]
    out = shuffle(items, hashlib.sha256(b"draw").digest())
    assert sorted(out) == sorted(items)
    assert out == PINNED


PINNED = ["5", "8", "9", "6", "0", "3", "7", "2", "4", "1"]


def test_seeding_positions_keep_top_seeds_apart() -> None:
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order16 = seeding_order(16)
    assert order16.index(1) < 8 <= order16.index(2)
    for r in range(1, 9):  # rank r faces rank 17 - r in round 1
        pos = order16.index(r)
        assert order16[pos ^ 1] == 17 - r


def test_seeded_entries_take_seed_positions_and_byes() -> None:
    entries = pairs(6, seeds={4: 1, 5: 2})
    draw = make_draw("t", entries, DrawOptions(), SECRET)
    assert draw.order[:2] == ("p4", "p5")
    first = draw.first_round()
    assert ("p4", None) in first and ("p5", None) in first


def union_conflicts(draw: DrawResult, entries: list[Entry]) -> int:
    group = {e.id: e.union_group for e in entries}
    return sum(1 for a, b in draw.first_round() if a and b and group[a] == group[b])


@pytest.mark.parametrize("count,groups", [(8, 2), (16, 4), (12, 3), (9, 2), (20, 5)])
def test_union_groups_kept_apart_in_round_one(count: int, groups: int) -> None:
    """Issue 5 draw option: entries of the same union group apart in the first round where possible."""
    entries = pairs(count, groups)
    for i in range(6):
        secret = hashlib.sha256(bytes([i])).digest()
        draw = make_draw("t", entries, DrawOptions(separate_union_groups=True), secret)
        assert union_conflicts(draw, entries) == 0 == draw.conflicts
        assert verify(draw.published()).ok


def test_union_group_separation_reports_unavoidable_conflicts() -> None:
    """Six pairs of one group and two of another: at least two round-1 matches are within a group."""
    entries = [Entry(f"e{i}", f"E{i}", "A" if i < 6 else "B", (f"x{i}", f"y{i}")) for i in range(8)]
    draw = make_draw("t", entries, DrawOptions(separate_union_groups=True), SECRET)
    assert draw.conflicts == union_conflicts(draw, entries) == 2


def test_groups_draw_snake_and_verification() -> None:
    entries = pairs(10)
    draw = make_draw("t", entries, DrawOptions("groups", False, 4), SECRET)
    sizes = sorted(len(g) for g in draw.groups)
    assert sizes == [2, 2, 3, 3]
    assert sorted(e for g in draw.groups for e in g) == sorted(e.id for e in entries)
    published = draw.published()
    assert list(published["groups"]) == ["A", "B", "C", "D"]
    assert verify(published).ok
    bad = copy.deepcopy(published)
    bad["groups"]["A"], bad["groups"]["B"] = bad["groups"]["B"], bad["groups"]["A"]
    assert verify(bad).failed() == ["groups"]


def test_draw_result_round_trips_through_json() -> None:
    draw = make_draw("t", pairs(7), DrawOptions(separate_union_groups=True), SECRET)
    again = DrawResult.from_dict(json.loads(json.dumps(draw.to_dict(), ensure_ascii=False)))
    assert again == draw


def test_bracket_size_is_the_next_power_of_two() -> None:
    assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 33)] == [2, 4, 4, 8, 8, 16, 64]


def test_verify_draw_command(tmp_path: Path) -> None:
    """`python -m bot.verify_draw published.json` prints each check and exits 0 / 1."""
    published = make_draw("工会双升", pairs(5), DrawOptions(), SECRET).published()
    good = tmp_path / "draw.json"
    good.write_text(json.dumps(published, ensure_ascii=False), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "bot.verify_draw", str(good)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "draw verified" in run.stdout
    published["secret"] = OTHER_SECRET.hex()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(published), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "bot.verify_draw", str(bad)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert "FAIL commitment" in run.stdout


def test_worked_example_in_docs_verifies() -> None:
    """docs/draw.md's example draw is a real one: it verifies, and the reference reimplementation agrees."""
    text = (ROOT / "docs" / "draw.md").read_text(encoding="utf-8")
    block = text.split("<!-- example:begin -->")[1].split("<!-- example:end -->")[0]
    published = json.loads(block.strip().removeprefix("```json").removesuffix("```"))
    report = verify(published)
    assert report.ok, report.lines()
    assert reference_draw(published) == (published["order"], published["bracket"])


@settings(max_examples=40, deadline=None)
@given(
    groups=st.lists(st.sampled_from("ABCD"), min_size=8, max_size=8)
    | st.lists(st.sampled_from("ABCDE"), min_size=16, max_size=16),
    salt=st.integers(0, 1000),
)
def test_property_separation_reaches_the_fewest_possible_conflicts(groups: list[str], salt: int) -> None:
    """Full bracket, no seeds: same-group round-1 matches left = max(0, largest group - half the field)."""
    entries = [Entry(f"e{i}", f"E{i}", g, (f"x{i}", f"y{i}")) for i, g in enumerate(groups)]
    draw = make_draw(
        "t",
        entries,
        DrawOptions(separate_union_groups=True),
        hashlib.sha256(bytes([salt % 256, salt // 256])).digest(),
    )
    largest = max(groups.count(g) for g in set(groups))
    assert draw.conflicts == union_conflicts(draw, entries) == max(0, largest - len(groups) // 2)

"""Benchmark (``make bench``): building a deal review and checking deal proofs (issue 12).

A 17-deal Shengji match played by the computer player (seed 3): the time to cut its log into deals
(``bot.tables.review.deal_records``, a full replay), to render the whole-match review HTML, and to check one
deal proof (``bot.tables.deal_proof.check_proof``, as ``python -m bot.verify_deal`` does).  Three repetitions,
the median printed, CPU seconds of the process.  Figures only; nothing here asserts a time.
"""

from __future__ import annotations

import statistics
import time

from bot.tables.deal_proof import check_proof, record_proof
from bot.tables.review import deal_records, review_html
from tests.bot.tables.test_review import computer_match
from tests.perf.machine import describe


def _cpu(fn):  # type: ignore[no-untyped-def]
    times = []
    for _ in range(3):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return statistics.median(times), out


def test_review_and_proof_figures(capsys):  # type: ignore[no-untyped-def]
    game, opts, log = computer_match("shengji-17-deals", {"deals": "17"}, 3)
    cut, records = _cpu(lambda: deal_records(game, opts, 3, log))
    page_time, page = _cpu(
        lambda: review_html("zh", game=game, title="双升", names=list("甲乙丙丁"), records=records)
    )
    proof = record_proof(game, "shengji-17-deals", 1, 3, records[0])
    check_time, checked = _cpu(lambda: check_proof(proof))
    assert checked.ok and len(records) == 17
    with capsys.disabled():
        print()
        print(describe())
        print(
            f"review: 17-deal Shengji match, {len(log)} actions: cut into deals {cut * 1000:.0f} ms CPU, "
            f"whole-match HTML {page_time * 1000:.0f} ms CPU ({len(page.encode()) // 1024} KiB); "
            f"one deal proof checked in {check_time * 1000:.1f} ms CPU"
        )

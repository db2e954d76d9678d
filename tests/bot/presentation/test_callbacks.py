"""The play side's button codec: every button encodes to at most 64 bytes and parses back to itself;
anything else (the tournament side's ``T:`` buttons, forged or truncated data) parses to None."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.presentation import callbacks
from bot.presentation.callbacks import HandButton, HandOp, LangButton, ResumeButton, TableButton, TableOp

ids = st.integers(min_value=1, max_value=10**9)
deals = st.integers(min_value=0, max_value=99_999)
cards = st.integers(min_value=0, max_value=53)


@st.composite
def hand_buttons(draw: st.DrawFn) -> HandButton:
    op = draw(st.sampled_from(list(HandOp)))
    match_id, deal = draw(ids), draw(deals)
    if op is HandOp.TAP:
        return HandButton(op, match_id, deal, card=draw(cards), copy=draw(st.integers(0, 1)))
    if op in (HandOp.BID, HandOp.OVERTURN):
        return HandButton(op, match_id, deal, cards=tuple(draw(st.lists(cards, min_size=1, max_size=4))))
    if op in (HandOp.PLAY_AS, HandOp.CHOOSE):
        return HandButton(op, match_id, deal, word=draw(st.sampled_from(["sf6.5", "b5.9", "pair", "single"])))
    return HandButton(op, match_id, deal)


any_button = st.one_of(
    hand_buttons(),
    st.builds(TableButton, st.just(TableOp.JOIN), ids, st.integers(0, 3)),
    st.builds(TableButton, st.sampled_from([TableOp.START, TableOp.LEAVE]), ids),
    st.builds(LangButton, st.sampled_from(["zh", "en"])),
    st.builds(ResumeButton, ids),
)


@given(any_button)
def test_every_button_round_trips_within_telegrams_64_bytes(button: callbacks.Button) -> None:
    data = button.encode()
    assert len(data.encode()) <= 64
    assert callbacks.parse(data) == button


def test_the_seventeen_codes_are_distinct() -> None:
    codes = [op.value for op in HandOp] + [op.value for op in TableOp] + ["L", "u"]
    assert len(codes) == len(set(codes)) == 17


def test_known_data_decodes_to_what_the_button_does() -> None:
    assert callbacks.parse("s:7:101:33:1") == HandButton(HandOp.TAP, 7, 101, card=33, copy=1)
    assert callbacks.parse("b:7:101:33.33") == HandButton(HandOp.BID, 7, 101, cards=(33, 33))
    assert callbacks.parse("j:4:2") == TableButton(TableOp.JOIN, 4, 2)
    assert callbacks.parse("g:4") == TableButton(TableOp.START, 4)


def test_foreign_or_broken_data_is_not_a_play_button() -> None:
    for data in (
        None,
        "",
        "T:c:1:A1",
        "s:7:101:33",
        "s:7:x:33:0",
        "j:4",
        "g:4:1",
        "p:7",
        "p:7:1:extra",
        "b:7:101:",
        "b:7:101:a.b",
        "r:7:101",
        "zz:1:2",
        "u:",
        "L:",
        "L:zh:en",
    ):
        assert callbacks.parse(data) is None, data


def test_a_number_no_button_carries_is_not_a_play_button() -> None:
    """Ids beyond 32 bits (PostgreSQL's INTEGER; SQLite refuses beyond 64) and digits that are not ASCII: the
    press is answered as out of date instead of reaching the database."""
    assert callbacks.parse(f"j:{2**31 - 1}:0") == TableButton(TableOp.JOIN, 2**31 - 1, 0)
    for data in (f"j:{2**31}:0", f"c:{10**20}:0", f"u:-{2**31}", "j:１:0", "s:7:101:٣:0"):
        assert callbacks.parse(data) is None, data

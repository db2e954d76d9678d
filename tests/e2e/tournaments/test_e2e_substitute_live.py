"""End to end, issue 10: "the referee can start, pause or seat a substitute, and it is in the audit log"
-- a substitute seated at a table that has begun.  The seat's player changes for the rest of the match:
the seat index, the table's seat, the new player's hand message with the current hand and keyboard (and
they play on it), the old player's hand message closed; the old player's presses and typed plays get a
clear answer and change nothing, also after a restart; the move clock runs on; the tournament group and
the table group are told; the audit log has it.  Who may substitute: rules.md D25."""

from __future__ import annotations

from pathlib import Path

from bot.devtools.autodrive import _hand_message, drive
from bot.presentation import callbacks
from storage import match_repo, table_repo
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.test_fuzz import forge_press
from tests.e2e.tournaments import support as S
from tests.e2e.tournaments.test_e2e_locked_tables import drawn_pairs

ORG = ORGANISER_ID
P = [S.EXTRA_BASE + i for i in range(12)]
REFEREE = P[11]


async def test_a_substitute_takes_over_a_seat_in_play(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=12) as h:
        m, _other = await drawn_pairs(h)
        key = m.match_key  # type: ignore[attr-defined]
        h.clock.set(m.start_at)  # type: ignore[attr-defined]
        await S.run_due(h)
        await S.dm(h, REFEREE, f"/start_match {key}", "已完成")
        m = await S.tournament_match(h, 1, key)
        table_id = int(m.game_tables[0])
        row = await match_repo.current_match(S.db(h), table_id)
        assert row is not None and row.status == "playing"
        match_id = row.id
        ((a, b),) = await ts.match_players(S.db(h), m)
        seats = {0: a[0], 1: b[0], 2: a[1], 3: b[1]}
        await drive(h.sim, lambda: S.rt(h), match_id, seats, stop=lambda x: plays(x) >= 6, timeout=180)
        await S.settle(h)
        old, new = b[0], P[9]
        old_hand = await S.eventually(lambda: _aw(_hand_message(h.sim, old, match_id)))
        tap = next(
            str(d)
            for d in old_hand.callback_data()
            if isinstance(callbacks.parse(str(d)), callbacks.HandButton)
        )
        clock_before = await S.rt(h).scheduler.pending(S.db(h), "move_clock", f"match:{match_id}")

        # the substitute cannot be someone seated at another live table, nor a player of this match
        ((oa, _ob),) = await ts.match_players(S.db(h), _other)  # type: ignore[arg-type]
        refused = await S.dm(h, REFEREE, f"/substitute {key} {at(old)} {at(oa[0])} 急事", "另一张牌桌")
        assert refused.text
        refused = await S.dm(h, REFEREE, f"/substitute {key} {at(old)} {at(a[0])} 急事", "已在")
        assert refused.text
        await S.dm(h, REFEREE, f"/substitute {key} {at(old)} {at(new)} 家中急事", "已完成")
        await S.settle(h)

        # the seat is the substitute's, in the database and in the index the presses use
        assert [s.user_id for s in await table_repo.get_seats(S.db(h), table_id)] == [a[0], new, a[1], b[1]]
        entry = S.rt(h).seats.get(match_id)
        assert entry is not None and entry.seat_of(new) == 1 and entry.seat_of(old) is None
        assert (await ts.match_players(S.db(h), await S.tournament_match(h, 1, key)))[0][1] == [new, b[1]]
        # the new player's private chat: a hand message of this match with the current hand and keyboard
        hand = await S.eventually(lambda: _aw(_hand_message(h.sim, new, match_id)))
        assert hand is not None and "你的牌" in (hand.text or "")
        # the old player's hand message is closed: it says why and has no keyboard
        closed = await S.eventually(lambda: _aw(old_hand if "接替" in (old_hand.text or "") else None))
        assert closed and old_hand.buttons() == []
        # announced in the tournament group and the table group, and to both people
        for chat in (GROUP_ID, int(m.table_chats[0]), old, new):
            assert (await h.sim.wait_for_message(chat, "接替", timeout=15)).text
        # the clock of the turn in progress runs on (same deadline, not restarted)
        clock_after = await S.rt(h).scheduler.pending(S.db(h), "move_clock", f"match:{match_id}")
        assert [d.due_at for d in clock_after] == [d.due_at for d in clock_before]
        audit = [x for x in await ts.audit_log(S.db(h), 1) if x.action == "substitute"][-1]
        assert audit.detail_json["in_play"] is True and audit.detail_json["old"] == old
        assert audit.detail_json["new"] == new and audit.actor_id == REFEREE

        # the old player's button (a press from the keyboard they still saw) and typed play: refused
        version = (await match_repo.get_match_row(S.db(h), match_id)).version  # type: ignore[union-attr]
        answer = await h.sim.wait_callback_answer(forge_press(h.sim, old, old, old_hand.message_id, tap), 15)
        assert "替补接替" in (answer.text or "")
        typed = await S.dm(h, old, "不要", "替补接替")
        assert typed.text
        assert (await match_repo.get_match_row(S.db(h), match_id)).version == version  # type: ignore[union-attr]

        # the substitute plays on with the keyboard (seat 1), the others type; across a restart too
        seats[1] = new
        await drive(
            h.sim,
            lambda: S.rt(h),
            match_id,
            seats,
            buttons=frozenset({1}),
            stop=lambda x: plays(x) >= 16,
            timeout=180,
        )
        acted = [r for r in await match_repo.action_log(S.db(h), match_id) if r.actor_user_id == new]
        assert acted, "the substitute's moves are stored as theirs"
        await h.restart()
        answer = await h.sim.wait_callback_answer(forge_press(h.sim, old, old, old_hand.message_id, tap), 15)
        assert "替补接替" in (answer.text or "")
        await drive(h.sim, lambda: S.rt(h), match_id, seats, stop=lambda x: plays(x) >= 22, timeout=180)

        # the match ends: the result counts for the entry the substitute played for
        await S.finish_table(h, table_id, winner_side=1)
        done = await S.tournament_match(h, 1, key)
        assert done.result_json is not None and done.result_json["winner"] == "b"
        h.assert_no_errors()


def at(uid: int) -> str:
    return f"@p{uid - S.EXTRA_BASE + 1}"


def plays(m: object) -> int:
    """Cards played so far in the match (actions ``<seat> play ...``)."""
    return sum(1 for a in m.log if a.split(" ")[1:2] == ["play"])  # type: ignore[attr-defined]


async def _aw(value: object) -> object:
    return value

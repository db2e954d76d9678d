"""Issue 10 "Integrity": registrations, invites and quotas cannot race; the tournament state is versioned
(a result recorded while a referee reverses a conduct record is never lost); a lateness decision and its
result are one transaction, and deciding again changes nothing.

The races are made certain, not left to chance: the first calls are held at a point after their checks
(``hold``) until every racer has reached it, then all go on to write.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from engine.errors import RuleError
from engine.tournament import pair_result
from storage import tournaments as ts
from storage.db import Database
from storage.tournament_models import TournamentEntry
from storage.tournaments import conduct as conduct_module
from storage.tournaments import registration
from storage.tournaments import results as results_module
from tests.storage.tournaments.test_service import NOW, ORG, make, pair


def hold(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, racers: int) -> None:
    """The first ``racers`` calls of ``module.name`` wait for each other, then all go on."""
    original: Callable[..., Awaitable[Any]] = getattr(module, name)
    barrier = asyncio.Barrier(racers)
    calls = [0]

    async def held(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] <= racers:
            await asyncio.wait_for(barrier.wait(), 30)
        return await original(*args, **kwargs)

    monkeypatch.setattr(module, name, held)


async def outcomes(*calls: Awaitable[Any]) -> list[Any]:
    """Each call's result, or the code of the RuleError it raised (anything else fails the test)."""
    got = await asyncio.gather(*calls, return_exceptions=True)
    out: list[Any] = []
    for g in got:
        if isinstance(g, RuleError):
            out.append(g.code)
        elif isinstance(g, BaseException):
            raise g
        else:
            out.append(g)
    return out


async def pairs_of(db: Database, tid: int) -> list[TournamentEntry]:
    return [e for e in await ts.entries(db, tid) if e.kind == "pair"]


async def test_a_double_tap_on_accept_creates_one_pair(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    tid = await make(db)
    inv = await ts.create_invite(db, tid, 1001, "机关", NOW)
    hold(monkeypatch, registration, "user_display_names", 2)
    got = await outcomes(
        ts.accept_invite(db, inv.token, 1002, NOW), ts.accept_invite(db, inv.token, 1002, NOW)
    )
    entries = [g for g in got if isinstance(g, TournamentEntry)]
    assert len(entries) == 1 and "invite_accepted_already" in got
    assert [e.players_json for e in await pairs_of(db, tid)] == [[1001, 1002]]


async def test_two_people_accepting_one_invite_make_one_pair(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = await make(db)
    inv = await ts.create_invite(db, tid, 1001, "机关", NOW)
    hold(monkeypatch, registration, "user_display_names", 2)
    got = await outcomes(
        ts.accept_invite(db, inv.token, 1002, NOW), ts.accept_invite(db, inv.token, 1003, NOW)
    )
    assert sum(isinstance(g, TournamentEntry) for g in got) == 1 and "invite_used" in got
    (only,) = await pairs_of(db, tid)
    assert only.players_json[0] == 1001
    assert (await ts.entry_of_user(db, tid, 1001)) is not None
    loser = 1003 if only.players_json[1] == 1002 else 1002
    assert (await ts.entry_of_user(db, tid, loser)) is None


async def test_one_player_accepting_two_invites_at_once_joins_one_pair(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = await make(db)
    one = await ts.create_invite(db, tid, 1001, "机关", NOW)
    two = await ts.create_invite(db, tid, 1003, "机关", NOW)
    hold(monkeypatch, registration, "user_display_names", 2)
    got = await outcomes(
        ts.accept_invite(db, one.token, 1002, NOW), ts.accept_invite(db, two.token, 1002, NOW)
    )
    assert sum(isinstance(g, TournamentEntry) for g in got) == 1 and "partner_already_paired" in got
    assert len([e for e in await pairs_of(db, tid) if 1002 in e.players_json]) == 1


async def test_a_quota_of_one_lets_one_pair_in(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    tid = await make(db, union_groups=[{"name": "机关", "quota": 1}])
    invites = [await ts.create_invite(db, tid, 1001 + 2 * i, "机关", NOW) for i in range(3)]
    hold(monkeypatch, registration, "user_display_names", 3)
    got = await outcomes(
        *[ts.accept_invite(db, inv.token, 1002 + 2 * i, NOW) for i, inv in enumerate(invites)]
    )
    assert sum(isinstance(g, TournamentEntry) for g in got) == 1
    assert got.count("quota_full") == 2
    assert len(await pairs_of(db, tid)) == 1


async def test_leaders_registering_on_behalf_at_once_respect_the_quota(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid = await make(db, union_groups=[{"name": "机关", "quota": 1}])
    await ts.grant(db, tid, ORG, 1020, "leader", "机关")
    hold(monkeypatch, registration, "user_display_names", 2)
    got = await outcomes(
        ts.register_pair(db, tid, ORG, [1003, 1004], "机关", NOW),
        ts.register_pair(db, tid, 1020, [1005, 1006], "机关", NOW),
    )
    assert sum(isinstance(g, TournamentEntry) for g in got) == 1 and "quota_full" in got
    async with db.session() as s:
        count = (
            await s.execute(
                select(func.count()).select_from(TournamentEntry).where(TournamentEntry.tournament_id == tid)
            )
        ).scalar_one()
    assert count == 1


async def test_a_withdrawn_player_may_register_again(db: Database) -> None:
    tid = await make(db)
    first = await pair(db, tid, 1001, 1002, "机关")
    await ts.withdraw(db, tid, first, 1002)
    again = await pair(db, tid, 1002, 1003, "机关")
    assert (await ts.entry_of_user(db, tid, 1002)).id == again  # type: ignore[union-attr]


async def drawn(db: Database, preset: str = "shengji-17-deals") -> tuple[int, list[Any]]:
    tid = await make(db, preset, union_groups=[])
    for i in range(4):
        await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "")
    await ts.freeze(db, tid, b"\x05" * 32)
    await ts.hold_draw(db, tid)
    return tid, await ts.schedule_ready(db, tid, NOW)


async def test_a_result_recorded_while_a_referee_reverses_a_penalty_is_not_lost(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10: record_result and /reverse together left a finished match whose result the bracket
    never got.  Here /reverse reads the state, the result is recorded meanwhile, then /reverse writes."""
    tid, (r1, r2) = await drawn(db)
    await ts.grant(db, tid, ORG, 1020, "referee")
    _, _, rid = await ts.add_conduct(db, tid, r2.match_key, "a", 1020, "violation", "table talk")
    recorded = asyncio.Event()
    original = conduct_module.require_role
    calls = [0]

    async def slow_require(*args: Any, **kwargs: Any) -> None:  # reverse_conduct has read the row by now
        calls[0] += 1
        if calls[0] == 1:
            await asyncio.wait_for(recorded.wait(), 30)
        await original(*args, **kwargs)

    monkeypatch.setattr(conduct_module, "require_role", slow_require)

    async def record() -> None:
        await ts.record_result(db, tid, r1.match_key, pair_result("a", 9, 5), None)
        recorded.set()

    await asyncio.gather(ts.reverse_conduct(db, tid, rid, 1020, "misheard"), record())
    assert (
        calls[0] == 2
    )  # the reversal was refused once (the row had changed) and done again on the fresh row
    state = await ts.engine_state(db, tid)
    assert state.bracket is not None and state.bracket.match(r1.match_key).result is not None
    assert state.conduct.records[0].reversed_by == "1020"
    # the bracket goes on: the second semi-final's result makes the final
    rec = await ts.record_result(db, tid, r2.match_key, pair_result("b", 3, 9), None)
    assert len(rec.new_matches) == 1 and {rec.new_matches[0].side_a, rec.new_matches[0].side_b} == {
        r1.side_a,
        r2.side_b,
    }


async def test_results_of_both_semi_finals_at_once_both_reach_the_bracket(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    tid, (r1, r2) = await drawn(db)
    hold(monkeypatch, results_module, "sync_matches", 2)
    recs = await outcomes(
        ts.record_result(db, tid, r1.match_key, pair_result("a", 9, 5), None),
        ts.record_result(db, tid, r2.match_key, pair_result("b", 4, 9), None),
    )
    state = await ts.engine_state(db, tid)
    assert state.bracket is not None
    assert all(state.bracket.match(k).result is not None for k in (r1.match_key, r2.match_key))
    final = [m for m in await ts.matches(db, tid) if m.match_key not in (r1.match_key, r2.match_key)]
    assert len(final) == 1 and {final[0].side_a, final[0].side_b} == {r1.side_a, r2.side_b}
    assert sum(len(r.new_matches) for r in recs) == 1


async def test_a_double_tap_on_check_in_keeps_one_check_in(db: Database) -> None:
    tid, (r1, _) = await drawn(db)
    ((a, _b),) = await ts.match_players(db, r1)
    assert r1.start_at is not None
    await asyncio.gather(*[ts.check_in(db, tid, r1.match_key, a[0], r1.start_at) for _ in range(3)])
    assert list(await ts.checkins(db, tid, r1.match_key)) == [a[0]]


async def test_a_lateness_decision_comes_with_its_result_and_deciding_again_changes_nothing(
    db: Database,
) -> None:
    tid, (r1, _) = await drawn(db)
    ((a, b),) = await ts.match_players(db, r1)
    assert r1.start_at is not None
    for p in a:
        await ts.check_in(db, tid, r1.match_key, p, r1.start_at)
    late = r1.start_at + timedelta(minutes=16)
    lat = await ts.decide_lateness(db, tid, r1.match_key, late)
    assert lat.recorded is not None and lat.recorded.match.result_json["winner"] == "a"
    m = await ts.get_match(db, tid, r1.match_key)
    assert m.lateness_json is not None and m.result_json is not None and m.status == "finished"
    state = await ts.engine_state(db, tid)
    assert state.bracket is not None and state.bracket.match(r1.match_key).result is not None
    again = await ts.decide_lateness(db, tid, r1.match_key, late)  # the deadline ran again after a restart
    assert again.new_tables == () and again.recorded is None
    audit = [a.action for a in await ts.audit_log(db, tid)]
    assert audit.count("lateness") == 1 and audit.count("lateness_forfeit") == 1


async def test_a_failing_result_leaves_no_lateness_decision(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One transaction: if recording the forfeit fails, the decision is not kept either (the deadline then
    runs again after the restart and decides afresh)."""
    tid, (r1, _) = await drawn(db)
    assert r1.start_at is not None
    from storage.tournaments import lateness

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("crash while recording")

    monkeypatch.setattr(lateness, "record_in", broken)
    with pytest.raises(RuntimeError):
        await ts.decide_lateness(db, tid, r1.match_key, r1.start_at + timedelta(minutes=16))
    m = await ts.get_match(db, tid, r1.match_key)
    assert m.lateness_json is None and m.result_json is None and m.table_results == {}
    monkeypatch.undo()
    lat = await ts.decide_lateness(db, tid, r1.match_key, r1.start_at + timedelta(minutes=16))
    assert lat.decision is not None and lat.decision.action == "double_forfeit" and lat.recorded is not None


async def test_a_referee_substitute_plays_instead_and_checks_in(db: Database) -> None:
    tid, (r1, _) = await drawn(db)
    ((a, b),) = await ts.match_players(db, r1)
    with pytest.raises(RuleError) as exc:
        await ts.substitute(db, tid, r1.match_key, a[0], 1020, a[1], "ill")
    assert exc.value.code == "not_allowed"  # a player cannot bring their own substitute
    await ts.grant(db, tid, ORG, 1019, "referee")
    with pytest.raises(RuleError) as exc:
        await ts.substitute(db, tid, r1.match_key, a[0], b[0], 1019, "ill")
    assert exc.value.code == "already_in_match"
    sub = await ts.substitute(db, tid, r1.match_key, a[0], 1020, 1019, "ill")
    m, k = sub.match, sub.table
    assert (
        k == 1
        and sub.game_table is None
        and not sub.in_play
        and (await ts.match_players(db, m))[0][0] == [1020, a[1]]
    )
    assert r1.start_at is not None
    await ts.check_in(db, tid, r1.match_key, 1020, r1.start_at)
    with pytest.raises(RuleError) as exc:
        await ts.check_in(db, tid, r1.match_key, a[0], r1.start_at)
    assert exc.value.code == "not_your_match"
    assert [x.action for x in await ts.audit_log(db, tid)][-1] == "substitute"


async def test_extending_one_table_moves_only_its_deadline(db: Database) -> None:
    tid, (r1, _) = await drawn(db)
    await ts.grant(db, tid, ORG, 1019, "referee")
    assert r1.start_at is not None
    m, deadlines = await ts.extend_lateness(db, tid, r1.match_key, 1, 5, 1019, r1.start_at)
    assert deadlines == {1: r1.start_at + timedelta(minutes=15 + 5)}
    ((a, b),) = await ts.match_players(db, m)
    for p in (*a, *b[:1]):
        await ts.check_in(db, tid, r1.match_key, p, r1.start_at + timedelta(minutes=18))  # late, inside 20
    nothing = await ts.decide_lateness(db, tid, r1.match_key, r1.start_at + timedelta(minutes=15))
    assert nothing.new_tables == () and nothing.waiting == (1,)
    lat = await ts.decide_lateness(db, tid, r1.match_key, r1.start_at + timedelta(minutes=20))
    assert lat.recorded is not None and lat.recorded.match.result_json["winner"] == "a"
    with pytest.raises(RuleError) as exc:
        await ts.extend_lateness(db, tid, r1.match_key, 1, 5, 1019, r1.start_at + timedelta(minutes=21))
    assert exc.value.code == "match_not_ready"


async def test_the_draw_secret_is_sealed_when_registration_opens(db: Database) -> None:
    """Issue 10 "a draw that binds the operator": the commitment exists before any entry does, and the
    freeze and the reveal use that very secret."""
    import hashlib

    tid = await make(db, "shengji-17-deals", union_groups=[])
    row = await ts.get_tournament(db, tid)
    assert row.commitment and row.secret_hex
    assert hashlib.sha256(bytes.fromhex(row.secret_hex)).hexdigest() == row.commitment
    draft = await ts.create_tournament(
        db, name="草稿", preset_id="shengji-50min", created_by=ORG, status="setup"
    )
    assert draft.commitment is None  # a draft has no secret yet; opening registration seals it
    opened = await ts.update_setup(db, draft.id, ORG, status="registration")
    assert opened.commitment is not None
    for i in range(4):
        await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "")
    ann = await ts.freeze(db, tid, b"\x00" * 32)  # whatever the caller passes, the sealed secret is used
    assert ann["commitment"] == row.commitment
    await ts.hold_draw(db, tid)
    published = ts.published_draw(await ts.get_tournament(db, tid))
    assert published["secret"] == row.secret_hex and published["commitment"] == row.commitment
    players = [p for e in published["entries"] for p in e["players"]]
    assert players[:2] == ["P1 (1001)", "P2 (1002)"]  # names and ids


async def test_a_third_place_match_with_two_entries_is_refused_at_the_draw(db: Database) -> None:
    """Issue 10: "+3rd-place match" with a knockout of 2 was silently ignored; the draw now says why not."""
    tid = await make(db, "shengji-17-deals", union_groups=[], settings_overrides={"third_place_match": True})
    await pair(db, tid, 1001, 1002, "")
    await pair(db, tid, 1003, 1004, "")
    with pytest.raises(RuleError) as exc:
        await ts.freeze(db, tid, b"\x01" * 32)
    assert exc.value.code == "third_place_needs_semifinals"
    await pair(db, tid, 1005, 1006, "")
    await ts.freeze(db, tid, b"\x01" * 32)  # three entries: a bracket of 4, the semi-final losers meet

"""What the multi-process fault tests check after play: nothing lost (every press the simulator delivered was
answered; no person had to make a move again for want of an answer) and nothing applied twice (each person's
move is one action row, with its own dedupe key)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from bot.devtools.loadtest import players
from storage.models import ActionRecord
from tests.multiproc.harness import Bots


async def person_actions(url: str, match_id: int) -> list[tuple[int, str | None]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(ActionRecord.seq, ActionRecord.dedupe_key)
                    .where(ActionRecord.match_id == match_id, ActionRecord.actor_user_id.is_not(None))
                    .order_by(ActionRecord.seq)
                )
            ).all()
    finally:
        await engine.dispose()
    return [(int(r.seq), r.dedupe_key) for r in rows]


async def assert_lost_0_doubled_0(group: Bots, table: players.Table) -> None:
    sim, splitter = group.sim, group.splitter
    queries = [q for q in sim.callback_queries.values() if q.delivered_at is not None]
    unanswered = {q.id for q in queries if q.answered_at is None}
    assert queries and not unanswered, [
        (u, splitter.handled.get(u))
        for u, body in splitter.bodies.items()
        if body.get("callback_query", {}).get("id") in unanswered
    ]
    assert table.retries == 0, group.state()
    log = await person_actions(group.database_url, table.match_id or 0)
    keys = [key for _, key in log]
    assert len(log) == table.actions and len(set(keys)) == len(keys)
    assert sim.webhook_stats.delivered == len(splitter.handled)

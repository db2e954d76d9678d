"""Registration's close and the draw: freeze, hash and commitment published, the draw held and revealed,
the bracket and the draw JSON posted, the first round scheduled."""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass

from bot.presentation.tournament.texts import draw_refused_text, tt
from bot.tournaments import views
from bot.tournaments.context import TournamentContext
from bot.tournaments.scheduling import Scheduling
from engine.errors import RuleError
from scheduler.deadlines import DeadlineData
from storage import tournaments as ts

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DrawRefused:
    """Why a draw was not held: ``error``; ``failed``: the list could not be frozen (the edge says
    ``draw.failed`` with the reason), else the draw was already held."""

    error: RuleError
    failed: bool = False


class Draws:
    def __init__(self, ctx: TournamentContext, scheduling: Scheduling) -> None:
        self.ctx = ctx
        self.scheduling = scheduling

    async def on_close(self, d: DeadlineData) -> None:
        tid = int(d.payload["tid"])
        async with self.ctx.lock(tid):
            row = await ts.get_tournament(self.ctx.db, tid)
            if row.status != "registration":
                return
            await ts.close_registration(self.ctx.db, tid)
            self.ctx.dashboard_changed(tid)
            kind = "team" if row.settings_json.get("entrant") == "team" else "pair"
            count = len(await ts.entries(self.ctx.db, tid, kind))
            lang = self.ctx.glang()
            self.ctx.send(
                row.group_chat_id,
                tt(
                    lang,
                    "reg.closed_note",
                    name=row.name,
                    count=count,
                    unit=tt(lang, "unit." + kind),
                    draw=ts.local_text(row.draw_at, row.time_zone),
                ),
            )

    async def on_draw_deadline(self, d: DeadlineData) -> None:
        await self.draw(int(d.payload["tid"]), None)

    async def draw(self, tid: int, actor: int | None) -> DrawRefused | None:
        """Freeze, publish the hash and the commitment, draw, reveal, post the bracket and the JSON.
        Returns why it was refused (the organiser's command answers it), or None.  At the deadline
        (``actor`` None) a failure is sent to the tournament's creator."""
        lang = self.ctx.glang()
        async with self.ctx.lock(tid):
            row = await ts.get_tournament(self.ctx.db, tid)
            if row.state_json is not None:
                return DrawRefused(RuleError("draw_already_held", "", name=row.name))
            try:
                ann = await ts.freeze(self.ctx.db, tid, secrets.token_bytes(32), actor)
            except RuleError as err:
                refused = DrawRefused(err, failed=True)
                if actor is None:
                    self.ctx.send(row.created_by, draw_refused_text(lang, err, failed=True))
                return refused
            kind = "team" if row.settings_json.get("entrant") == "team" else "pair"
            entries = await ts.entries(self.ctx.db, tid, kind)
            self.ctx.send(
                row.group_chat_id,
                tt(
                    lang,
                    "draw.frozen",
                    name=row.name,
                    count=len(entries),
                    list_hash=ann["list_hash"],
                    commitment=ann["commitment"],
                ),
            )
            eng, _ = await ts.hold_draw(self.ctx.db, tid, actor)
            self.ctx.dashboard_changed(tid)
            await self.ctx.deadlines.cancel(self.ctx.db, "t_draw", f"t:{tid}")
            await self.ctx.deadlines.cancel(self.ctx.db, "t_close", f"t:{tid}")
            assert eng.draw is not None
            names = views.names_of(entries)
            text = tt(
                lang,
                "draw.done",
                secret=eng.draw.secret.hex(),
                seed=eng.draw.seed.hex(),
                bracket=views.bracket_text(lang, eng, names),
            )
            target = row.group_chat_id or row.created_by
            self.ctx.send(target, text)
            data = json.dumps(eng.draw.published(reveal=True), ensure_ascii=False, indent=1).encode("utf-8")
            await self.ctx.send_document(target, data, f"draw-{tid}.json", tt(lang, "draw.caption"))
            await self.scheduling.schedule_ready(row)
        return None

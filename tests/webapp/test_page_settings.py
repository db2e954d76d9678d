"""/page_settings: the organiser of a tournament turns the table page's hints on or off and sets who may
watch its tables in chat (the TOML's ``page_hints`` / ``page_watch``), in the sender's language; anybody
else is refused and nothing changes; a bad word gets the usage line; the page follows the change."""

from __future__ import annotations

from bot.devtools.simulator.client import SimUserHandle
from bot.presentation.i18n import t
from bot.presentation.tournament.texts import tt
from storage import tournaments as ts
from storage.tournament_models import TournamentRole
from tests.webapp.helpers import LocalTable, local_table
from tests.webapp.test_page_policy import GUANDAN, PLAYER, STRANGER, hello, make_tournament


async def settings_of(table: LocalTable, tid: int) -> tuple[bool, str]:
    s = ts.settings_of(await ts.get_tournament(table.rt.db, tid))
    return s.page_hints, s.page_watch


async def say(table: LocalTable, user_id: int, text: str, starts: str) -> str:
    """``user_id`` writes ``text`` to the bot in private; the bot's answer (the first new message starting with
    ``starts``: the organiser is also seated at the table, whose hand messages come to the same chat)."""
    last = table.sim.last_bot_message(user_id)
    SimUserHandle(table.sim, user_id).dm(text)
    answer = await table.sim.wait_for_message(
        user_id, lambda m: (m.text or "").startswith(starts), after=last, timeout=20, include_edits=False
    )
    return answer.text or ""


async def test_the_organiser_sets_hints_and_watching_in_chat_and_others_are_refused(tmp_path):
    async with local_table(tmp_path, GUANDAN.format(seed=18)) as table:
        tid = await make_tournament(table)  # the defaults: no hints, anyone may watch
        async with table.rt.db.session() as s:
            s.add(TournamentRole(tournament_id=tid, user_id=table.user_id, role="organiser"))
            await s.commit()
        table.sim.add_user(PLAYER, "选手", language_code="en", started=True)

        now = t("zh", "pageset.now", hints="", watch="")[:4]
        shown = await say(table, table.user_id, f"/page_settings #{tid}", now)
        hints_off, anyone = t("zh", "pageset.hints_off"), t("zh", "pageset.watch_anyone")
        assert shown == t("zh", "pageset.now", hints=hints_off, watch=anyone)

        # an entrant, not the organiser
        refused = await say(
            table, PLAYER, f"/page_settings #{tid} watch referees", tt("en", "err.not_allowed")[:5]
        )
        assert refused == tt("en", "err.not_allowed")
        assert await settings_of(table, tid) == (False, "anyone")

        usage = await say(
            table, table.user_id, f"/page_settings #{tid} watch everybody", t("zh", "pageset.usage", usage="")
        )
        assert usage.startswith(t("zh", "pageset.usage", usage="")), usage
        assert "referees" in usage, usage
        assert await settings_of(table, tid) == (False, "anyone")

        done = await say(
            table, table.user_id, f"/page_settings #{tid} watch referees", t("zh", "pageset.done")
        )
        referees = t("zh", "pageset.watch_referees")
        assert done == t("zh", "pageset.done") + "\n" + t(
            "zh", "pageset.now", hints=hints_off, watch=referees
        )
        done = await say(table, table.user_id, f"/page_settings #{tid} hints on", t("zh", "pageset.done"))
        assert t("zh", "pageset.hints_on") in done
        assert await settings_of(table, tid) == (True, "referees")
        audit = [a.action for a in await ts.audit_log(table.rt.db, tid)]
        assert audit.count("page_settings") == 2

        client, first = await hello(table, STRANGER)  # the page follows: a stranger may no longer watch
        assert first["type"] == "error" and first["message"] == t("zh", "page.watch_only_referees")
        await client.close()

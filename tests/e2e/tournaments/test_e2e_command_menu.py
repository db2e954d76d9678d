"""End to end, issue 10: the Telegram command menu (setMyCommands at start-up) lists the players'
commands in private chats and the group commands in groups, the tournament tools to the groups'
administrators; zh-CN by default, English for English clients; every command listed is one the bot
answers, within Telegram's limits (the simulator refuses more than 100 commands, a name outside
[a-z0-9_]{1,32}, a description longer than 256)."""

from __future__ import annotations

import re
from pathlib import Path

from telegram.ext import CommandHandler

from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

CJK = re.compile(r"[\u4e00-\u9fff]")


def names(menu: list[dict[str, str]]) -> list[str]:
    return [c["command"] for c in menu]


async def test_the_menu_per_chat_kind_and_language(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=2) as h:
        sim, player = h.sim, S.EXTRA_BASE  # a zh-hans client, a member of the tournament group
        sim.add_user(3001, "Alice", username="alice", language_code="en", started=True)
        private_zh = sim.commands_for(player, player)
        private_en = sim.commands_for(3001, 3001)
        group_member = sim.commands_for(GROUP_ID, player)
        group_admin = sim.commands_for(GROUP_ID, ORGANISER_ID)
        # players' commands in a private chat, with the tournament ones; no group tools there
        assert {"start", "withdraw", "schedule", "results", "bracket", "tournament_help"} <= set(
            names(private_zh)
        )
        assert not {"newtable", "table_register", "substitute"} & set(names(private_zh))
        # a group member sees the group's commands; its administrators the referee tools too
        assert {"newtable", "schedule", "bracket", "tournament_help"} <= set(names(group_member))
        assert not {"withdraw", "substitute", "table_register", "stop"} & set(names(group_member))
        assert {
            "newtable",
            "stop",
            "tournament_group",
            "table_register",
            "substitute",
            "extend",
            "pause",
            "start_match",
            "result",
        } <= set(names(group_admin))
        # zh-CN is the default: Chinese descriptions; an English client gets English ones
        assert all(CJK.search(c["description"]) for c in private_zh + group_admin)
        by_scope_en = {k: v for k, v in sim.commands.items() if k[1] == "en"}
        by_scope_zh = {k: v for k, v in sim.commands.items() if k[1] == ""}
        assert set(k[0] for k in by_scope_en) == set(k[0] for k in by_scope_zh) and len(by_scope_zh) == 4
        for (scope, _), menu in by_scope_en.items():
            assert names(menu) == names(by_scope_zh[(scope, "")])
            for en, zh in zip(menu, by_scope_zh[(scope, "")], strict=True):  # translated, not copied
                assert en["description"] != zh["description"] and re.search("[A-Za-z]{3}", en["description"])
        assert names(private_en) == names(private_zh)
        assert [c["description"] for c in private_en] == [
            c["description"]
            for c in by_scope_en[(next(k[0] for k in by_scope_en if "all_private_chats" in k[0]), "en")]
        ]
        # within Telegram's limits, and every command listed is one the bot answers
        handled = {
            cmd
            for handlers in h.app.handlers.values()
            for x in handlers
            if isinstance(x, CommandHandler)
            for cmd in x.commands
        }
        for menu in sim.commands.values():
            assert len(menu) <= 100
            for c in menu:
                assert re.fullmatch(r"[a-z0-9_]{1,32}", c["command"]) and 1 <= len(c["description"]) <= 256
                assert c["command"] in handled, c["command"]
        h.assert_no_errors()

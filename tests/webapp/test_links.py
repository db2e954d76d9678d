"""Opening the page from Telegram: the hand message's web_app button, the group's spectator link."""

from __future__ import annotations

from bot.devtools.simulator.runner import make_settings
from bot.webapp.links import with_hand_button, with_table_button
from tests.webapp.helpers import local_table, wait_until
from tests.webapp.local_names import GROUP_ID


def buttons(message):
    return [b for row in (message.reply_markup or {}).get("inline_keyboard", []) for b in row]


async def test_hand_message_opens_the_page_and_the_group_links_spectators(tmp_path):
    url = "https://cards.example.org"
    async with local_table(
        tmp_path, "/newtable guandan-team deals=1 seed=3 bots=3", WEBAPP_URL=url, WEBAPP_SHORT_NAME="table"
    ) as table:

        def hand():
            found = [
                m
                for m in table.sim.bot_messages(table.user_id)
                if any("callback_data" in b for b in buttons(m))
            ]
            return found[-1] if found else None

        message = await wait_until(hand)
        first = buttons(message)[0]
        assert first == {"text": "🃏 打开牌桌", "web_app": {"url": f"{url}/?m={table.match_id}"}}
        assert any(b.get("callback_data", "").startswith("s:") for b in buttons(message))  # the cards stay

        def group():  # the group's table edits are paced (its 20/min budget): wait for the one with the link
            found = [
                m
                for m in table.sim.bot_messages(GROUP_ID)
                if any("startapp" in b.get("url", "") for b in buttons(m))
            ]
            return found[-1] if found else None

        username = table.rt.bot_username
        assert {
            "text": "👀 观战",
            "url": f"https://t.me/{username}/table?startapp=m{table.match_id}",
        } in buttons(await wait_until(group))


def test_nothing_is_added_without_a_public_https_address():
    from bot.presentation.markup import Button, Keyboard

    markup = Keyboard.of([[Button("x", callback_data="x")]])
    for settings in (make_settings(), make_settings(WEBAPP_URL="http://127.0.0.1:8080")):
        assert with_hand_button(markup, settings, 1, "zh") is markup
        assert with_table_button(markup, settings, "bot", 1, "zh") is markup
    https = make_settings(WEBAPP_URL="https://x.org/")
    assert with_hand_button(markup, https, 7, "en").rows[0][0].web_app == "https://x.org/?m=7"
    assert with_table_button(markup, https, "bot", 7, "en") is markup  # no short name: no group link


async def test_with_the_page_open_the_hand_message_waits_and_catches_up_when_it_closes(tmp_path):
    from tests.webapp.helpers import PageClient, my_turn

    async with local_table(tmp_path, "/newtable guandan-team deals=1 seed=3 bots=3") as table:

        def hand():
            found = [
                m
                for m in table.sim.bot_messages(table.user_id)
                if any("callback_data" in b for b in buttons(m))
            ]
            return found[-1] if found else None

        await wait_until(hand)
        page = await PageClient.open(table)
        await page.hello(table.init_data(), table.match_id)
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        edits = len(hand().versions)
        for _ in range(2):  # two of my moves, and the computers' in between
            frame = await page.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
            a = frame["me"]["actions"]
            answer = (
                await page.act("pass")
                if a["pass"]
                else await page.act("play", frame["me"]["hand"][-1]["cards"][:1])
            )
            assert answer["ok"]
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        assert len(hand().versions) == edits  # no hand message edit while the page is open
        await page.close()
        await wait_until(lambda: len(hand().versions) > edits)  # brought up to date once the page closed

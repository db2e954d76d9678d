"""The table page's WebSocket against the real bot: sign-in, live frames, actions, and bad input
(forged or stale initData, another seat, a stale version, garbage, a connection closed mid-action):
each refused with one clear translated answer, nothing changed, nothing crashes."""

from __future__ import annotations

import asyncio
import json
import logging
import random

import aiohttp
import pytest
import sqlalchemy.exc

from bot.presentation.i18n import t
from bot.webapp import frames
from bot.webapp.hub import Hub, Viewer
from engine.cards import parse_cards
from storage import match_repo
from tests.webapp.helpers import PageClient, local_table, my_turn, wait_until

GUANDAN = "/newtable guandan-team deals=1 seed=3 bots=3"


def ai_move(table, seat: int = 0) -> tuple[str, list[str], str | None]:
    """The computer player's choice for ``seat`` now: (verb, card texts, reading)."""
    m, _ = table.rt.db.match_cache[table.match_id][1], None
    action = m.ai_action(seat, random.Random(7))
    words = action.split()
    reading = words[words.index("as") + 1] if "as" in words else None
    cards = words[2 : words.index("as")] if "as" in words else words[2:]
    return words[1], cards, reading


async def seated(table) -> PageClient:
    client = await PageClient.open(table)
    hello = await client.hello(table.init_data(), table.match_id)
    assert hello["type"] == "hello" and hello["seat"] == 0
    return client


async def test_a_seat_plays_through_the_socket_and_every_page_gets_its_own_frame(tmp_path):
    async with local_table(tmp_path, GUANDAN) as table:
        me = await seated(table)
        watcher = await PageClient.open(table)
        hello = await watcher.hello(table.init_data(user_id=555, name="观众"), table.match_id)
        assert hello["seat"] is None and hello["texts"]["web.spectating"] == "观战中"
        frame = await me.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        verb, cards, reading = ai_move(table)
        answer = await me.act("play", cards, arg=reading)
        assert answer["ok"] is True and answer["version"] == frame["version"] + 1
        last = (await table.actions())[frame["version"]]
        assert last.action.startswith("0 play") and last.dedupe_key.startswith("web:")
        # both pages receive the new version; the spectator's frames never have a hand
        await me.until(lambda f: f.get("type") == "state" and f["version"] > frame["version"])
        await watcher.until(lambda f: f.get("type") == "state" and f["version"] > frame["version"])
        assert all("me" not in f for f in watcher.frames if f.get("type") == "state")
        assert all('"me"' not in json.dumps(f) and "kitty" not in f for f in watcher.frames)
        await me.close()
        await watcher.close()


@pytest.mark.parametrize(
    "how,message",
    [
        ("forged", "Telegram 登录数据的签名不对 (被改动或伪造)"),
        ("altered", "Telegram 登录数据的签名不对 (被改动或伪造)"),
        ("expired", "Telegram 登录数据已过期: 请重新打开牌桌"),
        ("missing", "没有 Telegram 登录数据: 请在 Telegram 里打开牌桌"),
    ],
)
async def test_bad_init_data_is_refused_clearly_and_the_socket_closed(tmp_path, how, message):
    async with local_table(tmp_path, GUANDAN) as table:
        genuine = table.init_data()
        init = {
            "forged": genuine[:-6] + "abcdef",
            "altered": genuine.replace("1001", "1002"),
            "expired": table.init_data(auth_date=1_600_000_000),
            "missing": "",
        }[how]
        client = await PageClient.open(table)
        answer = await client.hello(init, table.match_id)
        assert answer == {"type": "error", "code": "auth", "fatal": True, "message": message}
        closing = await client.ws.receive(timeout=5)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert client.ws.close_code == 4001
        assert table.server.hub.count() == 0
        await client.close()


async def test_the_english_refusal_for_an_english_user(tmp_path):
    async with local_table(tmp_path, GUANDAN) as table:
        client = await PageClient.open(table)
        answer = await client.hello(table.init_data(lang="en", auth_date=1_600_000_000), table.match_id)
        assert answer["message"] == "The Telegram sign-in data has expired: open the table again"
        await client.close()


async def test_refused_actions_change_nothing(tmp_path):
    async with local_table(tmp_path, GUANDAN) as table:
        me = await seated(table)
        frame = await me.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        before = await table.version()
        _, cards, reading = ai_move(table)
        # an action for another seat
        answer = await me.act("play", cards, seat=1)
        assert answer == {"type": "ack", "id": answer["id"], "ok": False, "error": "这不是你的座位"}
        # a stale version: refused, and the page gets the current state again
        answer = await me.act("play", cards, version=frame["version"] - 1, arg=reading)
        assert answer["ok"] is False and answer["error"] == "牌局刚刚变了, 已刷新, 请再试一次"
        refreshed = await me.until(lambda f: f.get("type") == "state")
        assert refreshed["version"] == before
        # a card the seat does not hold / not a card at all
        answer = await me.act("play", ["♠99"])
        assert answer["ok"] is False and "♠99" in answer["error"]
        # a spectator acting
        watcher = await PageClient.open(table)
        await watcher.hello(table.init_data(user_id=555, name="观众"), table.match_id)
        await watcher.until(lambda f: f.get("type") == "state")
        answer = await watcher.act("play", cards, arg=reading)
        assert answer["error"] == "你在观战: 只有四位玩家能出牌"
        assert await table.version() == before
        await me.close()
        await watcher.close()


async def test_garbage_frames_are_answered_and_the_connection_lives_on(tmp_path):
    async with local_table(tmp_path, GUANDAN) as table:
        client = await PageClient.open(table)
        await client.send({"type": "act", "id": "x1", "op": "play", "cards": [], "version": 0})
        assert (await client.receive())["message"] == "请先登录 (hello)"
        for garbage in ("not json", "[1, 2]", '{"type": 5}', '{"type": "explode"}'):
            await client.send(garbage)
            assert (await client.receive())["message"] == "看不懂这个请求"
        await client.ws.send_bytes(b"\x00\x01")
        assert (await client.receive())["message"] == "看不懂这个请求"
        await client.hello(table.init_data(), table.match_id)
        await client.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])  # the computers wait for me
        async with table.rt.lock(table.match_id):  # and the last one's after-step is done
            before = await table.version()
        for bad in ({"id": "a b c"}, {"op": "explode"}, {"version": "7"}, {"cards": "♠3"}, {"arg": ["x"]}):
            request = {"type": "act", "id": "ok1", "op": "pass", "cards": [], "version": before, **bad}
            await client.send(request)
            answer = await client.until(lambda f: f.get("type") == "ack")
            assert answer["ok"] is False and answer["error"], bad
        assert await table.version() == before
        # an oversized frame closes that connection; the server carries on
        await client.ws.send_str("x" * 100_000)
        closing = await client.ws.receive(timeout=5)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)
        await client.close()
        again = await seated(table)
        state = await again.until(lambda f: f.get("type") == "state")
        assert state["match"] == table.match_id
        await again.close()


async def test_a_connection_closed_mid_action_applies_it_at_most_once(tmp_path):
    async with local_table(tmp_path, GUANDAN) as table:
        me = await seated(table)
        frame = await me.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        _, cards, reading = ai_move(table)
        await me.send(
            {
                "type": "act",
                "id": "lost1",
                "op": "play",
                "cards": cards,
                "arg": reading,
                "version": frame["version"],
            }
        )
        await me.close()  # the page goes away before the answer
        # the page comes back and sends the same request again (as the page does after a reconnect)
        again = await seated(table)
        await again.until(lambda f: f.get("type") == "state")
        answer = await again.act("play", cards, version=frame["version"], rid="lost1", arg=reading)
        assert answer["ok"] is True
        records = [r for r in await table.actions() if r.dedupe_key == "web:1001:lost1"]
        assert len(records) == 1 and records[0].seq == frame["version"] + 1
        assert await match_repo.replay_check(table.rt.db, table.match_id)
        await again.close()


async def test_the_json_state_endpoint(tmp_path):
    async with local_table(tmp_path, GUANDAN) as table, aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{table.port}/api/state?m={table.match_id}"
        for _ in range(100):  # Start is answered once committed: the cards are dealt just after
            async with http.get(url, headers={"Authorization": "tma " + table.init_data()}) as resp:
                body = await resp.json()
                assert resp.status == 200 and body["seat"] == 0
            if body["me"]["hand"]:
                break
            await asyncio.sleep(0.05)
        assert body["me"]["hand"]
        async with http.get(url, headers={"Authorization": "tma " + table.init_data(user_id=555)}) as resp:
            assert "me" not in await resp.json()
        async with http.get(url, headers={"Authorization": "tma forged"}) as resp:
            assert resp.status == 401 and (await resp.json())["error"] == "Telegram 登录数据格式不对"
        async with http.get(f"http://127.0.0.1:{table.port}/") as resp:
            page = await resp.text()
            assert resp.status == 200 and 'data-dev="true"' in page and "https://" not in page


def test_dev_mode_is_refused_with_the_real_telegram():
    import asyncio

    from bot.devtools.simulator.runner import make_settings
    from bot.webapp import WebAppConfigError, start_for

    class App:
        bot_data = {
            "settings": make_settings(TELEGRAM_BOT_TOKEN="1:x", WEBAPP_PORT=0, WEBAPP_DEV=True),
            "runtime": object(),
        }

    with pytest.raises(WebAppConfigError):
        asyncio.run(start_for(App()))


def test_parse_cards_of_requests():
    from bot.webapp.frames import parse_request_cards

    assert parse_request_cards(["♠10", "BJ"]) == parse_cards("♠10 BJ")


async def test_the_first_frame_comes_inside_the_hello_with_only_the_seats_own_hand(tmp_path):
    """The page's hello (``frame: inline``) is answered by one message carrying the first state: the seat's
    own frame (its hand, nobody else's), no second copy of it after; a spectator's has no hand; a forged
    ``initData`` still gets only the refusal."""
    async with local_table(tmp_path, GUANDAN) as table:
        me = await PageClient.open(table)
        hello = await me.hello(table.init_data(), table.match_id, inline=True)
        state = hello["state"]
        assert hello["seat"] == 0 and hello["texts"] and state["type"] == "state"
        async with table.rt.lock(table.match_id):
            row, m = await match_repo.load_match_row(table.rt.db, table.match_id)
            own, other = frames.seat_part(row.game, m, 0), frames.seat_part(row.game, m, 1)
        if state["version"] == row.version:
            assert state["me"]["hand"] == own["hand"] != other["hand"]
        assert set(state) >= {"version", "table", "names", "me"} and "kitty" not in state["table"]
        nxt = await me.receive(timeout=1.0) if not my_turn(state) else None
        assert nxt is None or nxt.get("type") != "state" or nxt["version"] > state["version"]
        watcher = await PageClient.open(table)
        seen = await watcher.hello(table.init_data(user_id=555, name="观众"), table.match_id, inline=True)
        assert seen["seat"] is None and "me" not in seen["state"] and '"hand"' not in json.dumps(seen)
        forged = await PageClient.open(table)
        refused = await forged.hello(table.init_data()[:-6] + "abcdef", table.match_id, inline=True)
        assert refused["type"] == "error" and refused["fatal"] is True and "state" not in refused
        for client in (me, watcher, forged):
            await client.close()


POOL_TIMEOUT = "QueuePool limit of size 5 overflow 10 reached, connection timed out, timeout 30.00"


async def test_a_database_pool_timeout_is_a_translated_refusal_and_the_socket_lives_on(
    tmp_path, monkeypatch, caplog
):
    """Under load the database's pool may time out inside a page's action (seen at 200 tables): the page gets
    one translated "busy, try again" (no stack trace, nothing applied), it is logged, the same socket then
    plays; a pool timeout at hello is the same refusal and the page may say hello again."""
    async with local_table(tmp_path, GUANDAN, lang="en") as table:
        me = await seated(table)
        frame = await me.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        async with table.rt.lock(table.match_id):
            before = await table.version()
        bridge, submit = table.server.bridge, table.server.bridge.submit

        async def timing_out(*args, **kwargs):
            raise sqlalchemy.exc.TimeoutError(POOL_TIMEOUT)

        monkeypatch.setattr(bridge, "submit", timing_out)
        _, cards, reading = ai_move(table)
        with caplog.at_level(logging.WARNING, logger="bot.webapp.server"):
            answer = await me.act("play", cards, arg=reading)
        assert answer == {"type": "ack", "id": answer["id"], "ok": False, "error": t("en", "web.busy")}
        assert "QueuePool" not in json.dumps(me.frames) and "Traceback" not in json.dumps(me.frames)
        assert any(
            "database is busy" in r.getMessage() and POOL_TIMEOUT in r.getMessage() for r in caplog.records
        )
        assert await table.version() == before and not me.ws.closed
        monkeypatch.setattr(bridge, "submit", submit)
        answer = await me.act(
            "play", cards, arg=reading
        )  # the same socket, the same move: now it goes through
        assert answer["ok"] is True and answer["version"] == frame["version"] + 1

        # at hello: the same refusal (in the language the initData claims, as every refusal before sign-in),
        # the socket closed with "try again later", a new hello works
        seat_of = table.server.seat_of

        async def seat_timing_out(*args):
            raise sqlalchemy.exc.TimeoutError(POOL_TIMEOUT)

        monkeypatch.setattr(table.server, "seat_of", seat_timing_out)
        late = await PageClient.open(table)
        refused = await late.hello(table.init_data(), table.match_id, inline=True)
        assert refused == {"type": "error", "code": "busy", "message": t("zh", "web.busy")}
        await late.receive(timeout=5)
        assert late.ws.closed and late.ws.close_code == 1013
        monkeypatch.setattr(table.server, "seat_of", seat_of)
        again = await PageClient.open(table)
        assert (await again.hello(table.init_data(), table.match_id, inline=True))["state"]["me"]
        for client in (me, late, again):
            await client.close()


async def test_a_page_never_gets_a_version_older_than_one_it_was_sent(tmp_path, monkeypatch):
    """A spectator's first frame is read; before it goes out the player's move is committed and pushed to every
    page of the match (a loaded machine, or a version relayed from another process): the frame read first is
    older than one the page was sent, and is not sent after it. The page's versions only go up."""
    async with local_table(tmp_path, GUANDAN) as table:
        me = await seated(table)
        frame = await me.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        hub = table.server.hub
        frame_for = hub.frame_for
        moved: list[int] = []
        done = (
            asyncio.Event()
        )  # the move was made and pushed (the player's socket is the wrapper's until then)

        async def first_frame_then_a_move(match_id, seat, lang, context=None, **kw):
            read = await frame_for(match_id, seat, lang, context, **kw)
            if seat is None and context is None and not moved:  # the spectator's first frame, read
                moved.append(read["version"])
                _, cards, reading = ai_move(table)
                assert (await me.act("play", cards, arg=reading))["ok"]

                def pushed() -> bool:  # the new version went out to every page the hub has for the match
                    pages = hub.viewers.get(match_id, ())
                    return match_id not in hub._running and all(
                        v.sent is not None and v.sent[0] > read["version"] for v in pages
                    )

                await wait_until(pushed)
                done.set()
            return read

        monkeypatch.setattr(hub, "frame_for", first_frame_then_a_move)
        watcher = await PageClient.open(table)
        await watcher.hello(table.init_data(user_id=555, name="观众"), table.match_id)
        await asyncio.wait_for(done.wait(), 30)
        # the table waits for the player again (or the deal is over): the spectator's page ends there
        now = await me.until(lambda f: f.get("type") == "state" and (my_turn(f) or f["status"] != "playing"))
        await watcher.until(lambda f: f.get("type") == "state" and f["version"] == now["version"])
        # the server reads the page's next message once its hello is answered in full: what the pong follows
        # is everything the hello sent too
        await watcher.send({"type": "ping"})
        await watcher.until(lambda f: f.get("type") == "pong")
        versions = [f["version"] for f in watcher.frames if f.get("type") == "state"]
        assert moved == [frame["version"]] and versions[0] > frame["version"]
        assert versions == sorted(set(versions)), versions  # up only, each version once
        await me.close()
        await watcher.close()


async def test_the_hub_sends_a_page_no_older_version_and_a_version_once_unless_asked_again():
    """What ``Hub.send`` lets through to one page (the frames' contents aside): the versions go up, the same
    version is not sent twice, except as the answer to a stale request or to a referee's page (its frame also
    tells which seats are connected)."""
    hub = Hub(bridge=None)  # type: ignore[arg-type]
    got: dict[str, list[int]] = {"player": [], "referee": []}

    def page(name: str, referee: bool = False) -> Viewer:
        async def send(frame):
            got[name].append(frame["version"])

        return Viewer(user_id=1, match_id=7, seat=None, lang="zh", send=send, referee=referee)

    def state(version: int) -> dict:
        return {"type": "state", "version": version, "status": "playing"}

    player, referee = page("player"), page("referee", referee=True)
    for version in (5, 5, 4, 6):
        await hub.send(player, state(version))
        await hub.send(referee, state(version))
    await hub.send(player, state(6), again=True)  # a stale request's answer: the current frame again
    assert got == {"player": [5, 6, 6], "referee": [5, 5, 6]}

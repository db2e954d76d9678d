"""The draw JSON, the exports and the bracket picture go through the outbox (issue 5 outputs, issue 4 Outbox):
after the texts queued before them, at the chat's pace, and a chat that refuses them is reported."""

from __future__ import annotations

from types import SimpleNamespace

from telegram.error import Forbidden

from bot.delivery.outbox import Outbox
from bot.edge.tournament.keyboards import TelegramTournamentKeyboards
from bot.edge.tournament.play_side import RuntimePlaySide
from bot.tournaments.wiring import TournamentBot


class Sender:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int, str]] = []
        self.refuse: set[int] = set()

    async def _call(self, kind: str, chat_id: int, what: str) -> int:
        if chat_id in self.refuse:
            raise Forbidden("Forbidden: bot was blocked by the user")
        self.calls.append((kind, chat_id, what))
        return len(self.calls)

    async def send_message(self, chat_id, text, reply_markup):
        return await self._call("text", chat_id, text)

    async def edit_message_text(self, chat_id, message_id, text, reply_markup):
        await self._call("edit", chat_id, text)

    async def send_document(self, chat_id, data, filename, caption, reply_markup):
        return await self._call("document", chat_id, filename)

    async def send_photo(self, chat_id, data, caption, reply_markup):
        return await self._call("photo", chat_id, caption or "")


class NoDirectCalls:
    def __getattr__(self, name):
        raise AssertionError(f"Telegram called directly ({name}), not through the outbox")


async def test_files_and_pictures_follow_the_queued_texts_and_refusals_are_reported():
    sender = Sender()
    refused: list[int] = []

    async def on_error(chat_id, exc):
        refused.append(chat_id)

    outbox = Outbox(sender, rate_scale=50, on_error=on_error)
    outbox.start()
    rt = SimpleNamespace(
        outbox=outbox,
        messages=SimpleNamespace(send=outbox.send_nowait),
        settings=SimpleNamespace(TELEGRAM_RATE_SCALE=50),
    )
    play = RuntimePlaySide(SimpleNamespace(bot=NoDirectCalls(), bot_data={"runtime": rt}))
    tb = TournamentBot(lambda: play, TelegramTournamentKeyboards()).ctx
    tb.send(-100, "抽签结果")
    assert await tb.send_document(-100, b"{}", "draw-1.json", "抽签数据") is not None
    tb.send(-100, "对阵表")
    assert await tb.send_document(-100, b"\x89PNG", "bracket.png", "", photo=True) is not None
    sender.refuse.add(42)
    assert await tb.send_document(42, b"a,b", "export.csv") is None
    await outbox.stop()
    assert sender.calls == [
        ("text", -100, "抽签结果"),
        ("document", -100, "draw-1.json"),
        ("text", -100, "对阵表"),
        ("photo", -100, ""),
    ]
    assert refused == [42]

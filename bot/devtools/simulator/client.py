"""Client helpers: a per-user handle for tests, and an HTTP client for a standalone simulator."""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp

from bot.devtools.simulator.state import CallbackAnswer, SimMessage

if TYPE_CHECKING:
    from bot.devtools.simulator.server import BotApiSimulator


@dataclass
class SimUserHandle:
    """One simulated user, to write tests that read like what the person does.

    ``alice = UserHandle(sim, 101); alice.start(); alice.say(GROUP, "/newtable ...");
    await alice.press_and_wait(GROUP, msg.message_id, text="Join")``
    """

    sim: BotApiSimulator
    user_id: int

    @property
    def private_chat_id(self) -> int:
        return self.user_id

    def start(self, payload: str | None = None) -> SimMessage:
        return self.sim.user_starts_bot(self.user_id, payload)

    def say(self, chat_id: int, text: str, **kwargs: Any) -> SimMessage:
        return self.sim.user_sends_text(self.user_id, chat_id, text, **kwargs)

    def dm(self, text: str) -> SimMessage:
        """Write to the bot in the private chat."""
        return self.sim.user_sends_text(self.user_id, self.user_id, text)

    def send_document(self, chat_id: int, content: bytes | str, file_name: str, **kwargs: Any) -> SimMessage:
        """Send a file (``mime_type``, ``caption``, ``reply_to_message_id`` optional); private chat: ``user_id``."""
        return self.sim.user_sends_document(self.user_id, chat_id, content, file_name, **kwargs)

    def press(
        self, chat_id: int, message_id: int, callback_data: str | None = None, *, text: str | None = None
    ) -> str:
        return self.sim.press_button(self.user_id, chat_id, message_id, callback_data, text=text)

    async def press_and_wait(
        self,
        chat_id: int,
        message_id: int,
        callback_data: str | None = None,
        *,
        text: str | None = None,
        timeout: float = 10.0,
    ) -> CallbackAnswer:
        return await self.sim.press_and_wait(
            self.user_id, chat_id, message_id, callback_data, text=text, timeout=timeout
        )

    async def tap(self, chat_id: int, label: str, *, timeout: float = 10.0) -> CallbackAnswer:
        """Press the button labelled ``label`` on the newest bot message that has one; wait for the answer."""
        message, button = self.sim.find_button(chat_id, label)
        if "callback_data" not in button:
            raise LookupError(
                f"button {label!r} is a {'url' if 'url' in button else 'non-callback'} button: {button}"
            )
        return await self.press_and_wait(
            chat_id, message.message_id, str(button["callback_data"]), timeout=timeout
        )

    def open_link_button(self, chat_id: int, label: str) -> SimMessage:
        """Open a url button (a ``t.me/<bot>?start=...`` deep link) labelled ``label``."""
        _, button = self.sim.find_button(chat_id, label)
        if "url" not in button:
            raise LookupError(f"button {label!r} has no url: {button}")
        return self.sim.follow_link(self.user_id, str(button["url"]))

    def block(self) -> None:
        self.sim.block_bot(self.user_id)

    def follow_link(self, url: str) -> SimMessage:
        return self.sim.follow_link(self.user_id, url)

    def last_private_message(self) -> SimMessage | None:
        return self.sim.last_bot_message(self.user_id)

    def private_messages(self) -> list[SimMessage]:
        return self.sim.messages(self.user_id)


class SimulatorClient:
    """Drive a simulator running in another process (``python -m bot.devtools.simulator``) over ``/_sim/...``."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> SimulatorClient:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()

    async def _call(self, verb: str, path: str, payload: dict[str, Any] | None = None) -> Any:
        if self._session is None:
            raise RuntimeError("use 'async with SimulatorClient(url) as client'")
        kwargs: dict[str, Any] = {"json": payload} if verb == "POST" else {"params": payload or {}}
        async with self._session.request(verb, f"{self.url}/_sim/{path}", **kwargs) as response:
            body = await response.json()
        if not body.get("ok"):
            raise RuntimeError(body.get("error", "simulator error"))
        return body["result"]

    async def add_user(self, user_id: int, first_name: str | None = None, **kwargs: Any) -> Any:
        return await self._call("POST", "users", {"user_id": user_id, "first_name": first_name, **kwargs})

    async def add_group(
        self, chat_id: int, title: str, member_ids: list[int], admin_ids: list[int] | None = None
    ) -> Any:
        return await self._call(
            "POST",
            "groups",
            {"chat_id": chat_id, "title": title, "member_ids": member_ids, "admin_ids": admin_ids or []},
        )

    async def send(self, user_id: int, chat_id: int, text: str) -> Any:
        return await self._call("POST", "send", {"user_id": user_id, "chat_id": chat_id, "text": text})

    async def send_document(
        self,
        user_id: int,
        chat_id: int,
        content: bytes | str,
        file_name: str,
        mime_type: str | None = None,
        caption: str | None = None,
    ) -> Any:
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        return await self._call(
            "POST",
            "document",
            {
                "user_id": user_id,
                "chat_id": chat_id,
                "file_name": file_name,
                "mime_type": mime_type,
                "caption": caption,
                "content_base64": base64.b64encode(data).decode("ascii"),
            },
        )

    async def start(self, user_id: int, payload: str | None = None) -> Any:
        return await self._call("POST", "start", {"user_id": user_id, "payload": payload})

    async def press(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        callback_data: str | None = None,
        text: str | None = None,
    ) -> str:
        result = await self._call(
            "POST",
            "press",
            {
                "user_id": user_id,
                "chat_id": chat_id,
                "message_id": message_id,
                "callback_data": callback_data,
                "text": text,
            },
        )
        return str(result["query_id"])

    async def callback_answer(self, query_id: str) -> Any:
        return await self._call("GET", "callback_answer", {"query_id": query_id})

    async def block(self, user_id: int) -> Any:
        return await self._call("POST", "block", {"user_id": user_id})

    async def messages(self, chat_id: int) -> Any:
        return await self._call("GET", "messages", {"chat_id": str(chat_id)})

    async def transcript(self, chat_id: int, mode: str = "final") -> str:
        return str(await self._call("GET", "transcript", {"chat_id": str(chat_id), "mode": mode}))

    async def stats(self) -> Any:
        return await self._call("GET", "stats")

"""HTTP control endpoints (``/_sim/...``) to drive a standalone simulator from outside the process.

All take and return JSON. Errors: ``{"ok": false, "error": "..."}`` with status 400.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.devtools.simulator.errors import SimulatorError
from bot.devtools.simulator.observing import ChatViews
from bot.devtools.simulator.people import SimulatedPeople
from bot.devtools.simulator.state import SimMessage


def message_view(message: SimMessage) -> dict[str, Any]:
    return {
        "message_id": message.message_id,
        "chat_id": message.chat_id,
        "from_bot": message.from_bot,
        "from_id": message.from_id,
        "date": message.date,
        "text": message.text,
        "caption": message.caption,
        "reply_markup": message.reply_markup,
        "edit_count": message.edit_count,
        "deleted": message.deleted,
        "document": None
        if message.document is None
        else {
            "file_id": message.document["file_id"],
            "file_name": message.document.get("filename"),
            "mime_type": message.document.get("mime_type"),
            "file_size": len(message.document.get("bytes", b"")),
        },
    }


def add_control_routes(app: web.Application, people: SimulatedPeople, views: ChatViews) -> None:
    """``people`` acts as the users (send, press, start, block); ``views`` shows what the chats hold (the
    simulator is both)."""

    def route(handler: Callable[[dict[str, Any]], Any]) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def wrapped(request: web.Request) -> web.Response:
            body: dict[str, Any] = dict(request.query)
            if request.method == "POST" and request.can_read_body:
                try:
                    data = await request.json()
                except ValueError:
                    return web.json_response({"ok": False, "error": "JSON body expected"}, status=400)
                if isinstance(data, dict):
                    body.update(data)
            try:
                result = handler(body)
                if hasattr(result, "__await__"):
                    result = await result
            except (SimulatorError, KeyError, ValueError, LookupError, TimeoutError) as exc:
                return web.json_response({"ok": False, "error": str(exc)}, status=400)
            return web.json_response({"ok": True, "result": result})

        return wrapped

    def add_user(b: dict[str, Any]) -> Any:
        user = people.add_user(
            int(b["user_id"]),
            b.get("first_name"),
            username=b.get("username"),
            language_code=b.get("language_code"),
            last_name=b.get("last_name"),
            started=bool(b.get("started", False)),
        )
        return user.to_api()

    def add_group(b: dict[str, Any]) -> Any:
        chat = people.add_group(
            int(b["chat_id"]),
            str(b.get("title", "Group")),
            [int(x) for x in b.get("member_ids", [])],
            [int(x) for x in b.get("admin_ids", [])],
            bot_is_admin=bool(b.get("bot_is_admin", False)),
        )
        return {"id": chat.id, "type": chat.type, "title": chat.title}

    def send(b: dict[str, Any]) -> Any:
        return message_view(people.user_sends_text(int(b["user_id"]), int(b["chat_id"]), str(b["text"])))

    def document(b: dict[str, Any]) -> Any:
        if "content_base64" in b:
            content: bytes | str = base64.b64decode(str(b["content_base64"]), validate=True)
        else:
            content = str(b["content"])
        return message_view(
            people.user_sends_document(
                int(b["user_id"]),
                int(b["chat_id"]),
                content,
                str(b["file_name"]),
                mime_type=b.get("mime_type"),
                caption=b.get("caption"),
            )
        )

    def start(b: dict[str, Any]) -> Any:
        return message_view(people.user_starts_bot(int(b["user_id"]), b.get("payload")))

    def press(b: dict[str, Any]) -> Any:
        return {
            "query_id": people.press_button(
                int(b["user_id"]),
                int(b["chat_id"]),
                int(b["message_id"]),
                b.get("callback_data"),
                text=b.get("text"),
            )
        }

    def answer(b: dict[str, Any]) -> Any:
        found = people.callback_answer(str(b["query_id"]))
        return (
            None if found is None else {"text": found.text, "show_alert": found.show_alert, "url": found.url}
        )

    def block(b: dict[str, Any]) -> Any:
        people.block_bot(int(b["user_id"]))
        return True

    def fault(b: dict[str, Any]) -> Any:  # bot/devtools/simulator/faults.py
        sim: Any = people  # the simulator, which has the faults
        return sim.faults.control(b)

    def messages(b: dict[str, Any]) -> Any:
        return [message_view(m) for m in views.messages(int(b["chat_id"]))]

    def transcript(b: dict[str, Any]) -> Any:
        return views.transcript(int(b["chat_id"]), mode=str(b.get("mode", "final")))

    def stats(b: dict[str, Any]) -> Any:
        return views.stats.snapshot()

    def chats(b: dict[str, Any]) -> Any:
        return [
            {"id": c.id, "type": c.type, "title": c.title, "messages": len(c.messages)}
            for c in views.chats.values()
        ]

    for path, handler in {
        "users": add_user,
        "groups": add_group,
        "send": send,
        "start": start,
        "document": document,
        "press": press,
        "block": block,
        "fault": fault,
    }.items():
        app.router.add_post(f"/_sim/{path}", route(handler))
    for path, handler in {
        "callback_answer": answer,
        "messages": messages,
        "transcript": transcript,
        "stats": stats,
        "chats": chats,
    }.items():
        app.router.add_get(f"/_sim/{path}", route(handler))

"""Readable transcripts of simulated chats (for the demo and for failing-test diagnostics)."""

from __future__ import annotations

import textwrap
import time

from bot.devtools.simulator.state import JSON, Event, MessageVersion, SimMessage
from bot.devtools.simulator.world import SimWorld

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "bot": "Bot",
        "edited": "edited {n}×",
        "deleted": "deleted",
        "pressed": "{name} pressed [{label}]",
        "edit": "✎ {bot} edited #{id}:",
        "delete": "✗ message #{id} deleted",
        "block": "⛔ {name} blocked the bot",
        "private": "{name} ↔ bot ({id})",
    },
    "zh": {
        "bot": "机器人",
        "edited": "编辑过 {n} 次",
        "deleted": "已删除",
        "pressed": "{name} 点了 [{label}]",
        "edit": "✎ {bot} 编辑了 #{id}:",
        "delete": "✗ 消息 #{id} 已删除",
        "block": "⛔ {name} 屏蔽了机器人",
        "private": "{name} 与机器人的私聊 ({id})",
    },
}


def _labels(lang: str) -> dict[str, str]:
    return LABELS["zh"] if lang.lower().startswith("zh") else LABELS["en"]


def _clock(date: int) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(date))


def _keyboard_lines(markup: JSON | None) -> list[str]:
    lines = []
    for row in (markup or {}).get("inline_keyboard", []):
        lines.append(" ".join(f"[{b.get('text', '')}]" for b in row))
    return lines


def _body(version: MessageVersion, message: SimMessage, show_buttons: bool) -> list[str]:
    lines: list[str] = []
    if message.photo is not None:
        lines.append(f"<photo {message.photo.get('width', 0)}x{message.photo.get('height', 0)}>")
    if message.document is not None:
        lines.append(f"<document {message.document.get('filename') or ''}>")
    content = version.text if version.text is not None else version.caption
    if content:
        lines.extend(content.splitlines() or [""])
    if show_buttons:
        lines.extend(_keyboard_lines(version.reply_markup))
    return lines


def _sender(sim: SimWorld, message: SimMessage, bot_name: str) -> str:
    if message.from_bot:
        return bot_name
    user = sim.users.get(message.from_id)
    return user.display_name if user else str(message.from_id)


def chat_title(sim: SimWorld, chat_id: int, lang: str = "en") -> str:
    chat = sim.chat(chat_id)
    if chat.is_group:
        return f"{chat.title} ({chat.id})"
    user = sim.users.get(chat.user_id or 0)
    return _labels(lang)["private"].format(name=user.display_name if user else chat.id, id=chat.id)


def format_chat(
    sim: SimWorld,
    chat_id: int,
    *,
    mode: str = "final",
    show_buttons: bool = True,
    show_presses: bool = True,
    show_time: bool = True,
    title: str | None = None,
    bot_name: str | None = None,
    indent: str = "    ",
    since_seq: int = 0,
    lang: str = "en",
) -> str:
    """A chat as its members saw it.

    ``mode="final"``: every message once, in its final state (with "edited N×"), deleted ones marked.
    ``mode="events"``: chronological, every send, edit (with the new content), delete, button press and answer.
    ``since_seq``: only what happened after that sequence number (see ``sim.events[-1].seq``).
    ``lang``: "en" or "zh" for the transcript's own words (edited, pressed, ...).
    """
    labels = _labels(lang)
    bot_name = bot_name or labels["bot"]
    chat = sim.chat(chat_id)
    out = [f"══ {title or chat_title(sim, chat_id, lang)} ══"]
    presses = [e for e in sim.events if e.chat_id == chat_id and e.kind == "press" and e.seq > since_seq]

    def press_line(user_id: int | None, label: str | None, query_id: str) -> str:
        user = sim.users.get(user_id or 0)
        name = user.display_name if user else str(user_id)
        record = sim.callback_queries.get(query_id)
        answer = ""
        if record is not None and record.answered and record.text:
            answer = f" → {'⚠ ' if record.show_alert else ''}{record.text}"
        return f"{indent}↳ {labels['pressed'].format(name=name, label=label)}{answer}"

    def head(message: SimMessage, date: int, suffix: str = "") -> str:
        stamp = f"[{_clock(date)}] " if show_time else ""
        return f"{stamp}{_sender(sim, message, bot_name)}{suffix}:"

    if mode == "final":
        items: list[tuple[int, str, object]] = [
            (m.seq, "message", m) for m in chat.messages.values() if m.seq > since_seq
        ]
        if show_presses:
            items.extend((e.seq, "press", e) for e in presses)
        for _, _kind, item in sorted(items, key=lambda t: t[0]):
            if isinstance(item, Event):
                out.append(press_line(item.user_id, item.text, item.data.get("query_id", "")))
                continue
            assert isinstance(item, SimMessage)
            m = item
            notes = []
            if m.edit_count:
                notes.append(labels["edited"].format(n=m.edit_count))
            if m.deleted:
                notes.append(labels["deleted"])
            suffix = f" ({', '.join(notes)})" if notes else ""
            out.append(head(m, m.date, suffix))
            out.extend(textwrap.indent("\n".join(_body(m.current, m, show_buttons)), indent).splitlines())
    elif mode == "events":
        for e in sim.events:
            if e.chat_id != chat_id or e.seq <= since_seq:
                continue
            message = chat.messages.get(e.message_id or 0)
            if e.kind in ("send", "user_text", "user_document") and message is not None:
                out.append(head(message, message.versions[0].date))
                out.extend(
                    textwrap.indent(
                        "\n".join(_body(message.versions[0], message, show_buttons)), indent
                    ).splitlines()
                )
            elif e.kind == "edit" and message is not None:
                index = int(e.data.get("version", len(message.versions) - 1))
                version = message.versions[index]
                stamp = f"[{_clock(version.date)}] " if show_time else ""
                out.append(stamp + labels["edit"].format(bot=bot_name, id=message.message_id))
                out.extend(
                    textwrap.indent("\n".join(_body(version, message, show_buttons)), indent).splitlines()
                )
            elif e.kind == "delete":
                out.append(indent + labels["delete"].format(id=e.message_id))
            elif e.kind == "press" and show_presses:
                out.append(press_line(e.user_id, e.text, e.data.get("query_id", "")))
            elif e.kind == "block":
                user = sim.users.get(e.user_id or 0)
                out.append(indent + labels["block"].format(name=user.display_name if user else e.user_id))
    else:
        raise ValueError("mode is 'final' or 'events'")
    return "\n".join(out)


def format_chats(sim: SimWorld, chat_ids: list[int], **kwargs: object) -> str:
    return "\n\n".join(format_chat(sim, chat_id, **kwargs) for chat_id in chat_ids)  # type: ignore[arg-type]

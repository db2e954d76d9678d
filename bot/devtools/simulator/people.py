"""The simulated people: users and groups, and what they do (write, send files, start or block the bot,
press buttons). Each action becomes the update Telegram would deliver to the bot."""

from __future__ import annotations

import mimetypes
import re
from collections.abc import Iterable
from urllib.parse import parse_qs, urlparse

from bot.devtools.simulator.errors import SimulatorError
from bot.devtools.simulator.formatting import command_entities
from bot.devtools.simulator.state import (
    JSON,
    CallbackAnswer,
    CallbackQueryRecord,
    MessageVersion,
    SimChat,
    SimMessage,
    SimUser,
    StoredFile,
)
from bot.devtools.simulator.world import SimWorld, member_object


class SimulatedPeople(SimWorld):
    """Acting as users (Python API): ``add_user``, ``add_group``, ``user_sends_text``, ``press_button`` ..."""

    def add_user(
        self,
        user_id: int,
        first_name: str | None = None,
        *,
        username: str | None = None,
        language_code: str | None = None,
        last_name: str | None = None,
        started: bool = False,
    ) -> SimUser:
        """Create a Telegram user. ``started=True`` opens the private chat silently (no /start update)."""
        if user_id <= 0:
            raise ValueError("user ids are positive")
        user = SimUser(
            id=user_id,
            first_name=first_name or f"User{user_id}",
            last_name=last_name,
            username=username,
            language_code=language_code,
        )
        self.users[user_id] = user
        if started:
            user.started = True
            self._private_chat(user_id)
        self._bump()
        return user

    def add_group(
        self,
        chat_id: int,
        title: str,
        member_ids: Iterable[int] = (),
        admin_ids: Iterable[int] = (),
        *,
        owner_id: int | None = None,
        bot_is_admin: bool = False,
        chat_type: str | None = None,
    ) -> SimChat:
        """Create a group with the bot in it. Admins are members too; the owner (default: first admin) is "creator"."""
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        admins = list(admin_ids)
        for uid in [*member_ids, *admins]:
            if uid not in self.users:
                raise SimulatorError(f"unknown user {uid}: add_user first")
        chat = SimChat(
            id=chat_id,
            type=chat_type or ("supergroup" if chat_id <= -1_000_000_000_000 else "group"),
            title=title,
            members=set(member_ids) | set(admins),
            admins=set(admins),
            owner_id=owner_id if owner_id is not None else (admins[0] if admins else None),
            bot_is_admin=bot_is_admin,
        )
        if chat.owner_id is not None:
            chat.members.add(chat.owner_id)
            chat.admins.add(chat.owner_id)
        self.chats[chat_id] = chat
        self._bump()
        return chat

    def add_member(self, chat_id: int, user_id: int, *, admin: bool = False) -> None:
        chat = self._group(chat_id)
        chat.members.add(user_id)
        if admin:
            chat.admins.add(user_id)

    def remove_bot_from_group(self, chat_id: int, by_user_id: int | None = None) -> None:
        """An admin removes the bot from the group: sends there now fail with 403; a my_chat_member update."""
        chat = self._group(chat_id)
        if not chat.bot_is_member:
            return
        chat.bot_is_member = False
        chat.bot_is_admin = False
        actor = self._user(
            by_user_id if by_user_id is not None else (chat.owner_id or next(iter(chat.members)))
        )
        self._my_chat_member(chat, actor, "member", "left")

    def add_bot_to_group(self, chat_id: int, by_user_id: int | None = None, *, admin: bool = False) -> None:
        chat = self._group(chat_id)
        was_member = chat.bot_is_member
        chat.bot_is_member = True
        chat.bot_is_admin = admin
        if not was_member:
            actor = self._user(
                by_user_id if by_user_id is not None else (chat.owner_id or next(iter(chat.members)))
            )
            self._my_chat_member(chat, actor, "left", "administrator" if admin else "member")

    def remove_member(self, chat_id: int, user_id: int) -> None:
        chat = self._group(chat_id)
        chat.members.discard(user_id)
        chat.admins.discard(user_id)

    def _delivered_to_bot(self, chat: SimChat, text: str, entities: list[JSON], reply_to: int | None) -> bool:
        if chat.type == "private" or not self.privacy_mode:
            return True
        if reply_to is not None:
            original = chat.messages.get(reply_to)
            if original is not None and original.from_bot:
                return True
        if entities and entities[0]["type"] == "bot_command" and entities[0]["offset"] == 0:
            command = text[: entities[0]["length"]]
            if "@" not in command:
                return True
            return command.split("@", 1)[1].lower() == self.bot_username.lower()
        return False

    def user_sends_text(
        self, user_id: int, chat_id: int, text: str, *, reply_to_message_id: int | None = None
    ) -> SimMessage:
        """The user types ``text`` in ``chat_id`` (their private chat with the bot is ``chat_id == user_id``).

        Commands (``/cmd``, ``/cmd@botname``) get ``bot_command`` entities. In groups, with privacy mode on
        (the default, as for real bots), the bot only receives commands and replies to its own messages.
        """
        user = self._user(user_id)
        if not text:
            raise SimulatorError("empty message")
        chat = self._chat_user_writes_in(user, chat_id, reply_to_message_id)
        entities = command_entities(text)
        version = MessageVersion(
            text=text, entities=entities, reply_markup=None, date=self._now(), method="user"
        )
        message = self._store(
            chat,
            self._new_message(
                chat, from_id=user_id, from_bot=False, version=version, reply_to=reply_to_message_id
            ),
        )
        self._event("user_text", chat.id, message_id=message.message_id, user_id=user_id, text=text)
        if self._delivered_to_bot(chat, text, entities, reply_to_message_id):
            self._enqueue("message", self.message_api(message))
        else:
            self._bump()
        return message

    def _chat_user_writes_in(self, user: SimUser, chat_id: int, reply_to_message_id: int | None) -> SimChat:
        """The chat ``user`` may write in (their private chat with the bot, or a group they belong to)."""
        user_id = user.id
        if chat_id == user_id:
            if user.blocked:
                raise SimulatorError(f"user {user_id} blocked the bot: user_starts_bot() unblocks it")
            chat = self._private_chat(user_id)
            user.started = True
        else:
            group = self.chats.get(chat_id)
            if group is None or not group.is_group:
                raise SimulatorError(f"no chat {chat_id} the user can write in (private chat id = user id)")
            chat = group
            if user_id not in chat.members:
                raise SimulatorError(f"user {user_id} is not a member of group {chat_id}")
        if reply_to_message_id is not None and reply_to_message_id not in chat.messages:
            raise SimulatorError(f"no message {reply_to_message_id} in chat {chat_id}")
        return chat

    def user_sends_document(
        self,
        user_id: int,
        chat_id: int,
        content: bytes | str,
        file_name: str,
        *,
        mime_type: str | None = None,
        caption: str | None = None,
        reply_to_message_id: int | None = None,
    ) -> SimMessage:
        """The user sends a file (a ``Message`` with ``document``) in ``chat_id`` (private chat: ``user_id``).

        The file is stored like the bot's uploads: ``getFile`` gives its ``file_path`` and the bot downloads it
        from ``/file/bot<token>/<file_path>`` (PTB: ``base_file_url``). ``str`` content is sent as UTF-8.
        A caption starting with a command gets ``bot_command`` entities; in groups with privacy mode on the
        bot receives the document only when its caption is a command for it or it replies to the bot.
        """
        user = self._user(user_id)
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        if not data:
            raise SimulatorError("empty file")  # Telegram refuses to send an empty file
        if not file_name:
            raise SimulatorError("a document needs a file name")
        chat = self._chat_user_writes_in(user, chat_id, reply_to_message_id)
        if mime_type is None:
            mime_type = mimetypes.guess_type(file_name)[0] or "application/octet-stream"
        number = next(self._file_ids)
        safe_name = re.sub(r"[^A-Za-z0-9._-]", "_", file_name)
        stored = StoredFile(
            file_id=f"SIMFILE{number:06d}-user-document",
            file_unique_id=f"SIMU{number:06d}",
            content=data,
            filename=file_name,
            mime_type=mime_type,
            path=f"documents/user_{number}_{safe_name}",
        )
        self.files[stored.file_id] = stored
        entities = command_entities(caption) if caption else []
        version = MessageVersion(
            text=None, entities=entities, reply_markup=None, date=self._now(), caption=caption, method="user"
        )
        message = self._new_message(
            chat, from_id=user_id, from_bot=False, version=version, reply_to=reply_to_message_id
        )
        message.document = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "bytes": data,
            "filename": file_name,
            "mime_type": mime_type,
        }
        self._store(chat, message)
        self._event(
            "user_document",
            chat.id,
            message_id=message.message_id,
            user_id=user_id,
            text=caption,
            data={"filename": file_name, "size": len(data)},
        )
        if self._delivered_to_bot(chat, caption or "", entities, reply_to_message_id):
            self._enqueue("message", self.message_api(message))
        else:
            self._bump()
        return message

    def user_starts_bot(self, user_id: int, payload: str | None = None) -> SimMessage:
        """The user presses START (or opens a ``t.me/<bot>?start=<payload>`` link): "/start [payload]"."""
        user = self._user(user_id)
        was_blocked = user.blocked
        user.blocked = False
        user.started = True
        chat = self._private_chat(user_id)
        if was_blocked:
            self._my_chat_member(chat, user, "kicked", "member")
        self._event("start", chat.id, user_id=user_id, text=payload)
        return self.user_sends_text(user_id, user_id, "/start" + (f" {payload}" if payload else ""))

    def follow_link(self, user_id: int, url: str) -> SimMessage:
        """The user opens a deep link ``https://t.me/<bot>?start=<payload>``."""
        parsed = urlparse(url)
        if (
            parsed.netloc not in ("t.me", "telegram.me")
            or parsed.path.strip("/").lower() != self.bot_username.lower()
        ):
            raise SimulatorError(f"{url!r} is not a link to @{self.bot_username}")
        payload = parse_qs(parsed.query).get("start", [None])[0]
        return self.user_starts_bot(user_id, payload)

    def block_bot(self, user_id: int) -> None:
        """The user blocks the bot: sends to their private chat now fail with 403."""
        user = self._user(user_id)
        if user.blocked:
            return
        user.blocked = True
        chat = self._private_chat(user_id)
        self._event("block", chat.id, user_id=user_id)
        self._my_chat_member(chat, user, "member", "kicked")

    def unblock_bot(self, user_id: int) -> SimMessage:
        return self.user_starts_bot(user_id)

    def _my_chat_member(self, chat: SimChat, user: SimUser, old: str, new: str) -> None:
        old_member = member_object(self.bot_user, old)
        new_member = member_object(self.bot_user, new)
        self._enqueue(
            "my_chat_member",
            {
                "chat": self._chat_api(chat),
                "from": user.to_api(),
                "date": self._now(),
                "old_chat_member": old_member,
                "new_chat_member": new_member,
            },
        )

    def press_button(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        callback_data: str | None = None,
        *,
        text: str | None = None,
    ) -> str:
        """The user taps an inline button (given by ``callback_data`` or its ``text``); returns the query id.

        Like a real client, only a button on the message's *current* keyboard can be pressed.
        """
        user = self._user(user_id)
        chat = self.chats.get(chat_id)
        if chat is None:
            raise SimulatorError(f"no chat {chat_id}")
        if chat.type == "private" and chat.user_id != user_id:
            raise SimulatorError(f"user {user_id} cannot see the private chat {chat_id}")
        if chat.is_group and user_id not in chat.members:
            raise SimulatorError(f"user {user_id} is not a member of group {chat_id}")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise SimulatorError(f"no message {message_id} in chat {chat_id}")
        if text is not None:
            button = message.button(text)
            if "callback_data" not in button:
                raise SimulatorError(f"button {text!r} has no callback data: {button}")
            callback_data = str(button["callback_data"])
        if callback_data is None or callback_data not in message.callback_data():
            raise SimulatorError(
                f"message {message_id} in chat {chat_id} has no button with data {callback_data!r}; "
                f"current buttons: {[(b.get('text'), b.get('callback_data')) for b in message.buttons()]}"
            )
        query_id = str(next(self._query_ids))
        self.callback_queries[query_id] = CallbackQueryRecord(
            id=query_id,
            user_id=user_id,
            chat_id=chat_id,
            message_id=message_id,
            data=callback_data,
            created=self.clock(),
        )
        label = next(
            (b.get("text") for b in message.buttons() if b.get("callback_data") == callback_data),
            callback_data,
        )
        self._event(
            "press",
            chat_id,
            message_id=message_id,
            user_id=user_id,
            text=str(label),
            data={"callback_data": callback_data, "query_id": query_id},
        )
        self._enqueue(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": self.message_api(message),
                "chat_instance": str(abs(chat_id) * 7919 + self.bot_id),
                "data": callback_data,
            },
        )
        return query_id

    def callback_answer(self, query_id: str) -> CallbackAnswer | None:
        """What the user saw after pressing (toast or alert text), or None while the bot has not answered."""
        record = self.callback_queries.get(query_id)
        if record is None:
            raise SimulatorError(f"unknown callback query {query_id}")
        if not record.answered:
            return None
        return CallbackAnswer(text=record.text, show_alert=record.show_alert, url=record.url)

    async def wait_callback_answer(self, query_id: str, timeout: float = 10.0) -> CallbackAnswer:
        return await self.wait_for(
            lambda: self.callback_answer(query_id),
            timeout,
            f"callback query {query_id} not answered within {timeout} s",
        )

    async def press_and_wait(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        callback_data: str | None = None,
        *,
        text: str | None = None,
        timeout: float = 10.0,
    ) -> CallbackAnswer:
        query_id = self.press_button(user_id, chat_id, message_id, callback_data, text=text)
        return await self.wait_callback_answer(query_id, timeout)

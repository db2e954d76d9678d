"""The simulator's Bot API methods of chats: getChat, members and administrators, pins, leaveChat,
sendChatAction."""

from __future__ import annotations

from bot.devtools.simulator.api_checks import ApiChecks
from bot.devtools.simulator.errors import ApiError
from bot.devtools.simulator.params import Params
from bot.devtools.simulator.state import JSON, SimChat
from bot.devtools.simulator.world import member_object


class ChatMethods(ApiChecks):
    """getChat, getChatMember(s), pins, leaveChat, sendChatAction."""

    def api_getChat(self, p: Params) -> JSON:
        chat_id = self._chat_id_param(p)
        chat = self.chats.get(chat_id) if chat_id is not None else None
        if chat is None or (chat.type == "private" and not self.users[chat.user_id or 0].started):
            raise ApiError(400, "Bad Request: chat not found")
        data = self._chat_api(chat)
        data.update(
            {
                "accent_color_id": 0,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        if chat.type == "private":
            data["bio"] = ""
        if chat.pinned:
            data["pinned_message"] = self.message_api(chat.messages[chat.pinned[-1]], with_reply=False)
        return data

    def _member_api(self, chat: SimChat, user_id: int) -> JSON:
        if user_id == self.bot_id:
            user = self.bot_user
            status = "administrator" if chat.bot_is_admin else ("member" if chat.bot_is_member else "left")
        else:
            sim_user = self.users.get(user_id)
            if sim_user is None:
                raise ApiError(400, "Bad Request: user not found")
            user = sim_user.to_api()
            if chat.type == "private":
                status = "member" if chat.user_id == user_id else "left"
            elif user_id == chat.owner_id:
                status = "creator"
            elif user_id in chat.admins:
                status = "administrator"
            elif user_id in chat.members:
                status = "member"
            else:
                status = "left"
        return member_object(user, status)

    def api_getChatMember(self, p: Params) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        user_id = p.integer("user_id")
        if user_id is None:
            raise ApiError(400, "Bad Request: user_id is empty")
        return self._member_api(chat, user_id)

    def api_getChatAdministrators(self, p: Params) -> list[JSON]:
        chat = self._chat_for_bot(self._chat_id_param(p))
        if not chat.is_group:
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        ids = ([chat.owner_id] if chat.owner_id is not None else []) + sorted(chat.admins - {chat.owner_id})
        result = [self._member_api(chat, uid) for uid in ids]
        if chat.bot_is_admin:
            result.append(self._member_api(chat, self.bot_id))
        return result

    def api_getChatMemberCount(self, p: Params) -> int:
        chat = self._chat_for_bot(self._chat_id_param(p))
        return len(chat.members) + (1 if chat.bot_is_member else 0) if chat.is_group else 2

    def _can_pin(self, chat: SimChat) -> None:
        if chat.is_group and not chat.bot_is_admin:
            raise ApiError(400, "Bad Request: not enough rights to manage pinned messages in the chat")

    def api_pinChatMessage(self, p: Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        message_id = p.integer("message_id")
        if message_id is None or message_id not in chat.messages or chat.messages[message_id].deleted:
            raise ApiError(400, "Bad Request: message to pin not found")
        self._can_pin(chat)
        if message_id in chat.pinned:
            chat.pinned.remove(message_id)
        chat.pinned.append(message_id)
        self._event("pin", chat.id, message_id=message_id)
        self._bump()
        return True

    def api_unpinChatMessage(self, p: Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        self._can_pin(chat)
        message_id = p.integer("message_id")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
        elif message_id in chat.pinned:
            chat.pinned.remove(message_id)
        else:
            raise ApiError(400, "Bad Request: message to unpin not found")
        self._bump()
        return True

    def api_unpinAllChatMessages(self, p: Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        self._can_pin(chat)
        chat.pinned.clear()
        self._bump()
        return True

    def api_leaveChat(self, p: Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        if not chat.is_group:
            raise ApiError(400, "Bad Request: chat member status can't be changed in private chats")
        chat.bot_is_member = False
        chat.bot_is_admin = False
        self._bump()
        return True

    def api_sendChatAction(self, p: Params) -> bool:
        self._chat_for_bot(self._chat_id_param(p))
        if not p.text("action"):
            raise ApiError(400, "Bad Request: action is empty")
        return True

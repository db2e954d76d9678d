"""The simulator's Bot API methods of messages: sendMessage, sendPhoto / sendDocument (uploads and file ids),
getFile, the three edits (NOT_MODIFIED as Telegram answers it), deleteMessage, answerCallbackQuery."""

from __future__ import annotations

import time

from bot.devtools.simulator.api_checks import NOT_MODIFIED, QUERY_TOO_OLD, ApiChecks, image_size, same_markup
from bot.devtools.simulator.errors import ApiError
from bot.devtools.simulator.limits import MAX_CALLBACK_ANSWER_LENGTH, MAX_CAPTION_LENGTH, MAX_TEXT_LENGTH
from bot.devtools.simulator.params import Params
from bot.devtools.simulator.state import JSON, MessageVersion, SimMessage, StoredFile


class MessageMethods(ApiChecks):
    """Sends, files, edits, deletes, callback answers."""

    def api_sendMessage(self, p: Params) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        raw = p.text("text")
        if raw is None or raw == "":
            raise ApiError(400, "Bad Request: message text is empty")
        text, entities = self._parse(
            raw, p.text("parse_mode"), MAX_TEXT_LENGTH, "Bad Request: message is too long", p.obj("entities")
        )
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        reply_to = self._reply_to(p, chat)
        self._rate_check(chat)
        version = MessageVersion(text=text, entities=entities, reply_markup=markup, date=self._now())
        message = self._store(
            chat,
            self._new_message(chat, from_id=self.bot_id, from_bot=True, version=version, reply_to=reply_to),
        )
        self._event("send", chat.id, message_id=message.message_id, text=text)
        self._bump()
        self._notify_bot_message(message)
        return self.message_api(message)

    def _upload(self, p: Params, field_name: str, default_name: str, default_mime: str | None) -> StoredFile:
        value = p.raw(field_name)
        if isinstance(value, str) and value.startswith("attach://"):
            upload = p.files.get(value[len("attach://") :])
        else:
            upload = p.files.get(field_name)
        if upload is not None:
            content, filename, mime = upload
            number = next(self._file_ids)
            stored = StoredFile(
                file_id=f"SIMFILE{number:06d}-{field_name}",
                file_unique_id=f"SIMU{number:06d}",
                content=content,
                filename=filename or default_name,
                mime_type=mime if mime and mime != "application/octet-stream" else default_mime or mime,
                path=f"{field_name}s/file_{number}_{filename or default_name}",
            )
            self.files[stored.file_id] = stored
            return stored
        if isinstance(value, str) and value:
            if value in self.files:
                return self.files[value]
            if value.startswith(("http://", "https://")):
                raise ApiError(400, "Bad Request: failed to get HTTP URL content")
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        raise ApiError(400, f"Bad Request: there is no {field_name} in the request")

    def _send_media(self, p: Params, kind: str) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        stored = self._upload(
            p, kind, "photo.jpg" if kind == "photo" else "file", "image/jpeg" if kind == "photo" else None
        )
        caption_raw = p.text("caption")
        caption: str | None = None
        entities: list[JSON] = []
        if caption_raw:
            caption, entities = self._parse(
                caption_raw,
                p.text("parse_mode"),
                MAX_CAPTION_LENGTH,
                "Bad Request: message caption is too long",
                p.obj("caption_entities"),
            )
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        reply_to = self._reply_to(p, chat)
        self._rate_check(chat)
        version = MessageVersion(
            text=None,
            entities=entities,
            reply_markup=markup,
            date=self._now(),
            caption=caption,
            method="sendPhoto" if kind == "photo" else "sendDocument",
        )
        message = self._new_message(
            chat, from_id=self.bot_id, from_bot=True, version=version, reply_to=reply_to
        )
        info: JSON = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "bytes": stored.content,
            "filename": stored.filename,
            "mime_type": stored.mime_type,
        }
        if kind == "photo":
            info["width"], info["height"] = image_size(stored.content)
            message.photo = info
        else:
            message.document = info
        self._store(chat, message)
        self._event(
            "send",
            chat.id,
            message_id=message.message_id,
            text=caption,
            data={"media": kind, "filename": stored.filename},
        )
        self._bump()
        self._notify_bot_message(message)
        return self.message_api(message)

    def api_sendPhoto(self, p: Params) -> JSON:
        return self._send_media(p, "photo")

    def api_sendDocument(self, p: Params) -> JSON:
        return self._send_media(p, "document")

    def api_getFile(self, p: Params) -> JSON:
        stored = self.files.get(p.text("file_id") or "")
        if stored is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.content),
            "file_path": stored.path,
        }

    def api_editMessageText(self, p: Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        raw = p.text("text")
        if raw is None or raw == "":
            raise ApiError(400, "Bad Request: message text is empty")
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        if message.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text, entities = self._parse(
            raw, p.text("parse_mode"), MAX_TEXT_LENGTH, "Bad Request: message is too long", p.obj("entities")
        )
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        # As on Telegram: an edit without reply_markup removes the inline keyboard.
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if (
            text == current.text
            and entities == current.entities
            and same_markup(markup, current.reply_markup)
        ):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(
            message,
            MessageVersion(
                text=text, entities=entities, reply_markup=markup, date=self._now(), method="editMessageText"
            ),
        )

    def api_editMessageCaption(self, p: Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        if message.photo is None and message.document is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption_raw = p.text("caption") or ""
        caption, entities = self._parse(
            caption_raw,
            p.text("parse_mode"),
            MAX_CAPTION_LENGTH,
            "Bad Request: message caption is too long",
            p.obj("caption_entities"),
        )
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if (
            (caption or None) == current.caption
            and entities == current.entities
            and same_markup(markup, current.reply_markup)
        ):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(
            message,
            MessageVersion(
                text=None,
                entities=entities,
                reply_markup=markup,
                date=self._now(),
                caption=caption or None,
                method="editMessageCaption",
            ),
        )

    def api_editMessageReplyMarkup(self, p: Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if same_markup(markup, current.reply_markup):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(
            message,
            MessageVersion(
                text=current.text,
                entities=current.entities,
                reply_markup=markup,
                date=self._now(),
                caption=current.caption,
                method="editMessageReplyMarkup",
            ),
        )

    def _apply_edit(self, message: SimMessage, version: MessageVersion) -> JSON:
        message.versions.append(version)
        message.edit_date = version.date
        self._event(
            "edit",
            message.chat_id,
            message_id=message.message_id,
            text=version.text or version.caption,
            data={"method": version.method, "version": len(message.versions) - 1},
        )
        self._bump()
        self._notify_bot_message(message)
        return self.message_api(message)

    def api_deleteMessage(self, p: Params) -> bool:
        chat, message = self._bot_message(p, for_edit=False)
        if not message.from_bot and chat.is_group and not chat.bot_is_admin:
            raise ApiError(400, "Bad Request: message can't be deleted")
        self._rate_check(chat)  # deletes count against the chat's, the group's and the token's limits
        message.deleted = True
        self._event("delete", chat.id, message_id=message.message_id)
        self._bump()
        return True

    def api_answerCallbackQuery(self, p: Params) -> bool:
        query_id = p.text("callback_query_id") or ""
        record = self.callback_queries.get(query_id)
        if record is None or record.answered or self.clock() - record.created > self.callback_query_timeout:
            raise ApiError(400, QUERY_TOO_OLD)
        text = p.text("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        record.answered = True
        record.answered_at = time.monotonic()
        if record.delivered_at is not None:
            self.stats.callback_latencies.append(record.answered_at - record.delivered_at)
        record.text = text or None
        record.show_alert = p.flag("show_alert")
        record.url = p.text("url")
        self._event(
            "answer",
            record.chat_id,
            message_id=record.message_id,
            user_id=record.user_id,
            text=record.text,
            data={"show_alert": record.show_alert, "query_id": record.id},
        )
        self._bump()
        return True

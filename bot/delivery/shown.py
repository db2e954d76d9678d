"""What each message shows, as the outbox last made it: the content hash per (chat, message), so an edit
that would show the same again is never sent.  An LRU of at most ``limit`` messages (a forgotten hash
costs one extra edit); the hashes changed since the owner last took them are kept apart, for the owner
to store (``take_changed``) and to give back after a restart (``Outbox.remember``)."""

from __future__ import annotations

from collections import OrderedDict

Key = tuple[int, int]  # (chat id, message id)


class ShownMessages:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._hashes: OrderedDict[Key, str] = OrderedDict()
        self._changed: dict[Key, str] = {}  # not yet taken by the owner

    def count(self) -> int:
        return len(self._hashes)

    def get(self, key: Key) -> str | None:
        return self._hashes.get(key)

    def set(self, key: Key, digest: str) -> None:
        """``key`` shows ``digest`` (the most recently used)."""
        self._hashes[key] = digest
        self._hashes.move_to_end(key)
        while len(self._hashes) > self.limit:
            self._hashes.popitem(last=False)

    def made(self, key: Key, digest: str) -> None:
        """A call made ``key`` show ``digest``: kept, and changed for the owner."""
        self.set(key, digest)
        self._changed[key] = digest

    def forget(self, key: Key) -> None:
        self._hashes.pop(key, None)

    def take_changed(self) -> dict[Key, str]:
        changed, self._changed = self._changed, {}
        return changed

"""Faults the simulator can be told to answer with (issue 21: alerts and the fault tests, docs/simulator.md).

``sim.faults.answer(429, count=3, method="sendMessage", chat_id=-100...)``: the next ``count`` calls that match
are answered with that error instead of being handled (429 carries ``retry_after``; 502 is "Bad Gateway", as
Telegram's front end answers while its servers restart).  ``sim.faults.stall(seconds, count=...)``: the next
matching calls wait that long before they are handled (a Telegram that does not answer for a while).
``gate = sim.faults.hold(method=..., chat_id=...)``: the matching calls wait until ``sim.faults.release(gate)``
(a Telegram slower than the bot without a clock in the test: what the bot queues meanwhile is what a real
group's 3 s between two messages would have it queue).
A stalled call is handled when its stall ends even if the client stopped waiting (Telegram completes a request
it received).  ``sim.faults.clear()`` ends every fault.  Over HTTP: ``POST /_sim/fault {"status": 429, "count": 3}``,
``{"stall": 30}``, ``{"clear": true}``.  ``getUpdates`` is never faulted unless ``method`` names it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.devtools.simulator.errors import ApiError

DESCRIPTIONS = {
    429: "Too Many Requests: retry after {retry}",
    500: "Internal Server Error",
    502: "Bad Gateway",
    504: "Gateway Timeout",
}


@dataclass
class Fault:
    status: int | None  # None: a stall only
    count: int
    method: str | None = None
    chat_id: int | None = None
    retry_after: int = 1
    stall: float = 0.0
    gate: asyncio.Event | None = None  # ``hold``: the call waits until it is set

    def matches(self, method: str, chat_id: int | None) -> bool:
        if self.method is None and method == "getUpdates":
            return False
        if self.method is not None and self.method.lower() != method.lower():
            return False
        return self.chat_id is None or self.chat_id == chat_id


@dataclass
class Faults:
    pending: list[Fault] = field(default_factory=list)
    answered: int = 0  # calls answered with a fault (tests wait on it)
    stalls_over: int = 0  # stalled calls whose stall ended (then handled, even if the client stopped waiting)
    held: int = 0  # calls that met a ``hold`` (waiting now, or released)

    def answer(
        self,
        status: int,
        *,
        count: int = 1,
        method: str | None = None,
        chat_id: int | None = None,
        retry_after: int = 1,
    ) -> None:
        self.pending.append(Fault(status, count, method, chat_id, retry_after))

    def stall(
        self, seconds: float, *, count: int = 1_000_000, method: str | None = None, chat_id: int | None = None
    ) -> None:
        self.pending.append(Fault(None, count, method, chat_id, stall=seconds))

    def hold(self, *, method: str | None = None, chat_id: int | None = None) -> Fault:
        """The matching calls wait (``held`` counts them) until ``release`` of what this returns."""
        fault = Fault(None, 1_000_000, method, chat_id, gate=asyncio.Event())
        self.pending.append(fault)
        return fault

    def release(self, fault: Fault) -> None:
        """The calls held by ``fault`` go on; later ones are not held."""
        if fault in self.pending:
            self.pending.remove(fault)
        assert fault.gate is not None
        fault.gate.set()

    def control(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /_sim/fault``: ``{"status": 502, "count": 5, "method": "editMessageText", "chat_id": ...}``,
        ``{"stall": 30, "count": 10}`` or ``{"clear": true}``; answers the faults still pending."""
        method = body.get("method") or None
        chat = int(body["chat_id"]) if body.get("chat_id") not in (None, "") else None
        if body.get("clear"):
            self.clear()
        elif body.get("stall"):
            self.stall(
                float(body["stall"]), count=int(body.get("count", 1_000_000)), method=method, chat_id=chat
            )
        else:
            status = int(body.get("status", 502))
            count = int(body.get("count", 1))
            self.answer(
                status, count=count, method=method, chat_id=chat, retry_after=int(body.get("retry_after", 1))
            )
        return {"pending": [f.__dict__ for f in self.pending], "answered": self.answered}

    def clear(self) -> None:
        for fault in self.pending:
            if fault.gate is not None:
                fault.gate.set()  # nothing stays held
        self.pending.clear()

    def take(self, method: str, chat_id: int | None) -> Fault | None:
        """The fault this call gets (one of its count used up), or None."""
        for fault in self.pending:
            if fault.count > 0 and fault.matches(method, chat_id):
                fault.count -= 1
                if fault.count == 0:
                    self.pending.remove(fault)
                self.answered += 1
                return fault
        return None

    async def apply(self, method: str, chat_id: object) -> None:
        """Before a call is handled: raise the fault's error, or wait out its stall, if one matches."""
        if not self.pending:
            return
        try:
            chat = int(str(chat_id)) if chat_id not in (None, "") else None
        except ValueError:
            chat = None
        fault = self.take(method, chat)
        if fault is None:
            return
        if fault.gate is not None:
            self.held += 1
            await fault.gate.wait()
        if fault.stall:
            await asyncio.sleep(fault.stall)
            self.stalls_over += 1
        if fault.status is not None:
            raise self.error(fault)

    @staticmethod
    def error(fault: Fault) -> ApiError:
        assert fault.status is not None
        text = DESCRIPTIONS.get(fault.status, "Internal Server Error").format(retry=fault.retry_after)
        params = {"retry_after": fault.retry_after} if fault.status == 429 else None
        return ApiError(fault.status, text, params)

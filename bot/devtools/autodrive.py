"""Simulated people who play their seats by typing in their private chat (demo and end-to-end tests).

For each required turn of a human seat, the driver asks the engine's computer player what to do
(or the clock's auto action), turns it into what a person would type (``♥5 ♥5``, ``不要``,
``不亮``) and sends it as that user; then it waits for the bot to commit it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.presentation import callbacks
from bot.presentation.callbacks import HandOp
from engine.cards import parse_cards
from storage import match_repo


def typed_form(action: str, lang: str = "zh") -> str | None:
    """What a person types for an engine action text (None: nothing typeable); an English speaker
    (``lang="en"``) types "pass" where a Chinese speaker types 不要 / 不亮 / 不反."""
    parts = action.split(None, 2)
    if len(parts) < 2:
        return None
    verb = parts[1]
    arg = parts[2] if len(parts) > 2 else ""
    if verb in ("play", "bury", "tribute", "return", "bid", "overturn"):
        cards = arg.split(" as ")[0]
        if " as " in arg:
            return None
        return cards
    if verb in ("pass", "pass_bid", "pass_overturn"):
        if lang == "en":
            return "pass"
        return {"pass": "不要", "pass_bid": "不亮", "pass_overturn": "不反"}[verb]
    if verb == "choose":
        return arg
    return None


def _hand_buttons(msg: Any) -> list[tuple[str, callbacks.HandButton]]:
    """The hand buttons of a message: (callback data, decoded button)."""
    out = []
    for data in msg.callback_data() if hasattr(msg, "callback_data") else []:
        button = callbacks.parse(str(data))
        if isinstance(button, callbacks.HandButton):
            out.append((str(data), button))
    return out


def _hand_message(sim: Any, uid: int, match_id: int) -> Any | None:
    for msg in reversed(sim.bot_messages(uid)):
        if any(b.op is HandOp.TAP and b.match_id == match_id for _, b in _hand_buttons(msg)):
            return msg
    return None


async def press_action(sim: Any, uid: int, match_id: int, action: str) -> bool:
    """Do ``action`` through the hand keyboard (tap the cards, then the action button); False if not possible."""
    parts = action.split(None, 2)
    verb = parts[1]
    arg = parts[2] if len(parts) > 2 else ""
    msg = _hand_message(sim, uid, match_id)
    if msg is None:
        return False
    deal = next(b.deal for _, b in _hand_buttons(msg) if b.op is HandOp.TAP and b.match_id == match_id)
    if verb in ("play", "bury", "tribute", "return"):
        cards_part, sep, reading = arg.partition(" as ")
        pressed: dict[int, int] = {}
        for c in parse_cards(cards_part):
            k = pressed.get(c, 0)
            pressed[c] = k + 1
            await _press(sim, uid, msg, callbacks.tap(match_id, deal, c, k))
        if verb == "play":
            final = (
                callbacks.hand(HandOp.PLAY_AS, match_id, deal, word=reading.strip())
                if sep
                else callbacks.hand(HandOp.PLAY, match_id, deal)
            )
        else:
            final = callbacks.hand(HandOp.BURY if verb == "bury" else HandOp.TRIBUTE, match_id, deal)
        await _press(sim, uid, msg, final)
        return True
    if verb in ("bid", "overturn"):
        want = sorted(parse_cards(arg))
        op = HandOp.OVERTURN if verb == "overturn" else HandOp.BID
        for data, b in _hand_buttons(msg):
            if b.op is op and b.match_id == match_id and b.deal == deal and sorted(b.cards) == want:
                await _press(sim, uid, msg, data)
                return True
        return False
    if verb == "choose":
        await _press(sim, uid, msg, callbacks.hand(HandOp.CHOOSE, match_id, deal, word=arg.strip()))
        return True
    if verb == "pass":
        await _press(sim, uid, msg, callbacks.hand(HandOp.PASS, match_id, deal))
        return True
    if verb in ("pass_bid", "pass_overturn"):
        await _press(sim, uid, msg, callbacks.hand(HandOp.PASS_BID, match_id, deal))
        return True
    return False


async def _press(sim: Any, uid: int, msg: Any, data: str) -> None:
    await sim.wait_for(lambda: data in msg.callback_data(), timeout=10)
    await sim.press_and_wait(uid, uid, msg.message_id, data)


def committed_state(row: Any, m: Any) -> bool:
    """Is ``m`` the state of the committed ``row``?  The engine object a read gets is the one storage keeps
    in memory, and the bot's next write takes that same object and applies its action in place before it
    commits: read during that write, the object is already ahead of the row (its log longer than the
    row's version), a state that is not stored yet (and the table's next read may still show the one
    before). Then the driver reads again rather than act on, or report, what is not real yet."""
    return bool(len(m.log) == row.version)


async def _wait_committed(
    runtime: Callable[[], Any], match_id: int, seat: int, version: int, limit: float = 10.0
) -> None:
    """Wait until the move just sent for ``seat`` is stored (an action of that seat after ``version``), so the
    next decision never repeats it: another seat's move or a system step also moves the version. Stop early
    when the match ends or the seat has no turn any more (its move was refused or overtaken), and after
    ``limit`` seconds in any case (then the caller decides again)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    seen = version
    prefix = f"{seat} "
    while loop.time() < end:
        await asyncio.sleep(0.01)
        rt = runtime()
        if rt is None or rt.db is None:
            continue  # restarting
        try:
            row = await match_repo.get_match_row(rt.db, match_id)
            if row is None or row.version == seen:
                continue
            if row.status != "playing":
                return
            seen = row.version
            if any(
                r.seq > version and r.action.startswith(prefix)
                for r in await match_repo.action_log(rt.db, match_id)
            ):
                return
            row, m = await match_repo.load_match_row(rt.db, match_id)
            if not committed_state(row, m):
                continue
            if m.finished or not any(tr.seat == seat for tr in m.turns()):
                return
        except Exception:
            continue  # the database is being swapped (restart): look again


class TableDrivePaused(RuntimeError):
    """The driven table paused (e.g. Shengji's redeals in a row with nobody declaring): nobody the driver
    plays can go on."""


async def drive(
    sim: Any,
    runtime: Callable[[], Any],
    match_id: int,
    users: dict[int, int],
    *,
    seed: int = 1,
    stop: Callable[[Any], bool] | None = None,
    timeout: float = 300.0,
    on_action: Callable[[int, str], None] | None = None,
    buttons: frozenset[int] = frozenset(),
    lang: str = "zh",
    think: float = 0.0,
    before_turn: Callable[[int, Any], Awaitable[None]] | None = None,
) -> None:
    """Play the human seats ``users`` (seat -> Telegram user id) until the match ends or ``stop(match)``;
    ``think``: seconds a person looks at their turn before pressing or typing; ``before_turn(seat, match)``
    is awaited before each move (a test looks at what that person sees then)."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        rt = runtime()
        if rt is None or rt.db is None:
            await asyncio.sleep(0.05)
            continue
        try:
            row, m = await match_repo.load_match_row(rt.db, match_id)
        except Exception:
            await asyncio.sleep(0.05)
            continue
        if not committed_state(row, m):
            await asyncio.sleep(0.01)
            continue
        # the table paused itself (the engine's phase; its row stays "playing", only a referee's /pause marks
        # the row, and that alone still just returns below): only a /resume goes on, waiting for a move
        # would run out the time
        if not m.finished and m.phase == "paused":
            raise TableDrivePaused(
                f"the table paused ({getattr(m, 'paused_reason', None)}) after {len(m.log)} actions"
            )
        if m.finished or row.status != "playing" or (stop is not None and stop(m)):
            return
        acted = False
        phase = m.phase  # Shengji's bidding window: a bid is not required, yet the people may declare
        for turn in m.turns():
            if turn.seat not in users:
                continue
            if not turn.required and not (phase == "window" and turn.kind == "bid"):
                continue
            if m.forced_action(turn.seat):
                continue  # no choice (the last trick): the bot plays it for the seat
            action = None
            try:
                action = m.ai_action(turn.seat, rng)
            except Exception:
                action = None
            text = typed_form(action, lang) if action else None
            if text is None:
                try:
                    action = m.auto_action(turn.seat)
                except Exception:
                    continue
                text = typed_form(action, lang)
            if text is None:
                continue
            version = row.version
            uid = users[turn.seat]
            if before_turn is not None:
                await before_turn(turn.seat, m)
            if think > 0:
                await asyncio.sleep(think)
            pressed = False
            if turn.seat in buttons and action:
                try:
                    pressed = await press_action(sim, uid, match_id, action)
                except Exception:  # the keyboard moved on (another press, a new deal): type instead
                    pressed = False
            if not pressed:
                sim.user_sends_text(uid, uid, text)
            if on_action is not None:
                on_action(turn.seat, text)
            await _wait_committed(runtime, match_id, turn.seat, version)
            acted = True
            break
        if not acted:
            await asyncio.sleep(0.03)
    raise TimeoutError("the match did not finish in time")

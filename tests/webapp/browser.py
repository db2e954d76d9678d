"""Headless Chromium (the Debian package, driven by Playwright's Python client) and a person who plays
their seat through the table page: the engine's computer player chooses each move, the test taps the
cards and buttons of the page like a person does."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from engine.rng import rng_for
from storage import match_repo

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 640}
DEMO_OUTPUT = Path(__file__).resolve().parents[2] / "demo-output"


def _fontconfig(folder: str, cache: Path | None) -> str:
    """A fontconfig file adding the CJK font the project ships (PyPI noto-cjk) so screenshots show Chinese;
    its cache in ``cache`` (kept by the caller: warm from the second browser on) or a fresh one in ``folder``."""
    from bot.presentation.tournament import ensure_cjk_font

    path = Path(folder) / "fonts.conf"
    path.write_text(f"""<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>
<include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>{ensure_cjk_font().parent}</dir>
<cachedir>{cache or Path(folder) / "cache"}</cachedir></fontconfig>""")
    return str(path)


@contextlib.asynccontextmanager
async def chromium(font_cache: Path | None = None) -> AsyncIterator[Browser]:
    """Debian's Chromium, headless; ``font_cache``: fontconfig's cache folder to keep between browsers (the page
    benchmark: a phone does not build its font cache again each time it opens the page)."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "FONTCONFIG_FILE": _fontconfig(folder, font_cache)}
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=env)
            try:
                yield browser
            finally:
                await browser.close()


class FrameLog:
    """Every WebSocket frame a page received (parsed), across reconnects."""

    def __init__(self, page: Page) -> None:
        self.frames: list[dict[str, Any]] = []
        self.sockets = 0
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        self.sockets += 1
        ws.on("framereceived", self._received)

    def _received(self, payload: str) -> None:
        frame = json.loads(payload)
        self.frames.append(frame)
        if frame.get("type") == "hello" and "state" in frame:  # the page's first frame comes inside its hello
            self.frames.append(frame["state"])

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]


class PagePlayer:
    """Plays ``seat`` through ``page``: taps cards, presses the page's buttons."""

    def __init__(self, page: Page, table: Any, seat: int = 0, *, declare_first: bool = True) -> None:
        self.page, self.table, self.seat = page, table, seat
        self.declare_first = declare_first
        self.used: list[str] = []  # the verbs played through the page, in order
        self.stale = 0  # moves refused because the table moved on meanwhile
        self.summaries: list[str] = []  # the deal summaries the page showed (their text)
        self._frame: dict[str, Any] | None = None  # the last frame copied out of the page

    async def frame(self) -> dict[str, Any] | None:
        """The page's current frame; copied out of the page only when it is a new one (the polls run every
        50 ms: copying the whole frame each time took the page's own main thread from its frames)."""
        mark = f"__polled{id(self)}"  # each player's own mark
        fresh = await self.page.evaluate(
            f"(() => {{ const s = window.__table; if (s.{mark} === s.frame) return false;"
            f" s.{mark} = s.frame; return s.frame; }})()"
        )
        if fresh is not False:
            self._frame = fresh
        return self._frame

    async def click(self, selector: str) -> None:
        if not selector.startswith("#sheet"):
            await self.close_summary()
            try:
                await self.page.locator(selector).first.click(timeout=2000)
                return
            except PlaywrightTimeout:  # the deal's summary sheet opened meanwhile
                await self.close_summary()
        await self.page.locator(selector).first.click(timeout=5000)

    async def tap_cards(self, cards: list[str]) -> None:
        if await self.page.locator('#actions button[data-op="clear"]').count():
            await self.click('#actions button[data-op="clear"]')
        for card in cards:
            await self.click(f'#hand .card[data-card="{card}"]:not(.sel)')

    async def press(self, op: str) -> None:
        """A page button, or Telegram's MainButton / SecondaryButton (a stub's) when the page put it there."""
        selector = f'#actions button[data-op="{op}"]'
        if await self.page.locator(selector).count() or not await self.page.evaluate("!!window.__tgStub"):
            await self.click(selector)
        else:
            which = "SecondaryButton" if op == "pass" else "MainButton"
            # pressed once it shows enabled, as a person does (and Playwright's click waits for a page button):
            # the page sets its buttons after the paint of a tapped card, not in the tap itself
            stub = f"window.__tgStub.{which}"
            await self.page.wait_for_function(f"{stub}.isVisible && {stub}.isActive", timeout=5000)
            await self.page.evaluate(f"{stub}.press()")

    async def close_summary(self) -> None:
        """A deal's summary sheet opens by itself: the player reads it and closes it."""
        if await self.page.locator('#overlay:not([hidden]) #sheet[data-kind="summary"]').count():
            self.summaries.append(await self.page.locator("#sheet").inner_text())
            await self.click('#sheet button[data-op="close"]')

    async def step(self, seen: dict[str, Any] | None = None) -> int | None:
        """One move if it is the seat's turn (returns the version it was made at), else None; ``seen``: the
        frame the caller judged (a newer one arriving meanwhile is left to the caller to judge first)."""
        await self.close_summary()
        f = await self.frame()
        if seen is not None and (not f or f["version"] != seen["version"]):
            return None
        if not f or f["status"] != "playing" or not f.get("me") or not f["me"]["actions"]["turns"]:
            return None
        if await self.page.evaluate("!!window.__table.pending"):
            return None
        await drawn(self.page)
        row, m = await match_repo.load_match_row(self.table.rt.db, self.table.match_id)
        if row.version != f["version"]:
            return None  # the page has not got the newest frame yet
        if m.forced_action(self.seat) is not None:
            return None  # no choice left (Shengji's last trick): the table plays it at once (bot.tables.driver), not the page
        a = f["me"]["actions"]
        others = [t for t in f["table"]["turns"] if t["seat"] != self.seat]
        if f["game"] == "shengji" and a.get("bids") and others:
            return None  # declare after the computers have said their word: the same order every run
        if self.declare_first and a.get("bids") and "bid" not in self.used:
            bid = a["bids"][0]
            await self.click(f'#actions button[data-op="{bid["verb"]}"][data-arg="{bid["cards"]}"]')
            self.used.append("bid")
            return int(f["version"])
        action = m.ai_action(self.seat, rng_for(row.seed, "page", row.version, self.seat))
        if not action:
            return None
        words = action.split()
        verb = words[1]
        if verb in ("bid", "overturn"):
            await self.click(f'#actions button[data-op="{verb}"][data-arg="{" ".join(words[2:])}"]')
        elif verb in ("pass_bid", "pass_overturn"):
            try:
                await self.click('#actions button[data-op="pass_bid"]')
            except PlaywrightTimeout:
                now = await self.frame()
                if now and now["version"] != f["version"]:
                    return None  # the bidding window's timer closed it meanwhile: nothing left to pass
                raise
        elif verb == "pass":
            await self.press("pass")
        elif verb == "ask_counts":
            await self.click(f'#actions button[data-op="{verb}"]')
        elif verb == "choose":
            await self.click(f'#actions button[data-op="choose"][data-arg="{words[2]}"]')
        else:
            reading = words[words.index("as") + 1] if "as" in words else None
            cards = words[2 : words.index("as")] if "as" in words else words[2:]
            await self.tap_cards(cards)
            await self.press("tribute" if verb == "return" else verb)
            if verb == "play":
                await self.choose_reading_if_asked(int(f["version"]), reading)
        self.used.append(verb)
        return int(f["version"])

    async def choose_reading_if_asked(self, version: int, reading: str | None) -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if await self.page.locator("#overlay:not([hidden]) button[data-reading]").count():
                selector = (
                    f'#sheet button[data-reading="{reading}"]' if reading else "#sheet button[data-reading]"
                )
                await self.click(selector)
                self.used.append("reading")
                return
            f = await self.frame()
            if f and f["version"] > version:
                return
            await asyncio.sleep(0.05)

    async def play_until(self, done: Any, timeout: float = 240.0, *, after_move: Any = None) -> None:
        """Play the seat's moves until ``done(frame)``; ``after_move(player)`` runs after each move."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            f = await self.frame()
            if f and done(f):
                return
            version = await self.step(f)
            if version is not None:
                await self.wait_past(version)
                if after_move is not None:
                    await after_move(self)
            else:
                await asyncio.sleep(0.05)
        raise AssertionError(
            f"not done in {timeout}s; played {self.used[-10:]}; "
            f"last error {await self.page.evaluate('window.__table.lastError || null')}"
        )

    async def wait_past(self, version: int, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            f = await self.frame()
            if f and f["version"] > version:
                await drawn(self.page)  # what follows looks at the screen of that frame
                return
            error = await self.page.evaluate("window.__table.lastError || null")
            if error and not await self.page.evaluate("!!window.__table.pending"):
                await self.page.evaluate("window.__table.lastError = null")
                if error == await self.page.evaluate("window.__table.texts['web.stale']"):
                    self.stale += (
                        1  # a computer moved at the same moment (tribute): the page refreshed, try again
                    )
                    return
                raise AssertionError(f"the page refused a move: {error} (played {self.used[-5:]})")
            await asyncio.sleep(0.05)
        raise AssertionError(f"version {version} did not move on")


async def drawn(page: Page) -> None:
    """Waits until the screen shows what the page holds. The page takes a frame or an answer into its state
    (``window.__table``) at once and draws it at the next animation frame: until then the screen is the one
    before, e.g. after a move's answer the buttons of the selection it cleared (a "clear" button that was gone
    when tapped, as CI's loaded machine saw). A test that waited on the state calls this before it looks."""
    await drawn_state(page, "null")


async def drawn_state(page: Page, expression: str) -> Any:
    """``expression`` (of the page's state) read when the screen shows that state: in the animation frame, after
    the page's own drawing of it (see ``drawn``)."""
    return await page.evaluate(f"new Promise((done) => requestAnimationFrame(() => done({expression})))")


async def open_page(
    browser: Browser, url: str, size: dict[str, int] = PHONE, *, init_script: str | None = None
) -> tuple[Page, FrameLog]:
    """The page at ``url``; Playwright's waits evaluate strings, which the page's CSP forbids (not
    ``unsafe-eval``): bypassed here, kept in test_page_headers."""
    page = await browser.new_page(viewport=size, bypass_csp=True)
    if init_script:
        await page.add_init_script(init_script)
    log = FrameLog(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    await page.goto(url)
    await page.wait_for_function("window.__table && window.__table.frame !== null", timeout=15000)
    await drawn(page)
    return page, log


def screenshot_path(name: str) -> Path:
    DEMO_OUTPUT.mkdir(exist_ok=True)
    return DEMO_OUTPUT / name


LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#707579",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#efeff3",
    "section_bg_color": "#ffffff",
    "destructive_text_color": "#e53935",
}
DARK = {
    "bg_color": "#17212b",
    "text_color": "#f5f5f5",
    "hint_color": "#708499",
    "link_color": "#6ab3f3",
    "button_color": "#5288c1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#232e3c",
    "section_bg_color": "#17212b",
    "destructive_text_color": "#ec3942",
}


def telegram_stub(init_data: str, theme: dict[str, str], scheme: str = "light", version: str = "8.0") -> str:
    """A stand-in for Telegram's ``Telegram.WebApp`` (an init script): it records every call in
    ``window.__tgCalls`` and lets a test press its buttons (``__tgStub.MainButton.press()``) and send
    events (``__tgStub.emit('themeChanged')``)."""
    return (
        """
(() => {
  const calls = []; window.__tgCalls = calls;
  const handlers = {};
  const rec = (name, ...args) => calls.push([name, ...args]);
  const button = (name) => {
    const b = { text: '', isVisible: false, isActive: true, cbs: [],
      setText(t) { rec(name + '.setText', t); this.text = t; return this; },
      show() { rec(name + '.show'); this.isVisible = true; return this; },
      hide() { rec(name + '.hide'); this.isVisible = false; return this; },
      enable() { rec(name + '.enable'); this.isActive = true; return this; },
      disable() { rec(name + '.disable'); this.isActive = false; return this; },
      onClick(cb) { rec(name + '.onClick'); this.cbs.push(cb); return this; },
      offClick(cb) { rec(name + '.offClick'); this.cbs = this.cbs.filter((x) => x !== cb); return this; },
      press() { if (this.isVisible && this.isActive) this.cbs.slice().forEach((cb) => cb()); else throw new Error(name + ' not pressable'); },
    };
    return b;
  };
  const app = {
    initData: %(init)s, platform: 'android', version: %(version)s, colorScheme: %(scheme)s,
    themeParams: %(theme)s,
    safeAreaInset: { top: 24, bottom: 16, left: 0, right: 0 }, contentSafeAreaInset: { top: 0, bottom: 0, left: 0, right: 0 },
    viewportStableHeight: window.innerHeight,
    isVersionAtLeast(v) { const a = app.version.split('.').map(Number), b = v.split('.').map(Number);
      return a[0] > b[0] || (a[0] === b[0] && (a[1] || 0) >= (b[1] || 0)); },
    ready() { rec('ready'); }, expand() { rec('expand'); },
    disableVerticalSwipes() { rec('disableVerticalSwipes'); },
    enableClosingConfirmation() { rec('enableClosingConfirmation'); },
    disableClosingConfirmation() { rec('disableClosingConfirmation'); },
    onEvent(ev, cb) { rec('onEvent', ev); (handlers[ev] = handlers[ev] || []).push(cb); },
    MainButton: button('MainButton'), SecondaryButton: button('SecondaryButton'), BackButton: button('BackButton'),
    HapticFeedback: {
      impactOccurred(s) { rec('haptic.impact', s); }, notificationOccurred(s) { rec('haptic.notification', s); },
      selectionChanged() { rec('haptic.selection'); },
    },
  };
  window.Telegram = { WebApp: app };
  window.__tgStub = Object.assign(app, { emit(ev) { (handlers[ev] || []).forEach((cb) => cb()); } });
})();
""".replace("%(init)s", json.dumps(init_data))
        .replace("%(theme)s", json.dumps(theme))
        .replace("%(scheme)s", json.dumps(scheme))
        .replace("%(version)s", json.dumps(version))
    )


async def calls(page: Page) -> list[list[Any]]:
    """The stub's recorded Telegram calls."""
    return await page.evaluate("window.__tgCalls")  # type: ignore[no-any-return]


async def overlaps(page: Page, selectors: list[str]) -> list[tuple[str, str]]:
    """Pairs of visible, non-empty elements (of ``selectors``) whose boxes intersect."""
    found: list[tuple[str, str]] = await page.evaluate(
        """(sels) => {
      const boxes = [];
      for (const s of sels) for (const e of document.querySelectorAll(s)) {
        const r = e.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 && e.textContent.trim()) boxes.push([s + '#' + (e.id || e.dataset.seat || ''), r]);
      }
      const out = [];
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i][1], b = boxes[j][1];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) out.push([boxes[i][0], boxes[j][0]]);
      }
      return out;
    }""",
        selectors,
    )
    return [tuple(x) for x in found]  # type: ignore[misc]


async def small_controls(page: Page) -> list[str]:
    """Buttons (page and sheet) smaller than 44x44 CSS px."""
    return await page.evaluate("""() => Array.from(document.querySelectorAll('button')).filter((b) => {
      const r = b.getBoundingClientRect(); return r.width > 0 && (r.width < 44 || r.height < 44);
    }).map((b) => b.textContent)""")  # type: ignore[no-any-return]

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

from engine.rng import rng_for
from storage import match_repo

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 640}
DEMO_OUTPUT = Path(__file__).resolve().parents[2] / "demo-output"


def _fontconfig(folder: str) -> str:
    """A fontconfig file adding the CJK font the project ships (PyPI noto-cjk) so screenshots show Chinese."""
    from bot.presentation.tournament import ensure_cjk_font

    path = Path(folder) / "fonts.conf"
    path.write_text(f"""<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>
<include ignore_missing="yes">/etc/fonts/fonts.conf</include><dir>{ensure_cjk_font().parent}</dir>
<cachedir>{folder}/cache</cachedir></fontconfig>""")
    return str(path)


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "FONTCONFIG_FILE": _fontconfig(folder)}
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
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]


class PagePlayer:
    """Plays ``seat`` through ``page``: taps cards, presses the page's buttons."""

    def __init__(self, page: Page, table: Any, seat: int = 0, *, declare_first: bool = True) -> None:
        self.page, self.table, self.seat = page, table, seat
        self.declare_first = declare_first
        self.used: list[str] = []  # the verbs played through the page, in order
        self.stale = 0  # moves refused because the table moved on meanwhile

    async def frame(self) -> dict[str, Any] | None:
        return await self.page.evaluate("window.__table.frame")  # type: ignore[no-any-return]

    async def click(self, selector: str) -> None:
        await self.page.locator(selector).first.click(timeout=5000)

    async def tap_cards(self, cards: list[str]) -> None:
        if await self.page.locator('#actions button[data-op="clear"]').count():
            await self.click('#actions button[data-op="clear"]')
        for card in cards:
            await self.click(f'#hand .card[data-card="{card}"]:not(.sel)')

    async def step(self) -> int | None:
        """One move if it is the seat's turn (returns the version it was made at), else None."""
        f = await self.frame()
        if not f or f["status"] != "playing" or not f.get("me") or not f["me"]["actions"]["turns"]:
            return None
        if await self.page.evaluate("!!window.__table.pending"):
            return None
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
            await self.click('#actions button[data-op="pass_bid"]')
        elif verb in ("pass", "ask_counts"):
            await self.click(f'#actions button[data-op="{verb}"]')
        elif verb == "choose":
            await self.click(f'#actions button[data-op="choose"][data-arg="{words[2]}"]')
        else:
            reading = words[words.index("as") + 1] if "as" in words else None
            cards = words[2:words.index("as")] if "as" in words else words[2:]
            await self.tap_cards(cards)
            await self.click(f'#actions button[data-op="{"tribute" if verb == "return" else verb}"]')
            if verb == "play":
                await self.choose_reading_if_asked(int(f["version"]), reading)
        self.used.append(verb)
        return int(f["version"])

    async def choose_reading_if_asked(self, version: int, reading: str | None) -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if await self.page.locator("#overlay:not([hidden]) button[data-reading]").count():
                selector = f'#sheet button[data-reading="{reading}"]' if reading else "#sheet button[data-reading]"
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
            version = await self.step()
            if version is not None:
                await self.wait_past(version)
                if after_move is not None:
                    await after_move(self)
            else:
                await asyncio.sleep(0.05)
        raise AssertionError(f"not done in {timeout}s; played {self.used[-10:]}; "
                             f"last error {await self.page.evaluate('window.__table.lastError || null')}")

    async def wait_past(self, version: int, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            f = await self.frame()
            if f and f["version"] > version:
                return
            error = await self.page.evaluate("window.__table.lastError || null")
            if error and not await self.page.evaluate("!!window.__table.pending"):
                await self.page.evaluate("window.__table.lastError = null")
                if error == await self.page.evaluate("window.__table.texts['web.stale']"):
                    self.stale += 1  # a computer moved at the same moment (tribute): the page refreshed, try again
                    return
                raise AssertionError(f"the page refused a move: {error} (played {self.used[-5:]})")
            await asyncio.sleep(0.05)
        raise AssertionError(f"version {version} did not move on")


async def open_page(browser: Browser, url: str, size: dict[str, int] = PHONE) -> tuple[Page, FrameLog]:
    page = await browser.new_page(viewport=size)
    log = FrameLog(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    await page.goto(url)
    await page.wait_for_function("window.__table && window.__table.frame !== null", timeout=15000)
    return page, log


def screenshot_path(name: str) -> Path:
    DEMO_OUTPUT.mkdir(exist_ok=True)
    return DEMO_OUTPUT / name

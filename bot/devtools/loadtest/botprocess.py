"""The bot under test as a child process (``python -m bot``), and its CPU time and memory read from /proc.

The bot runs in its own process so that its CPU time is its own: the simulator and the simulated people
run in the harness process and never count as the bot's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ")  # bot/__main__.py's log format

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class ProcessSample:
    cpu_seconds: float  # user + system time of the whole process (all its threads)
    rss_mb: float  # resident memory now
    peak_rss_mb: float  # the most resident memory so far (VmHWM)


def sample(pid: int) -> ProcessSample:
    """CPU time and memory of a live process (Linux /proc)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    rss = peak = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
        elif line.startswith("VmHWM:"):
            peak = int(line.split()[1]) / 1024
    return ProcessSample(cpu_seconds=(utime + stime) / CLOCK_TICKS, rss_mb=rss, peak_rss_mb=peak)


class BotProcess:
    """``python -m bot`` with the given settings as environment variables; its output goes to ``log_path``."""

    def __init__(self, settings: dict[str, Any], log_path: Path) -> None:
        self.settings = settings
        self.log_path = log_path
        self.process: asyncio.subprocess.Process | None = None
        self._log: Any = None

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("the bot process is not running")
        return self.process.pid

    async def start(self) -> None:
        env = dict(os.environ)
        env.update({k: str(v) for k, v in self.settings.items()})
        # its heartbeat beside its log: a run's bot never writes into the host's default heartbeat file
        env.setdefault("BOT_HEARTBEAT_FILE", str(self.log_path.with_suffix(".heartbeat")))
        self._log = self.log_path.open("wb")
        # LOADTEST_PROFILE=<file>: the bot runs under cProfile (its main thread: the event loop) and writes the
        # stats to <file> when it exits (python -m pstats <file>, or bot.devtools.loadtest.profile)
        profile = os.environ.get("LOADTEST_PROFILE")
        runner = ["-m", "cProfile", "-o", profile, "-m", "bot"] if profile else ["-m", "bot"]
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, *runner, env=env, stdout=self._log, stderr=asyncio.subprocess.STDOUT
        )

    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def stop(self, timeout: float = 20.0) -> int | None:
        """Interrupt the bot (as Ctrl-C would: it shuts down cleanly), kill it if it does not exit in time."""
        process = self.process
        if process is None:
            return None
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(process.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if self._log is not None:
            self._log.close()
        return process.returncode

    def last_line_with(self, text: str) -> str | None:
        """The last line of the bot's log containing ``text`` (None: none)."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return None
        return next((line for line in reversed(lines) if text in line), None)

    def errors_logged(self) -> list[str]:
        """Lines of the bot's log at ERROR level, each with the traceback that follows it (a failed test shows
        the cause, not only that there was one)."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return []
        found: list[str] = []
        in_trace = False
        for line in text.splitlines():
            if " ERROR " in line or line.startswith("Traceback"):
                found.append(line)
                in_trace = line.startswith("Traceback")
            elif in_trace and (line.startswith((" ", "\t")) or not _LOG_LINE.match(line)):
                found.append(line)  # the traceback's frames and its closing exception line
            else:
                in_trace = False
        return found

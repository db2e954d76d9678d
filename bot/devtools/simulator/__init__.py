"""A local Telegram Bot API simulator (see docs/simulator.md)."""

from bot.devtools.simulator.client import SimulatorClient, SimUserHandle
from bot.devtools.simulator.limits import RateLimits
from bot.devtools.simulator.runner import RealBot, make_settings
from bot.devtools.simulator.server import DEFAULT_TOKEN, ApiError, BotApiSimulator, SimStats, SimulatorError
from bot.devtools.simulator.state import CallbackAnswer, MessageVersion, SimChat, SimMessage, SimUser
from bot.devtools.simulator.transcript import format_chat, format_chats

__all__ = [
    "DEFAULT_TOKEN",
    "ApiError",
    "BotApiSimulator",
    "CallbackAnswer",
    "MessageVersion",
    "RateLimits",
    "RealBot",
    "SimChat",
    "SimMessage",
    "SimStats",
    "SimUser",
    "SimUserHandle",
    "SimulatorClient",
    "SimulatorError",
    "format_chat",
    "format_chats",
    "make_settings",
]

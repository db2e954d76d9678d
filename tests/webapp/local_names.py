from bot.webapp.local import GROUP as GROUP_ID  # noqa: F401

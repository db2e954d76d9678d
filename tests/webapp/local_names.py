from bot.devtools.webapp_local import GROUP as GROUP_ID  # noqa: F401

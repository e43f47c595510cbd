"""discord.py glue: slash commands and buttons over ``bot.service``. No game rule lives here:
commands turn into the engine's action words, and every answer comes from the service."""

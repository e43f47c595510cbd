"""The table in the browser: a web server in the bot process (see server.py)."""

"""Where the web server's own warnings and tracebacks go: a log file, never the terminal.

The blind player's terminal is read by a screen reader or a braille display, and what it prints
may be spoken: a uvicorn warning about a stray request, or a traceback behind a page, would be
read out in the middle of a game. They go to ``web.log`` in the program's data folder instead
(on Linux ``~/.local/share/voice-chess/logs/web.log``), kept small: one megabyte and one older
file, so a flood of bad requests cannot fill the disk.
"""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

import platformdirs

from voice.config import APP_NAME

LOG_BYTES = 1024 * 1024
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "websockets")
"""The server's loggers; the program's own web modules log under ``voice.web``."""
OWN_LOGGER = "voice.web"


def web_log_path() -> Path:
    """The web server's log file in the program's data folder."""
    return Path(platformdirs.user_data_dir(APP_NAME)) / "logs" / "web.log"


def route_server_logs(path: Path | None = None) -> Path:
    """Send the server's log records to ``path`` (the data folder's ``web.log``) and nowhere
    else; called again, it moves them to the new file. Returns the file used."""
    path = path or web_log_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(
        path, maxBytes=LOG_BYTES, backupCount=1, encoding="utf-8", delay=True
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in (*SERVER_LOGGERS, OWN_LOGGER):
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
            old.close()
        logger.addHandler(handler)
        logger.propagate = False  # not to the root logger, whose last resort is the terminal
        if logger.level == logging.NOTSET or logger.level > logging.WARNING:
            logger.setLevel(logging.WARNING)
    return path

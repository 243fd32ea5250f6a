"""How ``rockafka serve`` writes its log: text or JSON lines on stderr, identical warnings rate-limited.

- ``text`` (the default): ``2026-11-27 04:40:00,123 INFO rockafka.facade.app: message``;
- ``json`` (``rockafka.log.format=json`` or ``--log-format json``): one object per line with ``time`` (ISO 8601,
  UTC), ``level``, ``logger``, ``message`` and, for an exception, ``exception`` (its traceback as text).

Rate limiting (:class:`RepeatFilter`): a WARNING or ERROR from the same place in the code (logger, file and
line) within ``REPEAT_WINDOW_S`` of the first one is counted instead of written; the first one after the window
is written with ``(N more like this in the last Ws were not logged)`` appended, and starts a new window. A client
that triggers the same warning on every request thus costs one line per window, not one per request. A line
logged with ``extra={"deduplicated": True}`` is never held back: its caller already logs it once per cause (the
request dispatcher's unserved-version warning, once per client id, API and version).
"""

from __future__ import annotations

import datetime
import json
import logging
import sys
import time
from collections.abc import Callable

REPEAT_WINDOW_S = 10.0
#: Places remembered at once; the oldest is forgotten beyond it (its count is lost, not its next line).
MAX_PLACES = 1000
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RepeatFilter(logging.Filter):
    def __init__(self, window_s: float = REPEAT_WINDOW_S, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._window_s = window_s
        self._clock = clock
        self._places: dict[tuple[str, str, int], tuple[float, int]] = {}
        """Per place: when its window started, and how many lines were held back since."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING or getattr(record, "deduplicated", False):
            return True
        place = (record.name, record.pathname, record.lineno)
        now = self._clock()
        seen = self._places.get(place)
        if seen is not None and now - seen[0] < self._window_s:
            self._places[place] = (seen[0], seen[1] + 1)
            return False
        if seen is not None and seen[1]:
            record.msg = (
                f"{record.getMessage()} ({seen[1]} more like this in the last {self._window_s:g}s were not logged)"
            )
            record.args = None
        self._places.pop(place, None)
        self._places[place] = (now, 0)
        if len(self._places) > MAX_PLACES:
            del self._places[next(iter(self._places))]
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(level: str, log_format: str) -> None:
    """Send every log line to stderr at ``level`` and above, as ``text`` or ``json``, repeats rate-limited."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(RepeatFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level))

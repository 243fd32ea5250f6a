"""Every generated message class, found by importing every module of ``rockafka.facade.protocol.messages``."""

from __future__ import annotations

import importlib
import pkgutil

from rockafka.facade.protocol import messages
from rockafka.facade.protocol.message import Message


def all_message_classes() -> list[type[Message]]:
    """Every top-level message (requests, responses, headers, data), sorted by name."""
    found: dict[str, type[Message]] = {}
    for module_info in pkgutil.iter_modules(messages.__path__):
        module = importlib.import_module(f"{messages.__name__}.{module_info.name}")
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, Message) and obj.__module__ == module.__name__:
                found[name] = obj
    return [found[name] for name in sorted(found)]


def all_versions() -> list[tuple[type[Message], int]]:
    return [(cls, version) for cls in all_message_classes() for version in range(cls.MIN_VERSION, cls.MAX_VERSION + 1)]

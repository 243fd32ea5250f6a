"""One module per Kafka API (``api_NN_name.py``), each registering its handler and version range.

Importing this package imports every handler module, so :data:`HANDLERS` is complete.
"""

from __future__ import annotations

import importlib
import pkgutil

from .registry import HANDLERS, ApiHandler, register

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _module.name.startswith("api_"):
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["HANDLERS", "ApiHandler", "register"]

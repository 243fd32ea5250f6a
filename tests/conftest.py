"""Shared test set-up: refuse to test the pure fallback by accident."""

from __future__ import annotations

import importlib
import os

import pytest

from rockafka import core_pyx

COMPILED_KERNELS = [
    "_crc32c",
    "_recordbatch",
    "_records",
    "_hotcodec",
    "_wire",
    "_varint",
    "_framing",
    "_reqheader",
    "_indexhash",
    "_logrecord",
    "_filemap",
    "_indexrun",
    "_offsetmap",
]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Unless ROCKAFKA_NO_EXTENSIONS=1, every compiled kernel must import (so CI cannot silently test only twins)."""
    if core_pyx.NO_EXTENSIONS:
        return
    missing = []
    for name in COMPILED_KERNELS:
        try:
            importlib.import_module(f"rockafka.core_pyx.{name}")
        except ImportError as exc:
            missing.append(f"{name}: {exc}")
    if missing and os.environ.get("ROCKAFKA_ALLOW_MISSING_EXTENSIONS") != "1":
        raise pytest.UsageError("compiled kernels did not load (run `make compile`): " + "; ".join(missing))

"""Fixtures of the store tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rockafka.store import MessageStore

from .helpers import small_config


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MessageStore]:
    """An empty store with small segments (``helpers.small_config``), closed after the test."""
    opened = MessageStore.open(small_config(tmp_path))
    yield opened
    opened.close()

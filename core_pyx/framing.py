"""Kafka's size-delimited frames: a splitter that takes any chunking of a byte stream (see ``_framing_py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._framing_py import DEFAULT_MAX_FRAME_SIZE, PREFIX_SIZE

if TYPE_CHECKING:
    from ._framing_py import FrameSplitter
else:
    FrameSplitter = kernel("_framing").FrameSplitter

__all__ = ["DEFAULT_MAX_FRAME_SIZE", "PREFIX_SIZE", "FrameSplitter"]

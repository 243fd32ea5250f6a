"""The request header in front of every Kafka request body, read in place (layout: ``_reqheader_py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import kernel
from ._reqheader_py import CONTROLLED_SHUTDOWN_KEY

if TYPE_CHECKING:
    from ._reqheader_py import RequestHeader, decode_request_header
else:
    _impl = kernel("_reqheader")
    RequestHeader = _impl.RequestHeader
    decode_request_header = _impl.decode_request_header

__all__ = ["CONTROLLED_SHUTDOWN_KEY", "RequestHeader", "decode_request_header"]

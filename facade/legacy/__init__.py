"""Kafka's old message formats (v0 and v1 MessageSets) and their conversion to and from RecordBatch v2.

The store keeps RecordBatch v2 only: Produce v0-2 is converted up once, on the way in; Fetch v0-3 is
converted down from the stored batches, on the way out.
"""

from .conversion import CONVERSIONS, ConversionMeter, DownConverted, down_convert, fetch_magic, up_convert
from .messageset import LegacyMessage, MessageSetError, UnsupportedCodecError, encode_message, read_message_set

__all__ = [
    "CONVERSIONS",
    "ConversionMeter",
    "DownConverted",
    "LegacyMessage",
    "MessageSetError",
    "UnsupportedCodecError",
    "down_convert",
    "encode_message",
    "fetch_magic",
    "read_message_set",
    "up_convert",
]

from typing_extensions import Buffer

from ._records_py import Record

def decode_records(
    payload: Buffer, count: int, base_offset: int, base_timestamp: int, log_append_time: int | None = None
) -> list[Record]: ...
def count_records(payload: Buffer) -> int: ...

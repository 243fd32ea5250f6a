from typing_extensions import Buffer

from ._records_py import Record

def decode_records(
    payload: Buffer, count: int, base_offset: int, base_timestamp: int, log_append_time: int | None = None
) -> list[Record]: ...
def walk_records(payload: Buffer) -> tuple[int, int, int]: ...

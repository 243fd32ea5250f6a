from typing import Final

from typing_extensions import Buffer

LIMIT: Final[int]
SEGMENT_END: Final[int]
END_OF_DATA: Final[int]
CORRUPT: Final[int]
Parsed = tuple[int, int, bytes, int, int, int, int, int, int, int, int]

def write_record(
    fd: int,
    position: int,
    batch: Buffer,
    topic_id: bytes,
    partition: int,
    base_offset: int,
    leader_epoch: int,
    record_count: int,
    store_timestamp: int,
    log_append_time: int,
    physical_offset: int,
) -> tuple[int, int, int, int, int]: ...
def scan_records(
    segment: Buffer, position: int, file_start: int, verify_from: int, limit: int, tail_room: int = ...
) -> tuple[list[Parsed], int, int, str]: ...
def verify_crcs(segment: Buffer, position: int, end: int) -> int: ...

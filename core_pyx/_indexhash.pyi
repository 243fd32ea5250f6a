from collections.abc import Sequence

from typing_extensions import Buffer

def key_hashes(payload: Buffer, count: int, seed: int) -> list[int]: ...
def put_entries(
    index: Buffer,
    slot_count: int,
    index_count: int,
    hash_slot_count: int,
    begin_timestamp: int,
    physical_offset: int,
    store_timestamp: int,
    hashes: Sequence[int],
) -> tuple[int, int]: ...

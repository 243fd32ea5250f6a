from typing import Final

from typing_extensions import Buffer

from ._hotmessages import ProduceRequest

PRODUCE_VERSIONS: Final[tuple[int, int]]

def decode_produce_request(body: Buffer, version: int) -> ProduceRequest: ...

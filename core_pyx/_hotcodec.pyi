from typing import Final

from ._hotmessages import (
    ApiVersionsResponse,
    FetchResponse,
    MetadataResponse,
    ProduceResponse,
)

PRODUCE_VERSIONS: Final[tuple[int, int]]
FETCH_VERSIONS: Final[tuple[int, int]]
METADATA_VERSIONS: Final[tuple[int, int]]
API_VERSIONS_VERSIONS: Final[tuple[int, int]]

def encode_produce_response(version: int, response: ProduceResponse, correlation_id: int | None = None) -> bytes: ...
def encode_fetch_response(version: int, response: FetchResponse, correlation_id: int | None = None) -> bytes: ...
def encode_fetch_response_parts(
    version: int, response: FetchResponse, correlation_id: int | None = None, min_zero_copy: int = 0
) -> list[bytes | memoryview]: ...
def encode_metadata_response(version: int, response: MetadataResponse, correlation_id: int | None = None) -> bytes: ...
def encode_api_versions_response(
    version: int, response: ApiVersionsResponse, correlation_id: int | None = None
) -> bytes: ...

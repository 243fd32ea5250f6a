"""RequestDispatcher's outcomes for failing handlers (regressions found by the compat tests).

A handler that raises BrokenRequestError (a failed acks=0 produce) must close the connection, not be
answered with UNKNOWN_SERVER_ERROR (acks=0 has no response for the client to read). A response that
does not encode at the request's version (ListOffsets once set a v4+ field in v1-3 answers) is
answered with the API's error response instead of escaping into the transport, which closed the
connection through asyncio's fatal-error path. When the error response does not encode either, or its
builder fails on the request, the answer is the API's minimal response (defaults, top-level error code
where the API has one): the client always gets its correlation id back. A failing handler is one ERROR
line in the log, its traceback only at DEBUG.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import pytest

from rockafka.facade.dispatch import RequestDispatcher, _minimal_response
from rockafka.facade.handlers import HANDLERS, ApiHandler
from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.framing import decode_response, encode_request
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsPartitionResponse,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
    ListOffsetsTopicResponse,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse
from rockafka.facade.server import BrokenRequestError, ConnectionInfo

LIST_OFFSETS = 2
METADATA = 3
VERSION = 2  # no leader_epoch in the response before v4


def answer(code: ErrorCode, leader_epoch: int) -> ListOffsetsResponse:
    part = ListOffsetsPartitionResponse(partition_index=0, error_code=code, leader_epoch=leader_epoch)
    return ListOffsetsResponse(topics=[ListOffsetsTopicResponse(name="t", partitions=[part])])


def dispatch(monkeypatch: pytest.MonkeyPatch, handle: Any, error_response: Any) -> Any:
    monkeypatch.setitem(HANDLERS, LIST_OFFSETS, ApiHandler(LIST_OFFSETS, 0, 9, handle, error_response))
    request = ListOffsetsRequest(topics=[ListOffsetsTopic(name="t", partitions=[ListOffsetsPartition(timestamp=-1)])])
    frame = encode_request(request, VERSION, 42)[4:]
    dispatcher = RequestDispatcher(broker=None)  # type: ignore[arg-type]  # the fake handlers ignore it
    return dispatcher.dispatch(frame, ConnectionInfo("127.0.0.1:1", "PLAINTEXT"))


def test_broken_request_from_a_handler_closes_the_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    def handle(ctx: Any, request: Any) -> Any:
        raise BrokenRequestError("acks=0 produce failed")

    with pytest.raises(BrokenRequestError, match="acks=0"):
        dispatch(monkeypatch, handle, lambda request, code: answer(code, -1))


def test_response_that_does_not_encode_is_answered_with_the_error_response(monkeypatch: pytest.MonkeyPatch) -> None:
    buffers = dispatch(monkeypatch, lambda ctx, request: answer(ErrorCode.NONE, 0), lambda r, c: answer(c, -1))
    correlation_id, decoded = decode_response(b"".join(buffers)[4:], ListOffsetsResponse, VERSION)
    assert correlation_id == 42
    assert decoded.topics[0].partitions[0].error_code == ErrorCode.UNKNOWN_SERVER_ERROR


def minimal_answer(buffers: Any) -> ListOffsetsResponse:
    correlation_id, decoded = decode_response(b"".join(buffers)[4:], ListOffsetsResponse, VERSION)
    assert correlation_id == 42
    return decoded


def test_when_not_even_the_error_response_encodes_the_minimal_response_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    buffers = dispatch(monkeypatch, lambda ctx, request: answer(ErrorCode.NONE, 0), lambda r, c: answer(c, 0))
    assert minimal_answer(buffers).topics == []


def test_an_error_builder_that_fails_gets_the_minimal_response(monkeypatch: pytest.MonkeyPatch) -> None:
    def handle(ctx: Any, request: Any) -> Any:
        raise ValueError("a bug")

    def error_response(request: Any, code: ErrorCode) -> Any:
        raise TypeError("another bug")

    assert minimal_answer(dispatch(monkeypatch, handle, error_response)).topics == []


def test_a_failing_handler_is_one_error_line_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def handle(ctx: Any, request: Any) -> Any:
        raise ValueError("a bug")

    with caplog.at_level(logging.INFO, logger="rockafka.facade.dispatch"):
        buffers = dispatch(monkeypatch, handle, lambda request, code: answer(code, -1))
    assert minimal_answer(buffers).topics[0].partitions[0].error_code == ErrorCode.UNKNOWN_SERVER_ERROR
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert len(errors) == 1 and "ValueError: a bug" in errors[0].getMessage()
    assert all(record.exc_info is None for record in caplog.records)


def test_a_hot_api_whose_error_builder_fails_gets_the_generated_minimal_response(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Metadata answers through the hot encoder; its last resort is still the generated minimal response."""

    def handle(ctx: Any, request: Any) -> Any:
        raise ValueError("a bug")

    def error_response(request: Any, code: ErrorCode) -> Any:
        raise TypeError("another bug")

    metadata = HANDLERS[METADATA]
    assert metadata.encode is not None
    monkeypatch.setitem(HANDLERS, METADATA, dataclasses.replace(metadata, handle=handle, error_response=error_response))
    frame = encode_request(MetadataRequest(topics=None), 12, 42)[4:]
    dispatcher = RequestDispatcher(broker=None)  # type: ignore[arg-type]  # the fake handler ignores it
    with caplog.at_level(logging.INFO, logger="rockafka.facade.dispatch"):
        buffers = dispatcher.dispatch(frame, ConnectionInfo("127.0.0.1:1", "PLAINTEXT"))
    correlation_id, decoded = decode_response(b"".join(buffers)[4:], MetadataResponse, 12)
    assert (correlation_id, decoded.topics, decoded.brokers) == (42, [], [])
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert len(errors) == 1 and "ValueError: a bug" in errors[0].getMessage()


def test_the_minimal_response_of_every_api_encodes_at_every_version() -> None:
    """The last fallback must always encode: each API's defaults, with its top-level error code only in
    the versions that carry one."""
    failures = []
    for api_key, handler in sorted(HANDLERS.items()):
        for version in range(handler.min_version, handler.max_version + 1):
            try:
                _minimal_response(api_key, ErrorCode.UNKNOWN_SERVER_ERROR, version).encode(version)
            except Exception as exc:
                failures.append(f"API {api_key} v{version}: {exc}")
    assert failures == []

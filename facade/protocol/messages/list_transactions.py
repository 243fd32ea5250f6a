# GENERATED FROM apache/kafka@1eb7644349cb07139d6a3c1ad1986979647cac99 ListTransactionsRequest.json, ListTransactionsResponse.json - DO NOT EDIT; make gen-protocol
"""ListTransactions (API key 66): ListTransactionsRequest and ListTransactionsResponse, versions 0-1."""

from __future__ import annotations

from struct import Struct as _Struct
from typing import Self

from ..message import DEFAULT, ApiMessage, FieldInfo, Struct, absent_field
from ..primitives import Reader, pack_int64, write_int_array, write_string, write_string_array, write_struct_array, write_tagged_fields

_S1 = _Struct(">ih")


class ListTransactionsRequest(ApiMessage):
    """ListTransactionsRequest, versions 0-1, flexible from 0."""

    API_KEY = 66
    IS_REQUEST = True
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("state_filters", "producer_id_filters", "duration_filter", "unknown_tagged_fields",)
    state_filters: list[str]
    producer_id_filters: list[int]
    duration_filter: int

    def __init__(
        self,
        *,
        state_filters: list[str] = DEFAULT,
        producer_id_filters: list[int] = DEFAULT,
        duration_filter: int = -1,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.state_filters = [] if state_filters is DEFAULT else state_filters
        self.producer_id_filters = [] if producer_id_filters is DEFAULT else producer_id_filters
        self.duration_filter = duration_filter
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string_array(out, self.state_filters, True)
        write_int_array(out, "q", self.producer_id_filters, True)
        if version >= 1:
            out += pack_int64(self.duration_filter)
        elif version < 1 and self.duration_filter != -1:
            raise absent_field(self, "duration_filter", version)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.state_filters = r.string_array(True)
        self.producer_id_filters = r.int_array("q", True)
        self.duration_filter = r.int64() if version >= 1 else -1
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class ListTransactionsResponse(ApiMessage):
    """ListTransactionsResponse, versions 0-1, flexible from 0."""

    API_KEY = 66
    IS_REQUEST = False
    MIN_VERSION = 0
    MAX_VERSION = 1
    FLEXIBLE_FROM = 0
    __slots__ = ("throttle_time_ms", "error_code", "unknown_state_filters", "transaction_states", "unknown_tagged_fields",)
    throttle_time_ms: int
    error_code: int
    unknown_state_filters: list[str]
    transaction_states: list[TransactionState]

    def __init__(
        self,
        *,
        throttle_time_ms: int = 0,
        error_code: int = 0,
        unknown_state_filters: list[str] = DEFAULT,
        transaction_states: list[TransactionState] = DEFAULT,
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.unknown_state_filters = [] if unknown_state_filters is DEFAULT else unknown_state_filters
        self.transaction_states = [] if transaction_states is DEFAULT else transaction_states
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        out += _S1.pack(self.throttle_time_ms, self.error_code)
        write_string_array(out, self.unknown_state_filters, True)
        write_struct_array(out, self.transaction_states, version, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.throttle_time_ms, self.error_code = r.fixed(_S1)
        self.unknown_state_filters = r.string_array(True)
        self.transaction_states = r.struct_array(TransactionState.read, version, True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


class TransactionState(Struct):
    """TransactionState of ListTransactionsResponse (in versions 0-1)."""

    __slots__ = ("transactional_id", "producer_id", "transaction_state", "unknown_tagged_fields",)
    transactional_id: str
    producer_id: int
    transaction_state: str

    def __init__(
        self,
        *,
        transactional_id: str = "",
        producer_id: int = 0,
        transaction_state: str = "",
        unknown_tagged_fields: dict[int, bytes] = DEFAULT,
    ) -> None:
        self.transactional_id = transactional_id
        self.producer_id = producer_id
        self.transaction_state = transaction_state
        self.unknown_tagged_fields = {} if unknown_tagged_fields is DEFAULT else unknown_tagged_fields

    def write(self, out: bytearray, version: int) -> None:
        write_string(out, self.transactional_id, True)
        out += pack_int64(self.producer_id)
        write_string(out, self.transaction_state, True)
        write_tagged_fields(out, self.unknown_tagged_fields)

    @classmethod
    def read(cls, r: Reader, version: int) -> Self:
        self = cls.__new__(cls)
        self.transactional_id = r.string(True)
        self.producer_id = r.int64()
        self.transaction_state = r.string(True)
        self.unknown_tagged_fields = r.tagged_fields()
        return self


ListTransactionsRequest.FIELDS = (
    FieldInfo("state_filters", "StateFilters", "[]string", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id_filters", "ProducerIdFilters", "[]int64", (0, 32767), None, None, None, False, None),
    FieldInfo("duration_filter", "DurationFilter", "int64", (1, 32767), None, None, None, False, None),
)
ListTransactionsResponse.FIELDS = (
    FieldInfo("throttle_time_ms", "ThrottleTimeMs", "int32", (0, 32767), None, None, None, False, None),
    FieldInfo("error_code", "ErrorCode", "int16", (0, 32767), None, None, None, False, None),
    FieldInfo("unknown_state_filters", "UnknownStateFilters", "[]string", (0, 32767), None, None, None, False, None),
    FieldInfo("transaction_states", "TransactionStates", "[]TransactionState", (0, 32767), None, None, None, False, TransactionState),
)
TransactionState.FIELDS = (
    FieldInfo("transactional_id", "TransactionalId", "string", (0, 32767), None, None, None, False, None),
    FieldInfo("producer_id", "ProducerId", "int64", (0, 32767), None, None, None, False, None),
    FieldInfo("transaction_state", "TransactionState", "string", (0, 32767), None, None, None, False, None),
)


__all__ = [
    "ListTransactionsRequest",
    "ListTransactionsResponse",
    "TransactionState",
]

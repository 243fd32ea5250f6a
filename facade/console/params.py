"""A console request's parameters: the query string of a read, the JSON body of a change; each getter raises
``BadRequestError`` naming the parameter and what it must be."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..ops.http import HttpRequest
from .errors import BadRequestError
from .views import Page

MAX_INTEGER = (1 << 63) - 1
Target = str | int | dict[str, int]


@dataclass(frozen=True, slots=True)
class Params:
    method: str
    values: Mapping[str, Any]
    """Query parameters (their last value) or the JSON body's fields."""
    raw_body: bytes = b""

    @classmethod
    def of(cls, request: HttpRequest) -> Params:
        return cls(request.method, {name: items[-1] for name, items in request.query.items()}, request.body)

    def body(self) -> Params:
        """The JSON object sent as the request's body."""
        try:
            document = json.loads(self.raw_body or b"{}")
        except ValueError as exc:
            raise BadRequestError(f"the request body is not JSON: {exc}") from None
        if not isinstance(document, dict):
            raise BadRequestError("the request body must be a JSON object")
        return Params(self.method, document)

    def text(self, name: str, *, allow_empty: bool = False) -> str:
        value = self.values.get(name)
        if not isinstance(value, str) or (not value and not allow_empty):
            raise BadRequestError(f"{name} is required (a string)")
        return value

    def optional_integer(self, name: str) -> int | None:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            raise BadRequestError(f"{name} must be an integer, got {value!r}")
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise BadRequestError(f"{name} must be an integer, got {value!r}") from None
        if not -MAX_INTEGER <= number <= MAX_INTEGER:
            raise BadRequestError(f"{name} is out of range: {value!r}")
        return number

    def integer(self, name: str, *, default: int) -> int:
        value = self.optional_integer(name)
        return default if value is None else value

    def choice(self, name: str, allowed: Sequence[str], default: str) -> str:
        value = self.values.get(name, default)
        if value not in allowed:
            raise BadRequestError(f"{name} must be one of {', '.join(a or '(empty)' for a in allowed)}, got {value!r}")
        return str(value)

    def page(self) -> Page:
        filter_text = self.values.get("filter", "")
        return Page(self.integer("page", default=1), self.integer("size", default=50), str(filter_text))

    def string_map(self, name: str) -> dict[str, str]:
        value = self.values.get(name) or {}
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise BadRequestError(f"{name} must be an object of string values")
        return {str(key): item for key, item in value.items()}

    def string_list(self, name: str) -> list[str]:
        value = self.values.get(name) or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BadRequestError(f"{name} must be a list of strings")
        return list(value)

    def integer_list(self, name: str) -> list[int]:
        value = self.values.get(name) or []
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise BadRequestError(f"{name} must be a list of integers")
        return list(value)

    def target(self, name: str) -> Target:
        """Where a reset goes: ``earliest``, ``latest``, an offset, or ``{"timestamp": ms}``."""
        value = self.values.get(name)
        if value in ("earliest", "latest") or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            return value
        if isinstance(value, dict) and set(value) == {"timestamp"} and isinstance(value["timestamp"], int):
            return {"timestamp": int(value["timestamp"])}
        raise BadRequestError(f'{name} must be "earliest", "latest", an offset, or {{"timestamp": ms}}')

"""Parsing and printing of setting values, by :class:`ConfigType`, the way Kafka reads properties."""

from __future__ import annotations

from .definitions import ConfigDef, ConfigType, Value
from .errors import InvalidConfigError

_TRUE = {"true"}
_FALSE = {"false"}
_INT_RANGE = {
    ConfigType.SHORT: (-(1 << 15), (1 << 15) - 1),
    ConfigType.INT: (-(1 << 31), (1 << 31) - 1),
    ConfigType.LONG: (-(1 << 63), (1 << 63) - 1),
}


def parse_value(definition: ConfigDef, text: str | None) -> Value:
    """Parse ``text`` as a value of ``definition``; ``None`` (a null in a request) clears to no value."""
    if text is None:
        return None
    raw = text.strip()
    kind = definition.type
    try:
        value = _parse(kind, raw)
    except ValueError:
        raise InvalidConfigError(
            definition.name, _shown(definition, text), f"is not a valid {kind.name.lower()}"
        ) from None
    if definition.check is not None and (problem := definition.check(value)) is not None:
        raise InvalidConfigError(definition.name, _shown(definition, text), problem)
    return value


def _shown(definition: ConfigDef, text: str) -> str:
    """A value as an error message may show it: a password never is."""
    return "[hidden]" if definition.type is ConfigType.PASSWORD else text


def _parse(kind: ConfigType, raw: str) -> Value:
    if kind is ConfigType.BOOLEAN:
        lowered = raw.lower()
        if lowered in _TRUE | _FALSE:
            return lowered in _TRUE
        raise ValueError(raw)
    if kind in _INT_RANGE:
        number = int(raw)
        low, high = _INT_RANGE[kind]
        if not low <= number <= high:
            raise ValueError(raw)
        return number
    if kind is ConfigType.DOUBLE:
        return float(raw)
    if kind is ConfigType.LIST:
        return [item.strip() for item in raw.split(",") if item.strip()]
    return raw


def format_value(value: Value) -> str | None:
    """Print a value as Kafka shows it in DescribeConfigs (``None`` stays null)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(value)
    return str(value)

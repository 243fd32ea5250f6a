"""The configuration layer's errors: one family, each with a one-line message fit for a user."""

from __future__ import annotations


class ConfigError(Exception):
    """A setting that cannot be used; ``str()`` is one readable line."""


class UnknownConfigError(ConfigError):
    def __init__(self, name: str, source: str, suggestion: str | None = None) -> None:
        hint = f"; did you mean '{suggestion}'?" if suggestion is not None else ""
        super().__init__(f"unknown setting '{name}' ({source}){hint}")
        self.name = name


class InvalidConfigError(ConfigError):
    def __init__(self, name: str, value: str | None, problem: str) -> None:
        super().__init__(f"invalid value {value!r} for setting '{name}': {problem}")
        self.name = name
        self.value = value
        self.problem = problem

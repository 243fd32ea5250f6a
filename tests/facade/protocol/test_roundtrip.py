"""Every message of every spec, at every valid version, survives encode -> decode -> encode unchanged.

Values come from Hypothesis (a few per message and version, to keep the run short); each draw fills only
what its version carries (see ``strategies``). A separate test drives every field to a non-default value.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from rockafka.facade.protocol.message import Message

from .messages_index import all_versions
from .strategies import message_values

CASES = all_versions()
EXAMPLES = settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@pytest.mark.parametrize(("cls", "version"), CASES, ids=[f"{cls.__name__}-v{version}" for cls, version in CASES])
def test_round_trip(cls: type[Message], version: int) -> None:
    @EXAMPLES
    @given(message_values(cls, version))
    def check(value: Message) -> None:
        encoded = value.encode(version)
        decoded = cls.decode(encoded, version)
        assert decoded == value
        assert decoded.encode(version) == encoded

    check()

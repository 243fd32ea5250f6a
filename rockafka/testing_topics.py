"""Topics for tests: :class:`TopicFactory`, what the ``kafka_topic`` fixture of :mod:`rockafka.testing_plugin` gives.

::

    def test_orders(kafka_broker, kafka_topic):
        orders = kafka_topic()                                   # "test_orders-1-3f9c2a", one partition
        audit = kafka_topic(partitions=3, config={"cleanup.policy": "compact"})

Each call creates a new topic through the broker's CreateTopics (as an admin client would) and returns its
name: the test's name, a counter and a random suffix, so tests sharing one broker (a session fixture) never
share a topic. A refusal (a bad setting, an existing name given explicitly) raises ``BrokerError`` with the
broker's error code and message.
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Mapping

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.create_topics import (
    CreatableTopic,
    CreatableTopicConfig,
    CreateTopicsRequest,
    CreateTopicsResponse,
)
from rockafka.wire_client import WireClient, WireClientError

CREATE_TIMEOUT_MS = 30_000
#: Kafka's limit on a topic name's length, less room for the counter and the suffix.
NAME_PREFIX_MAX = 200
_NOT_IN_A_TOPIC_NAME = re.compile(r"[^a-zA-Z0-9._-]+")


class TopicFactory:
    """Creates topics on one broker, named after one test."""

    def __init__(self, bootstrap: str, test_name: str) -> None:
        self._bootstrap = bootstrap
        self._prefix = _NOT_IN_A_TOPIC_NAME.sub("-", test_name).strip("-")[:NAME_PREFIX_MAX] or "topic"
        self._counter = itertools.count(1)
        self.created: list[str] = []

    def __call__(self, partitions: int = 1, config: Mapping[str, str] | None = None, name: str | None = None) -> str:
        """A new topic of ``partitions`` partitions with ``config`` (Kafka's topic settings); its name."""
        topic = name or f"{self._prefix}-{next(self._counter)}-{uuid.uuid4().hex[:6]}"
        create_topic(self._bootstrap, topic, partitions=partitions, config=config)
        self.created.append(topic)
        return topic


def create_topic(bootstrap: str, name: str, *, partitions: int = 1, config: Mapping[str, str] | None = None) -> None:
    """Create ``name`` on the broker at ``bootstrap``; ``BrokerError`` with the broker's reason if it refuses."""
    from rockafka.testing import BrokerError

    configs = [CreatableTopicConfig(name=key, value=value) for key, value in (config or {}).items()]
    topic = CreatableTopic(name=name, num_partitions=partitions, replication_factor=-1, assignments=[], configs=configs)
    request = CreateTopicsRequest(topics=[topic], timeout_ms=CREATE_TIMEOUT_MS)
    try:
        with WireClient(bootstrap, client_id="rockafka-testing") as client:
            result = client.request(request, 5, CreateTopicsResponse).topics[0]
    except WireClientError as exc:
        raise BrokerError(f"cannot create topic {name!r}: {exc}") from None
    if result.error_code != ErrorCode.NONE:
        reason = ErrorCode.of(result.error_code).name
        detail = f": {result.error_message}" if result.error_message else ""
        raise BrokerError(f"cannot create topic {name!r}: {reason}{detail}")

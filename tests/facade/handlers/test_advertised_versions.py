"""What ApiVersions advertises against the specs the codec is generated from.

Every handled API goes up to the newest version its spec marks stable (clients infer the broker's Kafka
release from the newest versions: kafka-python reads ListOffsets v10 as 4.0), and down no lower than the
spec's oldest. A newest version the spec marks unstable (``latestVersionUnstable``) is not advertised, unless
Kafka has released it since (``RELEASED_SINCE_THE_SPECS``).
"""

from __future__ import annotations

import pytest

from rockafka.facade.handlers import HANDLERS
from rockafka.facade.protocol.messages import api_spec

#: Versions the specs' snapshot still marks unstable that Kafka 4.0 released and clients send: ConsumerGroupHeartbeat
#: v1 (KIP-848's regex subscriptions and client-made member ids; librdkafka 2.16 sends v1).
RELEASED_SINCE_THE_SPECS = {68: 1}
#: APIs advertised below their spec's newest version because that version's feature is not built: ShareFetch and
#: ShareAcknowledge v2 (KIP-1206 acquire modes, KIP-1222 lock renewal; librdkafka 2.16 sends v1).
NOT_BUILT_NEWEST = {78: 1, 79: 1}


def newest_stable(api_key: int) -> int:
    spec = api_spec(api_key)
    if api_key in RELEASED_SINCE_THE_SPECS:
        return RELEASED_SINCE_THE_SPECS[api_key]
    if api_key in NOT_BUILT_NEWEST:
        return NOT_BUILT_NEWEST[api_key]
    return spec.max_version - 1 if spec.latest_version_unstable else spec.max_version


@pytest.mark.parametrize("api_key", sorted(HANDLERS))
def test_each_api_is_advertised_up_to_its_newest_stable_version(api_key: int) -> None:
    handler, spec = HANDLERS[api_key], api_spec(api_key)
    assert handler.max_version == newest_stable(api_key), spec.name
    assert spec.min_version <= handler.min_version <= handler.max_version, spec.name


def test_the_kafka_4_0_apis_kafka_python_checks_are_advertised() -> None:
    """ListOffsets v10 (kafka-python's 4.0 marker), DescribeQuorum v0-2, DescribeTopicPartitions v0."""
    ranges = {key: (HANDLERS[key].min_version, HANDLERS[key].max_version) for key in (2, 55, 75)}
    assert ranges == {2: (0, 10), 55: (0, 2), 75: (0, 0)}

"""Helpers of the cluster tests (``compat_tests/test_cluster_*.py``): waiting until every broker lists a topic."""

from __future__ import annotations

import time

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.testing import Cluster

from .wire import RawClient


def wait_known_everywhere(cluster: Cluster, topic: str, timeout_s: float) -> None:
    """Until every broker's Metadata lists ``topic`` (CreateTopics answers once the answering broker has it;
    the others learn it from their etcd watch a moment later, as Kafka's brokers learn from the controller)."""
    deadline = time.monotonic() + timeout_s
    pending = set(cluster.brokers)
    while pending and time.monotonic() < deadline:
        for node in sorted(pending):
            with RawClient(cluster.brokers[node].bootstrap) as raw:
                request = MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False)
                if raw.request(request, 12, MetadataResponse).topics[0].error_code == ErrorCode.NONE:
                    pending.discard(node)
        if pending:
            time.sleep(0.05)
    assert not pending, f"brokers {sorted(pending)} never listed {topic}"

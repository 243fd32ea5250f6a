"""The cluster-wide dynamic broker default, kept in etcd: one value for every broker, as Kafka keeps it.

On a single broker the default (``kafka-configs --entity-type brokers --entity-default``, the broker resource
named "") is a layer of ``dynamicBrokerConfigs.json`` (``dynamic_configs.py``). In a cluster it is the etcd key
``broker_default_configs`` (cluster/layout.py): AlterConfigs and IncrementalAlterConfigs of "" on any broker
change it there by compare-and-swap (``ClusterMetadata.alter_broker_default_configs``), answered once this
broker's watch has brought the change back; every broker's watch applies it (``ClusterBrokerDefault.changed``)
under that broker's own per-broker dynamic configs, over its static ones: Kafka's precedence. The etcd value
replaces the file's default layer from the moment the broker joins (absent: no default).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final

from rockafka.cluster import ClusterError, ClusterSnapshot
from rockafka.cluster.member import ClusterMember
from rockafka.facade.protocol.error_codes import ErrorCode

from .handlers.context import ApiError

if TYPE_CHECKING:
    from .broker import Broker

log = logging.getLogger(__name__)

#: How long an alteration waits for its own change to come back through the watch.
SEEN_TIMEOUT_S: Final = 10.0


class ClusterBrokerDefault:
    """One broker's side of the cluster-wide default: applies etcd's value, and changes it."""

    def __init__(self, member: ClusterMember, broker: Broker) -> None:
        assert member.view is not None, "the member must have started"
        self._member = member
        self._view = member.view
        self._broker = broker
        self._applied: dict[str, str] | None = None
        self._view.add_listener(self.changed)
        self.changed(ClusterSnapshot(), self._view.snapshot)

    def changed(self, _old: ClusterSnapshot, new: ClusterSnapshot) -> None:
        texts = dict(new.broker_default_configs)
        if texts == self._applied:
            return
        self._applied = texts
        broker = self._broker
        broker.reconfigure(broker.dynamic.apply_default(broker.config, texts))

    async def alter(self, update: Callable[[dict[str, str]], Mapping[str, str]]) -> None:
        """Make the default ``update(etcd's current default)`` (``update`` checks it and may raise ApiError), then
        wait until this broker applies it; REQUEST_TIMED_OUT (retriable) when etcd does not take it."""
        metadata = self._member.metadata
        assert metadata is not None, "the member has started"
        try:
            revision = await metadata.alter_broker_default_configs(lambda current: update(dict(current)))
            if revision:
                await self._view.wait_for(lambda snapshot: snapshot.revision >= revision, SEEN_TIMEOUT_S)
        except (ClusterError, TimeoutError) as exc:
            raise ApiError(
                ErrorCode.REQUEST_TIMED_OUT, f"the cluster metadata did not take the broker default configs: {exc}"
            ) from None

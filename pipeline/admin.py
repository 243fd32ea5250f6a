"""The admin side of a migration: topics, their configs, consumer groups' offsets and ACLs, read from one
broker and applied to another with kafka-python's admin client.

Every call goes through :class:`Admin`, made from the same kafka-python settings as the Spark sources
(:func:`.wire.client_config`), so a secured broker is reached the same way by both. An unreachable broker fails
within ``timeout_s`` with one line naming it.

**Topic configs** are the source's topic-level overrides (``config_source`` ``DYNAMIC_TOPIC_CONFIG`` in
DescribeConfigs): a value the topic inherits from its broker's defaults is not copied (the target's own
defaults apply). Sensitive values (DescribeConfigs returns none) cannot be copied and are named.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError, PipelineError
from .offsets import TopicPartition

DEFAULT_TIMEOUT_S = 5.0
TOPIC_OVERRIDE = "DYNAMIC_TOPIC_CONFIG"


@dataclass(frozen=True, slots=True)
class TopicSpec:
    """What the target needs to hold a topic: its partition count and its configs."""

    partitions: int
    configs: dict[str, str] = field(default_factory=dict)
    #: Sensitive configs set on the source whose values DescribeConfigs does not return.
    hidden: tuple[str, ...] = ()


class Admin:
    """One admin client on one broker (``config``: kafka-python settings, ``bootstrap_servers`` among them)."""

    def __init__(self, config: Mapping[str, Any], timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        from kafka.admin import KafkaAdminClient

        self.where = config["bootstrap_servers"]
        known = KafkaAdminClient.DEFAULT_CONFIG
        settings = {k: v for k, v in config.items() if k in known}
        timeout_ms = int(timeout_s * 1000)
        settings.update(bootstrap_timeout_ms=timeout_ms, request_timeout_ms=max(timeout_ms, 1000))
        client = KafkaAdminClient.__new__(KafkaAdminClient)
        with self.failing("connect"):
            try:
                client.__init__(**settings)
            except Exception:
                _stop_half_made(client)
                raise
        self.client = client

    def __enter__(self) -> Admin:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()

    @contextlib.contextmanager
    def failing(self, doing: str) -> Iterator[None]:
        """Turn a client failure into a ``PipelineError`` naming the broker and what was being done."""
        try:
            yield
        except PipelineError:
            raise
        except Exception as exc:
            raise PipelineError(f"{self.where}: cannot {doing}: {type(exc).__name__}: {exc}") from exc

    # --- topics ---

    def partition_counts(self) -> dict[str, int]:
        with self.failing("list topics"):
            described = self.client.describe_topics()
        return {t.get("name", t.get("topic")): len(t["partitions"]) for t in described if not t.get("is_internal")}

    def topic_specs(self, topics: Sequence[str]) -> dict[str, TopicSpec]:
        """The partition counts and config overrides of the topics that exist here."""
        from kafka.admin import ConfigResource, ConfigResourceType

        counts = self.partition_counts()
        present = [topic for topic in topics if topic in counts]
        if not present:
            return {}
        resources = [ConfigResource(ConfigResourceType.TOPIC, topic) for topic in present]
        with self.failing("describe topic configs"):
            described = self.client.describe_configs(resources, config_filter="all").get("topic", {})
        specs = {}
        for topic in present:
            overrides = {k: c for k, c in described.get(topic, {}).items() if c["config_source"] == TOPIC_OVERRIDE}
            values = {k: c["value"] for k, c in overrides.items() if c["value"] is not None}
            hidden = tuple(sorted(k for k, c in overrides.items() if c["value"] is None))
            specs[topic] = TopicSpec(counts[topic], values, hidden)
        return specs

    def create_topics(self, specs: Mapping[str, TopicSpec]) -> None:
        from kafka.admin import NewTopic

        new = [NewTopic(name, spec.partitions, -1, topic_configs=spec.configs) for name, spec in specs.items()]
        if new:
            with self.failing(f"create topics {', '.join(specs)}"):
                self.client.create_topics(new)

    def add_partitions(self, counts: Mapping[str, int]) -> None:
        """Grow the topics to these partition counts (CreatePartitions)."""
        from kafka.admin import NewPartitions

        if counts:
            with self.failing(f"add partitions to {', '.join(counts)}"):
                self.client.create_partitions({topic: NewPartitions(count) for topic, count in counts.items()})

    def set_configs(self, configs: Mapping[str, Mapping[str, str]]) -> None:
        """Set these config values on existing topics (other overrides stay)."""
        from kafka.admin import ConfigResource, ConfigResourceType

        resources = [ConfigResource(ConfigResourceType.TOPIC, t, dict(c)) for t, c in configs.items() if c]
        if resources:
            with self.failing("alter topic configs"):
                outcome = self.client.alter_configs(resources, incremental=True).get("topic", {})
            refused = [f"{topic}: {result}" for topic, result in sorted(outcome.items()) if result != "OK"]
            if refused:
                raise PipelineError(f"{self.where}: topic configs refused: {'; '.join(refused)}")

    # --- consumer groups ---

    def group_offsets(self, topics: Sequence[str]) -> dict[str, dict[TopicPartition, int]]:
        """Every group's committed offsets on the topics (groups with none there are left out)."""
        wanted = set(topics)
        with self.failing("list consumer groups"):
            groups = [g["group_id"] for g in self.client.list_groups()]
        result: dict[str, dict[TopicPartition, int]] = {}
        for group in sorted(groups):
            mine = self.committed(group, wanted)
            if mine:
                result[group] = mine
        return result

    def committed(self, group: str, topics: set[str]) -> dict[TopicPartition, int]:
        """The group's committed offsets on the topics."""
        with self.failing(f"fetch the offsets of group {group}"):
            committed = self.client.list_group_offsets({group: None}).get(group, {})
        return {
            TopicPartition(tp.topic, tp.partition): int(meta.offset)
            for tp, meta in committed.items()
            if tp.topic in topics and meta is not None and meta.offset >= 0
        }

    def active_groups(self, groups: Sequence[str]) -> set[str]:
        """Those of the groups that have members here (their offsets cannot be set from outside)."""
        if not groups:
            return set()
        with self.failing("describe consumer groups"):
            described = self.client.describe_groups(list(groups))
        return {group for group, description in described.items() if description.get("members")}

    def commit(self, group: str, offsets: Mapping[TopicPartition, int], note: str) -> None:
        from kafka import TopicPartition as KafkaTP
        from kafka.structs import OffsetAndMetadata

        wanted = {KafkaTP(tp.topic, tp.partition): OffsetAndMetadata(o, note, -1) for tp, o in offsets.items()}
        with self.failing(f"commit the offsets of group {group}"):
            outcome = self.client.alter_group_offsets(group, wanted)
        failed = [
            f"{tp.topic}-{tp.partition}: {error.__name__}"
            for tp, error in outcome.items()
            if error.__name__ != "NoError"
        ]
        if failed:
            raise PipelineError(f"{self.where}: group {group}: offsets refused: {'; '.join(failed)}")

    # --- ACLs ---

    def acls(self) -> list[Any]:
        """Every ACL binding here (kafka-python ``ACL`` objects)."""
        from kafka.admin import (
            ACLFilter,
            ACLOperation,
            ACLPermissionType,
            ACLResourcePatternType,
            ResourcePatternFilter,
            ResourceType,
        )

        pattern = ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY)
        everything = ACLFilter(None, None, ACLOperation.ANY, ACLPermissionType.ANY, pattern)
        with self.failing("describe ACLs"):
            found, error = self.client.describe_acls(everything)
        if error.__name__ != "NoError":
            raise PipelineError(f"{self.where}: cannot describe ACLs: {error.__name__}")
        return list(found)

    def create_acls(self, acls: Sequence[Any]) -> None:
        if not acls:
            return
        with self.failing("create ACLs"):
            outcome = self.client.create_acls(list(acls))
        if outcome.get("failed"):
            reasons = "; ".join(f"{acl}: {error}" for acl, error in outcome["failed"])
            raise PipelineError(f"{self.where}: ACLs refused: {reasons}")


def ensure_sink_topic(config: Mapping[str, Any], topic: str, partitions: int | None) -> None:
    """The sink's target topic, when its rows name partitions: created with ``partitions`` (``topicPartitions``)
    if missing, refused if missing without it (the broker would auto-create it with its ``num.partitions``)."""
    with Admin(config) as admin:
        counts = admin.partition_counts()
        if topic in counts:
            if partitions is not None and counts[topic] < partitions:
                raise OptionError(
                    f"topic {topic} has {counts[topic]} partitions, fewer than topicPartitions={partitions}"
                )
            return
        if partitions is None:
            raise OptionError(
                f"the target topic {topic} does not exist and the rows name partitions: create it with the source's "
                "partition count, or set option topicPartitions=N to have the sink create it"
            )
        admin.create_topics({topic: TopicSpec(partitions)})


def _stop_half_made(client: Any) -> None:
    """Stop what kafka-python's ``KafkaAdminClient`` started before its constructor failed: it starts its I/O thread
    and then bootstraps, and a bootstrap that fails leaves that thread running (retrying the unreachable broker for
    as long as the process lives) in an object the caller never gets to close."""
    for stop in (
        getattr(getattr(client, "_client", None), "close", None),
        getattr(getattr(client, "_net", None), "stop", None),
    ):
        if stop is not None:
            with contextlib.suppress(Exception):
                stop()

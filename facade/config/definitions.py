"""The settings Rockafka understands, under Kafka's property names, with Kafka's defaults.

A broker setting (``server.properties``) and a topic setting (CreateTopics/AlterConfigs) are each
declared once here as a :class:`ConfigDef`: name, type, default, validity check and, for topic
settings, the broker setting that supplies the default (Kafka's "synonym"). The loaders, the
DescribeConfigs handler and the documentation all read these tables.

Kafka settings that have no meaning for a single-node broker (thread pools, replication, ZooKeeper)
are accepted and listed in :data:`IGNORED_BROKER_SETTINGS`; other Kafka settings Rockafka does not implement
are accepted with a warning (``kafka_names.py``), so an existing ``server.properties`` loads unchanged;
a name Kafka does not know either is an error.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

LONG_MAX: Final = 9223372036854775807
INT_MAX: Final = 2147483647


class ConfigType(enum.IntEnum):
    """Kafka's config types, numbered as DescribeConfigs v3+ reports them."""

    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


Value = bool | int | float | str | list[str] | None
Check = Callable[[Value], str | None]


@dataclass(frozen=True, slots=True)
class ConfigDef:
    """One setting: its Kafka name, type, default (``None`` = no value), check, and broker synonym."""

    name: str
    type: ConfigType
    default: Value
    check: Check | None = None
    synonym: str | None = None
    read_only: bool = True
    doc: str = ""


def at_least(low: int | float) -> Check:
    def check(value: Value) -> str | None:
        if isinstance(value, int | float) and not isinstance(value, bool) and value < low:
            return f"must be at least {low}"
        return None

    return check


def between(low: int, high: int) -> Check:
    def check(value: Value) -> str | None:
        if isinstance(value, int) and not low <= value <= high:
            return f"must be between {low} and {high}"
        return None

    return check


def one_of(*choices: str) -> Check:
    def check(value: Value) -> str | None:
        values = value if isinstance(value, list) else [value]
        bad = [v for v in values if v not in choices]
        if bad:
            return f"must be one of {', '.join(choices)} (got {', '.join(map(str, bad))})"
        return None

    return check


BOOL, STR, INT, LONG, DOUBLE, LIST, PASSWORD = (
    ConfigType.BOOLEAN,
    ConfigType.STRING,
    ConfigType.INT,
    ConfigType.LONG,
    ConfigType.DOUBLE,
    ConfigType.LIST,
    ConfigType.PASSWORD,
)
NON_NEGATIVE = at_least(0)
RETENTION = at_least(-1)


def connection_overrides(text: str) -> dict[str, int]:
    """``max.connections.per.ip.overrides``: ``host:limit`` pairs, comma-separated (ValueError if malformed)."""
    overrides: dict[str, int] = {}
    for entry in filter(None, (part.strip() for part in text.split(","))):
        host, sep, limit = entry.rpartition(":")
        if not sep or not host.strip() or not limit.strip().isdigit():
            raise ValueError(f"{entry!r} is not host:limit")
        overrides[host.strip()] = int(limit)
    return overrides


def _check_overrides(value: Value) -> str | None:
    try:
        connection_overrides(str(value or ""))
    except ValueError as exc:
        return str(exc)
    return None


def _check_http_listener(value: Value) -> str | None:
    return _check_address(value, "no HTTP listener")


def _check_address(value: Value, empty: str) -> str | None:
    _, sep, port = str(value or "").rpartition(":")
    if value and (not sep or not port.isdigit() or int(port) > 65535):
        return f"must be HOST:PORT (empty: {empty})"
    return None


#: ``replica.selector.class``: the one selector of reads from followers (KIP-392) a broker offers.
RACK_AWARE_REPLICA_SELECTOR: Final = "org.apache.kafka.common.replica.RackAwareReplicaSelector"


def _check_replica_selector(value: Value) -> str | None:
    if value and value != RACK_AWARE_REPLICA_SELECTOR:
        return f"must be {RACK_AWARE_REPLICA_SELECTOR} (empty: consumers read from leaders only)"
    return None


#: ``group.consumer.assignors``: the server-side assignors of KIP-848 groups, by short or Kafka class name.
CONSUMER_GROUP_ASSIGNORS = (
    "uniform",
    "range",
    "org.apache.kafka.coordinator.group.assignor.UniformAssignor",
    "org.apache.kafka.coordinator.group.assignor.RangeAssignor",
)
#: ``group.consumer.migration.policy``: which online conversions between classic and consumer groups are allowed.
CONSUMER_GROUP_MIGRATION_POLICIES = ("bidirectional", "upgrade", "downgrade", "disabled")
COMPRESSION_TYPES = ("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")

AUTHORIZER_CLASSES: Final = (
    "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "kafka.security.authorizer.AclAuthorizer",
    "kafka.security.auth.SimpleAclAuthorizer",
)
"""Kafka's ACL authorizers: naming any of them turns on Rockafka's ACL authorizer (the same model)."""
SASL_MECHANISMS: Final = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
TLS_VERSIONS: Final = ("TLSv1.2", "TLSv1.3")

SECURITY_CONFIG_DEFS: Final[tuple[ConfigDef, ...]] = (
    ConfigDef("ssl.keystore.type", STR, "PEM", one_of("PEM", "JKS", "PKCS12")),
    ConfigDef("ssl.keystore.location", STR, None),
    ConfigDef("ssl.keystore.password", PASSWORD, None),
    ConfigDef("ssl.key.password", PASSWORD, None),
    ConfigDef("ssl.keystore.certificate.chain", PASSWORD, None),
    ConfigDef("ssl.keystore.key", PASSWORD, None),
    ConfigDef("ssl.truststore.type", STR, "PEM", one_of("PEM", "JKS", "PKCS12")),
    ConfigDef("ssl.truststore.location", STR, None),
    ConfigDef("ssl.truststore.password", PASSWORD, None),
    ConfigDef("ssl.truststore.certificates", PASSWORD, None),
    ConfigDef("ssl.client.auth", STR, "none", one_of("required", "requested", "none")),
    ConfigDef("ssl.enabled.protocols", LIST, list(TLS_VERSIONS), one_of(*TLS_VERSIONS)),
    ConfigDef("ssl.protocol", STR, "TLSv1.3", one_of("TLS", *TLS_VERSIONS)),
    ConfigDef("ssl.cipher.suites", LIST, None),
    ConfigDef("ssl.principal.mapping.rules", STR, "DEFAULT"),
    ConfigDef("ssl.endpoint.identification.algorithm", STR, "https"),
    ConfigDef("sasl.enabled.mechanisms", LIST, list(SASL_MECHANISMS), one_of(*SASL_MECHANISMS)),
    ConfigDef("sasl.jaas.config", PASSWORD, None),
    ConfigDef("sasl.server.max.receive.size", INT, 524288, at_least(1)),
    ConfigDef("connections.max.reauth.ms", LONG, 0, NON_NEGATIVE),
    ConfigDef("connection.failed.authentication.delay.ms", INT, 100, NON_NEGATIVE),
    ConfigDef("authorizer.class.name", STR, "", one_of("", *AUTHORIZER_CLASSES)),
    ConfigDef("super.users", STR, None),
    ConfigDef("allow.everyone.if.no.acl.found", BOOL, False),
)
"""Security settings; every ``ssl.*``, ``sasl.*`` and ``connections.max.reauth.ms`` one may also be set for
one listener as ``listener.name.<listener, lower case>.<setting>`` (see :data:`LISTENER_SCOPED`)."""

LISTENER_SCOPED: Final = frozenset(
    d.name for d in SECURITY_CONFIG_DEFS if d.name.startswith(("ssl.", "sasl.", "connections.max.reauth"))
)
"""Settings Kafka lets a listener override; ``sasl.jaas.config`` and ``connections.max.reauth.ms`` are also
scoped by mechanism: ``listener.name.<listener>.<mechanism, lower case>.<setting>``."""
MECHANISM_SCOPED: Final = frozenset({"sasl.jaas.config", "connections.max.reauth.ms"})

BROKER_CONFIG_DEFS: Final[tuple[ConfigDef, ...]] = (
    ConfigDef("node.id", INT, 0, NON_NEGATIVE, doc="this broker's id (Kafka's default -1 means unset; 0 here)"),
    ConfigDef("broker.id", INT, None, NON_NEGATIVE, doc="older name of node.id"),
    ConfigDef("listeners", LIST, ["PLAINTEXT://127.0.0.1:9092"], doc="where the broker listens"),
    ConfigDef("advertised.listeners", LIST, None, doc="what Metadata tells clients; defaults to listeners"),
    ConfigDef(
        "controller.listener.names",
        LIST,
        None,
        doc="KRaft controller listeners among listeners: neither opened nor advertised (no controller runs here)",
    ),
    ConfigDef(
        "listener.security.protocol.map",
        LIST,
        ["PLAINTEXT:PLAINTEXT", "SSL:SSL", "SASL_PLAINTEXT:SASL_PLAINTEXT", "SASL_SSL:SASL_SSL"],
    ),
    ConfigDef("log.dirs", LIST, None, doc="data directory (only the first entry is used)"),
    ConfigDef("log.dir", STR, "./rockafka-data", doc="data directory when log.dirs is not set"),
    ConfigDef("num.partitions", INT, 1, at_least(1), read_only=False),
    ConfigDef("default.replication.factor", INT, 1, between(1, 1)),
    ConfigDef("auto.create.topics.enable", BOOL, True),
    ConfigDef("delete.topic.enable", BOOL, True),
    ConfigDef("message.max.bytes", INT, 1048588, at_least(0), read_only=False),
    ConfigDef("socket.request.max.bytes", INT, 104857600, at_least(1)),
    ConfigDef("log.retention.hours", INT, 168, read_only=False),
    ConfigDef("log.retention.minutes", INT, None, read_only=False),
    ConfigDef("log.retention.ms", LONG, None, RETENTION, read_only=False),
    ConfigDef("log.retention.bytes", LONG, -1, RETENTION, read_only=False),
    ConfigDef("log.retention.check.interval.ms", LONG, 300000, at_least(1)),
    ConfigDef("log.segment.bytes", INT, 1073741824, at_least(1 << 20), doc="CommitLog file size"),
    ConfigDef("log.roll.ms", LONG, None, read_only=False),
    ConfigDef("log.roll.hours", INT, 168, at_least(1), read_only=False),
    ConfigDef("log.cleanup.policy", LIST, ["delete"], one_of("delete", "compact"), read_only=False),
    ConfigDef("log.message.timestamp.type", STR, "CreateTime", one_of("CreateTime", "LogAppendTime"), read_only=False),
    ConfigDef("log.message.timestamp.before.max.ms", LONG, LONG_MAX, NON_NEGATIVE, read_only=False),
    ConfigDef("log.message.timestamp.after.max.ms", LONG, 3600000, NON_NEGATIVE, read_only=False),
    ConfigDef("log.message.downconversion.enable", BOOL, True, None, read_only=False),
    ConfigDef("log.flush.interval.messages", LONG, LONG_MAX, at_least(1), read_only=False),
    ConfigDef("log.flush.interval.ms", LONG, None, read_only=False),
    ConfigDef("log.flush.scheduler.interval.ms", LONG, LONG_MAX),
    ConfigDef("log.cleaner.delete.retention.ms", LONG, 86400000, NON_NEGATIVE, read_only=False),
    ConfigDef("log.segment.delete.delay.ms", LONG, 60000, NON_NEGATIVE, read_only=False),
    ConfigDef("log.index.interval.bytes", INT, 4096, NON_NEGATIVE, read_only=False),
    ConfigDef("log.index.size.max.bytes", INT, 10485760, at_least(4), read_only=False),
    ConfigDef("log.cleaner.min.cleanable.ratio", DOUBLE, 0.5, read_only=False),
    ConfigDef("log.cleaner.min.compaction.lag.ms", LONG, 0, read_only=False),
    ConfigDef("log.cleaner.max.compaction.lag.ms", LONG, LONG_MAX, at_least(1), read_only=False),
    ConfigDef("log.cleaner.backoff.ms", LONG, 15000, at_least(1)),
    ConfigDef("log.cleaner.io.max.bytes.per.second", DOUBLE, 1.7976931348623157e308, read_only=False),
    ConfigDef("log.cleaner.threads", INT, 1, at_least(0), read_only=False),
    ConfigDef("log.cleaner.dedupe.buffer.size", LONG, 134217728, at_least(24 * 1024)),
    ConfigDef("log.preallocate", BOOL, False, read_only=False),
    ConfigDef("compression.type", STR, "producer", one_of(*COMPRESSION_TYPES), read_only=False),
    ConfigDef("min.insync.replicas", INT, 1, at_least(1), read_only=False),
    ConfigDef("unclean.leader.election.enable", BOOL, False, read_only=False),
    ConfigDef("offsets.retention.minutes", INT, 10080, at_least(1)),
    ConfigDef("offsets.retention.check.interval.ms", LONG, 600000, at_least(1)),
    ConfigDef("offsets.topic.num.partitions", INT, 50, at_least(1)),
    ConfigDef("group.min.session.timeout.ms", INT, 6000),
    ConfigDef("group.max.session.timeout.ms", INT, 1800000),
    ConfigDef("group.initial.rebalance.delay.ms", INT, 3000, NON_NEGATIVE),
    ConfigDef("group.max.size", INT, INT_MAX, at_least(1)),
    ConfigDef("group.consumer.session.timeout.ms", INT, 45000, at_least(1)),
    ConfigDef("group.consumer.heartbeat.interval.ms", INT, 5000, at_least(1)),
    ConfigDef("group.consumer.assignors", LIST, ["uniform", "range"], one_of(*CONSUMER_GROUP_ASSIGNORS)),
    ConfigDef("group.consumer.max.size", INT, INT_MAX, at_least(1)),
    ConfigDef("group.share.session.timeout.ms", INT, 45000, at_least(1)),
    ConfigDef("group.share.heartbeat.interval.ms", INT, 5000, at_least(1)),
    ConfigDef("group.share.record.lock.duration.ms", INT, 30000, at_least(1)),
    ConfigDef("group.share.delivery.count.limit", INT, 5, between(2, 10)),
    ConfigDef("group.share.partition.max.record.locks", INT, 2000, at_least(1)),
    ConfigDef("group.share.max.size", INT, 200, at_least(1)),
    ConfigDef("group.consumer.migration.policy", STR, "bidirectional", one_of(*CONSUMER_GROUP_MIGRATION_POLICIES)),
    ConfigDef("offset.metadata.max.bytes", INT, 4096, NON_NEGATIVE),
    ConfigDef("transactional.id.expiration.ms", INT, 604800000, at_least(1)),
    ConfigDef("transaction.max.timeout.ms", INT, 900000, at_least(1)),
    ConfigDef("transaction.abort.timed.out.transaction.cleanup.interval.ms", INT, 10000, at_least(1)),
    ConfigDef("transaction.remove.expired.transaction.cleanup.interval.ms", INT, 3600000, at_least(1)),
    ConfigDef("producer.id.expiration.ms", INT, 86400000, at_least(1)),
    ConfigDef("connections.max.idle.ms", LONG, 600000),
    ConfigDef("max.connections", INT, INT_MAX, NON_NEGATIVE),
    ConfigDef("max.connections.per.ip", INT, INT_MAX, NON_NEGATIVE),
    ConfigDef("max.connections.per.ip.overrides", STR, "", _check_overrides),
    ConfigDef("fetch.max.bytes", INT, 57671680, at_least(1024)),
    *SECURITY_CONFIG_DEFS,
    ConfigDef(
        "rockafka.protocol.version",
        STR,
        "3.9",
        one_of("3.9", "4.0"),
        doc="the Kafka release whose client protocol versions are served (named after Kafka's "
        "inter.broker.protocol.version): 3.9, every version Kafka 3.9 serves, the oldest clients' Produce v0-2 and "
        "Fetch v0-3 included (message formats v0/v1 converted); 4.0, only Kafka 4.0's ranges (KIP-896)",
    ),
    ConfigDef("rockafka.flush.mode", STR, "async", one_of("async", "sync"), doc="async or sync (group commit)"),
    ConfigDef("rockafka.flush.interval.ms", INT, 500, at_least(1), doc="background flush interval in async mode"),
    ConfigDef("rockafka.consumequeue.units.per.file", INT, 300000, at_least(16)),
    ConfigDef("rockafka.index.slots", INT, 5000000, at_least(1)),
    ConfigDef("rockafka.index.entries", INT, 20000000, at_least(1)),
    ConfigDef("rockafka.commitlog.cache.bytes", LONG, 1 << 30, at_least(-1)),
    ConfigDef("rockafka.free.space.reserve.bytes", LONG, 64 << 20, NON_NEGATIVE),
    ConfigDef("rockafka.cluster.etcd.endpoints", LIST, None, doc="etcd host:port list: joins a cluster"),
    ConfigDef("rockafka.cluster.name", STR, "rockafka", doc="the cluster's key prefix in etcd"),
    ConfigDef("rockafka.cluster.group", STR, None, doc="this broker's group (default: group-<node.id>)"),
    ConfigDef(
        "transaction.state.log.min.isr",
        INT,
        2,
        at_least(1),
        doc="in-sync members (the leader included) a transaction state write must reach on a replicated leader",
    ),
    ConfigDef("rockafka.cluster.lease.ttl.ms", INT, 2000, at_least(1000), doc="registration lease TTL"),
    ConfigDef(
        "rockafka.cluster.join.timeout.ms",
        INT,
        18000,
        NON_NEGATIVE,
        doc="how long a starting broker tries to join its cluster (etcd unreachable, its node id still registered)",
    ),
    ConfigDef(
        "inter.broker.listener.name",
        STR,
        None,
        doc="the advertised listener brokers of a cluster reach each other on (default: the first advertised one)",
    ),
    ConfigDef(
        "security.inter.broker.protocol",
        STR,
        None,
        one_of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"),
        doc="instead of inter.broker.listener.name: the listener of this name (Kafka's older setting)",
    ),
    ConfigDef(
        "sasl.mechanism.inter.broker.protocol",
        STR,
        "PLAIN",
        one_of(*SASL_MECHANISMS),
        doc="how brokers authenticate to each other on a SASL inter-broker listener (Kafka's GSSAPI is not offered)",
    ),
    ConfigDef("rockafka.cleaner.duty.cycle", DOUBLE, 0.1, at_least(0.001)),
    ConfigDef("rockafka.http.listener", STR, "", _check_http_listener),
    ConfigDef("rockafka.replication.listener", STR, "", lambda value: _check_address(value, "no followers served")),
    ConfigDef("rockafka.replication.leader", STR, "", lambda value: _check_address(value, "not a follower")),
    ConfigDef("replica.lag.time.max.ms", LONG, 30000, at_least(1)),
    ConfigDef("broker.rack", STR, None),
    ConfigDef("replica.selector.class", STR, None, _check_replica_selector),
    ConfigDef("rockafka.console.enable", BOOL, True),
    ConfigDef("rockafka.console.allow.changes", BOOL, False),
    ConfigDef("rockafka.log.format", STR, "text", one_of("text", "json")),
)

TOPIC_CONFIG_DEFS: Final[tuple[ConfigDef, ...]] = (
    ConfigDef("cleanup.policy", LIST, ["delete"], one_of("delete", "compact"), "log.cleanup.policy", False),
    ConfigDef("compression.type", STR, "producer", one_of(*COMPRESSION_TYPES), "compression.type", False),
    ConfigDef("delete.retention.ms", LONG, 86400000, NON_NEGATIVE, "log.cleaner.delete.retention.ms", False),
    ConfigDef("file.delete.delay.ms", LONG, 60000, NON_NEGATIVE, "log.segment.delete.delay.ms", False),
    ConfigDef("flush.messages", LONG, LONG_MAX, at_least(1), "log.flush.interval.messages", False),
    ConfigDef("flush.ms", LONG, LONG_MAX, NON_NEGATIVE, "log.flush.interval.ms", False),
    ConfigDef("index.interval.bytes", INT, 4096, NON_NEGATIVE, "log.index.interval.bytes", False),
    ConfigDef("max.compaction.lag.ms", LONG, LONG_MAX, at_least(1), "log.cleaner.max.compaction.lag.ms", False),
    ConfigDef("max.message.bytes", INT, 1048588, NON_NEGATIVE, "message.max.bytes", False),
    ConfigDef("message.downconversion.enable", BOOL, True, None, "log.message.downconversion.enable", False),
    ConfigDef(
        "message.timestamp.type",
        STR,
        "CreateTime",
        one_of("CreateTime", "LogAppendTime"),
        "log.message.timestamp.type",
        False,
    ),
    ConfigDef(
        "message.timestamp.before.max.ms", LONG, LONG_MAX, NON_NEGATIVE, "log.message.timestamp.before.max.ms", False
    ),
    ConfigDef(
        "message.timestamp.after.max.ms", LONG, 3600000, NON_NEGATIVE, "log.message.timestamp.after.max.ms", False
    ),
    ConfigDef("min.cleanable.dirty.ratio", DOUBLE, 0.5, None, "log.cleaner.min.cleanable.ratio", False),
    ConfigDef("min.compaction.lag.ms", LONG, 0, NON_NEGATIVE, "log.cleaner.min.compaction.lag.ms", False),
    ConfigDef("min.insync.replicas", INT, 1, at_least(1), "min.insync.replicas", False),
    ConfigDef("preallocate", BOOL, False, None, "log.preallocate", False),
    ConfigDef("retention.bytes", LONG, -1, RETENTION, "log.retention.bytes", False),
    ConfigDef("retention.ms", LONG, 604800000, RETENTION, "log.retention.ms", False),
    ConfigDef("segment.bytes", INT, 1073741824, at_least(14), "log.segment.bytes", False),
    ConfigDef("segment.index.bytes", INT, 10485760, at_least(4), "log.index.size.max.bytes", False),
    ConfigDef("segment.jitter.ms", LONG, 0, NON_NEGATIVE, "log.roll.jitter.ms", False),
    ConfigDef("segment.ms", LONG, 604800000, at_least(1), "log.roll.ms", False),
    ConfigDef("unclean.leader.election.enable", BOOL, False, None, "unclean.leader.election.enable", False),
)

NOT_APPLIED: Final = " (accepted; Rockafka does not apply it yet)"
NO_MEANING: Final = " (no effect: one broker, no replication)"


def no_effect(reason: str) -> str:
    return f" (no effect: {reason})"


_DOCUMENTATION: Final[dict[str, str]] = {
    "num.partitions": "partitions of a topic created automatically",
    "default.replication.factor": "replication factor of automatically created topics (1: one broker)",
    "auto.create.topics.enable": "create a topic when Metadata asks for an unknown one",
    "delete.topic.enable": "allow DeleteTopics",
    "message.max.bytes": "largest record batch a topic accepts, unless the topic sets max.message.bytes",
    "socket.request.max.bytes": "largest request frame; a larger size prefix closes the connection",
    "log.retention.hours": "hours a topic keeps data, unless log.retention.minutes/ms or the topic say otherwise",
    "log.retention.minutes": "minutes a topic keeps data (over log.retention.hours)",
    "log.retention.ms": "milliseconds a topic keeps data (over minutes and hours); -1: forever",
    "log.retention.bytes": "bytes a partition keeps before its oldest batches go; -1: no limit",
    "log.retention.check.interval.ms": "how often retention runs",
    "log.roll.ms": "age at which a Kafka segment rolls" + no_effect("shared CommitLog files roll by size"),
    "log.roll.hours": "age at which a Kafka segment rolls" + no_effect("shared CommitLog files roll by size"),
    "log.cleanup.policy": "default cleanup policy of topics: delete, compact, or both",
    "log.message.timestamp.type": "CreateTime keeps the producer's timestamps; LogAppendTime stamps the broker's time",
    "log.message.timestamp.before.max.ms": "how far before the broker's clock a CreateTime record's timestamp may be",
    "log.message.timestamp.after.max.ms": "how far after the broker's clock a CreateTime record's timestamp may be",
    "log.message.downconversion.enable": "the default of message.downconversion.enable: whether Fetch v0-3 reads "
    "are converted to the old message formats (else UNSUPPORTED_VERSION)",
    "log.flush.interval.messages": "messages between forced flushes" + NOT_APPLIED + "; see rockafka.flush.mode",
    "log.flush.interval.ms": "milliseconds between forced flushes" + NOT_APPLIED + "; see rockafka.flush.interval.ms",
    "log.flush.scheduler.interval.ms": "how often the flusher checks" + NOT_APPLIED,
    "log.cleaner.delete.retention.ms": "how long delete tombstones stay in compacted topics",
    "log.segment.delete.delay.ms": "delay before a deleted segment's file is removed" + NOT_APPLIED,
    "log.index.interval.bytes": "bytes between Kafka offset-index entries"
    + no_effect("every batch has its ConsumeQueue unit"),
    "log.index.size.max.bytes": "size of Kafka's offset index files"
    + no_effect("ConsumeQueue files are sized by units"),
    "log.cleaner.min.cleanable.ratio": "dirty ratio that triggers compaction",
    "log.cleaner.min.compaction.lag.ms": "minimum age before a record may be compacted",
    "log.cleaner.max.compaction.lag.ms": "maximum age before a record must be compacted",
    "log.cleaner.backoff.ms": "how often the broker looks for a partition to compact",
    "log.cleaner.io.max.bytes.per.second": "the cleaner's read plus write budget, bytes per second",
    "log.cleaner.threads": "compaction passes that run at once, each on its own partition and thread (0 counts as "
    "1); they share log.cleaner.io.max.bytes.per.second and rockafka.cleaner.duty.cycle",
    "log.cleaner.dedupe.buffer.size": "bytes a compaction pass's key -> offset map may hold (keys kept whole); a"
    " pass whose keys do not fit cleans a prefix and the next pass goes on",
    "log.preallocate": "preallocate Kafka segment files (the next CommitLog file is always preallocated)",
    "compression.type": "recompression of produced batches: producer keeps them as sent" + NOT_APPLIED,
    "min.insync.replicas": "in-sync replicas (the leader included) acks=all needs: NOT_ENOUGH_REPLICAS below "
    "(a leader serving followers; see docs/replication.md)",
    "unclean.leader.election.enable": "elect the most advanced live member of a replicated group when no in-sync "
    "member lives (may lose acknowledged records; the broker setting or the cluster-wide broker default: a topic's "
    "is not applied, a group's partitions change leader together)",
    "offsets.retention.minutes": "minutes committed offsets of an empty group are kept",
    "offsets.retention.check.interval.ms": "how often expired offsets are removed",
    "offsets.topic.num.partitions": "partitions shown for __consumer_offsets",
    "group.min.session.timeout.ms": "shortest session timeout a group member may ask for",
    "group.max.session.timeout.ms": "longest session timeout a group member may ask for",
    "group.initial.rebalance.delay.ms": "wait for more members before the first rebalance of an empty group",
    "group.max.size": "most members in one group",
    "group.consumer.session.timeout.ms": "consumer-protocol (KIP-848) groups: a member without a heartbeat for this "
    "long is removed",
    "group.consumer.heartbeat.interval.ms": "consumer-protocol groups: the heartbeat interval members are told to keep",
    "group.consumer.assignors": "consumer-protocol groups: the server-side assignors, the first the default "
    "(uniform, range; Kafka's class names are accepted)",
    "group.consumer.max.size": "most members in one consumer-protocol group",
    "group.share.session.timeout.ms": "share groups (KIP-932): a member without a heartbeat for this long is removed",
    "group.share.heartbeat.interval.ms": "share groups: the heartbeat interval members are told to keep",
    "group.share.record.lock.duration.ms": "share groups: how long a member holds records it acquired before they are "
    "delivered again",
    "group.share.delivery.count.limit": "share groups: deliveries of a record after which it is archived, not "
    "delivered again",
    "group.share.partition.max.record.locks": "share groups: most records of one partition acquired at once",
    "group.share.max.size": "most members in one share group",
    "group.consumer.migration.policy": "online conversion of a group with members between the classic and the "
    "consumer protocol: bidirectional, upgrade, downgrade or disabled",
    "offset.metadata.max.bytes": "longest metadata string an offset commit may carry (OFFSET_METADATA_TOO_LARGE above)",
    "transactional.id.expiration.ms": "idle time after which a transactional id is forgotten",
    "transaction.max.timeout.ms": "longest transaction timeout a producer may ask for",
    "transaction.abort.timed.out.transaction.cleanup.interval.ms": "how often transactions past their timeout are "
    "aborted (fencing their producer)",
    "transaction.remove.expired.transaction.cleanup.interval.ms": "how often transactional ids idle for "
    "transactional.id.expiration.ms are removed",
    "producer.id.expiration.ms": "idle time after which an idempotent producer's state is forgotten",
    "connections.max.idle.ms": "a connection with nothing to answer and no bytes read or written for this long "
    "is closed (-1: never)",
    "max.connections": "most client connections at once; one over it waits unread until a slot frees "
    "(at most 100 wait; more are closed)",
    "max.connections.per.ip": "most connections from one IP address; a connection over it is closed at once",
    "max.connections.per.ip.overrides": "per-IP or host name limits over max.connections.per.ip, e.g. "
    "'127.0.0.1:200,client-host:100'",
    "fetch.max.bytes": "largest fetch response the broker builds" + NOT_APPLIED,
    "rockafka.consumequeue.units.per.file": "ConsumeQueue units (one per stored batch) per file",
    "rockafka.index.slots": "hash slots per IndexFile",
    "rockafka.index.entries": "entries per IndexFile",
    "rockafka.commitlog.cache.bytes": "page cache kept for the newest CommitLog data; older fsynced data is "
    "released from memory (-1: keep all, the kernel decides)",
    "rockafka.http.listener": "HOST:PORT of the HTTP listener serving /metrics (Prometheus), /healthz, /readyz "
    "and the web console (empty: off); see docs/operations.md and docs/console.md",
    "rockafka.replication.listener": "HOST:PORT where this broker, a group leader, serves its followers the "
    "replication stream (empty: none; see docs/replication.md)",
    "rockafka.replication.leader": "HOST:PORT of the group leader's replication listener: this broker is its "
    "follower, copies its CommitLog and refuses produce (empty: not a follower; see docs/replication.md)",
    "replica.lag.time.max.ms": "a follower not caught up with the leader for this long leaves the in-sync set",
    "broker.rack": "this broker's rack: registered in a cluster, reported by Metadata and DescribeCluster (null when "
    "unset), and matched against a consumer's client.rack by replica.selector.class",
    "replica.selector.class": "org.apache.kafka.common.replica.RackAwareReplicaSelector: a group leader names a "
    "follower in the consumer's rack as its preferred read replica (KIP-392; empty: consumers read from leaders); "
    "see docs/replication.md",
    "rockafka.console.enable": "serve the web console at / of the HTTP listener (see docs/console.md)",
    "rockafka.console.allow.changes": "let the console create and delete topics and reset consumer group offsets "
    "(ACLs still apply); off: the console is read-only",
    "rockafka.log.format": "text or json: the broker's log lines on stderr (rockafka serve --log-format wins)",
    "rockafka.free.space.reserve.bytes": "free space appends leave on the data directory's file system: below it, "
    "produce gets KAFKA_STORAGE_ERROR (everything else goes on) until space returns; see docs/running.md",
    "rockafka.cleaner.duty.cycle": "share of the time a compaction pass may compute (at most 1): it sleeps the "
    "rest, so produce and fetch keep the interpreter",
    "listener.security.protocol.map": "security protocol of each listener name",
    "ssl.keystore.type": "PEM only (JKS and PKCS12 are refused at start: convert them to PEM); see docs/security.md",
    "ssl.keystore.location": "PEM file holding the broker's private key and certificate chain",
    "ssl.keystore.password": "keystore password (PEM keystores have none; ssl.key.password decrypts the key)",
    "ssl.key.password": "password of an encrypted private key in ssl.keystore.location or ssl.keystore.key",
    "ssl.keystore.certificate.chain": "the broker's certificate chain as PEM text (instead of a keystore file)",
    "ssl.keystore.key": "the broker's private key as PEM text (with ssl.keystore.certificate.chain)",
    "ssl.truststore.type": "PEM only: the CA certificates that sign client certificates",
    "ssl.truststore.location": "PEM file of trusted CA certificates (client authentication)",
    "ssl.truststore.password": "truststore password (PEM truststores have none)" + no_effect("PEM"),
    "ssl.truststore.certificates": "trusted CA certificates as PEM text (instead of ssl.truststore.location)",
    "ssl.client.auth": "client certificates: required, requested (verified if sent) or none",
    "ssl.enabled.protocols": "TLS versions accepted (TLSv1.2, TLSv1.3)",
    "ssl.protocol": "TLS protocol family" + no_effect("ssl.enabled.protocols decides"),
    "ssl.cipher.suites": "TLS 1.2 cipher suites in OpenSSL's names (TLS 1.3 suites are OpenSSL's defaults)",
    "ssl.endpoint.identification.algorithm": "https (the default: another broker's certificate must name the host "
    "dialled) or empty (not checked): brokers of a cluster dialling each other over TLS",
    "ssl.principal.mapping.rules": "Kafka's RULE:pattern/replacement/[LU] list mapping a certificate subject "
    "(RFC 2253) to the principal's name; DEFAULT keeps it",
    "sasl.enabled.mechanisms": "SASL mechanisms offered: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512",
    "sasl.jaas.config": 'PLAIN users as a PlainLoginModule JAAS line (user_<name>="<password>"); broker-wide '
    "fallback of listener.name.<l>.plain.sasl.jaas.config",
    "sasl.server.max.receive.size": "largest frame accepted before a SASL client has authenticated",
    "connections.max.reauth.ms": "SASL session lifetime: 0 keeps sessions forever; else clients must re-authenticate",
    "connection.failed.authentication.delay.ms": "how long a refused SASL client's connection stays open after the "
    "refusal was written (so the client reads it)",
    "authorizer.class.name": "a Kafka ACL authorizer class name turns ACL authorization on; empty: off",
    "super.users": "principals allowed everything, separated by ';' (User:admin;User:ops)",
    "allow.everyone.if.no.acl.found": "allow access to a resource that no ACL names",
    "cleanup.policy": "delete: old batches go by retention; compact: the latest record of each key is kept",
    "compression.type_topic": "recompression of produced batches: producer keeps them as sent" + NOT_APPLIED,
    "delete.retention.ms": "how long delete tombstones stay in a compacted topic",
    "file.delete.delay.ms": "delay before a deleted segment's file is removed" + NOT_APPLIED,
    "flush.messages": "messages between forced flushes of this topic" + NOT_APPLIED,
    "flush.ms": "milliseconds between forced flushes of this topic" + NOT_APPLIED,
    "index.interval.bytes": "bytes between offset-index entries" + no_effect("every batch has its ConsumeQueue unit"),
    "max.compaction.lag.ms": "maximum age before a record must be compacted",
    "max.message.bytes": "largest record batch this topic accepts (MESSAGE_TOO_LARGE above it)",
    "message.timestamp.type": "CreateTime keeps the producer's timestamps; LogAppendTime stamps the broker's time",
    "message.timestamp.before.max.ms": "how far before the broker's clock a CreateTime record's timestamp may be",
    "message.timestamp.after.max.ms": "how far after the broker's clock a CreateTime record's timestamp may be",
    "message.downconversion.enable": "whether Fetch v0-3 (old consumers) may read this topic, converted to the old "
    "message formats; false: UNSUPPORTED_VERSION",
    "min.cleanable.dirty.ratio": "dirty ratio that triggers compaction",
    "min.compaction.lag.ms": "minimum age before a record may be compacted",
    "preallocate": "preallocate segment files (the next CommitLog file is always preallocated)",
    "retention.bytes": "bytes a partition keeps before its oldest batches go; -1: no limit",
    "retention.ms": "milliseconds this topic keeps data; -1: forever",
    "segment.bytes": "Kafka segment size" + no_effect("partitions share the CommitLog files"),
    "segment.index.bytes": "Kafka offset-index size" + no_effect("ConsumeQueue files are sized by units"),
    "segment.jitter.ms": "random jitter of segment rolls" + no_effect("CommitLog files roll by size"),
    "segment.ms": "age at which a segment rolls" + no_effect("CommitLog files roll by size"),
}


def _documented(defs: tuple[ConfigDef, ...], topic: bool) -> tuple[ConfigDef, ...]:
    out = []
    for d in defs:
        key = f"{d.name}_topic" if topic and f"{d.name}_topic" in _DOCUMENTATION else d.name
        out.append(d if d.doc else replace(d, doc=_DOCUMENTATION.get(key, "")))
    return tuple(out)


IGNORED_BROKER_SETTINGS: Final = frozenset(
    {
        "process.roles",
        "controller.quorum.voters",
        "controller.quorum.bootstrap.servers",
        "zookeeper.connect",
        "zookeeper.connection.timeout.ms",
        "num.network.threads",
        "num.io.threads",
        "num.recovery.threads.per.data.dir",
        "num.replica.fetchers",
        "socket.send.buffer.bytes",
        "socket.receive.buffer.bytes",
        "offsets.topic.replication.factor",
        "transaction.state.log.replication.factor",
        "group.coordinator.rebalance.protocols",
        "share.coordinator.state.topic.replication.factor",
        "share.coordinator.state.topic.min.isr",
        "log.roll.jitter.ms",
        "replica.fetch.max.bytes",
        "queued.max.requests",
        "background.threads",
        "metadata.log.dir",
        "sasl.mechanism.controller.protocol",
    }
)
"""Kafka broker settings that mean nothing to a single-node broker: accepted, logged, not applied."""

BROKER_CONFIGS: Final = {d.name: d for d in _documented(BROKER_CONFIG_DEFS, topic=False)}
TOPIC_CONFIGS: Final = {d.name: d for d in _documented(TOPIC_CONFIG_DEFS, topic=True)}

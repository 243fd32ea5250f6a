"""The store's settings (``StoreConfig``) and the per-topic Kafka configs it interprets (``TopicSettings``).

Geometry (CommitLog segment size, ConsumeQueue units per file, IndexFile slot and entry counts) is fixed
when a store directory is created: it is recorded in ``store.json`` and the recorded values win over the
config on every later open (files of another geometry could not be addressed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from rockafka.core_pyx.offsetmap import footprint

from .compaction import DEFAULT_DEDUPE_BUFFER_BYTES, CompactionRules
from .errors import InvalidConfigError

FlushMode = Literal["async", "sync"]

MIB: Final = 1 << 20
GIB: Final = 1 << 30
DEFAULT_CLEANER_DUTY_CYCLE: Final = 0.1


@dataclass(frozen=True, slots=True)
class StoreConfig:
    """Everything ``MessageStore.open`` needs. Times are milliseconds, sizes bytes."""

    root_dir: Path
    #: CommitLog segment file size (RocketMQ: 1 GiB); a few MiB in tests.
    commitlog_segment_bytes: int = GIB
    #: Units per ConsumeQueue file (RocketMQ: 300,000).
    consume_queue_units_per_file: int = 300_000
    #: ``async``: fsync in the background every ``flush_interval_ms``; ``sync``: group commit, appends and
    #: offset commits hand back a future completed once their bytes are fsynced.
    flush_mode: FlushMode = "async"
    flush_interval_ms: int = 500
    #: Page cache kept for the newest CommitLog data: what was fsynced more than this many bytes ago is
    #: released (unmapped, dropped from the page cache); None keeps everything (the kernel decides).
    commitlog_cache_bytes: int | None = GIB
    #: How often ConsumeQueue files are fsynced and the checkpoint is written (bounds crash-recovery work).
    checkpoint_interval_ms: int = 1000
    #: Reserve the next CommitLog segment's blocks in the background (posix_fallocate) before it is needed.
    preallocate: bool = True
    #: Build IndexFiles (query by key). Costs a background thread that decodes every batch.
    index_enabled: bool = True
    index_slot_count: int = 5_000_000
    index_entry_count: int = 20_000_000
    #: Global CommitLog retention: segments older than this (by mtime) are deleted; None keeps them.
    file_reserved_ms: int | None = None
    #: Global CommitLog retention: oldest segments are deleted while the CommitLog exceeds this; None = no cap.
    commitlog_retention_bytes: int | None = None
    #: Above this used fraction of the disk, the oldest segments are deleted whatever their age.
    disk_usage_force_ratio: float = 0.90
    #: Free space appends leave on the data directory's file system: below it, appends are refused (the store
    #: stays readable) so the store's own metadata writes (offsets, groups, topics, checkpoint) never meet a
    #: full disk; appends resume by themselves when space returns (``space.py``). 0 stops only at a full disk.
    free_space_reserve_bytes: int = 64 * MIB
    #: The side logs (producer state, transactions) are compacted once they grow past this.
    offsets_compact_bytes: int = 16 * MIB
    #: Partitions of ``__consumer_offsets`` when the store creates it (Kafka's ``offsets.topic.num.partitions``);
    #: once it exists, its own count holds.
    offsets_topic_partitions: int = 50
    #: The log cleaner's I/O budget (bytes read plus written per second; Kafka's
    #: ``log.cleaner.io.max.bytes.per.second``); None: unthrottled.
    cleaner_io_bytes_per_second: int | None = None
    #: The share of the time a pass may compute on the cleaner thread (it holds the GIL the event loop needs).
    cleaner_duty_cycle: float = DEFAULT_CLEANER_DUTY_CYCLE
    #: The bytes a pass's offset map may hold (Kafka's ``log.cleaner.dedupe.buffer.size``): a pass whose dirty
    #: keys do not fit cleans a prefix of its range, and the next pass goes on from there.
    cleaner_dedupe_buffer_bytes: int = DEFAULT_DEDUPE_BUFFER_BYTES
    #: Passes that may run at once, each on its own partition and thread (Kafka's ``log.cleaner.threads``); they
    #: share the I/O budget and the duty cycle.
    cleaner_threads: int = 1
    #: Kafka topic configs a topic takes when it does not set them (the broker's ``log.retention.ms`` as
    #: ``retention.ms``, ...); not persisted with the topics, so a changed broker default applies to them all.
    topic_defaults: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "root_dir", Path(self.root_dir))
        if self.flush_mode not in ("async", "sync"):
            raise InvalidConfigError(f"flush_mode must be 'async' or 'sync', not {self.flush_mode!r}")
        _at_least("commitlog_segment_bytes", self.commitlog_segment_bytes, 4096)
        _at_least("consume_queue_units_per_file", self.consume_queue_units_per_file, 2)
        _at_least("flush_interval_ms", self.flush_interval_ms, 1)
        _at_least("checkpoint_interval_ms", self.checkpoint_interval_ms, 1)
        if self.commitlog_cache_bytes is not None:
            _at_least("commitlog_cache_bytes", self.commitlog_cache_bytes, 0)
        _at_least("index_slot_count", self.index_slot_count, 1)
        _at_least("index_entry_count", self.index_entry_count, 2)
        _at_least("offsets_compact_bytes", self.offsets_compact_bytes, 1024)
        _at_least("offsets_topic_partitions", self.offsets_topic_partitions, 1)
        _at_least("free_space_reserve_bytes", self.free_space_reserve_bytes, 0)
        if self.cleaner_io_bytes_per_second is not None:
            _at_least("cleaner_io_bytes_per_second", self.cleaner_io_bytes_per_second, 1)
        _at_least("cleaner_dedupe_buffer_bytes", self.cleaner_dedupe_buffer_bytes, footprint(0, 0))
        _at_least("cleaner_threads", self.cleaner_threads, 1)
        if not 0.0 < self.cleaner_duty_cycle <= 1.0:
            raise InvalidConfigError("cleaner_duty_cycle must be in (0, 1]")
        if not 0.0 < self.disk_usage_force_ratio <= 1.0:
            raise InvalidConfigError("disk_usage_force_ratio must be in (0, 1]")
        TopicSettings.parse(self.topic_defaults)


def _at_least(name: str, value: int, minimum: int) -> None:
    if not isinstance(value, int) or value < minimum:
        raise InvalidConfigError(f"{name} must be an integer >= {minimum}, not {value!r}")


# Kafka's defaults for the topic configs the store interprets.
DEFAULT_MAX_MESSAGE_BYTES: Final = 1_048_588
DEFAULT_RETENTION_MS: Final = 604_800_000
DEFAULT_DELETE_RETENTION_MS: Final = 86_400_000
LONG_MAX: Final = (1 << 63) - 1
DEFAULT_TIMESTAMP_AFTER_MAX_MS: Final = 3_600_000  # Kafka 4.0 (KIP-1030); Long.MAX_VALUE before
CREATE_TIME: Final = "CreateTime"
LOG_APPEND_TIME: Final = "LogAppendTime"


@dataclass(frozen=True, slots=True)
class TopicSettings:
    """The Kafka topic configs the store acts on, parsed. Others are stored as given and not interpreted."""

    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    log_append_time: bool = False
    retention_ms: int | None = DEFAULT_RETENTION_MS
    retention_bytes: int | None = None
    cleanup_delete: bool = True
    cleanup_compact: bool = False
    #: ``delete.retention.ms``, ``min.compaction.lag.ms``, ``max.compaction.lag.ms``, ``min.cleanable.dirty.ratio``.
    compaction: CompactionRules = field(default_factory=CompactionRules)
    timestamp_before_max_ms: int | None = None
    """How far before the broker's clock a CreateTime record's timestamp may be; None: unbounded."""
    timestamp_after_max_ms: int | None = DEFAULT_TIMESTAMP_AFTER_MAX_MS
    """How far after the broker's clock it may be; None: unbounded."""

    @classmethod
    def parse(cls, configs: Mapping[str, str]) -> TopicSettings:
        """Parse Kafka's string values; raises ``InvalidConfigError`` naming the bad key."""
        timestamp_type = configs.get("message.timestamp.type", CREATE_TIME)
        if timestamp_type not in (CREATE_TIME, LOG_APPEND_TIME):
            raise InvalidConfigError(f"message.timestamp.type must be CreateTime or LogAppendTime: {timestamp_type!r}")
        policies = {p.strip() for p in configs.get("cleanup.policy", "delete").split(",")}
        if not policies <= {"delete", "compact"} or not policies:
            raise InvalidConfigError(f"cleanup.policy must be delete and/or compact: {configs['cleanup.policy']!r}")
        max_bytes = _int_config(configs, "max.message.bytes", DEFAULT_MAX_MESSAGE_BYTES)
        if max_bytes is None or max_bytes < 0:
            raise InvalidConfigError("max.message.bytes must be >= 0")
        return cls(
            max_message_bytes=max_bytes,
            log_append_time=timestamp_type == LOG_APPEND_TIME,
            retention_ms=_int_config(configs, "retention.ms", DEFAULT_RETENTION_MS),
            retention_bytes=_int_config(configs, "retention.bytes", -1),
            cleanup_delete="delete" in policies,
            cleanup_compact="compact" in policies,
            compaction=_compaction_rules(configs),
            timestamp_before_max_ms=_bound_config(configs, "message.timestamp.before.max.ms", LONG_MAX),
            timestamp_after_max_ms=_bound_config(
                configs, "message.timestamp.after.max.ms", DEFAULT_TIMESTAMP_AFTER_MAX_MS
            ),
        )


def _compaction_rules(configs: Mapping[str, str]) -> CompactionRules:
    delete_retention = _integer(configs, "delete.retention.ms", DEFAULT_DELETE_RETENTION_MS)
    min_lag = _integer(configs, "min.compaction.lag.ms", 0)
    if delete_retention < 0 or min_lag < 0:
        raise InvalidConfigError("delete.retention.ms and min.compaction.lag.ms must be >= 0")
    max_lag = _integer(configs, "max.compaction.lag.ms", LONG_MAX)
    if max_lag < 1:
        raise InvalidConfigError(f"max.compaction.lag.ms must be >= 1: {max_lag}")
    raw_ratio = configs.get("min.cleanable.dirty.ratio", "0.5")
    try:
        ratio = float(raw_ratio)
    except ValueError:
        raise InvalidConfigError(f"min.cleanable.dirty.ratio must be a number: {raw_ratio!r}") from None
    if not 0.0 <= ratio <= 1.0:
        raise InvalidConfigError(f"min.cleanable.dirty.ratio must be between 0 and 1: {ratio}")
    return CompactionRules(
        delete_retention_ms=delete_retention, min_compaction_lag_ms=min_lag,
        max_compaction_lag_ms=None if max_lag == LONG_MAX else max_lag, min_cleanable_dirty_ratio=ratio,
    )  # fmt: skip


def _bound_config(configs: Mapping[str, str], key: str, default: int) -> int | None:
    """A non-negative duration in ms where Long.MAX_VALUE means unbounded (None)."""
    value = _integer(configs, key, default)
    if not 0 <= value <= LONG_MAX:
        raise InvalidConfigError(f"{key} must be between 0 and {LONG_MAX}: {value}")
    return None if value == LONG_MAX else value


def _int_config(configs: Mapping[str, str], key: str, default: int) -> int | None:
    """An integer config where -1 means unlimited (None)."""
    value = _integer(configs, key, default)
    if value < -1:
        raise InvalidConfigError(f"{key} must be -1 or >= 0: {value}")
    return None if value == -1 else value


def _integer(configs: Mapping[str, str], key: str, default: int) -> int:
    raw = configs.get(key)
    try:
        return default if raw is None else int(raw)
    except ValueError:
        raise InvalidConfigError(f"{key} must be an integer: {raw!r}") from None

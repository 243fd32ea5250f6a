"""The INFO lines a broker writes when it starts: its settings, and what opening the store found and repaired.

The other operational events are logged where they happen: topics created, altered or deleted
(``store/topicadmin.py``), a group rebalanced (``group/rebalance.py``), a producer fenced
(``transactions/coordinator.py``), the store going offline (``store/health.py``), the index thread stopping
(``store/indexservice.py``), a kernel falling back to its pure-Python twin (``core_pyx``).
"""

from __future__ import annotations

from rockafka.store import RecoveryReport

from ..config import BROKER_CONFIGS, BrokerConfig, ConfigSource
from ..config.definitions import ConfigType

#: Setting names whose value is a secret: Kafka's PASSWORD settings, also under a listener's prefix
#: (``listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config``), and any name that says so.
_SECRET_SUFFIXES = tuple(name for name, d in BROKER_CONFIGS.items() if d.type == ConfigType.PASSWORD)
_SECRET_WORDS = ("password", "jaas", "secret", "credential")


def is_secret(name: str) -> bool:
    return name.endswith(_SECRET_SUFFIXES) or any(word in name for word in _SECRET_WORDS)


def settings_summary(config: BrokerConfig) -> str:
    """Every setting not at its default, ``name=value`` (secrets shown as ``[hidden]``), sorted by name."""
    changed = []
    for name in sorted(config.values):
        if config.sources.get(name) == ConfigSource.DEFAULT_CONFIG:
            continue
        changed.append(f"{name}={'[hidden]' if is_secret(name) else config.values[name]}")
    return "settings (not default): " + (", ".join(changed) if changed else "none")


def recovery_summary(report: RecoveryReport | None, seconds: float) -> str:
    """What opening the store did, in one line."""
    if report is None:
        return f"store opened in {seconds:.2f}s"
    if report.clean_shutdown:
        head = f"store opened in {seconds:.2f}s after a clean shutdown"
    else:
        head = f"store recovered in {seconds:.2f}s after an unclean shutdown"
    scanned = report.end_offset - report.scan_from
    parts = [
        f"CommitLog scanned from offset {report.scan_from} to {report.end_offset} ({scanned} bytes)",
        f"{report.redispatched_batches} batches re-dispatched to their ConsumeQueues",
    ]
    if report.corrupt_record:
        parts.append(f"log cut at a torn or corrupt record ({report.corrupt_record})")
    if report.rebuilt_partitions:
        parts.append(f"{len(report.rebuilt_partitions)} ConsumeQueues rebuilt")
    if report.removed_index_files:
        parts.append(f"{report.removed_index_files} IndexFiles removed to be rebuilt")
    if report.damaged_ranges:
        parts.append(f"{len(report.damaged_ranges)} damaged ranges quarantined ({report.lost_bytes} bytes lost)")
    return f"{head}: " + ", ".join(parts)

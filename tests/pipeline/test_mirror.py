"""``rockafka pipeline mirror`` keeps a target following a live source: producers write to the source while it
runs; a topic created, a partition added and a config changed on the source show up on the target; every
partition ends equal (read_committed, exactly once); a consumer group that consumed on the source resumes on the
target at exactly the next record; Ctrl-C stops it with one line, and the same command resumes it.

The mirror runs as ``python -m rockafka`` (its own Spark, the command line, and a real SIGINT); the test reads
its status file to know when it has caught up, within bounded waits.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient, NewPartitions

from rockafka.pipeline.mirror import checkpointed_offsets
from rockafka.pipeline.offsets import TopicPartition
from rockafka.pipeline.wire import offset_bounds
from rockafka.testing import Broker

from .appdata import committed, consume, create_configured_topic, topic_overrides
from .kafkadata import consume_all, create_topic, produce
from .mirrorrun import WAIT_S, records, stop, values, wait_for
from .mirrorrun import status as _status

pytestmark = pytest.mark.spark
STOPPED = "rockafka pipeline: interrupted; run the same command again to resume from its checkpoint"


def _mirror(source: Broker, target: Broker, tmp_path: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "rockafka", "pipeline", "mirror", "--master", "local[2]",
            "--from", source.bootstrap, "--to", target.bootstrap, "--topics-pattern", "live-.*",
            "--checkpoint", str(tmp_path / "checkpoint"), "--status", str(tmp_path / "status.json"),
            "--trigger", "0.5", "--topics-every", "1", "--groups-every", "1", *extra]  # fmt: skip


def _change_the_source(bootstrap: str) -> None:
    """A new topic, a third partition for live-a, a config changed, and more records everywhere."""
    create_topic(bootstrap, "live-b", 3)
    produce(bootstrap, "live-b", 60, partitions=3)
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_partitions({"live-a": NewPartitions(3)})
        admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, "live-a", {"retention.ms": "3600000"})])
    finally:
        admin.close()
    produce(bootstrap, "live-a", 90, first=200, partitions=3)


def _caught_up(tmp_path: Path, group_offsets: dict[int, int | None]) -> Callable[[], bool]:
    def check() -> bool:
        status = _status(tmp_path)
        synced = status.get("groups", {}).get("switching", {})
        return (
            status.get("topics") == {"live-a": 3, "live-b": 3}
            and status.get("lag") == 0
            and all(synced.get(f"live-a-{p}", {}).get("source") == o for p, o in group_offsets.items() if o)
            and all(entry.get("target") is not None for entry in synced.values())
        )

    return check


def test_the_mirror_follows_a_live_source_and_a_group_switches_over(
    broker: Broker, target_broker: Broker, tmp_path: Path
) -> None:
    create_configured_topic(broker.bootstrap, "live-a", 2)
    produce(broker.bootstrap, "live-a", 100, partitions=2)
    child = subprocess.Popen(_mirror(broker, target_broker, tmp_path), stderr=subprocess.PIPE, text=True)
    try:
        wait_for("first micro-batch", lambda: _status(tmp_path).get("rows", 0) > 0, child)
        produce(broker.bootstrap, "live-a", 100, first=100, partitions=2)  # while the mirror runs
        _change_the_source(broker.bootstrap)
        consume(broker.bootstrap, "live-a", "switching", 150)
        positions = committed(broker.bootstrap, "live-a", "switching", 3)
        wait_for("the mirror to catch up", _caught_up(tmp_path, positions), child)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=WAIT_S)
    finally:
        stop(child)

    assert child.returncode == 130, err
    assert err.strip().splitlines()[-1] == STOPPED
    assert "Traceback" not in err and "\tat " not in err
    assert "mirror: topic live-b created on the target (3 partitions)" in err
    assert "mirror: topic live-a grown to 3 partitions on the target" in err
    assert _status(tmp_path)["state"] == "stopped"
    partitions = [TopicPartition(t, p) for t in ("live-a", "live-b") for p in range(3)]
    ends = offset_bounds({"bootstrap_servers": broker.bootstrap}, partitions).latest
    assert checkpointed_offsets(tmp_path / "checkpoint") == ends  # where a resumed run starts its lag from
    for topic in ("live-a", "live-b"):
        assert records(target_broker.bootstrap, topic) == records(broker.bootstrap, topic)
    assert topic_overrides(target_broker.bootstrap, "live-a") == topic_overrides(broker.bootstrap, "live-a")
    assert topic_overrides(target_broker.bootstrap, "live-a")["retention.ms"] == "3600000"
    left = [(p, o, v) for p, o, _, v, *_ in consume_all(broker.bootstrap, "live-a") if o >= (positions[p] or 0)]
    resumed = consume(target_broker.bootstrap, "live-a", "switching", 0, isolation_level="read_committed")
    assert values(resumed) == values(left)
    assert len(resumed) == 290 - 150

    produce(broker.bootstrap, "live-b", 30, first=60, partitions=3)
    child = subprocess.Popen(_mirror(broker, target_broker, tmp_path), stdout=subprocess.PIPE, text=True)
    try:
        wait_for("the resumed mirror to catch up", _resumed(tmp_path), child)
        (tmp_path / "checkpoint" / "rockafka-stop").touch()  # stops it as Ctrl-C does, from elsewhere
        out, _ = child.communicate(timeout=WAIT_S)
    finally:
        stop(child)

    assert child.returncode == 0
    assert out.startswith("mirror stopped: 30 rows")  # resumed from the checkpoint: only what was new
    assert records(target_broker.bootstrap, "live-b") == records(broker.bootstrap, "live-b")


def _resumed(tmp_path: Path) -> Callable[[], bool]:
    def check() -> bool:
        status = _status(tmp_path)
        return status.get("state") == "running" and status.get("rows", 0) >= 30 and status.get("lag") == 0

    return check

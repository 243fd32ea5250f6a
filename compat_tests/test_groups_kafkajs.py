"""kafkajs 2.2.4 consumer groups against Rockafka: membership changes under load (round-robin assignor).

kafkajs has no static membership and no cooperative rebalancing, so only the membership scenario runs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from kafka.admin import KafkaAdminClient

from .brokerproc import BrokerProcess
from .groupscenario import (
    CONSUMER_SETTINGS,
    NODE_DIR,
    Scenario,
    kafkajs_worker,
    run_join_leave_scenario,
    run_membership_scenario,
)

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (NODE_DIR / "node_modules" / "kafkajs").is_dir(),
    reason="kafkajs is not installed: run `make compat-deps`",
)


def scenario(broker: BrokerProcess, admin: KafkaAdminClient, logs: Path) -> Scenario:
    settings = {**CONSUMER_SETTINGS, "rebalance_timeout_ms": 10_000}
    return Scenario(broker.bootstrap, kafkajs_worker(logs), settings, admin)


def test_members_join_leave_crash_and_rejoin_under_load(
    group_broker: BrokerProcess, admin: KafkaAdminClient, tmp_path: Path
) -> None:
    report = run_membership_scenario(scenario(group_broker, admin, tmp_path))
    assert report["consumed"] == report["acked"] > 0


def test_two_members_share_then_one_takes_all(
    group_broker: BrokerProcess, admin: KafkaAdminClient, tmp_path: Path
) -> None:
    run_join_leave_scenario(scenario(group_broker, admin, tmp_path))

"""aiokafka consumer groups against Rockafka: membership changes under load, assignors, static members."""

from __future__ import annotations

from pathlib import Path

from kafka.admin import KafkaAdminClient

from .brokerproc import BrokerProcess
from .groupscenario import (
    CONSUMER_SETTINGS,
    Scenario,
    python_worker,
    run_join_leave_scenario,
    run_membership_scenario,
    run_static_restart_scenario,
)


def scenario(broker: BrokerProcess, admin: KafkaAdminClient, logs: Path, assignor: str) -> Scenario:
    settings = {**CONSUMER_SETTINGS, "assignor": assignor}
    return Scenario(broker.bootstrap, python_worker("aiokafka", logs), settings, admin)


def test_members_join_leave_crash_and_rejoin_under_load(
    group_broker: BrokerProcess, admin: KafkaAdminClient, tmp_path: Path
) -> None:
    report = run_membership_scenario(scenario(group_broker, admin, tmp_path, "roundrobin"))
    assert report["consumed"] == report["acked"] > 0


def test_range_assignor_passes_through_untouched(
    group_broker: BrokerProcess, admin: KafkaAdminClient, tmp_path: Path
) -> None:
    run_join_leave_scenario(scenario(group_broker, admin, tmp_path, "range"))


def test_a_restarted_static_member_keeps_its_partitions_without_a_rebalance(
    group_broker: BrokerProcess, admin: KafkaAdminClient, tmp_path: Path
) -> None:
    run_static_restart_scenario(scenario(group_broker, admin, tmp_path, "roundrobin"))

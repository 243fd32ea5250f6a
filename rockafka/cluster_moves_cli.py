"""``rockafka cluster move`` and ``rockafka cluster moves``: move partitions between broker groups, list moves.

``move`` sends AlterPartitionReassignments through any broker of the cluster: ``--topic T --partition P`` with
``--to-group G`` (the group's broker, found by DescribeCluster, where a broker's rack is its group) or
``--to-broker N``; or ``--reassignment-json-file FILE`` in the format of Kafka's kafka-reassign-partitions
(``{"version": 1, "partitions": [{"topic": "t", "partition": 0, "replicas": [2]}]}``). ``--cancel`` cancels the
named partitions' moves instead (null replicas). It then prints progress: one line per partition when its move
is accepted and, unless ``--no-wait``, one every five seconds while it runs and one when it completes (its leader
is the target), polling ListPartitionReassignments and Metadata every half second for at most ``--timeout``
seconds. A partition refused is one line with Kafka's error name and message; the exit status is 1 if any was
refused or did not finish.

``moves`` lists the moves in progress: ``TOPIC PARTITION from broker S to broker T``, one a line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.alter_partition_reassignments import (
    AlterPartitionReassignmentsRequest,
    AlterPartitionReassignmentsResponse,
    ReassignablePartition,
    ReassignableTopic,
)
from rockafka.facade.protocol.messages.describe_cluster import DescribeClusterRequest, DescribeClusterResponse
from rockafka.facade.protocol.messages.list_partition_reassignments import (
    ListPartitionReassignmentsRequest,
    ListPartitionReassignmentsResponse,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse

from .cli_target import connect
from .wire_client import WireClient, WireClientError

POLL_S: Final = 0.5
REPORT_S: Final = 5.0
Wanted = dict[tuple[str, int], list[int] | None]


class MoveCommandError(Exception):
    """A mistake in the command's arguments or file: one line."""


def add_actions(actions: Any) -> None:
    move = actions.add_parser("move", help="move partitions to another broker group (AlterPartitionReassignments)")
    _connection(move)
    move.add_argument("--topic", help="the topic of the partition to move")
    move.add_argument("--partition", type=int, help="the partition to move")
    target = move.add_mutually_exclusive_group()
    target.add_argument("--to-group", help="the broker group to move it to")
    target.add_argument("--to-broker", type=int, help="the broker (node id) whose group is to hold it")
    move.add_argument("--reassignment-json-file", type=Path, help="Kafka's kafka-reassign-partitions JSON instead")
    move.add_argument("--cancel", action="store_true", help="cancel the moves of the partitions named")
    move.add_argument("--no-wait", action="store_true", help="return once the moves are accepted")
    move.add_argument("--timeout", type=float, default=300.0, help="seconds to wait for the moves (default 300)")
    move.set_defaults(func=run_move)
    moves = actions.add_parser("moves", help="list the partition moves in progress (ListPartitionReassignments)")
    _connection(moves)
    moves.set_defaults(func=run_moves)


def _connection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bootstrap-server", required=True, help="HOST:PORT of any broker of the cluster")
    parser.add_argument("--command-config", type=Path, help="client properties (TLS, SASL)")


def run_move(args: argparse.Namespace) -> int:
    try:
        _check_arguments(args)
        with connect(args) as client:
            wanted = _wanted(client, args)
            accepted = _alter(client, wanted)
            if args.cancel or args.no_wait or not accepted:
                return 0 if len(accepted) == len(wanted) else 1
            finished = _wait(client, {key: wanted[key] for key in accepted}, args.timeout)
            return 0 if len(accepted) == len(wanted) and finished else 1
    except (WireClientError, MoveCommandError, OSError) as exc:
        print(f"rockafka cluster move: {exc}", file=sys.stderr)
        return 1


def run_moves(args: argparse.Namespace) -> int:
    try:
        with connect(args) as client:
            for line in _listed(client):
                print(line)
    except WireClientError as exc:
        print(f"rockafka cluster moves: {exc}", file=sys.stderr)
        return 1
    return 0


def _check_arguments(args: argparse.Namespace) -> None:
    """A mistake in the arguments, before connecting: MoveCommandError."""
    if args.reassignment_json_file is not None:
        if args.topic is not None or args.to_group is not None or args.to_broker is not None:
            raise MoveCommandError("--reassignment-json-file replaces --topic, --partition, --to-group, --to-broker")
        _from_json(args.reassignment_json_file, args.cancel)
        return
    if args.topic is None or args.partition is None:
        raise MoveCommandError("name the partition: --topic T --partition P (or --reassignment-json-file)")
    if not args.cancel and args.to_group is None and args.to_broker is None:
        raise MoveCommandError("say where to: --to-group G or --to-broker N")


def _wanted(client: WireClient, args: argparse.Namespace) -> Wanted:
    """Each partition named and the replicas it goes to (None: cancel); the arguments are checked."""
    if args.reassignment_json_file is not None:
        return _from_json(args.reassignment_json_file, args.cancel)
    if args.cancel:
        return {(args.topic, args.partition): None}
    if args.to_broker is not None:
        return {(args.topic, args.partition): [args.to_broker]}
    return {(args.topic, args.partition): [_broker_of(client, args.to_group)]}


def _from_json(path: Path, cancel: bool) -> Wanted:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        wanted: Wanted = {}
        for item in doc["partitions"]:
            replicas = None if cancel else [int(node) for node in item["replicas"]]
            wanted[(str(item["topic"]), int(item["partition"]))] = replicas
    except KeyError as exc:
        raise MoveCommandError(f"{path} is not a reassignment file: it lacks the key {exc}") from None
    except (ValueError, TypeError) as exc:
        raise MoveCommandError(f"{path} is not a reassignment file: {exc}") from None
    if not wanted:
        raise MoveCommandError(f"{path} names no partition")
    return wanted


def _broker_of(client: WireClient, group: str) -> int:
    answer = client.request(DescribeClusterRequest(), 0, DescribeClusterResponse)
    nodes = sorted(broker.broker_id for broker in answer.brokers if broker.rack == group)
    if not nodes:
        known = sorted({broker.rack for broker in answer.brokers if broker.rack})
        raise MoveCommandError(f"no live broker in group {group!r} (groups: {', '.join(known) or 'none'})")
    return nodes[0]


def _alter(client: WireClient, wanted: Wanted) -> list[tuple[str, int]]:
    """Send the moves; print one line per partition; the partitions accepted."""
    topics: dict[str, list[ReassignablePartition]] = {}
    for (topic, partition), replicas in wanted.items():
        topics.setdefault(topic, []).append(ReassignablePartition(partition_index=partition, replicas=replicas))
    request = AlterPartitionReassignmentsRequest(
        topics=[ReassignableTopic(name=name, partitions=partitions) for name, partitions in topics.items()]
    )
    answer = client.request(request, 0, AlterPartitionReassignmentsResponse)
    if answer.error_code != ErrorCode.NONE:
        raise MoveCommandError(f"{ErrorCode(answer.error_code).name}: {answer.error_message}")
    accepted = []
    for answered in answer.responses:
        for item in answered.partitions:
            key = (answered.name, item.partition_index)
            if item.error_code == ErrorCode.NONE:
                accepted.append(key)
                what = "cancelled" if wanted.get(key) is None else f"moving to broker {wanted[key]}"
                print(f"{answered.name}-{item.partition_index}: {what}", flush=True)
            else:
                name = ErrorCode(item.error_code).name
                print(f"{answered.name}-{item.partition_index}: {name}: {item.error_message}", flush=True)
    return accepted


def _wait(client: WireClient, moving: Wanted, timeout_s: float) -> bool:
    """Poll until every move is done (its leader the target); print each as it finishes."""
    started = time.monotonic()
    deadline, report = started + timeout_s, started + REPORT_S
    left = dict(moving)
    while left:
        in_progress = _in_progress(client)
        leaders = _leaders(client, sorted({topic for topic, _ in left}))
        for key, replicas in list(left.items()):
            if key not in in_progress and replicas is not None and leaders.get(key) == replicas[0]:
                print(f"{key[0]}-{key[1]}: moved, leader {replicas[0]}", flush=True)
                del left[key]
        if not left:
            return True
        if time.monotonic() >= report:
            report += REPORT_S
            for key in left:
                print(f"{key[0]}-{key[1]}: moving ({time.monotonic() - started:.0f} s)", flush=True)
        if time.monotonic() >= deadline:
            for key in left:
                print(f"{key[0]}-{key[1]}: still moving after {timeout_s:g} s", flush=True)
            return False
        time.sleep(POLL_S)
    return True


def _in_progress(client: WireClient) -> set[tuple[str, int]]:
    answer = client.request(ListPartitionReassignmentsRequest(topics=None), 0, ListPartitionReassignmentsResponse)
    return {(topic.name, item.partition_index) for topic in answer.topics for item in topic.partitions}


def _leaders(client: WireClient, topics: list[str]) -> dict[tuple[str, int], int]:
    request = MetadataRequest(topics=[MetadataRequestTopic(name=name) for name in topics])
    answer = client.request(request, 9, MetadataResponse)
    return {
        (topic.name or "", item.partition_index): item.leader_id for topic in answer.topics for item in topic.partitions
    }


def _listed(client: WireClient) -> Iterator[str]:
    answer = client.request(ListPartitionReassignmentsRequest(topics=None), 0, ListPartitionReassignmentsResponse)
    for topic in answer.topics:
        for item in topic.partitions:
            source = ",".join(map(str, item.removing_replicas))
            target = ",".join(map(str, item.adding_replicas))
            yield f"{topic.name} {item.partition_index} from broker {source} to broker {target}"

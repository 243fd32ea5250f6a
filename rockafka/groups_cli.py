"""``rockafka groups`` (also ``kafka-consumer-groups`` and ``kafka-consumer-groups.sh``): kafka-consumer-groups.sh's
options and tables, over the Kafka protocol.

::

    kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:9092 --list
    kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:9092 --describe --group billing [--members|--state]
    kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:9092 --group billing --reset-offsets --to-earliest \\
        --topic orders --execute
    kafka-consumer-groups.sh --bootstrap-server 127.0.0.1:9092 --delete --group billing

``--describe`` prints Kafka's tables: offsets (``GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG
CONSUMER-ID HOST CLIENT-ID``, the default), ``--members`` (``GROUP CONSUMER-ID HOST CLIENT-ID #PARTITIONS``),
``--state`` (``GROUP COORDINATOR (ID) ASSIGNMENT-STRATEGY STATE #MEMBERS``); a missing value is ``-``.
``--reset-offsets`` takes ``--to-earliest``, ``--to-latest``, ``--to-offset``, ``--to-datetime``
(``YYYY-MM-DDTHH:MM:SS[.sss][+HH:MM]``, local time without an offset) or ``--shift-by``, for ``--topic
T[:P,P...]`` (repeatable) or ``--all-topics`` (those the group committed), and prints ``GROUP TOPIC PARTITION
NEW-OFFSET``; it commits only with ``--execute`` and only while the group has no members, as Kafka requires.
The bootstrap broker is asked as the group's coordinator (no FindCoordinator): right for one broker, for
Rockafka, and for a Kafka cluster only when that broker coordinates the group. Not supported: ``--from-file``,
``--export``, ``--to-current``, ``--by-duration``, ``--delete-offsets``, ``--verbose``.
"""

from __future__ import annotations

import argparse
import datetime
import struct
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rockafka.facade.protocol.error_codes import ErrorCode
from rockafka.facade.protocol.messages.delete_groups import DeleteGroupsRequest, DeleteGroupsResponse
from rockafka.facade.protocol.messages.describe_groups import (
    DescribedGroup,
    DescribeGroupsRequest,
    DescribeGroupsResponse,
)
from rockafka.facade.protocol.messages.list_groups import ListGroupsRequest, ListGroupsResponse
from rockafka.facade.protocol.messages.list_offsets import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsResponse,
    ListOffsetsTopic,
)
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataRequestTopic, MetadataResponse
from rockafka.facade.protocol.messages.offset_commit import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
    OffsetCommitResponse,
)
from rockafka.facade.protocol.messages.offset_fetch import OffsetFetchRequest, OffsetFetchResponse

from .cli_target import connect
from .topics_cli import OneLineParser
from .wire_client import WireClient, WireClientError

EARLIEST, LATEST = -2, -1
NO_EXECUTE_WARNING = (
    "WARN: No action will be performed as the --execute option is missing. In a future major release, the default "
    "behavior of this command will be to prompt the user before executing the reset rather than doing a dry run. "
    "You should add the --dry-run option explicitly if you are scripting this command and want to keep the current "
    "default behavior without prompting."
)
Partition = tuple[str, int]


class GroupCommandError(Exception):
    """A refused or impossible operation: ``Error: <message>`` on stderr, exit status 1."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_mutually_exclusive_group(required=True)
    for action in ("list", "describe", "reset-offsets", "delete"):
        actions.add_argument(f"--{action}", action="store_true")
    parser.add_argument("--bootstrap-server", required=True, help="HOST:PORT of a broker")
    parser.add_argument("--command-config", type=Path, help="client properties (TLS, SASL)")
    parser.add_argument("--group", action="append", default=[], help="the group (repeatable)")
    parser.add_argument("--all-groups", action="store_true")
    view = parser.add_mutually_exclusive_group()
    for name in ("offsets", "members", "state"):
        view.add_argument(f"--{name}", action="store_true")
    parser.add_argument("--topic", action="append", default=[], metavar="TOPIC[:P,P]", help="--reset-offsets scope")
    parser.add_argument("--all-topics", action="store_true", help="--reset-offsets: every topic the group committed")
    target = parser.add_mutually_exclusive_group()
    target.add_argument("--to-earliest", action="store_true")
    target.add_argument("--to-latest", action="store_true")
    target.add_argument("--to-offset", type=int)
    target.add_argument("--to-datetime", type=_datetime_ms, metavar="YYYY-MM-DDTHH:MM:SS")
    target.add_argument("--shift-by", type=int)
    run_mode = parser.add_mutually_exclusive_group()
    run_mode.add_argument("--execute", action="store_true")
    run_mode.add_argument("--dry-run", action="store_true")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("groups", help="kafka-consumer-groups.sh: list, describe, reset, delete groups")
    add_arguments(parser)
    parser.set_defaults(func=run)


def _datetime_ms(text: str) -> int:
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not YYYY-MM-DDTHH:MM:SS[.sss][+HH:MM]") from None
    return int(moment.astimezone().timestamp() * 1000)


def run(args: argparse.Namespace) -> int:
    problem = _check(args)
    if problem:
        print(f"rockafka groups: {problem}", file=sys.stderr)
        return 2
    try:
        with connect(args) as client:
            for line in _execute(client, args):
                print(line)
    except WireClientError as exc:
        print(f"rockafka groups: {exc}", file=sys.stderr)
        return 1
    except GroupCommandError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    return 0


def _check(args: argparse.Namespace) -> str | None:
    if (args.describe or args.delete or args.reset_offsets) and not (args.group or args.all_groups):
        return "--group (or --all-groups) is required with --describe, --delete and --reset-offsets"
    if args.reset_offsets:
        targets = (args.to_earliest, args.to_latest, args.to_offset, args.to_datetime, args.shift_by)
        if all(t is None or t is False for t in targets):
            return "--reset-offsets needs one of --to-earliest, --to-latest, --to-offset, --to-datetime, --shift-by"
        if not args.topic and not args.all_topics:
            return "--reset-offsets needs --topic or --all-topics"
    return None


def _execute(client: WireClient, args: argparse.Namespace) -> list[str]:
    listed = client.request(ListGroupsRequest(), 4, ListGroupsResponse).groups
    if args.list:
        return sorted(g.group_id for g in listed)
    groups = sorted(g.group_id for g in listed) if args.all_groups else args.group
    if args.delete:
        return _delete(client, groups)
    described = {
        g.group_id: g for g in client.request(DescribeGroupsRequest(groups=groups), 5, DescribeGroupsResponse).groups
    }
    if args.reset_offsets:
        return _reset(client, args, groups, described)
    lines: list[str] = []
    for group in groups:
        info = described[group]
        if info.error_code != ErrorCode.NONE:
            raise GroupCommandError(f"cannot describe group {group}: {ErrorCode(info.error_code).name}")
        if args.state:
            lines += _state_table(client, info)
        elif args.members:
            lines += _members_table(info)
        else:
            lines += _offsets_table(client, info)
    return lines


def _table(header: Sequence[str], rows: Sequence[Sequence[object]], fixed: dict[int, int]) -> list[str]:
    """Left-aligned columns as Kafka's tool prints them: a blank line, the header, then the rows."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [fixed.get(i, max([15, len(h), *(len(r[i]) for r in cells)])) for i, h in enumerate(header)]
    lines = [""]
    for row in [list(header), *cells]:
        lines.append(" ".join(c.ljust(w) for c, w in zip(row[:-1], widths, strict=False)) + " " + row[-1])
    return lines


def _assignment(raw: bytes) -> list[Partition]:
    """The partitions of a consumer-protocol assignment (version, [topic, [partition]], user data)."""
    if len(raw) < 6:
        return []
    at, found = 2, []
    (topics,) = struct.unpack_from(">i", raw, at)
    at += 4
    for _ in range(max(topics, 0)):
        (length,) = struct.unpack_from(">h", raw, at)
        topic = raw[at + 2 : at + 2 + length].decode()
        at += 2 + length
        (count,) = struct.unpack_from(">i", raw, at)
        found += [(topic, p) for p in struct.unpack_from(f">{count}i", raw, at + 4)]
        at += 4 + 4 * count
    return found


def _committed(client: WireClient, group: str) -> dict[Partition, int]:
    response = client.request(OffsetFetchRequest(group_id=group, topics=None), 7, OffsetFetchResponse)
    return {(t.name, p.partition_index): p.committed_offset for t in response.topics for p in t.partitions}


def _offsets_at(client: WireClient, partitions: Sequence[Partition], timestamp: int) -> dict[Partition, int]:
    topics: dict[str, list[ListOffsetsPartition]] = {}
    for topic, partition in partitions:
        topics.setdefault(topic, []).append(ListOffsetsPartition(partition_index=partition, timestamp=timestamp))
    request = ListOffsetsRequest(
        replica_id=-1, topics=[ListOffsetsTopic(name=t, partitions=p) for t, p in topics.items()]
    )
    response = client.request(request, 5, ListOffsetsResponse)
    return {(t.name, p.partition_index): p.offset for t in response.topics for p in t.partitions if p.error_code == 0}


def _offsets_table(client: WireClient, info: DescribedGroup) -> list[str]:
    owners = {tp: m for m in info.members for tp in _assignment(m.member_assignment)}
    committed = _committed(client, info.group_id)
    partitions = sorted(set(committed) | set(owners))
    ends = _offsets_at(client, partitions, LATEST) if partitions else {}
    rows = []
    for tp in partitions:
        current, end, member = committed.get(tp, -1), ends.get(tp), owners.get(tp)
        lag = "-" if current < 0 or end is None else end - current
        who = (member.member_id, f"/{member.client_host.lstrip('/')}", member.client_id) if member else ("-",) * 3
        rows.append(
            (info.group_id, tp[0], tp[1], current if current >= 0 else "-", "-" if end is None else end, lag, *who)
        )
    if not rows:
        return [f"\nConsumer group '{info.group_id}' has no active members."]
    header = (
        "GROUP",
        "TOPIC",
        "PARTITION",
        "CURRENT-OFFSET",
        "LOG-END-OFFSET",
        "LAG",
        "CONSUMER-ID",
        "HOST",
        "CLIENT-ID",
    )
    return _table(header, rows, {2: 10})


def _members_table(info: DescribedGroup) -> list[str]:
    rows = [(info.group_id, m.member_id, f"/{m.client_host.lstrip('/')}", m.client_id,
             len(_assignment(m.member_assignment))) for m in info.members]  # fmt: skip
    if not rows:
        return [f"\nConsumer group '{info.group_id}' has no active members."]
    return _table(("GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS"), rows, {})


def _state_table(client: WireClient, info: DescribedGroup) -> list[str]:
    metadata = client.request(MetadataRequest(topics=[]), 12, MetadataResponse)
    node = next((b for b in metadata.brokers if b.node_id == metadata.controller_id), metadata.brokers[0])
    coordinator = f"{node.host}:{node.port}  ({node.node_id})"
    row = (info.group_id, coordinator, info.protocol_data or "", info.group_state, len(info.members))
    return _table(("GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"), [row], {})


def _scope(client: WireClient, args: argparse.Namespace, committed: dict[Partition, int]) -> list[Partition]:
    if args.all_topics:
        return sorted(committed)
    chosen: list[Partition] = []
    for item in args.topic:
        topic, _, numbers = item.partition(":")
        if numbers:
            chosen += [(topic, int(n)) for n in numbers.split(",")]
            continue
        found = client.request(MetadataRequest(topics=[MetadataRequestTopic(name=topic)]), 12, MetadataResponse)
        described = found.topics[0]
        if described.error_code != ErrorCode.NONE:
            raise GroupCommandError(f"topic {topic}: {ErrorCode(described.error_code).name}")
        chosen += sorted((topic, p.partition_index) for p in described.partitions)
    return chosen


def _new_offsets(client: WireClient, args: argparse.Namespace, group: str) -> dict[Partition, int]:
    committed = _committed(client, group)
    partitions = _scope(client, args, committed)
    earliest, latest = _offsets_at(client, partitions, EARLIEST), _offsets_at(client, partitions, LATEST)
    if args.to_earliest:
        wanted = earliest
    elif args.to_latest:
        wanted = latest
    elif args.to_datetime is not None:
        wanted = {tp: latest[tp] for tp in partitions} | _offsets_at(client, partitions, args.to_datetime)
    elif args.to_offset is not None:
        wanted = dict.fromkeys(partitions, args.to_offset)
    else:
        wanted = {tp: committed.get(tp, latest.get(tp, 0)) + args.shift_by for tp in partitions}
    return {tp: min(max(wanted[tp], earliest.get(tp, 0)), latest.get(tp, wanted[tp])) for tp in partitions}


def _reset(
    client: WireClient, args: argparse.Namespace, groups: list[str], described: dict[str, DescribedGroup]
) -> list[str]:
    if not (args.execute or args.dry_run):
        print(NO_EXECUTE_WARNING, file=sys.stderr)
    rows = []
    for group in groups:
        state = described[group].group_state
        if args.execute and state not in ("Empty", "Dead"):
            raise GroupCommandError(
                f"Assignments can only be reset if the group '{group}' is inactive, but the current state is {state}."
            )
        offsets = _new_offsets(client, args, group)
        if args.execute:
            _commit(client, group, offsets)
        rows += [(group, topic, partition, offset) for (topic, partition), offset in sorted(offsets.items())]
    return _table(("GROUP", "TOPIC", "PARTITION", "NEW-OFFSET"), rows, {2: 10})


def _commit(client: WireClient, group: str, offsets: dict[Partition, int]) -> None:
    topics: dict[str, list[OffsetCommitRequestPartition]] = {}
    for (topic, partition), offset in offsets.items():
        topics.setdefault(topic, []).append(
            OffsetCommitRequestPartition(partition_index=partition, committed_offset=offset)
        )
    wire_topics = [OffsetCommitRequestTopic(name=t, partitions=p) for t, p in topics.items()]
    request = OffsetCommitRequest(group_id=group, generation_id_or_member_epoch=-1, member_id="", topics=wire_topics)
    for answered in client.request(request, 7, OffsetCommitResponse).topics:
        for part in answered.partitions:
            if part.error_code != ErrorCode.NONE:
                raise GroupCommandError(
                    f"committing {answered.name}-{part.partition_index}: {ErrorCode(part.error_code).name}"
                )


def _delete(client: WireClient, groups: list[str]) -> list[str]:
    results = client.request(DeleteGroupsRequest(groups_names=groups), 2, DeleteGroupsResponse).results
    failed = {r.group_id: ErrorCode(r.error_code).name for r in results if r.error_code != ErrorCode.NONE}
    if failed:
        raise GroupCommandError(
            "Deletion of some consumer groups failed: " + ", ".join(f"{g}: {e}" for g, e in failed.items())
        )
    return ["Deletion of requested consumer groups (" + ", ".join(f"'{g}'" for g in groups) + ") was successful."]


def kafka_main(argv: Sequence[str] | None = None) -> int:
    """The ``kafka-consumer-groups`` and ``kafka-consumer-groups.sh`` console scripts."""
    parser = OneLineParser(prog=Path(sys.argv[0]).name if argv is None else "kafka-consumer-groups.sh")
    add_arguments(parser)
    return run(parser.parse_args(argv))

"""``rockafka produce`` and ``rockafka consume`` (also ``kafka-console-producer[.sh]`` and
``kafka-console-consumer[.sh]``): the console producer and consumer with the options and output of Kafka's.

::

    printf 'k1\\tv1\\nk2\\tv2\\n' | kafka-console-producer.sh --bootstrap-server 127.0.0.1:9092 --topic orders \\
        --property parse.key=true
    kafka-console-consumer.sh --bootstrap-server 127.0.0.1:9092 --topic orders --from-beginning \\
        --property print.key=true --max-messages 2

They are clients (kafka-python), not broker code. The producer sends one record per line of standard input:
``parse.key=true`` splits the key off at ``key.separator`` (a tab), ``parse.headers=true`` takes headers first
(``h1:v1,h2:v2`` then ``headers.delimiter``, a tab). The consumer prints one line per record, as Kafka's
DefaultMessageFormatter does: with ``print.timestamp``, ``print.partition``, ``print.offset``,
``print.headers`` and ``print.key`` (each ``true``) the fields ``CreateTime:ms``, ``Partition:n``,
``Offset:n``, the headers (``NO_HEADERS`` when none) and the key (``null`` when none) come first, each
followed by ``key.separator``; then the value. It ends after ``--max-messages`` records or ``--timeout-ms``
without one, printing ``Processed a total of N messages`` on stderr. ``--group`` consumes as that group and
commits; without it no offsets are committed. ``--from-beginning`` starts at the log start when the group has
no committed offset; ``--partition`` with ``--offset`` (``earliest``, ``latest`` or a number) reads one
partition from there. Not supported: ``--formatter``, ``--include``, ``--whitelist``, ``--line-reader``,
``--isolation-level`` (the consumer reads read_uncommitted), ``--enable-systest-events``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .topics_cli import OneLineParser

TRUE = "true"


def _property(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"--property takes NAME=VALUE, not {text!r}")
    return name, value.encode().decode("unicode_escape")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bootstrap-server", required=True, help="HOST:PORT of a broker")
    parser.add_argument("--topic", required=True)
    parser.add_argument("--property", action="append", default=[], type=_property, metavar="NAME=VALUE")


def add_producer_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument("--request-required-acks", default="1", choices=["0", "1", "-1", "all"])
    parser.add_argument("--compression-codec", default=None, choices=["none", "gzip", "snappy", "lz4", "zstd"])


def add_consumer_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser)
    parser.add_argument("--group")
    parser.add_argument("--from-beginning", action="store_true")
    parser.add_argument("--partition", type=int)
    parser.add_argument("--offset", default=None, help="earliest, latest or a number (with --partition)")
    parser.add_argument("--max-messages", type=int)
    parser.add_argument("--timeout-ms", type=int)


def add_parser(subparsers: Any) -> None:
    produce = subparsers.add_parser("produce", help="kafka-console-producer.sh: one record per line of stdin")
    add_producer_arguments(produce)
    produce.set_defaults(func=run_producer)
    consume = subparsers.add_parser("consume", help="kafka-console-consumer.sh: print records")
    add_consumer_arguments(consume)
    consume.set_defaults(func=run_consumer)


def _headers(text: str, properties: dict[str, str]) -> list[tuple[str, bytes]]:
    separator, key_separator = properties.get("headers.separator", ","), properties.get("headers.key.separator", ":")
    found = []
    for item in text.split(separator) if text else []:
        name, _, value = item.partition(key_separator)
        found.append((name, value.encode()))
    return found


def run_producer(args: argparse.Namespace) -> int:
    from kafka import KafkaProducer
    from kafka.errors import KafkaError

    properties = dict(args.property)
    key_separator = properties.get("key.separator", "\t")
    acks = "all" if args.request_required_acks in ("-1", "all") else int(args.request_required_acks)
    codec = None if args.compression_codec in (None, "none") else args.compression_codec
    try:
        producer = KafkaProducer(bootstrap_servers=args.bootstrap_server, acks=acks, compression_type=codec)
    except KafkaError as exc:
        print(f"rockafka produce: cannot connect to {args.bootstrap_server}: {exc}", file=sys.stderr)
        return 1
    try:
        for line in sys.stdin:
            value, key, headers = line.rstrip("\n"), None, []
            if properties.get("parse.headers") == TRUE:
                text, _, value = value.partition(properties.get("headers.delimiter", "\t"))
                headers = _headers(text, properties)
            if properties.get("parse.key") == TRUE:
                key_text, sep, value = value.partition(key_separator)
                if not sep:
                    print(f"rockafka produce: no key separator in line {line.rstrip()!r}", file=sys.stderr)
                    return 1
                key = key_text.encode()
            producer.send(args.topic, value.encode(), key=key, headers=headers)
        producer.flush()
    except KafkaError as exc:
        print(f"rockafka produce: {exc}", file=sys.stderr)
        return 1
    finally:
        producer.close()
    return 0


def _format(record: Any, properties: dict[str, str]) -> str:
    separator = properties.get("key.separator", "\t")
    fields = []
    if properties.get("print.timestamp") == TRUE:
        kind = "LogAppendTime" if record.timestamp_type == 1 else "CreateTime"
        fields.append(f"{kind}:{record.timestamp}")
    if properties.get("print.partition") == TRUE:
        fields.append(f"Partition:{record.partition}")
    if properties.get("print.offset") == TRUE:
        fields.append(f"Offset:{record.offset}")
    if properties.get("print.headers") == TRUE:
        headers = properties.get("headers.separator", ",").join(
            f"{name}{properties.get('headers.key.separator', ':')}{value.decode(errors='replace')}"
            for name, value in record.headers
        )
        fields.append(headers or "NO_HEADERS")
    if properties.get("print.key") == TRUE:
        fields.append("null" if record.key is None else record.key.decode(errors="replace"))
    value = "null" if record.value is None else record.value.decode(errors="replace")
    return "".join(f"{field}{separator}" for field in fields) + value


def run_consumer(args: argparse.Namespace) -> int:
    from kafka import KafkaConsumer, TopicPartition
    from kafka.errors import KafkaError

    if args.offset is not None and args.partition is None:
        print("rockafka consume: --offset needs --partition", file=sys.stderr)
        return 2
    properties = dict(args.property)
    settings: dict[str, Any] = {
        "bootstrap_servers": args.bootstrap_server,
        "group_id": args.group,
        "auto_offset_reset": "earliest" if args.from_beginning else "latest",
        "enable_auto_commit": args.group is not None,
    }
    if args.timeout_ms is not None:
        settings["consumer_timeout_ms"] = args.timeout_ms
    processed = 0
    try:
        consumer = KafkaConsumer(**settings)
        if args.partition is None:
            consumer.subscribe([args.topic])
        else:
            where = TopicPartition(args.topic, args.partition)
            consumer.assign([where])
            if args.offset == "earliest" or (args.offset is None and args.from_beginning):
                consumer.seek_to_beginning(where)
            elif args.offset == "latest":
                consumer.seek_to_end(where)
            elif args.offset is not None:
                consumer.seek(where, int(args.offset))
        try:
            for record in consumer:
                print(_format(record, properties), flush=True)
                processed += 1
                if args.max_messages is not None and processed >= args.max_messages:
                    break
        finally:
            consumer.close()
    except (KafkaError, ValueError) as exc:
        print(f"rockafka consume: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    print(f"Processed a total of {processed} messages", file=sys.stderr)
    return 0


def _main(argv: Sequence[str] | None, name: str, add: Any, command: Any) -> int:
    parser = OneLineParser(prog=Path(sys.argv[0]).name if argv is None else name)
    add(parser)
    code: int = command(parser.parse_args(argv))
    return code


def producer_main(argv: Sequence[str] | None = None) -> int:
    """The ``kafka-console-producer`` and ``kafka-console-producer.sh`` console scripts."""
    return _main(argv, "kafka-console-producer.sh", add_producer_arguments, run_producer)


def consumer_main(argv: Sequence[str] | None = None) -> int:
    """The ``kafka-console-consumer`` and ``kafka-console-consumer.sh`` console scripts."""
    return _main(argv, "kafka-console-consumer.sh", add_consumer_arguments, run_consumer)

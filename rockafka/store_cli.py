"""``rockafka store inspect|query|dump DIR ...``: look into a store directory, without a broker.

The directory is read through ``StoreReader``: read-only, no lock, no recovery, so a store may be
inspected while a broker runs on it (a record being written shows as a torn tail). Times given to
``--since``/``--until`` are epoch milliseconds or ISO 8601 (naive means UTC).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from typing import Any

from rockafka.store import CorruptStoreError, StoreError
from rockafka.store.reader import ScanReport, StoreReader


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "store", help="look into a store directory: segments, partitions, CRCs, records by key or offset"
    )
    commands = parser.add_subparsers(dest="store_command", metavar="STORE_COMMAND", required=True)

    inspect = commands.add_parser("inspect", help="segments, topics, partition offsets, and a CRC verification pass")
    inspect.add_argument("directory", type=Path)
    inspect.add_argument("--no-verify", action="store_true", help="skip the batch CRC-32C pass")
    inspect.set_defaults(func=_guarded(run_inspect))

    query = commands.add_parser("query", help="records of a topic with a given key, newest first (IndexFile)")
    query.add_argument("directory", type=Path)
    query.add_argument("--topic", required=True)
    query.add_argument("--key", required=True, help="the record key, as UTF-8 text")
    query.add_argument("--since", type=_moment, default=0, help="stored at or after (epoch ms or ISO 8601)")
    query.add_argument("--until", type=_moment, default=None, help="stored at or before (epoch ms or ISO 8601)")
    query.add_argument("--limit", type=int, default=20)
    query.set_defaults(func=_guarded(run_query))

    dump = commands.add_parser("dump", help="records of a partition from an offset")
    dump.add_argument("directory", type=Path)
    dump.add_argument("--topic", required=True)
    dump.add_argument("--partition", type=int, default=0)
    dump.add_argument("--offset", type=int, default=0, help="first offset (default: the log start)")
    dump.add_argument("--count", type=int, default=20)
    dump.set_defaults(func=_guarded(run_dump))


def _guarded(command: Any) -> Any:
    """Report store and file errors as one line: exit code 2 for a mistake (no such directory, not a store,
    no such topic), 1 for a damaged data directory file (as ``rockafka serve`` exits)."""

    def run(args: argparse.Namespace) -> int:
        if not args.directory.is_dir():
            print(f"rockafka store: {args.directory} is not a directory", file=sys.stderr)
            return 2
        try:
            with StoreReader(args.directory) as reader:
                code: int = command(reader, args)
                return code
        except (StoreError, OSError) as exc:
            print(f"rockafka store: {exc}", file=sys.stderr)
            damaged = isinstance(exc, CorruptStoreError) and (args.directory / "store.json").exists()
            return 1 if damaged else 2

    return run


def _moment(text: str) -> int:
    if text.lstrip("-").isdigit():
        return int(text)
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not epoch milliseconds or an ISO 8601 time: {text!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return int(moment.timestamp() * 1000)


def _show(data: bytes | None) -> str:
    if data is None:
        return "null"
    try:
        return data.decode()
    except UnicodeDecodeError:
        return "0x" + data.hex()


def _iso(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).isoformat(timespec="milliseconds")


def run_inspect(reader: StoreReader, args: argparse.Namespace) -> int:
    geometry = reader.geometry
    print(f"store {args.directory}")
    print(
        f"  geometry: {geometry.commitlog_segment_bytes} bytes a segment, "
        f"{geometry.consume_queue_units_per_file} units a queue file, "
        f"index {geometry.index_slot_count} slots / {geometry.index_entry_count} entries"
    )
    segments = reader.segments()
    print(f"  commitlog: {len(segments)} segment(s)" + (f", first {segments[0].path.name}" if segments else ""))
    for segment in segments:
        print(f"    {segment.path.name}  {segment.size} bytes")
    print("topics")
    for topic in reader.topics():
        configs = ", ".join(f"{k}={v}" for k, v in sorted(topic.configs.items())) or "defaults"
        print(f"  {topic.name}  id={topic.topic_id}  partitions={topic.partitions}  configs: {configs}")
    print(f"  {'PARTITION':<30} {'LOG-START':>12} {'HIGH-WATERMARK':>15} {'BATCHES':>9} {'BYTES':>12}")
    for p in reader.partitions():
        name = f"{p.topic}-{p.partition}"
        print(f"  {name:<30} {p.log_start_offset:>12} {p.high_watermark:>15} {p.batches:>9} {p.size_bytes:>12}")
    report = reader.scan(verify=not args.no_verify, progress=_progress_bar() if sys.stderr.isatty() else None)
    code = _print_scan(report, verified=not args.no_verify)
    losses = reader.losses()
    lost = sum(loss.bytes for loss in losses)
    print(f"quarantine: {len(losses)} loss(es) recorded, {lost} bytes" + (":" if losses else ""))
    for loss in losses:
        print(f"  {_iso(loss.time_ms)}  {loss.describe()}")
    return code


def _progress_bar() -> Any:
    def show(done: int, total: int) -> None:
        filled = 40 * done // total if total else 40
        end = "\n" if done >= total else ""
        print(f"\r  verifying [{'#' * filled}{'.' * (40 - filled)}] {100 * done // max(total, 1):3d}%", end=end,
              file=sys.stderr, flush=True)  # fmt: skip

    return show


def _print_scan(report: ScanReport, *, verified: bool) -> int:
    what = "headers and batch CRC-32Cs" if verified else "headers"
    print(f"scan: {report.batches} batches, {report.bytes_scanned} bytes, {what} checked", end="")
    if report.orphan_batches:
        print(f", {report.orphan_batches} of deleted topics", end="")
    if report.corrupt_record is None:
        print(": OK")
        return 0
    print(f": CORRUPT at {report.corrupt_record}")
    if report.damaged:
        print(f"  {len(report.damaged)} damaged range(s), {report.damaged_bytes} bytes, skipped to valid records:")
        for start, end, reason in report.damaged:
            print(f"    [{start}, {end}) {end - start} bytes: {reason}")
    return 1


def run_query(reader: StoreReader, args: argparse.Namespace) -> int:
    found = reader.query_by_key(args.topic, args.key.encode(), args.since, args.until, args.limit)
    for record in found:
        print(
            f"{record.topic}-{record.partition}@{record.offset}  {_iso(record.timestamp)}  "
            f"key={_show(record.key)}  value={_show(record.value)}"
        )
    print(f"{len(found)} record(s)", file=sys.stderr)
    return 0


def run_dump(reader: StoreReader, args: argparse.Namespace) -> int:
    for shown, record in enumerate(reader.records(args.topic, args.partition, args.offset)):
        if shown >= args.count:
            break
        headers = "".join(f"  {k}={_show(v)}" for k, v in record.headers)
        line = f"{record.offset}  {_iso(record.timestamp)}  key={_show(record.key)}  value={_show(record.value)}"
        print(line + headers)
    return 0

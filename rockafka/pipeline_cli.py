"""``rockafka pipeline export|migrate``: the pipeline's Spark jobs from the command line.

``export --data-dir D --topics a,b --to parquet PATH`` appends the topics' records not exported yet to
PATH (exactly once, by a checkpoint in ``PATH/_checkpoint`` unless ``--checkpoint`` says elsewhere).
``migrate --from HOST:PORT --to HOST:PORT --topics a,b`` copies the topics (same partitions, keys,
headers, timestamps), then verifies every partition on both sides and writes a JSON report
(``--report``) and a table; exit 0 when every partition is equal, 1 when one differs. ``--exactly-once``
copies read_committed with the exactly-once sink and verifies read_committed on both sides. Both run on
``--master`` (default ``local[*]``); ``--conf key=value`` sets any Spark setting. Mistakes (a missing
directory, an unknown topic, an unreachable broker, no PySpark or Java) are one line on stderr, exit 2;
a damaged data directory file is one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rockafka.pipeline import PipelineError
from rockafka.store import CorruptStoreError, StoreError
from rockafka.store.reader import StoreReader

FORMATS = ("parquet", "json", "orc")


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "pipeline", help="Spark jobs: export a store's topics to files, copy and verify topics between brokers"
    )
    commands = parser.add_subparsers(dest="pipeline_command", metavar="PIPELINE_COMMAND", required=True)

    export = commands.add_parser("export", help="append a store's records not exported yet to files (exactly once)")
    export.add_argument("--data-dir", required=True, type=Path, help="the broker's data directory (log.dirs)")
    export.add_argument("--topics", required=True, type=_names, help="comma-separated topics")
    export.add_argument("--to", required=True, nargs=2, metavar=("FORMAT", "PATH"), help=f"one of {FORMATS}")
    export.add_argument("--checkpoint", help="Spark checkpoint directory (default PATH/_checkpoint)")
    _common(export)
    export.set_defaults(func=_guarded(run_export))

    migrate = commands.add_parser("migrate", help="copy topics between brokers, then verify them per partition")
    migrate.add_argument("--from", dest="source", required=True, metavar="BOOTSTRAP", help="source host:port")
    migrate.add_argument("--to", dest="target", required=True, metavar="BOOTSTRAP", help="target host:port")
    migrate.add_argument("--topics", required=True, type=_names, help="comma-separated topics")
    migrate.add_argument("--checkpoint", help="Spark checkpoint of the copy, to resume it (default: a new one)")
    migrate.add_argument("--report", type=Path, default=Path("migration-report.json"), help="JSON report path")
    migrate.add_argument("--verify-only", action="store_true", help="compare the two sides without copying")
    migrate.add_argument(
        "--exactly-once", action="store_true",
        help="copy committed records only, with a transactional sink; verify read_committed on both sides",
    )  # fmt: skip
    _common(migrate)
    migrate.set_defaults(func=_guarded(run_migrate))


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--master", default="local[*]", help="Spark master URL (default local[*])")
    parser.add_argument("--conf", action="append", default=[], type=_setting, metavar="KEY=VALUE")
    parser.add_argument("--max-offsets-per-trigger", type=int, help="records per micro-batch (default: all)")


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("name at least one topic")
    return names


def _setting(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, not {text!r}")
    return key, value


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Report mistakes as one line with exit code 2; a Spark job failure as one line with exit code 1."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (PipelineError, StoreError, OSError) as exc:
            print(f"rockafka pipeline: {exc}", file=sys.stderr)
            return 1 if isinstance(exc, CorruptStoreError) else 2  # a damaged data directory file, as serve
        except Exception as exc:
            if type(exc).__module__.startswith(("pyspark", "py4j")):
                print(f"rockafka pipeline: Spark job failed: {_cause(exc)}", file=sys.stderr)
                return 1
            raise

    return run


def _cause(exc: Exception) -> str:
    """The pipeline's own error inside a Spark error, else its first line."""
    lines = str(exc).splitlines()
    ours = [line for line in lines if "rockafka.pipeline.errors." in line]
    return (ours[-1].split("rockafka.pipeline.errors.", 1)[1] if ours else lines[0] if lines else repr(exc)).strip()


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _session(args: argparse.Namespace) -> tuple[Any, bool]:
    """The SparkSession, and whether this command started it (a session already active is left running)."""
    from rockafka.pipeline.session import check_spark, spark_session

    check_spark()
    from pyspark.sql import SparkSession

    owned = SparkSession.getActiveSession() is None
    return spark_session(args.master, f"rockafka pipeline {args.pipeline_command}", dict(args.conf)), owned


def run_export(args: argparse.Namespace) -> int:
    file_format, path = args.to
    if file_format not in FORMATS:
        raise PipelineError(f"--to format must be one of {', '.join(FORMATS)}, not {file_format!r}")
    if not args.data_dir.is_dir():
        raise PipelineError(f"{args.data_dir} is not a directory")
    with StoreReader(args.data_dir) as reader:
        known = {topic.name for topic in reader.topics()}
    unknown = [topic for topic in args.topics if topic not in known]
    if unknown:
        raise PipelineError(f"not in the store at {args.data_dir}: {', '.join(unknown)}")
    from rockafka.pipeline.jobs import export_store

    spark, owned = _session(args)
    try:
        run = export_store(
            spark, str(args.data_dir), args.topics, path, file_format=file_format, checkpoint=args.checkpoint,
            progress=_progress, max_offsets_per_trigger=args.max_offsets_per_trigger,
        )  # fmt: skip
    finally:
        if owned:
            spark.stop()
    print(f"exported {run.rows} records in {run.batches} batch(es) to {path} in {run.seconds:.1f} s")
    return 0


def run_migrate(args: argparse.Namespace) -> int:
    from rockafka.pipeline.jobs import copy_topics, report_document, report_table, verify_topics
    from rockafka.pipeline.wire import ensure_topics, partition_counts

    counts = partition_counts(args.source, args.topics)
    missing = [topic for topic in args.topics if topic not in counts]
    if missing:
        raise PipelineError(f"not on the source {args.source}: {', '.join(missing)}")
    copied = None
    spark, owned = _session(args)
    try:
        if not args.verify_only:
            ensure_topics(args.target, counts)
            checkpoint = args.checkpoint or tempfile.mkdtemp(prefix="rockafka-migrate-")
            _progress(f"copy: checkpoint {checkpoint}")
            copied = copy_topics(
                spark, args.source, args.target, args.topics, checkpoint=checkpoint, progress=_progress,
                max_offsets_per_trigger=args.max_offsets_per_trigger, exactly_once=args.exactly_once,
            )  # fmt: skip
        checks = verify_topics(
            spark, args.source, args.target, args.topics, progress=_progress, committed=args.exactly_once
        )
    finally:
        if owned:
            spark.stop()
    document = report_document(args.source, args.target, args.topics, checks, copied)
    args.report.write_text(json.dumps(document, indent=2) + "\n")
    print(report_table(checks))
    verdict = "every partition is equal" if document["equal"] else "PARTITIONS DIFFER"
    print(f"{verdict}; report written to {args.report}")
    return 0 if document["equal"] else 1

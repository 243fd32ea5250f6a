"""``rockafka pipeline export|migrate|mirror``: the pipeline's Spark jobs from the command line.

``export --data-dir D --topics a,b --to parquet PATH`` appends the topics' records not exported yet to
PATH (exactly once, by a checkpoint in ``PATH/_checkpoint`` unless ``--checkpoint`` says elsewhere).
``migrate --from HOST:PORT --to HOST:PORT --topics a,b`` moves an application's topics: creates them on the
target with the source's partition counts and config overrides, copies their records (same partitions, keys,
headers, timestamps), verifies every partition on both sides, then commits the consumer groups' offsets on the
target, translated through the copy (:mod:`rockafka.pipeline.migration`); ``--acls`` copies ACLs too and
``--dry-run`` prints the plan only. ``--from-config``/``--to-config`` read Kafka client properties files
(security settings). It writes a JSON report (``--report``, default ``migration-report.json``) and a table;
exit 0 when every partition is equal, 1 when one differs. The copy's checkpoint (default: the report path
plus ``.checkpoint``) lets an interrupted run resume and is removed after a verified copy. ``--exactly-once``
copies read_committed with the exactly-once sink and verifies read_committed on both sides. Both run on
``--master`` (default ``local[*]``); ``--conf key=value`` sets any Spark setting. Mistakes (a missing
directory, an unknown topic, an unreachable broker within ``--timeout``, no PySpark or Java) are one line on
stderr, exit 2; a damaged data directory file is one line, exit 1; Ctrl-C is one line, exit 130.
``mirror --from HOST:PORT --to HOST:PORT --topics-pattern REGEX`` keeps the target following the source (new
topics, partitions, config changes, records exactly once, consumer groups' offsets, lag in ``--status``) until
Ctrl-C, ``--duration`` or a ``rockafka-stop`` file in its checkpoint (:mod:`rockafka.pipeline.mirror`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rockafka.pipeline import PipelineError
from rockafka.pipeline.errors import one_line
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

    migrate = commands.add_parser("migrate", help="copy topics, configs and group offsets between brokers, then verify")
    _endpoints(migrate)
    migrate.add_argument("--topics", required=True, type=_names, help="comma-separated topics")
    migrate.add_argument(
        "--checkpoint", type=Path, help="checkpoint of the copy (default: the report path + .checkpoint)"
    )
    migrate.add_argument("--report", type=Path, default=Path("migration-report.json"), help="JSON report path")
    migrate.add_argument("--verify-only", action="store_true", help="compare the two sides without copying")
    migrate.add_argument("--dry-run", action="store_true", help="print what would be moved, move nothing")
    migrate.add_argument("--acls", action="store_true", help="copy the source's ACLs to the target too")
    migrate.add_argument("--append", action="store_true", help="copy even into target topics that hold records")
    migrate.add_argument("--no-groups", action="store_true", help="leave consumer group offsets behind")
    migrate.add_argument("--timeout", type=float, default=5.0, help="seconds to reach each broker (default 5)")
    migrate.add_argument(
        "--exactly-once", action="store_true",
        help="copy committed records only, with a transactional sink; verify read_committed on both sides",
    )  # fmt: skip
    _common(migrate)
    migrate.set_defaults(func=_guarded(run_migrate))

    mirror = commands.add_parser("mirror", help="keep a target following a source: topics, records, group offsets")
    _endpoints(mirror)
    add = mirror.add_argument
    add("--topics-pattern", required=True, metavar="REGEX", help="mirror the topics whose whole name matches")
    add("--checkpoint", type=Path, default=Path("mirror-checkpoint"), help="(default mirror-checkpoint)")
    add("--status", type=Path, default=Path("mirror-status.json"), help="JSON status, rewritten every second")
    add("--trigger", type=_seconds, default=1.0, metavar="S", help="seconds between micro-batches (default 1)")
    add("--topics-every", type=_seconds, default=10.0, metavar="S", help="topic sync period (default 10)")
    add("--groups-every", type=_seconds, default=30.0, metavar="S", help="group offset sync period (default 30)")
    add("--duration", type=_seconds, metavar="S", help="stop after this many seconds (default: run on)")
    mirror.add_argument("--timeout", type=float, default=5.0, help="seconds to reach each broker (default 5)")
    _common(mirror)
    mirror.set_defaults(func=_guarded(run_mirror))


def _endpoints(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="source", metavar="BOOTSTRAP", help="source host:port")
    parser.add_argument("--to", dest="target", metavar="BOOTSTRAP", help="target host:port")
    parser.add_argument("--from-config", type=Path, metavar="FILE", help="the source's Kafka client properties")
    parser.add_argument("--to-config", type=Path, metavar="FILE", help="the target's Kafka client properties")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--master", default="local[*]", help="Spark master URL (default local[*])")
    parser.add_argument("--conf", action="append", default=[], type=_setting, metavar="KEY=VALUE")
    parser.add_argument("--max-offsets-per-trigger", type=int, help="records per micro-batch (default: all)")


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("name at least one topic")
    return names


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text!r}")
    return value


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
        except KeyboardInterrupt:
            print("rockafka pipeline: interrupted; run the same command again to resume from its checkpoint",
                  file=sys.stderr)  # fmt: skip
            return 130
        except (PipelineError, StoreError, OSError) as exc:
            print(f"rockafka pipeline: {exc}", file=sys.stderr)
            return 1 if isinstance(exc, CorruptStoreError) else 2  # a damaged data directory file, as serve
        except Exception as exc:
            if type(exc).__module__.startswith(("pyspark", "py4j")):
                print(f"rockafka pipeline: Spark job failed: {one_line(exc)}", file=sys.stderr)
                return 1
            raise

    return run


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


def _sides(args: argparse.Namespace) -> tuple[Any, Any]:
    from rockafka.pipeline.clientprops import read_properties
    from rockafka.pipeline.migration import endpoint

    source = endpoint("source", args.source, read_properties(args.from_config) if args.from_config else {})
    target = endpoint("target", args.target, read_properties(args.to_config) if args.to_config else {})
    return source, target


def run_mirror(args: argparse.Namespace) -> int:
    from rockafka.pipeline.admin import Admin
    from rockafka.pipeline.mirror import Mirror, MirrorSettings, run_mirror

    source, target = _sides(args)
    settings = MirrorSettings(
        args.topics_pattern, args.checkpoint, args.status, args.trigger, args.topics_every, args.groups_every,
        args.duration, args.max_offsets_per_trigger,
    )  # fmt: skip
    with Admin(source.config(), args.timeout) as source_admin, Admin(target.config(), args.timeout) as target_admin:
        mirror = Mirror(source, target, (source_admin, target_admin), settings, _progress)
        spark, owned = _session(args)
        try:
            run = run_mirror(spark, mirror)
        finally:
            if owned:
                spark.stop()
    print(f"mirror stopped: {run.rows} rows in {run.batches} micro-batches in {run.seconds:.1f} s, lag {run.lag}; "
          f"status {args.status}; run the same command again to resume")  # fmt: skip
    return 0


def run_migrate(args: argparse.Namespace) -> int:
    from rockafka.pipeline.admin import Admin
    from rockafka.pipeline.migration import make_plan, plan_lines

    source, target = _sides(args)
    with Admin(source.config(), args.timeout) as source_admin, Admin(target.config(), args.timeout) as target_admin:
        plan = make_plan(source_admin, target_admin, args.topics, acls=args.acls)
        if args.dry_run:
            print("\n".join(plan_lines(plan)))
            return 0
        if not (args.verify_only or args.append):
            _refuse_a_second_copy(target, plan, args)
        document = _migrate(args, source, target, (source_admin, target_admin), plan)
    args.report.write_text(json.dumps(document, indent=2) + "\n")
    verdict = "every partition is equal" if document["equal"] else "PARTITIONS DIFFER"
    print(f"{verdict}; report written to {args.report}")
    return 0 if document["equal"] else 1


def _refuse_a_second_copy(target: Any, plan: Any, args: argparse.Namespace) -> None:
    """A copy that is not resumed (no checkpoint) into partitions already holding records would copy again."""
    from rockafka.pipeline.offsetmap import STATE_FILE
    from rockafka.pipeline.wire import offset_bounds

    if (_checkpoint(args) / STATE_FILE).exists() or not plan.existing:
        return
    held = {tp: end for tp, end in offset_bounds(target.config(), plan.partitions()).latest.items() if end > 0}
    if held:
        names = ", ".join(f"{tp.topic}-{tp.partition}" for tp in sorted(held))
        raise PipelineError(
            f"the target already holds records in {names} and no checkpoint of a copy is at {_checkpoint(args)}: "
            "a copy would add the source's records again; use --verify-only to compare, or --append to copy anyway"
        )


def _checkpoint(args: argparse.Namespace) -> Path:
    return Path(args.checkpoint or args.report.with_name(args.report.name + ".checkpoint"))


def _migrate(args: argparse.Namespace, source: Any, target: Any, admins: tuple[Any, Any], plan: Any) -> dict[str, Any]:
    """Copy (unless --verify-only), verify, then move the groups' offsets; the report document."""
    from rockafka.pipeline.jobs import copy_topics, report_document, report_table, verify_topics
    from rockafka.pipeline.migration import apply_acls, apply_topics, sync_groups
    from rockafka.pipeline.offsetmap import copy_starts
    from rockafka.pipeline.wire import offset_bounds

    source_admin, target_admin = admins
    checkpoint = _checkpoint(args)
    copied, starts, groups = None, {}, {}
    spark, owned = _session(args)
    try:
        if not args.verify_only:
            apply_topics(target_admin, plan)
            acls = apply_acls(target_admin, plan)
            starts = copy_starts(checkpoint, offset_bounds(target.config(), plan.partitions()).latest)
            goal = offset_bounds(source.config(), plan.partitions())
            _progress(f"copy: checkpoint {checkpoint}" + (f"; {acls} ACLs created" if acls else ""))
            copied = copy_topics(
                spark, source.options, target.options, args.topics, checkpoint=str(checkpoint), progress=_progress,
                max_offsets_per_trigger=args.max_offsets_per_trigger, exactly_once=args.exactly_once, goal=goal,
            )  # fmt: skip
        checks = verify_topics(
            spark, source.options, target.options, args.topics, progress=_progress, committed=args.exactly_once
        )
        equal = all(check.equal for check in checks)
        if equal and not args.verify_only and not args.no_groups:
            offsets = source_admin.group_offsets(args.topics)
            groups = sync_groups(spark, source, target, target_admin, offsets, starts, args.exactly_once)
    finally:
        if owned:
            spark.stop()
    print(report_table(checks))
    for group, moved in groups.items():
        how = [entry.get("how") for entry in moved.values()]
        summary = moved.get("skipped") or f"{len(how)} partition(s) committed, {how.count('translated')} translated"
        print(f"group {group}: {summary}")
    document = report_document(source.bootstrap, target.bootstrap, args.topics, checks, copied)
    if document["copied"] is not None:
        c = document["copied"]
        print(f"copied {c['rows']} rows, {c['bytes'] / 1e6:,.1f} MB in {c['seconds']:.1f} s "
              f"({c['rows_per_s']:,} rows/s, {c['mb_per_s']} MB/s)")  # fmt: skip
    document["configs"] = {topic: spec.configs for topic, spec in sorted(plan.topics.items())}
    document["groups"] = groups
    document["notes"] = plan.notes
    if document["equal"] and copied is not None:
        shutil.rmtree(checkpoint, ignore_errors=True)
        document["checkpoint"] = f"{checkpoint} (removed after the verified copy)"
    return document

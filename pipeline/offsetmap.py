"""Consumer-group offsets carried from the source to the target through the copy's offset map.

A copy appends each source partition's records, in order, to the target partition of the same number,
starting at the target's end offset when the copy began (``starts``, kept in the checkpoint directory so a
resumed copy keeps them). Record offsets are then equal on both sides only when that start is the source's
first offset and the source has no gaps. Gaps come from compaction, retention (a log that starts later),
transaction markers and aborted records; a target that already held records starts later. So offsets are
translated the way MirrorMaker 2's checkpoints do, by position rather than by arithmetic:

    a group committed offset ``c`` on a source partition: ``k`` copied records lie before ``c``;
    its target offset is the offset of the (k+1)-th record copied to the target partition,
    or the target's end offset when all ``k`` records are before ``c``.

The consumer then resumes on the target at exactly the next record it had not consumed on the source. Each
translation says whether the offset was ``preserved`` (the same number on both sides) or ``translated``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import PipelineError
from .offsets import TopicPartition

STATE_FILE = "rockafka-migration.json"


@dataclass(frozen=True, slots=True)
class Translated:
    source: int
    target: int

    @property
    def how(self) -> str:
        return "preserved" if self.source == self.target else "translated"


def copy_starts(checkpoint: Path, current_ends: Mapping[TopicPartition, int]) -> dict[TopicPartition, int]:
    """Where the copy began on each target partition: kept from the first run of this checkpoint, else the
    target's end offsets now (then recorded)."""
    state = checkpoint / STATE_FILE
    if state.exists():
        try:
            document = json.loads(state.read_text())
            kept = {
                TopicPartition(t, int(p)): int(o) for t, parts in document["starts"].items() for p, o in parts.items()
            }
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise PipelineError(f"{state} is damaged ({exc}): remove the checkpoint to copy again") from None
        return {**current_ends, **kept}
    checkpoint.mkdir(parents=True, exist_ok=True)
    document = {"starts": {}}
    for tp, offset in sorted(current_ends.items()):
        document["starts"].setdefault(tp.topic, {})[str(tp.partition)] = offset
    state.write_text(json.dumps(document, indent=1) + "\n")
    return dict(current_ends)


def translate(
    spark: Any,
    source: Any,
    target: Any,
    committed: set[tuple[TopicPartition, int]],
    starts: Mapping[TopicPartition, int],
    ends: Mapping[TopicPartition, int],
) -> dict[tuple[TopicPartition, int], Translated]:
    """The target offset of each (partition, committed source offset); ``source``/``target``: the two sides'
    records as read by the ``rockafka`` source (the same isolation level as the copy)."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    if not committed:
        return {}
    wanted = spark.createDataFrame(
        [(tp.topic, tp.partition, c, starts.get(tp, 0)) for tp, c in sorted(committed)],
        "topic string, partition int, c long, start long",
    )
    before = F.count(F.when(F.col("offset") < F.col("c"), 1)).alias("k")
    counted = (
        wanted.join(source.select("topic", "partition", "offset"), ["topic", "partition"], "left")
        .groupBy("topic", "partition", "c", "start")
        .agg(before)
    )
    position = F.row_number().over(Window.partitionBy("topic", "partition").orderBy("offset"))
    starts_frame = wanted.select("topic", "partition", "start").distinct()
    copied = (
        target.select("topic", "partition", "offset")
        .join(starts_frame, ["topic", "partition"])
        .where(F.col("offset") >= F.col("start"))
        .select("topic", "partition", F.col("offset").alias("t"), (position - 1).alias("k"))
    )
    matched = counted.join(copied, ["topic", "partition", "k"], "left").select("topic", "partition", "c", "t")
    result = {}
    for row in matched.collect():
        tp = TopicPartition(row["topic"], row["partition"])
        target_offset = row["t"] if row["t"] is not None else ends[tp]
        result[(tp, row["c"])] = Translated(row["c"], int(target_offset))
    return result

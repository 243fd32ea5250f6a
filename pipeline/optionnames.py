"""Which options each source and sink takes, under Spark's spelling, and the refusal of every other one.

Spark's Kafka source and sink are the reference: an option Spark takes and Rockafka does not yet is refused
as *not supported* (with what to do instead when there is something), and a name neither knows is refused as
*unknown*, with the nearest supported name when one is close (a misspelt ``startingOffset``). Either way the
message lists the supported options, so a job never runs with an option silently ignored. ``kafka.*`` options
are checked by the client configuration (:mod:`.wire`), against the Kafka client's settings.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping

from .errors import OptionError

#: The read options both sources take (Spark's names).
READ = (
    "subscribe",
    "subscribePattern",
    "assign",
    "startingOffsets",
    "endingOffsets",
    "maxOffsetsPerTrigger",
    "minPartitions",
    "failOnDataLoss",
    "includeHeaders",
    "stopFile",
)
KAFKA_SOURCE = (
    *READ,
    "startingTimestamp",
    "startingOffsetsByTimestamp",
    "startingOffsetsByTimestampStrategy",
    "kafkaConsumer.pollTimeoutMs",
    "partitionsFile",
)
STORE_SOURCE = (*READ, "path", "dataDir", "mode", "kafka.isolation.level")
KAFKA_SINK = (
    "topic",
    "exactlyOnce",
    "transactionalIdPrefix",
    "topicPartitions",
    "checkpointLocation",
    "path",
    "offsetSyncFile",
)

#: Spark's Kafka options that Rockafka does not take (yet), and what to do instead.
NOT_SUPPORTED = {
    "endingTimestamp": "use endingOffsets",
    "endingOffsetsByTimestamp": "use endingOffsets",
    "minOffsetsPerTrigger": "",
    "maxTriggerDelay": "",
    "groupIdPrefix": "the source uses no consumer group",
    "fetchOffset.numRetries": "",
    "fetchOffset.retryIntervalMs": "",
    "kafka.group.id": "the source uses no consumer group",
}
STORE_NOT_SUPPORTED = {
    **NOT_SUPPORTED,
    "startingTimestamp": "the store source does not read by timestamp",
    "startingOffsetsByTimestamp": "the store source does not read by timestamp",
    "startingOffsetsByTimestampStrategy": "the store source does not read by timestamp",
    "kafkaConsumer.pollTimeoutMs": "the store source reads files, not a broker",
}


def check_names(
    options: Iterable[str],
    supported: Iterable[str],
    what: str,
    not_supported: Mapping[str, str] = NOT_SUPPORTED,
    *,
    kafka: bool = True,
) -> None:
    """Raise ``OptionError`` for the first option (lower-case, as Spark passes it) ``what`` does not take.

    ``kafka``: whether ``kafka.*`` options are left to the client configuration to check.
    """
    spelling = {name.lower(): name for name in supported}
    refused = {name.lower(): (name, why) for name, why in not_supported.items()}
    for name in options:
        if name in spelling or (kafka and name.startswith("kafka.") and name not in refused):
            continue
        listing = ", ".join(sorted(spelling.values(), key=str.lower))
        if name in refused:
            original, why = refused[name]
            reason = f" ({why})" if why else ""
            raise OptionError(f"option {original} is not supported by {what}{reason}; it takes: {listing}")
        close = difflib.get_close_matches(name, list(spelling), n=1, cutoff=0.8)
        hint = f"; did you mean {spelling[close[0]]}?" if close else ""
        raise OptionError(f"unknown option {name!r} for {what}{hint}; it takes: {listing}")

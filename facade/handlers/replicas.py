"""What the replica-placement handlers share (ElectLeaders, partition reassignments, log dirs).

Rockafka is a one-broker cluster with one log directory: every partition has exactly one replica, on
this broker, which is always its preferred leader, and no reassignment or log-dir move is ever in
progress. These handlers therefore only tell known partitions from unknown ones, as Kafka does.
"""

from __future__ import annotations

from pathlib import Path

from rockafka.store import TopicInfo

from .context import RequestContext


def all_topics(ctx: RequestContext) -> tuple[TopicInfo, ...]:
    """Every topic Metadata lists: the store's and the internal topics once Kafka would have created them."""
    return (*ctx.broker.store.topics.list(), *ctx.broker.internal_topics.shown())


def known_topic(ctx: RequestContext, name: str) -> TopicInfo | None:
    """The topic ``name`` if it exists (the store's or an internal topic once shown), else None."""
    info = ctx.broker.topic_or_none(name)
    if info is not None:
        return info
    return next((topic for topic in ctx.broker.internal_topics.shown() if topic.name == name), None)


def partition_exists(ctx: RequestContext, topic: str, partition: int) -> bool:
    info = known_topic(ctx, topic)
    return info is not None and 0 <= partition < info.partitions


def log_dir_path(ctx: RequestContext) -> str:
    """The broker's one log directory as Kafka names it: the data directory's absolute path."""
    return str(Path(ctx.broker.config.data_dir).absolute())

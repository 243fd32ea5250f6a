"""Kafka's container-image convention: ``KAFKA_*`` environment variables as broker settings.

The apache/kafka and confluentinc/cp-kafka images turn every ``KAFKA_<NAME>`` variable into a line of
``server.properties``, and so does Rockafka's image (``rockafka serve --kafka-env``). The rule, applied
to ``<NAME>`` after the prefix is removed, longest runs first:

- ``___`` (three underscores) becomes ``-``;
- ``__`` (two underscores) becomes ``_``;
- ``_`` becomes ``.``;
- letters become lower case.

So ``KAFKA_NUM_PARTITIONS`` is ``num.partitions``, ``KAFKA_ADVERTISED_LISTENERS`` is
``advertised.listeners`` and ``KAFKA_LISTENER_SECURITY_PROTOCOL_MAP`` is ``listener.security.protocol.map``.
Longer runs of underscores are replaced first, so ``KAFKA_A__B_C`` is ``a_b.c``. Variables that Kafka's
start scripts read for the JVM or the tools, not the broker (:data:`NOT_SETTINGS`: ``KAFKA_HEAP_OPTS``,
``KAFKA_OPTS``, ``KAFKA_VERSION``, ...), are not settings and are left alone, as those images leave
them. Every other ``KAFKA_*`` variable must name a setting the broker knows or accepts and ignores
(KRaft and ZooKeeper names among them), like any other source of settings.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

PREFIX: Final = "KAFKA_"

NOT_SETTINGS: Final = frozenset(
    {
        "KAFKA_VERSION",
        "KAFKA_HOME",
        "KAFKA_OPTS",
        "KAFKA_HEAP_OPTS",
        "KAFKA_JVM_PERFORMANCE_OPTS",
        "KAFKA_GC_LOG_OPTS",
        "KAFKA_LOG4J_OPTS",
        "KAFKA_LOG4J_ROOT_LOGLEVEL",
        "KAFKA_LOG4J_LOGGERS",
        "KAFKA_TOOLS_LOG4J_LOGLEVEL",
        "KAFKA_JMX_OPTS",
        "KAFKA_JMX_HOSTNAME",
        "KAFKA_JMX_PORT",
        "KAFKA_DEBUG",
    }
)
"""Variables of Kafka's start scripts and images that are not broker settings."""


def setting_name(variable: str) -> str:
    """``KAFKA_LISTENER_SECURITY_PROTOCOL_MAP`` → ``listener.security.protocol.map``: the rule above."""
    name = variable.removeprefix(PREFIX).lower()
    return name.replace("___", "\0").replace("__", "\1").replace("_", ".").replace("\0", "-").replace("\1", "_")


def kafka_env_settings(environ: Mapping[str, str]) -> Iterator[tuple[str, str, str]]:
    """``(setting, value, variable)`` for each ``KAFKA_*`` variable that is a setting, sorted by variable."""
    for variable, value in sorted(environ.items()):
        if variable.startswith(PREFIX) and len(variable) > len(PREFIX) and variable not in NOT_SETTINGS:
            yield setting_name(variable), value, variable

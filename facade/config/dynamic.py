"""Dynamic broker configs: which settings AlterConfigs may change on a running broker, and how a change is checked.

Kafka (``DynamicBrokerConfig``) lets a broker resource change, without restart, the broker synonyms of the
topic configs (``log.retention.ms``, ``message.max.bytes``, ``log.cleanup.policy``, ...), the log cleaner's
settings, the connection limits, the producer-state expiry and the thread pools: cluster-wide (resource "",
every broker's default) or for one broker (its node id). Listener, TLS and SASL settings are per-broker only
and prefixed by the listener; Rockafka applies them at start only (refused as static, see
docs/configuration.md). Everything else is static: INVALID_REQUEST "Cannot update these configs dynamically",
Kafka's answer. A dynamic setting with a bad value is INVALID_CONFIG with the setting's one-line problem.

Names that Kafka makes dynamic but Rockafka has no use for (``num.io.threads``, ...) are accepted, checked,
kept and described, and change nothing (:data:`IGNORED_DYNAMIC`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from .definitions import BROKER_CONFIGS, INT, TOPIC_CONFIGS, ConfigDef, Value, at_least
from .errors import ConfigError, UnknownConfigError
from .values import parse_value

_NO_EFFECT: Final = "accepted as a dynamic broker config, as Kafka does; no effect in Rockafka"

IGNORED_DYNAMIC: Final[Mapping[str, ConfigDef]] = {
    name: ConfigDef(name, INT, default, at_least(1), read_only=False, doc=_NO_EFFECT)
    for name, default in (
        ("num.io.threads", 8),
        ("num.network.threads", 3),
        ("num.replica.fetchers", 1),
        ("num.recovery.threads.per.data.dir", 2),
        ("background.threads", 10),
    )
}
"""Kafka's dynamic thread-pool settings: one asyncio loop serves Rockafka, so they are kept and described only."""

_TOPIC_SYNONYMS: Final = frozenset(d.synonym for d in TOPIC_CONFIGS.values() if d.synonym in BROKER_CONFIGS)
CLUSTER_WIDE: Final = frozenset(
    {
        *_TOPIC_SYNONYMS,
        "log.cleaner.threads",
        "log.cleaner.io.max.bytes.per.second",
        "log.cleaner.backoff.ms",
        "max.connections",
        "max.connections.per.ip",
        "max.connections.per.ip.overrides",
        "producer.id.expiration.ms",
        *IGNORED_DYNAMIC,
    }
)
"""The dynamic settings Rockafka accepts, on the cluster-wide default or on one broker alike."""
PER_BROKER_RESTART: Final = frozenset({"listeners", "listener.security.protocol.map", "advertised.listeners"})
"""Settings Kafka changes per broker (listeners, and ``listener.name.*`` TLS/SASL settings) that Rockafka
applies at start only: refused, as static ones are."""


class StaticConfigError(ConfigError):
    """Settings that cannot change while the broker runs (INVALID_REQUEST)."""


def dynamic_definition(name: str) -> ConfigDef | None:
    """The definition of a setting AlterConfigs may change on a broker resource, or None for a static one."""
    if name not in CLUSTER_WIDE:
        return None
    return IGNORED_DYNAMIC.get(name) or BROKER_CONFIGS[name]


def check_dynamic(texts: Mapping[str, str]) -> dict[str, Value]:
    """A broker resource's dynamic settings as sent (names and text values), parsed.

    Raises :class:`StaticConfigError` naming every setting that cannot change dynamically, else
    :class:`UnknownConfigError` or :class:`InvalidConfigError` for the first unknown name or bad value.
    """
    static = sorted(name for name in texts if dynamic_definition(name) is None and _known(name))
    if static:
        listed = ", ".join(static)
        restart = [name for name in static if name in PER_BROKER_RESTART or name.startswith("listener.name.")]
        why = " (Rockafka applies listener, TLS and SASL settings at start only)" if restart else ""
        raise StaticConfigError(f"Cannot update these configs dynamically: {listed}{why}")
    parsed: dict[str, Value] = {}
    for name, text in texts.items():
        definition = dynamic_definition(name)
        if definition is None:
            raise UnknownConfigError(name, "broker configuration")
        parsed[name] = parse_value(definition, text)
    return parsed


def _known(name: str) -> bool:
    return name in BROKER_CONFIGS or name.startswith("listener.name.")

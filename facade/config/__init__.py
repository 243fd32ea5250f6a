"""Broker and topic settings, under Kafka's names: definitions, loading, validation."""

from .broker import BrokerConfig, ConfigSource, Listener, load_broker_config, read_properties
from .definitions import (
    BROKER_CONFIGS,
    IGNORED_BROKER_SETTINGS,
    TOPIC_CONFIGS,
    ConfigDef,
    ConfigType,
    Value,
)
from .errors import ConfigError, InvalidConfigError, UnknownConfigError
from .topic import TopicConfigEntry, describe_topic_config, validate_topic_configs
from .values import format_value, parse_value

__all__ = [
    "BROKER_CONFIGS",
    "IGNORED_BROKER_SETTINGS",
    "TOPIC_CONFIGS",
    "BrokerConfig",
    "ConfigDef",
    "ConfigError",
    "ConfigSource",
    "ConfigType",
    "InvalidConfigError",
    "Listener",
    "TopicConfigEntry",
    "UnknownConfigError",
    "Value",
    "describe_topic_config",
    "format_value",
    "load_broker_config",
    "parse_value",
    "read_properties",
    "validate_topic_configs",
]

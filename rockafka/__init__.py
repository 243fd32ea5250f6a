"""Rockafka: a Kafka-wire-compatible broker in Python over a RocketMQ-style message store."""

__version__ = "0.1.0.dev0"

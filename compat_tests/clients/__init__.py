"""Drivers that make each real Kafka client do the same things, and the checks shared by their tests.

Every driver (``kafka_python_driver``, ``aiokafka_driver``, ``confluent_driver``, ``kafkajs_driver``,
``kcat_driver``) offers the same three operations: produce a list of :class:`~.records.Rec` with given
acks and codec, consume from a start position (earliest, latest, a timestamp, an offset) with manual
assignment, and look up an offset by time. ``scenarios`` holds the checks every client's tests run;
``wire`` speaks the protocol over a raw socket; ``proxy`` sits between a client and the broker to
make a client's ApiVersions request too new.
"""

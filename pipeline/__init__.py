"""PySpark data sources over Rockafka, and ready jobs (store export, migration trial).

``register(spark)`` makes two formats available to a session:

- ``rockafka``: the Kafka-protocol source and sink (any Kafka-wire broker, Rockafka or Kafka), with
  Spark's Kafka source schema, option names and offsets JSON (:mod:`.kafka_source`);
- ``rockafka-store``: a reader of a Rockafka data directory's files (:mod:`.store_source`).

``readable_errors()`` turns a Spark job's failure into a one-line ``PipelineError``. Importing this package
does not import PySpark; :func:`register` and the jobs do.
"""

from __future__ import annotations

from typing import Any

from .errors import DataLossError, OptionError, PipelineError, SparkUnavailableError, readable_errors

__all__ = [
    "DataLossError",
    "OptionError",
    "PipelineError",
    "SparkUnavailableError",
    "readable_errors",
    "register",
]


def register(spark: Any) -> None:
    """Register the ``rockafka`` and ``rockafka-store`` formats with a SparkSession."""
    from .kafka_source import RockafkaDataSource
    from .store_source import RockafkaStoreDataSource

    spark.dataSource.register(RockafkaDataSource)
    spark.dataSource.register(RockafkaStoreDataSource)

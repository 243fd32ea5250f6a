"""The pipeline's one error family: every failure it reports to a user is a ``PipelineError``."""

from __future__ import annotations


class PipelineError(Exception):
    """A pipeline job or data source cannot do what was asked; the message says why, in one line."""


class OptionError(PipelineError):
    """A data source option is missing, unknown or malformed (Spark's Kafka source raises
    IllegalArgumentException for the same mistakes)."""


class DataLossError(PipelineError):
    """Offsets asked for are no longer there (deleted by retention, or the partition shrank) and
    ``failOnDataLoss`` is true."""


class SparkUnavailableError(PipelineError):
    """PySpark or a Java runtime is missing on this machine."""

"""The pipeline's one error family: every failure it reports to a user is a ``PipelineError``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


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


def one_line(exc: BaseException) -> str:
    """A Spark or Py4J error as one line: the pipeline's own error inside it (``OptionError: ...``) when there
    is one, else the error's first line (never the Java or Python stack trace it carries)."""
    lines = str(exc).splitlines()
    ours = [line for line in lines if f"{__name__}." in line]
    found = ours[-1].split(f"{__name__}.", 1)[1] if ours else lines[0] if lines else repr(exc)
    return found.strip()


@contextlib.contextmanager
def readable_errors() -> Iterator[None]:
    """Re-raise a Spark job's failure as a ``PipelineError`` of one line (the pipeline's own class when the
    failure is one of its errors)::

        with readable_errors():
            spark.read.format("rockafka").option("startingOffset", "earliest")...load().collect()
    """
    try:
        yield
    except Exception as exc:
        if not type(exc).__module__.startswith(("pyspark", "py4j")):
            raise
        line = one_line(exc)
        name, _, message = line.partition(": ")
        kind = _FAMILY.get(name, PipelineError)
        raise kind(message if name in _FAMILY else f"Spark job failed: {line}") from None


_FAMILY: dict[str, type[PipelineError]] = {
    cls.__name__: cls for cls in (PipelineError, OptionError, DataLossError, SparkUnavailableError)
}

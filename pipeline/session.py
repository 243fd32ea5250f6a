"""A SparkSession for the pipeline's jobs, with both formats registered.

Checks first that PySpark and a Java runtime are there (``SparkUnavailableError`` with what to install
otherwise). Python workers run the driver's interpreter (``PYSPARK_PYTHON``), so they import this
package. For ``local`` masters the driver binds to 127.0.0.1 (``SPARK_LOCAL_IP``) and the web UI is off;
``-XX:TieredStopAtLevel=1 -XX:+UseParallelGC`` start the JVM in about half the time
(``reference/spark.md``). Any other master (``spark://``, ``yarn``, ``k8s://``) is used as given.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Mapping
from typing import Any

from .errors import SparkUnavailableError

FAST_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseParallelGC"
LOCAL_SETTINGS = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.driver.extraJavaOptions": FAST_JVM,
}


def check_spark() -> None:
    """Raise ``SparkUnavailableError`` unless PySpark and Java can run here."""
    if importlib.util.find_spec("pyspark") is None:
        raise SparkUnavailableError("PySpark is not installed: pip install 'rockafka[spark]'")
    java_home = os.environ.get("JAVA_HOME")
    java = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
    if not java or not os.access(java, os.X_OK):
        raise SparkUnavailableError(
            "Spark needs a Java runtime (17 or newer): install one (e.g. apt-get install openjdk-17-jre-headless) "
            "or set JAVA_HOME"
        )


def spark_session(
    master: str = "local[*]", app_name: str = "rockafka", settings: Mapping[str, str] | None = None
) -> Any:
    """The active SparkSession (or a new one on ``master``), with ``rockafka`` and ``rockafka-store`` registered."""
    check_spark()
    from pyspark.sql import SparkSession

    from . import register

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.master(master).appName(app_name)
    if master.startswith("local"):
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        for key, value in LOCAL_SETTINGS.items():
            builder = builder.config(key, value)
    for key, value in (settings or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    register(spark)
    return spark

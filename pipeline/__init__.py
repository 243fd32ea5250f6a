"""PySpark data sources and sinks over Rockafka, and ready jobs (export, migration trial)."""

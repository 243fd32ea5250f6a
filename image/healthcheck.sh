#!/bin/sh
# The image's HEALTHCHECK: ApiVersions to the broker's first listener without TLS, read from the settings the
# entrypoint served with (the aiolibs/kafka variables when ADVERTISED_PORT is set, else KAFKA_*/ROCKAFKA_*).
if [ -n "${ADVERTISED_PORT:-}" ]; then
  exec rockafka probe --aiolibs-env
fi
exec rockafka probe --kafka-env

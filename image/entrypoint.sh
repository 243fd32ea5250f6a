#!/bin/sh
# The image's entrypoint (under tini): `docker run IMAGE [ARGUMENTS]`.
# - Any first argument that is a command is run as it is, as the user the container runs as (`docker run IMAGE
#   sleep 300`, `bash`), as Kafka's images allow: aiokafka's fixture makes its TLS files in a container started so.
# - Otherwise (no arguments, options, a properties file) the broker: `rockafka serve` with those arguments, its
#   settings from the environment: ADVERTISED_PORT set means the aiolibs/kafka image's variables
#   (--aiolibs-env, what aiokafka's test fixture passes), else KAFKA_*/ROCKAFKA_* (--kafka-env). Started as
#   root (the default), the broker runs as the user rockafka; in the aiolibs mode the TLS files mounted at
#   /ssl_cert (which that fixture makes readable by their owner only) are first copied for it.
set -eu
case "${1:-}" in
'' | -* | *.properties) ;;
*/*) if [ -x "$1" ] && [ ! -d "$1" ]; then exec "$@"; fi ;;
*) if command -v "$1" >/dev/null 2>&1; then exec "$@"; fi ;;
esac
drop=""
if [ "$(id -u)" = 0 ]; then
  drop="setpriv --reuid=rockafka --regid=rockafka --init-groups --inh-caps=-all"
fi
if [ -n "${ADVERTISED_PORT:-}" ]; then
  if [ -n "$drop" ] && [ -d /ssl_cert ]; then
    install -d -o rockafka -g rockafka -m 700 /var/lib/rockafka/ssl_cert
    for file in server.key server.crt ca.crt; do
      if [ -f "/ssl_cert/$file" ]; then
        install -o rockafka -g rockafka -m 600 "/ssl_cert/$file" "/var/lib/rockafka/ssl_cert/$file"
      fi
    done
    export AIOLIBS_SSL_DIR=/var/lib/rockafka/ssl_cert
  fi
  exec $drop rockafka serve --aiolibs-env "$@"
fi
exec $drop rockafka serve --kafka-env "$@"

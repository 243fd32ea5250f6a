#!/bin/sh
# /opt/kafka/bin/<tool>.sh: Kafka's tool of that name (a Rockafka console script), run as the user rockafka when
# started as root (`docker exec` of the image's default user), so files it writes in the data directory stay
# the broker's.
tool=/opt/rockafka/bin/$(basename "$0")
if [ "$(id -u)" = 0 ]; then
  exec setpriv --reuid=rockafka --regid=rockafka --init-groups --inh-caps=-all "$tool" "$@"
fi
exec "$tool" "$@"

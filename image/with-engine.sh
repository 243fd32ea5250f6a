#!/usr/bin/env bash
# image/with-engine.sh COMMAND...: run COMMAND with DOCKER_HOST naming an answering Docker engine: the one already
# at $DOCKER_HOST, else this checkout's own (image/dockerd.sh), started for the command and stopped after it
# (only if it was started here). The images stay in the engine's data root (build/docker) between runs.
set -euo pipefail
here=$(dirname "$0")
if [ -n "${DOCKER_HOST:-}" ] && docker version >/dev/null 2>&1; then
  exec "$@"
fi
own=unix://$(realpath -m "${ROCKAFKA_DOCKER_DIR:-$here/../build/docker}")/docker.sock
if DOCKER_HOST=$own docker version >/dev/null 2>&1; then
  DOCKER_HOST=$own exec "$@"
fi
eval "$("$here/dockerd.sh" start)"
status=0
"$@" || status=$?
"$here/dockerd.sh" stop
exit $status

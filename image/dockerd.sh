#!/usr/bin/env bash
# Start or stop a Docker engine of this checkout's own (never the machine's default socket):
#   image/dockerd.sh start   prints `export DOCKER_HOST=unix://...` once the engine answers
#   image/dockerd.sh stop    stops the engine this script started, by the PID it recorded
# Settings that work where no bridge or iptables is allowed: vfs storage, no bridge, containers on the host
# network. Runs as root, in its own session (the shell that started it may end). State lives under
# $ROCKAFKA_DOCKER_DIR (default build/docker); vfs copies the whole image per container: expect GBs with many.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$(realpath -m "${ROCKAFKA_DOCKER_DIR:-build/docker}")
SOCK=$DIR/docker.sock
PIDFILE=$DIR/dockerd.pid
export DOCKER_HOST=unix://$SOCK

running() { [ -s "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

case "${1:-}" in
start)
  if ! running; then
    command -v dockerd >/dev/null || { echo "image: no dockerd on PATH (apt-get install docker.io)" >&2; exit 1; }
    [ "$(id -u)" = 0 ] || { echo "image: dockerd needs root; this is uid $(id -u)" >&2; exit 1; }
    mkdir -p "$DIR/data" "$DIR/exec"
    setsid dockerd --storage-driver=vfs --iptables=false --ip6tables=false --bridge=none --data-root "$DIR/data" \
      --exec-root "$DIR/exec" --pidfile "$DIR/dockerd.run.pid" -H "$DOCKER_HOST" >"$DIR/dockerd.log" 2>&1 &
    echo $! >"$PIDFILE"
  fi
  for _ in $(seq 1 300); do
    if docker version >/dev/null 2>&1; then echo "export DOCKER_HOST=$DOCKER_HOST"; exit 0; fi
    running || break
    sleep 0.2
  done
  tail -5 "$DIR/dockerd.log" >&2
  echo "image: the Docker engine did not start (log: $DIR/dockerd.log)" >&2
  exit 1
  ;;
stop)
  if running; then
    pid=$(cat "$PIDFILE")
    kill "$pid"
    for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  fi
  rm -f "$PIDFILE"
  # dockerd leaves its default network namespace mounted under its exec root
  if mountpoint -q "$DIR/exec/netns/default" 2>/dev/null; then umount "$DIR/exec/netns/default"; fi
  ;;
*)
  echo "usage: image/dockerd.sh start|stop" >&2
  exit 2
  ;;
esac

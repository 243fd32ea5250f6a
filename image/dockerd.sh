#!/usr/bin/env bash
# Start or stop a Docker engine of this checkout's own (never the machine's default socket):
#   image/dockerd.sh start   prints `export DOCKER_HOST=unix://...` once the engine answers
#   image/dockerd.sh stop    stops the engine this script started, by the PID it recorded
# Settings that work where no bridge or iptables is allowed: vfs storage, no bridge, containers on the host
# network. Runs as root, in its own session (the shell that started it may end). State lives under
# $ROCKAFKA_DOCKER_DIR (default build/docker); vfs copies the whole image per container: expect GBs with many.
# ROCKAFKA_DOCKER_BRIDGE=CIDR (e.g. 172.31.250.1/24): containers also get a bridge of this engine's own (named
# rk<hash of the state directory>, with that address) and published ports (`-p`, docker's `ports=`) work
# through docker-proxy, still without iptables: what aiokafka's docker fixture needs. Stop removes the bridge.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=$(realpath -m "${ROCKAFKA_DOCKER_DIR:-build/docker}")
SOCK=$DIR/docker.sock
PIDFILE=$DIR/dockerd.pid
BRIDGE=rk$(printf '%s' "$DIR" | sha256sum | cut -c1-8)
export DOCKER_HOST=unix://$SOCK

running() { [ -s "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

case "${1:-}" in
start)
  if ! running; then
    command -v dockerd >/dev/null || { echo "image: no dockerd on PATH (apt-get install docker.io)" >&2; exit 1; }
    [ "$(id -u)" = 0 ] || { echo "image: dockerd needs root; this is uid $(id -u)" >&2; exit 1; }
    mkdir -p "$DIR/data" "$DIR/exec"
    bridge=none
    if [ -n "${ROCKAFKA_DOCKER_BRIDGE:-}" ]; then
      bridge=$BRIDGE
      ip link show "$bridge" >/dev/null 2>&1 || ip link add name "$bridge" type bridge
      ip addr replace "$ROCKAFKA_DOCKER_BRIDGE" dev "$bridge"
      ip link set "$bridge" up
    fi
    setsid dockerd --storage-driver=vfs --iptables=false --ip6tables=false --bridge="$bridge" \
      --data-root "$DIR/data" --exec-root "$DIR/exec" --pidfile "$DIR/dockerd.run.pid" -H "$DOCKER_HOST" \
      >"$DIR/dockerd.log" 2>&1 &
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
  if ip link show "$BRIDGE" >/dev/null 2>&1; then ip link delete "$BRIDGE"; fi
  ;;
*)
  echo "usage: image/dockerd.sh start|stop" >&2
  exit 2
  ;;
esac

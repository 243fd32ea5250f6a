#!/usr/bin/env bash
# make image: build rockafka:<version> and rockafka:latest offline, from a Debian base made by debootstrap.
#
# Steps, each skipped when its result is already there:
#   1. base tarball: debootstrap (minbase, Debian $SUITE from $MIRROR, with Python) into a root tree, packed as
#      $CACHE/base-<key>.tar; <key> hashes every input of that step (suite, mirror, packages, this step's text),
#      so a changed input makes a new tarball and an unchanged one is reused between builds;
#   2. wheels: the project's wheel (Cython kernels compiled) and its dependencies' wheels, built on this machine
#      (Debian 12's Python 3.11, as in the base);
#   3. root tree: the base unpacked, the wheels installed into a venv at /opt/rockafka with no index (nothing is
#      fetched), the user rockafka and its data directory made, Kafka's tools (the console scripts) linked under
#      /opt/kafka/bin, the entrypoint and the openssl-based keytool copied, all in a chroot; then `docker import` with the
#      instructions of image/config.dockerfile (environment, user, volume, health check, entrypoint, labels).
#      No `docker build`: under the vfs storage driver every build step copies the whole tree.
# Steps 2-3 are skipped when rockafka:<version> carries the same source key (the base and every source file).
# Needs root (debootstrap, chroot) and a Docker engine at $DOCKER_HOST (image/with-engine.sh gives one).
# `image/build.sh --base-only` does step 1 alone (no engine needed) and prints the tarball's path last
# (image/build-etcd.sh builds the etcd image from the same base).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
SUITE=${ROCKAFKA_IMAGE_SUITE:-bookworm}
MIRROR=${ROCKAFKA_IMAGE_MIRROR:-http://deb.debian.org/debian}
PACKAGES=python3,python3-venv,ca-certificates,tini,openssl
CACHE=${ROCKAFKA_IMAGE_CACHE:-build/image-cache}
VERSION=$(sed -n "s/^__version__ = \"\(.*\)\"/\1/p" rockafka/__init__.py)
TAG=rockafka:$VERSION
# aiokafka's fixtures read the Kafka version from the tag's last `_` part and exec tools under
# /opt/kafka_<tag with _ as ->/bin: each of these tags names the image, and /opt/kafka_<...> is /opt/kafka
AIOKAFKA_TAGS="aiokafka_2.8.1"
mkdir -p "$CACHE"

step() { printf 'image: %-40s %6ss\n' "$1" "$2"; }
say() { echo "image: $*"; }
tree=""
trap 'if [ -n "$tree" ]; then rm -rf "$tree"; fi' EXIT

base_step_text=$(sed -n '/^# base-step-begin/,/^# base-step-end/p' "$0")
KEY=$(printf '%s\n' "$SUITE" "$MIRROR" "$PACKAGES" "$base_step_text" | sha256sum | cut -c1-16)
BASE_TAR=$CACHE/base-$KEY.tar

# base-step-begin
if [ ! -s "$BASE_TAR" ]; then
  started=$SECONDS
  tree=$(mktemp -d "$CACHE/root.XXXXXX")
  debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$tree" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
    { tail -20 "$CACHE/debootstrap.log"; echo "image: debootstrap failed (log: $CACHE/debootstrap.log)"; exit 1; }
  chmod 755 "$tree"
  chroot "$tree" apt-get clean
  rm -rf "$tree"/var/lib/apt/lists/* "$tree"/var/cache/apt/*.bin "$tree"/usr/share/doc/* "$tree"/usr/share/man/* \
    "$tree"/usr/share/locale/* "$tree"/usr/share/info/* "$tree"/var/log/*.log
  tar -C "$tree" --numeric-owner -cf "$BASE_TAR.part" .
  mv "$BASE_TAR.part" "$BASE_TAR"
  rm -rf "$tree" && tree=""
  step "debootstrap $SUITE (cached as $BASE_TAR)" $((SECONDS - started))
else
  say "base tarball cached: $BASE_TAR"
fi
# base-step-end
if [ "${1:-}" = --base-only ]; then
  echo "$BASE_TAR"
  exit 0
fi

# the image's key: the base and every file that goes into the wheel or the image; an image with it is kept
SOURCE_KEY=$( (echo "$KEY"; find rockafka facade store core_pyx \( -name '*.py' -o -name '*.pyx' -o -name '*.pxd' \) \
  -print0 | sort -z | xargs -0 sha256sum; cat setup.py pyproject.toml "$0" image/config.dockerfile image/entrypoint.sh image/keytool.sh image/healthcheck.sh image/kafka-tool.sh | sha256sum) |
  sha256sum | cut -c1-16)
if [ "$(docker image inspect -f '{{index .Config.Labels "rockafka.source"}}' "$TAG" 2>/dev/null)" = "$SOURCE_KEY" ]; then
  docker tag "$TAG" rockafka:latest
  for tag in $AIOKAFKA_TAGS; do docker tag "$TAG" "rockafka:$tag"; done
  say "$TAG is up to date (source $SOURCE_KEY)"
  exit 0
fi

started=$SECONDS
WHEELS=build/image/wheels
rm -rf "$WHEELS" && mkdir -p "$WHEELS"
$PY -m pip --disable-pip-version-check -q wheel --no-build-isolation -w "$WHEELS" ".[cluster]" >"$CACHE/wheels.log" 2>&1 ||
  { tail -20 "$CACHE/wheels.log"; echo "image: building the wheels failed (log: $CACHE/wheels.log)"; exit 1; }
step "wheels" $((SECONDS - started))

started=$SECONDS
tree=$(mktemp -d "$CACHE/app.XXXXXX")
tar -C "$tree" -xf "$BASE_TAR"
cp -r "$WHEELS" "$tree/tmp/wheels"
install -m 755 image/entrypoint.sh "$tree/usr/local/bin/rockafka-entrypoint"
install -m 755 image/keytool.sh "$tree/usr/local/bin/keytool"
install -m 755 image/healthcheck.sh "$tree/usr/local/bin/rockafka-healthcheck"
install -m 755 image/kafka-tool.sh "$tree/usr/local/bin/rockafka-kafka-tool"
chroot "$tree" /bin/sh -eu >"$CACHE/install.log" 2>&1 <<'SCRIPT' ||
python3 -m venv /opt/rockafka
/opt/rockafka/bin/pip install --no-index --disable-pip-version-check -q --find-links /tmp/wheels "rockafka[cluster]"
/opt/rockafka/bin/pip uninstall -y -q pip setuptools
rm -rf /tmp/wheels /root/.cache
groupadd --system --gid 1000 rockafka
useradd --system --uid 1000 --gid rockafka --home-dir /var/lib/rockafka --shell /usr/sbin/nologin rockafka
mkdir -p /var/lib/rockafka/data /etc/rockafka /opt/kafka/bin
chown -R rockafka:rockafka /var/lib/rockafka
for tool in kafka-topics.sh kafka-configs.sh kafka-acls.sh kafka-console-producer.sh kafka-console-consumer.sh \
  kafka-consumer-groups.sh kafka-get-offsets.sh; do
  ln -s /usr/local/bin/rockafka-kafka-tool "/opt/kafka/bin/$tool"
done
SCRIPT
  { tail -20 "$CACHE/install.log"; echo "image: installing into the root tree failed (log: $CACHE/install.log)"; exit 1; }
for tag in $AIOKAFKA_TAGS; do ln -s kafka "$tree/opt/kafka_${tag//_/-}"; done
changes=()
while IFS= read -r line; do
  case $line in '' | '#'*) continue ;; esac
  line=${line//'${VERSION}'/$VERSION}
  changes+=(--change "${line//'${SOURCE}'/$SOURCE_KEY}")
done <image/config.dockerfile
tar -C "$tree" --numeric-owner -c . | docker import "${changes[@]}" - "$TAG" >/dev/null
docker tag "$TAG" rockafka:latest
for tag in $AIOKAFKA_TAGS; do docker tag "$TAG" "rockafka:$tag"; done
docker image prune -f --filter label=rockafka.source >/dev/null  # the images this tag replaced (each a full copy)
rm -rf "$tree" && tree=""
step "root tree and docker import $TAG" $((SECONDS - started))
size=$(docker image inspect -f '{{.Size}}' "$TAG")
say "$TAG and rockafka:latest built: $((size / 1000000)) MB (source $SOURCE_KEY)"

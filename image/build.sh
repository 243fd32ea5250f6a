#!/usr/bin/env bash
# make image: build rockafka:<version> and rockafka:latest offline, from a Debian base made by debootstrap.
#
# Steps, each skipped when its result is already there:
#   1. base tarball: debootstrap (minbase, Debian $SUITE from $MIRROR, with Python) into a root tree, packed as
#      $CACHE/base-<key>.tar; <key> hashes every input of that step (suite, mirror, packages, this step's text),
#      so a changed input makes a new tarball and an unchanged one is reused between builds;
#   2. base image: `docker import` of that tarball as rockafka-base:<key>;
#   3. wheels: the project's wheel (Cython kernels compiled) and its dependencies' wheels, built on this machine;
#   4. the image: image/Dockerfile FROM the base, installing the wheels with no index (nothing is fetched);
#      skipped when rockafka:<version> is labelled with the same source key (the base and every source file).
# Needs root (debootstrap) and a Docker engine at $DOCKER_HOST (see image/dockerd.sh). Prints the time of each step.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
SUITE=${ROCKAFKA_IMAGE_SUITE:-bookworm}
MIRROR=${ROCKAFKA_IMAGE_MIRROR:-http://deb.debian.org/debian}
PACKAGES=python3,python3-venv,ca-certificates,tini
CACHE=${ROCKAFKA_IMAGE_CACHE:-build/image-cache}
VERSION=$(sed -n "s/^__version__ = \"\(.*\)\"/\1/p" rockafka/__init__.py)
TAG=rockafka:$VERSION
mkdir -p "$CACHE"

step() { printf 'image: %-40s %6ss\n' "$1" "$2"; }
say() { echo "image: $*"; }

base_step_text=$(sed -n '/^# base-step-begin/,/^# base-step-end/p' "$0")
KEY=$(printf '%s\n' "$SUITE" "$MIRROR" "$PACKAGES" "$base_step_text" | sha256sum | cut -c1-16)
BASE_TAR=$CACHE/base-$KEY.tar
BASE_IMAGE=rockafka-base:$KEY

# base-step-begin
if [ ! -s "$BASE_TAR" ]; then
  started=$SECONDS
  root=$(mktemp -d "$CACHE/root.XXXXXX")
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase --include="$PACKAGES" "$SUITE" "$root" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 ||
    { tail -20 "$CACHE/debootstrap.log"; echo "image: debootstrap failed (log: $CACHE/debootstrap.log)"; exit 1; }
  chmod 755 "$root"
  chroot "$root" apt-get clean
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/usr/share/doc/* "$root"/usr/share/man/* \
    "$root"/usr/share/locale/* "$root"/usr/share/info/* "$root"/var/log/*.log
  tar -C "$root" --numeric-owner -cf "$BASE_TAR.part" .
  mv "$BASE_TAR.part" "$BASE_TAR"
  rm -rf "$root"
  trap - EXIT
  step "debootstrap $SUITE (cached as $BASE_TAR)" $((SECONDS - started))
else
  say "base tarball cached: $BASE_TAR"
fi
# base-step-end

if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  started=$SECONDS
  docker import "$BASE_TAR" "$BASE_IMAGE" >/dev/null
  step "docker import $BASE_IMAGE" $((SECONDS - started))
fi

# the image's key: the base and every file that goes into the wheel or the Dockerfile; an image with it is kept
SOURCE_KEY=$( (echo "$KEY"; find rockafka facade store core_pyx \( -name '*.py' -o -name '*.pyx' -o -name '*.pxd' \) \
  -print0 | sort -z | xargs -0 sha256sum; sha256sum setup.py pyproject.toml image/Dockerfile) | sha256sum | cut -c1-16)
if [ "$(docker image inspect -f '{{index .Config.Labels "rockafka.source"}}' "$TAG" 2>/dev/null)" = "$SOURCE_KEY" ]; then
  docker tag "$TAG" rockafka:latest
  say "$TAG is up to date (source $SOURCE_KEY)"
  exit 0
fi

started=$SECONDS
WHEELS=build/image/wheels
rm -rf "$WHEELS" && mkdir -p "$WHEELS"
# the base's Python is Debian 12's 3.11 on glibc 2.36, as on the machines this runs on: wheels built here fit it
$PY -m pip --disable-pip-version-check -q wheel --no-build-isolation -w "$WHEELS" . >"$CACHE/wheels.log" 2>&1 ||
  { tail -20 "$CACHE/wheels.log"; echo "image: building the wheels failed (log: $CACHE/wheels.log)"; exit 1; }
step "wheels" $((SECONDS - started))

started=$SECONDS
cp image/Dockerfile build/image/
DOCKER_BUILDKIT=0 docker build -q --network host --build-arg BASE="$BASE_IMAGE" --build-arg VERSION="$VERSION" \
  --label rockafka.source="$SOURCE_KEY" -t "$TAG" -t rockafka:latest build/image >"$CACHE/docker-build.log" 2>&1 ||
  { tail -20 "$CACHE/docker-build.log"; echo "image: docker build failed (log: $CACHE/docker-build.log)"; exit 1; }
step "docker build $TAG" $((SECONDS - started))
size=$(docker image inspect -f '{{.Size}}' "$TAG")
say "$TAG and rockafka:latest built: $((size / 1000000)) MB (source $SOURCE_KEY)"

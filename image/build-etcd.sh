#!/usr/bin/env bash
# make image-etcd: build rockafka-etcd:<etcd version> and rockafka-etcd:latest offline, the etcd that the compose
# cluster (image/compose/docker-compose.yml) runs: no registry serves an etcd image here.
#
# The image holds etcd and etcdctl from Debian's etcd-server and etcd-client packages (fetched with the host's
# `apt-get download`, the suite of the base) and the two files of the C library they link, both taken from the
# cached debootstrap base of image/build.sh (its step 1, shared: no second debootstrap): 40 MB, where the
# whole base with etcd would be about four times that (170 MB), and each container of it is one more copy under vfs.
# etcd reads its flags from ETCD_* variables (ETCD_LISTEN_CLIENT_URLS, ...) and etcdctl from ETCDCTL_*, so the
# compose file sets both; the image runs as the user etcd (uid 1001) with its data in the volume /var/lib/etcd.
# The image is kept when it carries the same source key (the base, the two packages, this script).
# Needs root (the base's debootstrap) and a Docker engine at $DOCKER_HOST (image/with-engine.sh gives one).
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${ROCKAFKA_IMAGE_CACHE:-build/image-cache}
PACKAGES="etcd-server etcd-client"
BINARIES="/usr/bin/etcd /usr/bin/etcdctl"
ETCD_UID=1001
say() { echo "image-etcd: $*"; }
tree=""
trap 'if [ -n "$tree" ]; then rm -rf "$tree"; fi' EXIT

BASE_TAR=$(image/build.sh --base-only | tail -1)
DEBS=$CACHE/etcd-debs
mkdir -p "$DEBS"
if ! ls "$DEBS"/etcd-server_*.deb "$DEBS"/etcd-client_*.deb >/dev/null 2>&1; then
  (cd "$DEBS" && apt-get download -o APT::Sandbox::User=root $PACKAGES >/dev/null) ||
    { say "apt-get download $PACKAGES failed (a Debian host with the base's suite in its sources is needed)"; exit 1; }
fi
VERSION=$(dpkg-deb -f "$(ls "$DEBS"/etcd-server_*.deb | head -1)" Version | sed 's/[-+~].*//')
TAG=rockafka-etcd:$VERSION
SOURCE_KEY=$( (basename "$BASE_TAR"; sha256sum "$DEBS"/*.deb | cut -d' ' -f1; sha256sum "$0" | cut -d' ' -f1) |
  sha256sum | cut -c1-16)
if [ "$(docker image inspect -f '{{index .Config.Labels "rockafka.etcd.source"}}' "$TAG" 2>/dev/null)" = "$SOURCE_KEY" ]
then
  docker tag "$TAG" rockafka-etcd:latest
  say "$TAG is up to date (source $SOURCE_KEY)"
  exit 0
fi

started=$SECONDS
tree=$(mktemp -d "$CACHE/etcd.XXXXXX")
mkdir "$tree/base" "$tree/root"
tar -C "$tree/base" -xf "$BASE_TAR"
# unpacked apart: the packages' /lib would replace the base's /lib -> usr/lib link
for deb in "$DEBS"/*.deb; do dpkg-deb -x "$deb" "$tree/base/packages"; done
root=$tree/root
for binary in $BINARIES; do
  install -D -m 755 "$tree/base/packages$binary" "$root$binary"
  # the libraries and the loader it names, at the paths it names them by (what ldd prints: the base has no ldd)
  libraries=$(chroot "$tree/base" /lib64/ld-linux-x86-64.so.2 --list "/packages$binary" | grep -o '/[^ ]*')
  for library in $libraries; do
    if [ ! -e "$root$library" ]; then
      install -D -m 755 "$tree/base$(chroot "$tree/base" readlink -f "$library")" "$root$library"
    fi
  done
done
mkdir -p "$root/etc" "$root/tmp" "$root/var/lib/etcd"
chmod 1777 "$root/tmp"
printf 'root:x:0:0:root:/root:/nonexistent\netcd:x:%s:%s:etcd:/var/lib/etcd:/nonexistent\n' $ETCD_UID $ETCD_UID \
  >"$root/etc/passwd"
printf 'root:x:0:\netcd:x:%s:\n' $ETCD_UID >"$root/etc/group"
chown $ETCD_UID:$ETCD_UID "$root/var/lib/etcd"
chmod 700 "$root/var/lib/etcd"
health='--interval=2s --timeout=5s --start-period=10s --retries=3 CMD ["etcdctl", "endpoint", "health"]'
labels="org.opencontainers.image.title=rockafka-etcd org.opencontainers.image.version=$VERSION"
tar -C "$root" --numeric-owner -c . | docker import \
  --change "ENV ETCD_DATA_DIR=/var/lib/etcd ETCD_NAME=etcd ETCDCTL_ENDPOINTS=http://127.0.0.1:2379" \
  --change "USER $ETCD_UID:$ETCD_UID" \
  --change "VOLUME /var/lib/etcd" \
  --change "EXPOSE 2379 2380" \
  --change "HEALTHCHECK $health" \
  --change 'ENTRYPOINT ["/usr/bin/etcd"]' \
  --change "LABEL $labels rockafka.etcd.source=$SOURCE_KEY" \
  - "$TAG" >/dev/null
docker tag "$TAG" rockafka-etcd:latest
docker image prune -f --filter label=rockafka.etcd.source >/dev/null # the image this tag replaced
rm -rf "$tree" && tree=""
size=$(docker image inspect -f '{{.Size}}' "$TAG")
say "$TAG and rockafka-etcd:latest built in $((SECONDS - started)) s: $((size / 1000000)) MB (source $SOURCE_KEY)"

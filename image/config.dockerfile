# The image's configuration: Dockerfile instructions, one a line, that image/build.sh gives `docker import --change`
# (no build steps: under the vfs storage driver each one would copy the whole tree). ${VERSION} and ${SOURCE} are
# replaced by the version and the source key. The root tree itself is made in a chroot by image/build.sh.
ENV PATH=/opt/kafka/bin:/opt/rockafka/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
ENV ROCKAFKA_LISTENERS=PLAINTEXT://0.0.0.0:9092 ROCKAFKA_LOG_DIRS=/var/lib/rockafka/data
WORKDIR /var/lib/rockafka
VOLUME /var/lib/rockafka/data
EXPOSE 9092
HEALTHCHECK --interval=2s --timeout=5s --start-period=10s --retries=3 CMD ["rockafka-healthcheck"]
ENTRYPOINT ["/usr/bin/tini", "--", "rockafka-entrypoint"]
CMD []
LABEL org.opencontainers.image.title=rockafka org.opencontainers.image.version=${VERSION} rockafka.source=${SOURCE}

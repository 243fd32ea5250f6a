"""Print a broker's topic names, one a line: what ``kafka-topics.sh --list`` does, for the suites' fixtures.

::

    python compat_tests/upstream/topic_names.py --bootstrap-server HOST:PORT [--command-config FILE]

kafka-python's SASL tests call ``KafkaFixture.get_topic_names()``, which runs Kafka's ``kafka-topics.sh
--list`` with the fixture's client properties. Its override runs this instead, with the project's Python:
one Metadata request for every topic over the same listener, authenticated the same way
(:class:`rockafka.wire_client.WireClient`), independent of the client under test. Exit code 0, or 2 with one
line on stderr when the broker cannot be reached or refuses the login.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rockafka.facade.config import read_properties
from rockafka.facade.protocol.messages.metadata import MetadataRequest, MetadataResponse
from rockafka.wire_client import WireClient, WireClientError

METADATA_VERSION = 12


def topic_names(bootstrap: str, properties: dict[str, str]) -> list[str]:
    with WireClient(bootstrap, properties, client_id="topic-names") as client:
        answer = client.request(MetadataRequest(topics=None), METADATA_VERSION, MetadataResponse)
    return sorted(topic.name for topic in answer.topics if topic.name is not None and topic.error_code == 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bootstrap-server", required=True)
    parser.add_argument("--command-config", type=Path)
    options = parser.parse_args(argv)
    properties = {}
    if options.command_config is not None:
        properties = dict(read_properties(options.command_config.read_text(encoding="utf-8")))
    try:
        names = topic_names(options.bootstrap_server, properties)
    except WireClientError as exc:
        print(f"topic_names: {exc}", file=sys.stderr)
        return 2
    print("\n".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())

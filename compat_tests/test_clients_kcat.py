"""kcat (Debian, librdkafka 2.0.2) against a live broker: every acks and codec, start positions.

Skipped, with the reason shown, where kcat is not installed (``make compat-deps`` installs it as root).
"""

from __future__ import annotations

import pytest

from .brokerproc import BrokerProcess
from .clients.driver import CODECS
from .clients.fixtures import module_broker
from .clients.kcat_driver import KcatDriver, kcat_missing
from .clients.scenarios import check_roundtrip, check_start_positions

if (_missing := kcat_missing()) is not None:
    pytest.skip(_missing, allow_module_level=True)

broker = module_broker()
DRIVER = KcatDriver()


@pytest.mark.parametrize("acks", [0, 1, -1])
@pytest.mark.parametrize("codec", CODECS)
def test_produce_and_consume_every_byte(broker: BrokerProcess, codec: str, acks: int) -> None:
    check_roundtrip(DRIVER, broker.bootstrap, acks=acks, codec=codec)  # type: ignore[arg-type]


def test_start_positions(broker: BrokerProcess) -> None:
    check_start_positions(DRIVER, broker.bootstrap)


def test_metadata_listing(broker: BrokerProcess) -> None:
    """``kcat -L``: the broker as the advertised 127.0.0.1 listener, and a topic after it is produced to."""
    DRIVER.run(["-P", "-b", broker.bootstrap, "-t", "kcat-listed"], b"one\n")
    listing = DRIVER.run(["-L", "-b", broker.bootstrap, "-t", "kcat-listed"]).decode()
    assert f"broker 0 at {broker.bootstrap} (controller)" in listing
    assert 'topic "kcat-listed" with 1 partitions:' in listing

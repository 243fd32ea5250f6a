"""``rockafka probe``: exit 0 when a broker answers ApiVersions, 1 when none does, 2 for a bad setting."""

from __future__ import annotations

import pytest

from rockafka.cli import main
from rockafka.testing import Broker, _free_port


def test_a_running_broker_answers_by_address_and_by_the_settings_serve_would_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with Broker() as broker:
        assert main(["probe", "--bootstrap-server", broker.bootstrap]) == 0
        monkeypatch.setenv("KAFKA_LISTENERS", f"PLAINTEXT://0.0.0.0:{broker.port}")  # a wildcard: probed on loopback
        assert main(["probe", "--kafka-env"]) == 0


def test_no_broker_is_exit_1_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--bootstrap-server", f"127.0.0.1:{_free_port()}"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rockafka probe: 127.0.0.1:") and err.count("\n") == 1


def test_a_bad_setting_is_exit_2_and_tls_only_listeners_need_an_address(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["probe", "--override", "num.partitions=many"]) == 2
    assert main(["probe", "--override", "listeners=SSL://127.0.0.1:19093"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "num.partitions" in err[0] and "--bootstrap-server" in err[1]

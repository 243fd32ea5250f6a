"""``python -m rockafka.testing_server --faults-socket PATH [--override KEY=VALUE ...]``: a test-mode broker.

``rockafka serve`` plus the fault channel of :mod:`rockafka.testing_faults` on the Unix socket ``PATH``:
what ``rockafka.testing.Broker(subprocess=True, faults=True)`` starts. It is not a ``rockafka`` command,
so a production start cannot open the channel by mistake. Settings come only from ``--override``
(environment variables are ignored, as for every test broker). Output, exit codes and shutdown (SIGTERM,
SIGINT) are ``rockafka serve``'s; the socket file is removed at exit.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from rockafka import logsetup
from rockafka.facade.app import BrokerApp, StartupError, wait_for_stop_signal
from rockafka.facade.config import ConfigError, load_broker_config
from rockafka.serve_cli import exit_after_clean_stop, run_event_loop
from rockafka.store import StoreError

from .testing_faults import open_fault_channel


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rockafka.testing_server", description=__doc__)
    parser.add_argument("--faults-socket", type=Path, required=True, help="the fault channel's Unix socket")
    parser.add_argument("--override", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    args = parser.parse_args(argv)
    logsetup.configure(args.log_level, "text")
    try:
        config = load_broker_config(None, args.override, {})
    except ConfigError as exc:
        print(f"rockafka test broker: {exc}", file=sys.stderr)
        return 2
    app = BrokerApp(config, fault_injection=True)
    try:
        run_event_loop(_serve(app, args.faults_socket))
    except (StartupError, StoreError) as exc:
        print(f"rockafka test broker: {exc}", file=sys.stderr)
        return 1
    exit_after_clean_stop()


async def _serve(app: BrokerApp, socket_path: Path) -> None:
    await app.start()
    assert app.faults is not None
    channel = await open_fault_channel(app.faults, socket_path)
    try:
        await wait_for_stop_signal()
    finally:
        channel.close()
        with contextlib.suppress(OSError):
            socket_path.unlink()
        await app.stop()


if __name__ == "__main__":
    sys.exit(main())

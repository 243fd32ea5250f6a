"""Run aiokafka's and kafka-python's own broker tests against a fresh Rockafka, one suite after the other.

::

    python -m compat_tests.upstream.run --aiokafka-src ../upstream-src/aiokafka \\
        --kafka-python-src ../upstream-src/kafka-python --workdir ../upstream-work

The sources are local checkouts of aio-libs/aiokafka at tag v0.14.0 and dpkp/kafka-python at branch
3.0 (its tests equal kafka-python 3.0.12's); they are never copied into this project. For each suite
the runner copies only the tests into ``<workdir>/<suite>/src``, installs the client release from
PyPI into ``<workdir>/venv-<suite>`` (kept between runs), starts a Rockafka subprocess on a fresh
data directory with the listeners (PLAINTEXT, SSL, SASL), certificates, users and settings the suite's
own fixture would give Kafka (:mod:`.suites`, :mod:`.security`), applies the external-broker overrides,
runs pytest with a per-test timeout under an overall bound, and
writes ``junit.xml``, ``pytest.log``, ``broker.log`` and ``summary.md`` into ``<workdir>/<suite>``,
plus ``<workdir>/summary.md`` for the whole run. ``--security-only`` runs only the TLS and SASL
tests. ``--cluster N`` runs each suite against a cluster of N broker groups instead (a local etcd and N
brokers, :mod:`.cluster`), in ``<workdir>/<suite>-clusterN``, summed up in ``<workdir>/summary-clusterN.md``;
``--replicas R`` gives each group R members (alone: one group), in ``<suite>-clusterNxR`` and
``summary-clusterNxR.md``, and kafka-python's fixture creates its topics at replication factor R (aiokafka's
are auto-created, on a group of R members).
Run it with the project's venv (it starts the broker and the ``rockafka`` CLI with it).
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from . import security, summary
from .cluster import SuiteBrokers
from .suites import AIOKAFKA, KAFKA_PYTHON, SUITES, Suite, broker_settings, pytest_args

HERE = Path(__file__).resolve().parent
BROKER_HOST = "127.0.0.1"
#: ``--kafka-version`` value that asks kafka-python's client which version it infers for the broker.
INFER = "infer"

INFER_VERSION = """
import sys
from kafka.net.compat import KafkaNetClient
client = KafkaNetClient(bootstrap_servers=sys.argv[1])
try:
    print(".".join(map(str, client.check_version(timeout_ms=10000))))
finally:
    client.close()
"""


def free_port() -> int:
    """A free port on the broker host, so the broker's settings can name its address before it starts."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((BROKER_HOST, 0))
        return int(probe.getsockname()[1])


def ensure_venv(workdir: Path, suite: Suite) -> Path:
    """``<workdir>/venv-<suite>`` with the suite's requirements; rebuilt only when they change."""
    venv = workdir / f"venv-{suite.name}"
    python = venv / "bin" / "python"
    stamp = venv / "requirements.txt"
    wanted = "\n".join(suite.requirements) + "\n"
    if python.exists() and stamp.exists() and stamp.read_text() == wanted:
        return python
    shutil.rmtree(venv, ignore_errors=True)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *suite.requirements], check=True)
    stamp.write_text(wanted)
    return python


def copy_sources(source: Path, suite: Suite, scratch: Path) -> None:
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    for name in suite.copied:
        origin = source / name
        if not origin.exists():
            raise SystemExit(f"{origin} is missing: is {source} a checkout of the {suite.name} repository?")
        if origin.is_dir():
            shutil.copytree(origin, scratch / name)
        else:
            shutil.copy2(origin, scratch / name)


def append_overrides(conftest: Path, *modules: str) -> None:
    """Append our override modules to the scratch copy's conftest (later definitions replace upstream's)."""
    with conftest.open("a") as out:
        for module in modules:
            out.write(f"\n\n# ---- Rockafka external-broker overrides (compat_tests/upstream/{module}) ----\n")
            out.write((HERE / module).read_text())


def prepare_aiokafka(scratch: Path) -> None:
    """Append the fixture overrides and make the TLS certificates with the suite's gen-ssl-certs.sh."""
    append_overrides(scratch / "tests" / "conftest.py", "aiokafka_overrides.py", "aiokafka_security_overrides.py")
    certs = scratch / "tests" / "ssl_cert"
    certs.mkdir()
    with (scratch / "gen-ssl-certs.log").open("wb") as log:
        subprocess.run(["bash", "../../gen-ssl-certs.sh"], cwd=certs, stdout=log, stderr=subprocess.STDOUT, check=True)


def suite_env(
    suite: Suite,
    python: Path,
    bootstrap: str,
    scratch: Path,
    kafka_version: str,
    secure: dict[str, str],
    replicas: int = 1,
) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH") and not k.startswith("KAFKA_")}
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(secure)
    env["ROCKAFKA_REPLICAS"] = str(replicas)
    if suite is AIOKAFKA:
        env["ROCKAFKA_BOOTSTRAP"] = bootstrap
        return env
    if kafka_version == INFER:
        inferred = subprocess.run(
            [str(python), "-c", INFER_VERSION, bootstrap], capture_output=True, text=True, timeout=60, check=True
        )
        kafka_version = inferred.stdout.strip()
    empty_root = scratch.parent / "empty-kafka-root"
    empty_root.mkdir(exist_ok=True)
    env.update(KAFKA_URI=f"tcp://{bootstrap}", KAFKA_VERSION=kafka_version, KAFKA_ROOT=str(empty_root))
    return env


def run_pytest(python: Path, args: list[str], cwd: Path, env: dict[str, str], log: Path, bound_s: int) -> str:
    """Run pytest in its own process group; on overrunning ``bound_s`` kill that group. Returns how it ended."""
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(python), "-m", "pytest", *args],
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            return f"exit code {process.wait(bound_s)}"
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return f"killed after the overall bound of {bound_s} s"


def final_line(log: Path) -> str:
    lines = [line for line in log.read_text(errors="replace").splitlines() if line.startswith("=") and " in " in line]
    return lines[-1].strip("= ") if lines else "(no pytest summary line)"


def write_summary(base: Path, header: list[str], junit: Path) -> str:
    """``<base>/summary.md``: the run's ``header`` lines, then a table per test file from ``junit`` (if pytest wrote
    it) and the tests that did not pass; returns the text."""
    body = ["(no junit XML: see pytest.log)"]
    if junit.exists():
        cases = summary.read_cases(junit)
        body = [summary.markdown_table(summary.per_file(cases)), "", *summary.not_passed(cases)]
    text = "\n".join(header + body) + "\n"
    (base / "summary.md").write_text(text)
    return text


def run_aiokafka_in_docker(
    source: Path, workdir: Path, image: str, per_test_timeout_s: int, security_only: bool
) -> str:
    """aiokafka's suite with its own conftest untouched: its docker fixture starts ``image`` (no pull) through
    the engine at ``$DOCKER_HOST``, generates the TLS files in a container of it, and docker-execs the image's
    kafka-acls.sh/kafka-configs.sh. Only the image name and the pull policy differ from upstream's CI."""
    suite = AIOKAFKA
    base = workdir / f"{suite.name}-docker"
    scratch = base / "src"
    copy_sources(source, suite, scratch)
    # the class fixture kerberos_utils makes a keytab with the host's ktutil (krb5-user) under this krb5.conf
    shutil.copytree(source / "docker" / "scripts", scratch / "docker" / "scripts")
    python = ensure_venv(workdir, suite)
    junit, log = base / "junit.xml", base / "pytest.log"
    junit.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH") and not k.startswith("KAFKA_")}
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    args = pytest_args(suite, junit, per_test_timeout_s, security_only)
    args[args.index("--docker-image") + 1] = image
    started, started_at = time.monotonic(), datetime.datetime.now(datetime.UTC)
    ended = run_pytest(python, args, scratch, env, log, suite.overall_timeout_s)
    header = [
        f"## {suite.name} through its own docker fixture",
        "",
        f"- started: {started_at:%Y-%m-%d %H:%M} UTC; {time.monotonic() - started:.0f} s; pytest {ended}",
        f"- requirements: {' '.join(suite.requirements)}",
        f"- image: {image} (--no-pull), engine {env.get('DOCKER_HOST', '(default)')}; tests/conftest.py unchanged",
        f"- selection: {'TLS and SASL tests only (--security-only)' if security_only else 'every broker test'}",
        f"- pytest: {final_line(log)}",
        "",
    ]
    return write_summary(base, header, junit)


def run_suite(
    suite: Suite,
    source: Path,
    workdir: Path,
    per_test_timeout_s: int,
    kafka_version: str | None,
    security_only: bool,
    cluster_groups: int = 0,
    replicas: int = 1,
) -> str:
    base = workdir / (suite.name if not cluster_groups else f"{suite.name}-{cluster_tag(cluster_groups, replicas)}")
    scratch = base / "src"
    copy_sources(source, suite, scratch)
    python = ensure_venv(workdir, suite)
    if suite is AIOKAFKA:
        prepare_aiokafka(scratch)
    else:
        append_overrides(scratch / "test" / "integration" / "conftest.py", "kafka_python_overrides.py")
    certs = security.prepare_certificates(suite, scratch)
    for stale in ("broker", *(f"broker-{index}" for index in range(cluster_groups * replicas)), "etcd"):
        shutil.rmtree(base / stale, ignore_errors=True)
    junit, log = base / "junit.xml", base / "pytest.log"
    junit.unlink(missing_ok=True)
    brokers = SuiteBrokers(
        suite,
        base,
        cluster_groups,
        lambda _node, port, ports: broker_settings(suite, BROKER_HOST, port, ports, certs),
        free_port,
        replicas,
    )
    admin = security.admin_config(suite, base / "admin.properties")
    secure = security.environment(suite, BROKER_HOST, brokers.ports[0], certs, admin)
    started, started_at = time.monotonic(), datetime.datetime.now(datetime.UTC)
    try:
        brokers.start()
        version = kafka_version or suite.kafka_version or INFER
        env = suite_env(suite, python, brokers.first.bootstrap, scratch, version, secure, replicas)
        args = pytest_args(suite, junit, per_test_timeout_s, security_only)
        ended = run_pytest(python, args, scratch, env, log, suite.overall_timeout_s)
    finally:
        brokers.stop()
    elapsed = time.monotonic() - started
    settings = brokers.settings[0]
    shown = {key: value for key, value in settings.items() if "jaas" not in key and "password" not in key}
    header = [
        f"## {suite.name}" + (f" against {cluster_label(cluster_groups, replicas)}" if cluster_groups else ""),
        "",
        f"- started: {started_at:%Y-%m-%d %H:%M} UTC; {elapsed:.0f} s; pytest {ended}",
        f"- requirements: {' '.join(suite.requirements)}",
        f"- brokers: {brokers.describe()}",
        f"- broker settings: {', '.join(f'{k}={v}' for k, v in shown.items())}",
        f"- selection: {'TLS and SASL tests only (--security-only)' if security_only else 'every broker test'}",
        f"- KAFKA_VERSION: {env.get('KAFKA_VERSION', '-')}; per-test timeout {per_test_timeout_s} s",
        f"- pytest: {final_line(log)}",
        "",
    ]
    return write_summary(base, header, junit)


def cluster_tag(groups: int, replicas: int) -> str:
    """``clusterN`` (N one-broker groups) or ``clusterNxR`` (N groups of R members): directory and summary names."""
    return f"cluster{groups}" if replicas == 1 else f"cluster{groups}x{replicas}"


def cluster_label(groups: int, replicas: int) -> str:
    members = f" of {replicas} members each (topics at replication factor {replicas})" if replicas > 1 else ""
    return f"a {groups}-group cluster{members}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aiokafka-src", type=Path, help="checkout of aio-libs/aiokafka at v0.14.0")
    parser.add_argument("--kafka-python-src", type=Path, help="checkout of dpkp/kafka-python at branch 3.0")
    parser.add_argument("--workdir", type=Path, required=True, help="scratch directory (outside the project)")
    parser.add_argument("--suite", choices=sorted(SUITES), action="append", help="run only these (default: both)")
    parser.add_argument("--per-test-timeout", type=int, default=60)
    parser.add_argument(
        "--kafka-version",
        help=f"kafka-python's KAFKA_VERSION (default {KAFKA_PYTHON.kafka_version}; {INFER!r}: what its client infers)",
    )
    parser.add_argument("--security-only", action="store_true", help="run only the TLS and SASL tests")
    parser.add_argument(
        "--cluster",
        type=int,
        default=0,
        metavar="N",
        help="run against a cluster of N broker groups (a local etcd and N brokers) instead of one broker",
    )
    parser.add_argument(
        "--replicas",
        type=int,
        default=1,
        metavar="R",
        help="members of each broker group (R > 1 without --cluster: one group of R); topics at replication factor R",
    )
    parser.add_argument(
        "--aiokafka-docker",
        metavar="IMAGE",
        help="run aiokafka's suite through its own docker fixture with this image (e.g. rockafka:aiokafka_2.8.1)",
    )
    options = parser.parse_args(argv)
    sources = {AIOKAFKA.name: options.aiokafka_src, KAFKA_PYTHON.name: options.kafka_python_src}
    chosen = [SUITES[name] for name in options.suite] if options.suite else [AIOKAFKA, KAFKA_PYTHON]
    missing = [suite.name for suite in chosen if sources[suite.name] is None]
    if missing:
        parser.error(f"no source checkout given for {', '.join(missing)}")
    if not 0 <= options.cluster <= 16:
        parser.error("--cluster must be between 1 and 16 (0: one broker)")
    if not 1 <= options.replicas <= 5:
        parser.error("--replicas must be between 1 and 5")
    if options.replicas > 1 and not options.cluster:
        options.cluster = 1
    if options.cluster and options.aiokafka_docker:
        parser.error("--cluster and --aiokafka-docker exclude each other (the docker fixture starts its own broker)")
    workdir = options.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    texts = []
    for suite in chosen:
        source = sources[suite.name].resolve()
        if suite is AIOKAFKA and options.aiokafka_docker:
            text = run_aiokafka_in_docker(
                source, workdir, options.aiokafka_docker, options.per_test_timeout, options.security_only
            )
            print(text, flush=True)
            texts.append(text)
            continue
        text = run_suite(
            suite,
            source,
            workdir,
            options.per_test_timeout,
            options.kafka_version,
            options.security_only,
            options.cluster,
            options.replicas,
        )
        print(text, flush=True)
        texts.append(text)
    target = f"Rockafka, {cluster_label(options.cluster, options.replicas)}" if options.cluster else "Rockafka"
    name = f"summary-{cluster_tag(options.cluster, options.replicas)}.md" if options.cluster else "summary.md"
    (workdir / name).write_text(f"# Upstream suites against {target}\n\n" + "\n".join(texts))
    return 0


if __name__ == "__main__":
    sys.exit(main())

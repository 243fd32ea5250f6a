"""The Docker engine and the ``rockafka`` image that the container tests use, made ready by the tests themselves.

:func:`engine` starts this checkout's own engine with ``image/dockerd.sh start`` unless one already answers
at ``$DOCKER_HOST`` (then it is used and left running), and :meth:`Engine.close` stops only an engine it
started, by the PID the script recorded. :func:`build_image` runs ``image/build.sh`` (``make image``),
which reuses its cached Debian base, and :func:`build_etcd_image` runs ``image/build-etcd.sh`` (``make
image-etcd``, the compose cluster's etcd on the same base). Where no engine can be started (not root, no
``dockerd``), the tests fail with the script's one-line reason: a run without the image is never green.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCKERD = ROOT / "image" / "dockerd.sh"
BUILD = ROOT / "image" / "build.sh"
BUILD_ETCD = ROOT / "image" / "build-etcd.sh"
ENGINE_TIMEOUT_S = 120
BUILD_TIMEOUT_S = 1800


class EngineError(Exception):
    """No Docker engine could be started, or the image could not be built: one line, the reason."""


@dataclass
class Engine:
    docker_host: str
    started_here: bool

    def close(self) -> None:
        if self.started_here:
            subprocess.run([str(DOCKERD), "stop"], check=False, timeout=ENGINE_TIMEOUT_S)


def _answers(docker_host: str) -> bool:
    env = {**os.environ, "DOCKER_HOST": docker_host}
    try:
        probe = subprocess.run(["docker", "version"], env=env, capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def engine() -> Engine:
    """An answering engine: the one at ``$DOCKER_HOST`` if set and answering, else one started here."""
    existing = os.environ.get("DOCKER_HOST")
    if existing and _answers(existing):
        return Engine(existing, started_here=False)
    own = f"unix://{ROOT / 'build' / 'docker' / 'docker.sock'}"
    already = _answers(own)
    started = subprocess.run([str(DOCKERD), "start"], capture_output=True, text=True, timeout=ENGINE_TIMEOUT_S)
    if started.returncode != 0:
        reason = (started.stderr.strip().splitlines() or ["image/dockerd.sh start failed"])[-1]
        raise EngineError(f"the container tests need a Docker engine and none could be started: {reason}")
    match = re.search(r"DOCKER_HOST=(\S+)", started.stdout)
    return Engine(match.group(1) if match else own, started_here=not already)


def build_image(docker_host: str) -> str:
    """Build (or refresh) ``rockafka:latest`` with ``image/build.sh``; the tag built."""
    _run_build(BUILD, "make image", docker_host)
    return "rockafka:latest"


def build_etcd_image(docker_host: str) -> str:
    """Build (or refresh) ``rockafka-etcd:latest``, the compose cluster's etcd, with ``image/build-etcd.sh``."""
    _run_build(BUILD_ETCD, "make image-etcd", docker_host)
    return "rockafka-etcd:latest"


def _run_build(script: Path, target: str, docker_host: str) -> None:
    env = {**os.environ, "DOCKER_HOST": docker_host, "PY": sys.executable}
    built = subprocess.run([str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    if built.returncode != 0:
        tail = "\n".join((built.stdout + built.stderr).strip().splitlines()[-15:])
        raise EngineError(f"{target} failed:\n{tail}")
    sys.stderr.write(built.stdout)

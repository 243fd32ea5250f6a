"""The TLS and SASL side of an upstream-suite broker: certificates, listener ports, SCRAM users, admin login.

Each suite's own broker fixture gives Kafka more listeners than PLAINTEXT (:mod:`.suites` lists them and
the settings for them). This module makes what those settings point at, at run time and in the suite's
scratch directory, never in the project:

- **certificates.** aiokafka's come from its own ``gen-ssl-certs.sh`` (run by the runner into
  ``tests/ssl_cert``); its broker keystore ``br_server.keystore.jks`` holds ``server.key`` and
  ``server.crt``, so the PEM keystore Rockafka reads is those two files concatenated. kafka-python's
  fixture (``gen_ssl_resources``) makes a CA ``ca-cert`` and a server certificate for ``localhost``
  signed by it; the same is made here with the openssl command line (an EC key, encrypted with the
  fixture's store password as its JKS key is).
- **SCRAM users** the fixture creates before the broker starts (kafka-python: ``kafka-storage.sh format
  --add-scram``) are added with ``rockafka users add`` on the data directory.
- **the admin login** the suite's ACL and user helpers use: a client properties file for the ``rockafka``
  CLI's ``--command-config``, as the super user, over the first SASL_PLAINTEXT listener.
- **the environment** the fixture overrides read: ``ROCKAFKA_LISTENERS`` (JSON: listener name ->
  ``host:port``), ``ROCKAFKA_SSL_DIR``, ``ROCKAFKA_CLI`` and ``ROCKAFKA_TOPIC_NAMES`` (JSON argument
  lists running the project's ``rockafka`` CLI and :mod:`.topic_names` with the project's Python),
  ``ROCKAFKA_ADMIN_BOOTSTRAP`` and ``ROCKAFKA_ADMIN_CONFIG``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .suites import Suite

HERE = Path(__file__).resolve().parent
#: The server certificate's validity, in days (a run takes minutes).
CERT_DAYS = "3"


class SecuritySetupError(Exception):
    """A certificate, user or login for the suite's broker could not be made."""


def _openssl(*args: str, cwd: Path) -> None:
    done = subprocess.run(["openssl", *args], cwd=cwd, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise SecuritySetupError(f"openssl {args[0]} failed: {done.stderr.strip()}")


def aiokafka_keystore(certs: Path) -> None:
    """``server.keystore.pem`` beside gen-ssl-certs.sh's output: the key and certificate of its JKS keystore."""
    keystore = certs / "server.keystore.pem"
    keystore.write_text((certs / "server.key").read_text() + (certs / "server.crt").read_text())
    keystore.chmod(0o600)


def kafka_python_certificates(certs: Path, key_password: str) -> None:
    """gen_ssl_resources' layout: ``ca-cert`` (the CA clients trust) and the server's PEM keystore."""
    certs.mkdir(parents=True, exist_ok=True)
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-days", CERT_DAYS, "-keyout", "ca-key", "-out", "ca-cert",
             "-subj", "/C=US/ST=CA/O=MyOrg, Inc./CN=mydomain.com",
             "-addext", "keyUsage=critical,keyCertSign,cRLSign", cwd=certs)  # fmt: skip
    _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", "server.key", "-out", "server.csr",
             "-subj", "/C=US/ST=CA/L=SF/O=kafka-python/OU=kafka-python/CN=localhost", cwd=certs)  # fmt: skip
    (certs / "server.ext").write_text("subjectAltName=DNS:localhost\n")
    _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca-cert", "-CAkey", "ca-key", "-CAcreateserial",
             "-out", "cert-signed", "-days", CERT_DAYS, "-extfile", "server.ext", cwd=certs)  # fmt: skip
    _openssl("pkey", "-in", "server.key", "-aes256", "-passout", f"pass:{key_password}", "-out", "server.enc.key",
             cwd=certs)  # fmt: skip
    keystore = certs / "server.keystore.pem"
    keystore.write_text("".join((certs / name).read_text() for name in ("server.enc.key", "cert-signed", "ca-cert")))
    for secret in ("ca-key", "server.key", "server.enc.key", "server.keystore.pem"):
        (certs / secret).chmod(0o600)


def add_scram_users(suite: Suite, data_dir: Path, workdir: Path) -> None:
    """The suite's SCRAM users (both mechanisms), written offline into the broker's data directory."""
    for user, password in suite.scram_users:
        done = subprocess.run(
            [*rockafka_cli(), "users", "add", user, "--data-dir", str(data_dir)],
            input=password + "\n",
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            cwd=workdir,
        )
        if done.returncode != 0:
            raise SecuritySetupError(f"rockafka users add {user}: {done.stderr.strip()}")


def rockafka_cli() -> list[str]:
    return [sys.executable, "-m", "rockafka"]


def jaas_login(mechanism: str, user: str, password: str) -> str:
    """A client's ``sasl.jaas.config`` for PLAIN or SCRAM."""
    module = "plain.PlainLoginModule" if mechanism == "PLAIN" else "scram.ScramLoginModule"
    return f'org.apache.kafka.common.security.{module} required username="{user}" password="{password}";'


def admin_config(suite: Suite, path: Path) -> Path | None:
    """The super user's client properties for ``rockafka acls``/``users`` (None: the suite has no admin)."""
    if suite.admin_login is None:
        return None
    mechanism, user, password = suite.admin_login
    login = jaas_login(mechanism, user, password)
    path.write_text(f"security.protocol=SASL_PLAINTEXT\nsasl.mechanism={mechanism}\nsasl.jaas.config={login}\n")
    path.chmod(0o600)
    return path


def environment(
    suite: Suite, host: str, ports: dict[str, int], certs: Path, admin_properties: Path | None
) -> dict[str, str]:
    """What the fixture overrides read to find the listeners, the certificates and the admin tools."""
    env = {
        "ROCKAFKA_LISTENERS": json.dumps({name: f"{host}:{port}" for name, port in ports.items()}),
        "ROCKAFKA_SSL_DIR": str(certs),
        "ROCKAFKA_CLI": json.dumps(rockafka_cli()),
        "ROCKAFKA_TOPIC_NAMES": json.dumps([sys.executable, str(HERE / "topic_names.py")]),
    }
    sasl = [name for name, protocol in suite.listeners if protocol == "SASL_PLAINTEXT"]
    if admin_properties is not None and sasl:
        env["ROCKAFKA_ADMIN_BOOTSTRAP"] = f"{host}:{ports[sasl[0]]}"
        env["ROCKAFKA_ADMIN_CONFIG"] = str(admin_properties)
    return env


def prepare_certificates(suite: Suite, scratch: Path) -> Path:
    """The suite's TLS files (see the module docstring); returns their directory."""
    if suite.name == "aiokafka":
        certs = scratch / "tests" / "ssl_cert"  # made by the runner with the suite's gen-ssl-certs.sh
        aiokafka_keystore(certs)
        return certs
    certs = scratch.parent / "ssl"
    kafka_python_certificates(certs, dict(suite.broker_settings)["ssl.key.password"])
    return certs

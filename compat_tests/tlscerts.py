"""Test certificates, made at test time with the openssl command line (no key is ever committed).

One CA signs the broker's certificate (for 127.0.0.1 and localhost, its key encrypted with a password and
kept with the chain in one PEM "keystore" file, Kafka's PEM keystore form), a client certificate, and an
expired client certificate (valid for one day in 2020). A second, unrelated CA signs an untrusted client
certificate. EC P-256 keys: fast to make.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

KEY_PASSWORD = "keystore-secret"
CLIENT_SUBJECT = "/C=US/O=Rockafka/OU=Test/CN=client"
#: Kafka's default principal for CLIENT_SUBJECT (RFC 2253: most specific first).
CLIENT_PRINCIPAL = "User:CN=client,OU=Test,O=Rockafka,C=US"
_CA_CONFIG = """[ ca ]
default_ca = test
[ test ]
database = {dir}/index.txt
new_certs_dir = {dir}
serial = {dir}/serial
default_md = sha256
policy = anything
copy_extensions = none
[ anything ]
commonName = supplied
countryName = optional
organizationName = optional
organizationalUnitName = optional
"""


@dataclass(frozen=True, slots=True)
class ClientCert:
    cert: Path
    key: Path


@dataclass(frozen=True, slots=True)
class TestPki:
    ca: Path
    server_keystore: Path
    server_cert: Path
    server_key: Path
    client: ClientCert
    untrusted: ClientCert
    expired: ClientCert


def _run(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _key_and_csr(cwd: Path, name: str, subject: str) -> None:
    _run("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject, cwd=cwd)  # fmt: skip


def _self_signed_ca(cwd: Path, name: str, subject: str) -> None:
    _run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "3",
         "-keyout", f"{name}.key", "-out", f"{name}.pem", "-subj", subject, cwd=cwd)  # fmt: skip


def _sign(cwd: Path, name: str, ca: str, extensions: str | None = None) -> None:
    args = ["x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key", "-CAcreateserial",
            "-out", f"{name}.pem", "-days", "3"]  # fmt: skip
    if extensions is not None:
        (cwd / f"{name}.ext").write_text(extensions)
        args += ["-extfile", f"{name}.ext"]
    _run(*args, cwd=cwd)


def make_pki(directory: Path) -> TestPki:
    """Make every certificate in ``directory`` (skips the test when there is no openssl command)."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command line is needed to make test certificates")
    directory.mkdir(parents=True, exist_ok=True)
    _self_signed_ca(directory, "ca", "/CN=Rockafka Test CA")
    _self_signed_ca(directory, "other-ca", "/CN=Someone Else's CA")
    _key_and_csr(directory, "server", "/CN=localhost")
    _sign(directory, "server", "ca", "subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    _run("pkey", "-in", "server.key", "-aes256", "-passout", f"pass:{KEY_PASSWORD}", "-out", "server.enc.key",
         cwd=directory)  # fmt: skip
    keystore = directory / "server.keystore.pem"
    keystore.write_text("".join((directory / n).read_text() for n in ("server.enc.key", "server.pem", "ca.pem")))
    _key_and_csr(directory, "client", CLIENT_SUBJECT)
    _sign(directory, "client", "ca")
    _key_and_csr(directory, "untrusted", "/CN=untrusted")
    _sign(directory, "untrusted", "other-ca")
    _key_and_csr(directory, "expired", "/CN=expired")
    (directory / "index.txt").write_text("")
    (directory / "serial").write_text("1000\n")
    (directory / "ca.cnf").write_text(_CA_CONFIG.format(dir=directory))
    _run("ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", "expired.csr",
         "-out", "expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200102000000Z", "-notext",
         cwd=directory)  # fmt: skip
    return TestPki(
        ca=directory / "ca.pem",
        server_keystore=keystore,
        server_cert=directory / "server.pem",
        server_key=directory / "server.key",
        client=ClientCert(directory / "client.pem", directory / "client.key"),
        untrusted=ClientCert(directory / "untrusted.pem", directory / "untrusted.key"),
        expired=ClientCert(directory / "expired.pem", directory / "expired.key"),
    )

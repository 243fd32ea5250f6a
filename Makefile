# Rockafka: every target sets itself up on a fresh machine (Python 3.11+, gcc, make).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip --disable-pip-version-check -q
SPECS ?= ../shared/kafka-message-specs
PYTEST_ARGS ?=
PROPERTIES ?=

.PHONY: all venv install compile debug test test-pure lint gen-protocol check-generated serve bench clean compat-deps kcat etcd go-clients image image-etcd docker-compose prometheus chromium quix-venv

all: compile

$(VENV)/.stamp-venv:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -U pip setuptools wheel "Cython>=3.0"
	touch $@

$(VENV)/.stamp-install: $(VENV)/.stamp-venv pyproject.toml setup.py
	$(PIP) install -e ".[test,dev,spark,cluster]"
	touch $@

venv: $(VENV)/.stamp-venv
install: $(VENV)/.stamp-install

compile: install
	ROCKAFKA_REQUIRE_EXTENSIONS=1 $(PY) setup.py -q build_ext --inplace

debug: install
	ROCKAFKA_REQUIRE_EXTENSIONS=1 ROCKAFKA_DEBUG_BUILD=1 $(PY) setup.py -q build_ext --inplace --force
	@echo "annotated HTML: core_pyx/*.html"

# The generic codec (facade/protocol/messages) and the hot-message codec (core_pyx: its list is HOT_FILES in
# facade/protocol/codegen/hot.py), both from the specs.
GENERATED := facade/protocol/messages core_pyx/_hotmessages.py core_pyx/_hotcodec.pxd core_pyx/_hotcodec.pyx \
  core_pyx/_hotcodec.pyi core_pyx/_hotcodec_py.py core_pyx/hotcodec.py

gen-protocol: install
	$(PY) -m rockafka.facade.protocol.codegen --specs $(SPECS) --newer-specs facade/protocol/newer_specs \
	  --out facade/protocol/messages --hot-out core_pyx

check-generated: gen-protocol
	@git diff --exit-code --stat -- $(GENERATED) || \
	  (echo "generated protocol code is stale: run 'make gen-protocol' and commit" && exit 1)
	@test -z "$$(git status --porcelain -- $(GENERATED))" || \
	  (echo "untracked generated files: run 'make gen-protocol' and commit" && git status --porcelain -- $(GENERATED) && exit 1)

compat-deps: compat_tests/node/node_modules/.package-lock.json kcat go-clients prometheus chromium quix-venv

# quixstreams for compat_tests/test_quixstreams.py, in a venv of its own: it pins confluent-kafka below the
# version the other compat tests use (the test runs its application there, as a subprocess).
QUIX_VENV := compat_tests/quix/.venv
quix-venv: $(QUIX_VENV)/.stamp-quix
$(QUIX_VENV)/.stamp-quix: compat_tests/quix/requirements.txt
	$(PYTHON) -m venv $(QUIX_VENV)
	$(QUIX_VENV)/bin/python -m pip --disable-pip-version-check -q install -r compat_tests/quix/requirements.txt
	touch $@

compat_tests/node/node_modules/.package-lock.json: compat_tests/node/package-lock.json
	cd compat_tests/node && npm ci --no-audit --no-fund --loglevel=error

kcat:
	@command -v kcat >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kcat >/dev/null; \
	  else echo "NOTE: kcat is not installed and this is not root: the kcat compat tests will be skipped"; fi; }

# Debian's etcd for the cluster tests (rockafka.cluster.local_etcd runs it); `make serve` does not need it.
etcd:
	@command -v etcd >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq etcd-server >/dev/null; \
	  else echo "NOTE: etcd is not installed and this is not root: apt-get install etcd-server, or the cluster tests fail"; fi; }

# Old Go clients for compat_tests/test_clients_old_go.py: Go, sarama 1.22 and kafka-go 0.2.1 from Debian (built by the tests)
GO_CLIENT_PACKAGES := golang-go golang-github-shopify-sarama-dev golang-github-segmentio-kafka-go-dev
go-clients:
	@{ command -v go >/dev/null 2>&1 && test -d /usr/share/gocode/src/github.com/Shopify/sarama \
	   && test -d /usr/share/gocode/src/github.com/segmentio/kafka-go; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(GO_CLIENT_PACKAGES) >/dev/null; \
	  else echo "NOTE: Go and the old Go clients are not installed and this is not root: their compat tests will be skipped"; fi; }

# The container image rockafka:<version> and :latest (docs/container.md): a Debian base by debootstrap, cached in
# build/image-cache; a Docker engine at $$DOCKER_HOST, or this checkout's own started for the build (root).
image: install
	PY=$(PY) image/with-engine.sh image/build.sh

# rockafka-etcd:<etcd version> and :latest, the etcd of the compose cluster (image/compose): Debian's etcd on the C
# library of the same cached base (image/build-etcd.sh).
image-etcd:
	image/with-engine.sh image/build-etcd.sh

# Debian's docker-compose (1.29), which runs the compose cluster (image/compose) and its test in compat_tests/test_container.py.
docker-compose:
	@command -v docker-compose >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null; \
	  else echo "NOTE: docker-compose is not installed and this is not root: apt-get install docker-compose, or the compose test fails"; fi; }

# The Prometheus server that tests/facade/ops scrapes the broker with (Debian's package; the tests fail without it).
# Debian's Chromium and its driver, for the web console's browser tests (compat_tests/test_console_browser.py).
chromium:
	@{ command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null; \
	  else echo "NOTE: chromium is not installed and this is not root: apt-get install chromium chromium-driver, or the console browser tests fail"; fi; }

prometheus:
	@command -v prometheus >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null; \
	  else echo "NOTE: prometheus is not installed and this is not root: tests/facade/ops/test_prometheus_scrape.py will fail"; fi; }

# The clients' own upstream suites (local checkouts, never committed): see compat_tests/upstream/run.py
AIOKAFKA_SRC ?= ../upstream-src/aiokafka
KAFKA_PYTHON_SRC ?= ../upstream-src/kafka-python
UPSTREAM_WORK ?= ../upstream-work
UPSTREAM_ARGS ?=
# AIOKAFKA_DOCKER=1: aiokafka's suite through its own docker fixture, with the image (built first) instead of
# aiolibs/kafka, in the checkout's Docker engine (image/with-engine.sh); kafka-python's suite is not run then.
# Its fixture publishes ports (docker's ports=): the engine it starts gets a bridge of its own with this address
# (an engine already running at $DOCKER_HOST must have been started so: see image/dockerd.sh).
AIOKAFKA_DOCKER_IMAGE ?= rockafka:aiokafka_2.8.1
AIOKAFKA_DOCKER_BRIDGE ?= 172.31.250.1/24

# The host's ktutil and kinit, which aiokafka's SASL test class runs (its upstream CI installs krb5-user too).
krb5-user:
	@command -v ktutil >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends krb5-user >/dev/null; \
	  else echo "NOTE: ktutil is not installed and this is not root: apt-get install krb5-user"; exit 1; fi; }

.PHONY: compat-upstream
ifeq ($(AIOKAFKA_DOCKER),1)
compat-upstream: compile image krb5-user
	ROCKAFKA_DOCKER_BRIDGE=$(AIOKAFKA_DOCKER_BRIDGE) image/with-engine.sh $(PY) -m compat_tests.upstream.run --aiokafka-src $(AIOKAFKA_SRC) --suite aiokafka \
	  --aiokafka-docker $(AIOKAFKA_DOCKER_IMAGE) --workdir $(UPSTREAM_WORK) $(UPSTREAM_ARGS)
else
compat-upstream: compile
	$(PY) -m compat_tests.upstream.run --aiokafka-src $(AIOKAFKA_SRC) --kafka-python-src $(KAFKA_PYTHON_SRC) \
	  --workdir $(UPSTREAM_WORK) $(UPSTREAM_ARGS)
endif

test: compile compat-deps etcd docker-compose
	$(PY) -m pytest $(PYTEST_ARGS)

test-pure: install
	ROCKAFKA_NO_EXTENSIONS=1 $(PY) -m pytest tests $(PYTEST_ARGS)

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	rm -rf build/lint && $(PY) setup.py -q build_py -d build/lint
	cd build/lint && ../../$(PY) -m mypy -p rockafka
	cd build/lint && PYTHONPATH=. ../../$(VENV)/bin/lint-imports --config ../../pyproject.toml

serve: compile
	$(VENV)/bin/rockafka serve $(PROPERTIES)

bench: compile
	$(PIP) install -e ".[bench]"
	$(PY) -m bench $(BENCH_ARGS)

clean:
	image/dockerd.sh stop  # the checkout's own Docker engine keeps its data (and the image cache) under build/
	rm -rf build dist *.egg-info core_pyx/*.c core_pyx/*.so core_pyx/*.html

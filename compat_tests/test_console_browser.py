"""The web console in a real browser: headless Chromium from Debian (``make compat-deps`` installs it with its
driver) driven by Selenium, against live brokers holding data that real clients wrote.

Oracle: every page loads with no error in the browser's console and shows the values the test wrote (message
text, lag numbers, the live charts drawn); the key search finds the record; an offset reset made in the page
changes what a real consumer of the group reads next; on a broker with ACLs, a signed-in principal sees only the
topics its ACLs let it describe. Screenshots of each page are saved to ``build/console-screenshots/`` for a
person to look at (not committed).
"""

from __future__ import annotations

import base64
import http.client
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.structs import OffsetAndMetadata
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

from .brokerproc import BrokerProcess, free_port
from .security_setup import PASSWORDS, start_secure_broker

SCREENSHOTS = Path(__file__).resolve().parent.parent / "build" / "console-screenshots"
TOPIC = "web-orders"
GROUP = "web-readers"
RECORDS = 40
COMMITTED = 15
WAIT_S = 20


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver_path, "Debian's chromium and chromium-driver are needed: make compat-deps installs them"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BrokerProcess, int]]:
    http_port = free_port()
    settings = {"rockafka.http.listener": f"127.0.0.1:{http_port}", "rockafka.console.allow.changes": "true"}
    process = BrokerProcess(tmp_path_factory.mktemp("console-broker"), settings=settings).start()
    try:
        admin = KafkaAdminClient(bootstrap_servers=process.bootstrap)
        admin.create_topics([NewTopic(TOPIC, 1, 1)])
        admin.close()
        producer = KafkaProducer(bootstrap_servers=process.bootstrap)
        for n in range(RECORDS):
            producer.send(TOPIC, key=f"order-{n}".encode(), value=json.dumps({"order": n, "total": n * 3}).encode())
        producer.flush()
        producer.close()
        consumer = KafkaConsumer(bootstrap_servers=process.bootstrap, group_id=GROUP, enable_auto_commit=False)
        consumer.commit({TopicPartition(TOPIC, 0): OffsetAndMetadata(COMMITTED, "", -1)})
        consumer.close()
        yield process, http_port
    finally:
        process.stop()


def open_page(driver: WebDriver, port: int, fragment: str) -> None:
    driver.get(f"http://127.0.0.1:{port}/#/{fragment}")
    driver.refresh()  # a new hash on the same page is routed without a load: start each page afresh


def text_of(driver: WebDriver, selector: str, contains: str) -> str:
    """The text of ``selector`` once it contains ``contains`` (bounded wait)."""
    WebDriverWait(driver, WAIT_S).until(
        expected_conditions.text_to_be_present_in_element((By.CSS_SELECTOR, selector), contains)
    )
    return str(driver.find_element(By.CSS_SELECTOR, selector).text)


def shown(driver: WebDriver, element_id: str) -> WebElement:
    """The element ``element_id`` once the page's script has rendered it (bounded wait): the console draws each
    page after loading, so an element looked up right after ``refresh()`` may not be there yet."""
    return WebDriverWait(driver, WAIT_S).until(expected_conditions.visibility_of_element_located((By.ID, element_id)))


def errors_in_console(driver: WebDriver) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def shot(driver: WebDriver, name: str) -> None:
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def test_every_page_shows_what_the_clients_wrote(browser: WebDriver, broker: tuple[BrokerProcess, int]) -> None:
    _, port = broker
    open_page(browser, port, "overview")
    assert text_of(browser, "#brokers", "127.0.0.1")
    WebDriverWait(browser, WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chart-lag svg path[data-series]"))
    assert int(text_of(browser, "#card-lag", "")) >= RECORDS - COMMITTED
    shot(browser, "overview")

    open_page(browser, port, "topics")
    assert str(RECORDS) in text_of(browser, "#topics", TOPIC)
    shot(browser, "topics")

    open_page(browser, port, f"topic?name={TOPIC}")
    assert text_of(browser, "#partitions", str(RECORDS))
    assert "cleanup.policy" in text_of(browser, "#configs", "retention.ms")
    shot(browser, "topic")

    open_page(browser, port, f"messages?topic={TOPIC}&partition=0&order=oldest&format=json")
    assert '"total": 21' in text_of(browser, "#messages", "order-7").replace("\n", "")
    shot(browser, "messages")

    open_page(browser, port, f"groups?filter={GROUP}")
    row = text_of(browser, "#groups", GROUP)
    assert row.split()[-1] == str(RECORDS - COMMITTED)
    open_page(browser, port, f"group?id={GROUP}")
    assert text_of(browser, "#group-lag-table", str(RECORDS - COMMITTED))
    WebDriverWait(browser, WAIT_S).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#chart-group-lag svg path"))
    shot(browser, "group")

    open_page(browser, port, "store")
    assert text_of(browser, "#store-files", "commitlog/")
    shot(browser, "store")
    assert errors_in_console(browser) == []


def test_key_search_finds_the_record(browser: WebDriver, broker: tuple[BrokerProcess, int]) -> None:
    _, port = broker
    open_page(browser, port, "find")
    shown(browser, "find-topic").send_keys(TOPIC)
    shown(browser, "find-key").send_keys("order-33")
    shown(browser, "find-search").click()
    found = text_of(browser, "#found", "order-33")
    assert '"order": 33' in found.replace("\n", "") or "order-33" in found
    shot(browser, "find")
    assert errors_in_console(browser) == []


def test_an_offset_reset_in_the_page_moves_a_real_consumer(
    browser: WebDriver, broker: tuple[BrokerProcess, int]
) -> None:
    process, port = broker
    open_page(browser, port, f"group?id={GROUP}")
    text_of(browser, "#group-state", "Empty")
    Select(shown(browser, "reset-to")).select_by_value("offset")
    shown(browser, "reset-value").send_keys("5")
    shown(browser, "reset-offsets").click()
    assert "→5" in text_of(browser, "#reset-result", "reset")
    consumer = KafkaConsumer(
        bootstrap_servers=process.bootstrap, group_id=GROUP, enable_auto_commit=False, consumer_timeout_ms=10_000
    )
    try:
        consumer.assign([TopicPartition(TOPIC, 0)])
        assert next(iter(consumer)).offset == 5
    finally:
        consumer.close()
    assert errors_in_console(browser) == []


@pytest.fixture(scope="module")
def secure_console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A broker with ACLs (``security_setup``) and its console; topics ``sec-visible`` and ``hidden-payroll``."""
    http_port = free_port()
    secure = start_secure_broker(
        tmp_path_factory.mktemp("secure-console"), **{"rockafka.http.listener": f"127.0.0.1:{http_port}"}
    )
    try:
        admin = KafkaAdminClient(
            bootstrap_servers=secure.bootstrap("SASL_PLAINTEXT"),
            security_protocol="SASL_PLAINTEXT",
            sasl_mechanism="PLAIN",
            sasl_plain_username="admin",
            sasl_plain_password=PASSWORDS["admin"],
        )
        admin.create_topics([NewTopic("sec-visible", 1, 1), NewTopic("hidden-payroll", 1, 1)])
        admin.close()
        yield http_port
    finally:
        secure.process.stop()


def test_a_signed_in_principal_sees_only_its_topics(browser: WebDriver, secure_console: int) -> None:
    browser.get(f"http://127.0.0.1:{secure_console}/#/topics")
    browser.execute_script("sessionStorage.clear()")
    browser.refresh()
    sign_in(browser, "alice", "wrong-password")
    assert text_of(browser, "#signin-error", "wrong")
    sign_in(browser, "alice", PASSWORDS["alice"])
    listed = text_of(browser, "#topics", "sec-visible")
    assert "hidden-payroll" not in listed
    assert "User:alice" in browser.find_element(By.ID, "who").text
    shot(browser, "topics-alice")
    browser.execute_script("sessionStorage.clear()")
    browser.refresh()
    sign_in(browser, "admin", PASSWORDS["admin"])
    assert "sec-visible" in text_of(browser, "#topics", "hidden-payroll")
    errors = [e for e in errors_in_console(browser) if "401" not in e]  # the refused sign-in is logged as a 401
    assert errors == []


def api_as(port: int, path: str, user: str | None, password: str = "") -> tuple[int, dict[str, object]]:
    headers = {}
    if user is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path, headers=headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def test_the_api_answers_each_principal_by_its_acls(secure_console: int) -> None:
    port = secure_console
    status, refused = api_as(port, "/api/topics", None)
    assert status == 401 and refused["auth_required"] is True
    assert api_as(port, "/api/topics", "alice", "nope")[0] == 401
    for user in ("alice", "bob"):  # bob is a PLAIN user only, alice a PLAIN and a SCRAM user
        status, page = api_as(port, "/api/topics?filter=-", user, PASSWORDS[user])
        assert status == 200 and [t["name"] for t in page["items"]] == ["sec-visible"]  # type: ignore[index]
    status, page = api_as(port, "/api/topics?filter=-", "admin", PASSWORDS["admin"])
    assert [t["name"] for t in page["items"]] == ["hidden-payroll", "sec-visible"]  # type: ignore[index]
    status, page = api_as(port, "/api/topics", "mallory", PASSWORDS["mallory"])
    assert status == 200 and page["total"] == 0
    assert api_as(port, "/api/topic?name=hidden-payroll", "alice", PASSWORDS["alice"])[0] == 404
    assert api_as(port, "/api/messages?topic=hidden-payroll", "alice", PASSWORDS["alice"])[0] == 404
    assert api_as(port, "/api/store", "alice", PASSWORDS["alice"])[0] == 403
    assert api_as(port, "/api/store", "admin", PASSWORDS["admin"])[0] == 200
    status, who = api_as(port, "/api/whoami", "alice", PASSWORDS["alice"])
    assert who["principal"] == "User:alice" and who["changes_allowed"] is False


def sign_in(browser: WebDriver, user: str, password: str) -> None:
    WebDriverWait(browser, WAIT_S).until(expected_conditions.visibility_of_element_located((By.ID, "signin-user")))
    for field, value in (("signin-user", user), ("signin-password", password)):
        element = browser.find_element(By.ID, field)
        element.clear()
        element.send_keys(value)
    browser.find_element(By.ID, "signin-submit").click()

"""What the explorer's browser tests share: a qipu-coordinator --http on
127.0.0.1 over a database (its gRPC address and HTTP port read from its
log), headless Chromium through Debian's chromium-driver and
python3-selenium, waiting on a page condition with a screenshot when it
times out, and screenshots in $QIPU_BINARY_DIR/tests/web/screenshots/."""

import os
import re
import subprocess
import time

import pytest

import fleet_testing as ft

SCREENSHOTS = os.path.join(ft.BINARY_DIR or ".", "tests/web/screenshots")


class Explorer:
    """A qipu-coordinator with --http over `db` (extra flags `flags`),
    started in `tmp`; .grpc is HOST:PORT of gRPC, .url the explorer's."""

    def __init__(self, db, tmp, flags=(), scheme="http"):
        self._out = open(os.path.join(tmp, "coordinator.out"), "w")
        self._err = open(os.path.join(tmp, "coordinator.err"), "w")
        self.proc = subprocess.Popen(
            [ft.coordinator_bin(), "--db", db, "--listen", "127.0.0.1:0",
             "--http", "127.0.0.1:0", *flags],
            stdout=self._out, stderr=self._err)
        self.grpc = http_port = None
        deadline = time.time() + 60
        while time.time() < deadline and self.proc.poll() is None:
            text = open(self._out.name).read()
            g = re.search(r"listening on (\S+)", text)
            h = re.search(r"http on 127\.0\.0\.1:(\d+)", text)
            if g and h:
                self.grpc, http_port = g.group(1), int(h.group(1))
                break
            time.sleep(0.1)
        assert http_port, open(self._err.name).read()
        self.url = f"{scheme}://127.0.0.1:{http_port}"

    def stop(self):
        """Stops the coordinator; it must exit 0."""
        self.proc.terminate()
        assert self.proc.wait(timeout=60) == 0, open(self._err.name).read()


def chromium(extra_args=()):
    """A headless Chromium WebDriver (the caller quits it)."""
    ft.need_program("chromium", "chromium")
    driver_path = ft.need_program("chromedriver", "chromium-driver")
    webdriver = ft.need_module("selenium.webdriver", "python3-selenium")
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1500,1100",
              *extra_args):
        opts.add_argument(a)
    d = webdriver.Chrome(service=Service(executable_path=driver_path),
                         options=opts)
    d.set_page_load_timeout(60)
    os.makedirs(SCREENSHOTS, exist_ok=True)
    return d


def shot(driver, name):
    """A screenshot of the page as SCREENSHOTS/<name>.png."""
    driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))


def wait(driver, cond, what, timeout=30):
    """Waits until cond(driver) is truthy and returns it; on a timeout a
    screenshot and a failure naming `what` and the page's errors."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        return WebDriverWait(driver, timeout).until(lambda d: cond(d))
    except TimeoutException:
        shot(driver, "timeout-" + re.sub(r"\W+", "-", what))
        errors = driver.execute_script(
            "return [...document.querySelectorAll('.error')]"
            ".map((e) => e.textContent)")
        pytest.fail(f"timed out waiting for {what} at {driver.current_url}; "
                    f"errors on the page: {errors}")

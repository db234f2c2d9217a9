"""A table scores itself through a dropped connection (issue 30): a player's phone goes offline,
enters a deal by tapping names, reloads (the service worker serves the page), comes back online
and the deal is recorded once; a player of the other team confirms it from a second phone and
the match is recorded. Real Chromium against the real ASGI server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.events import PASSWORD, log_in
from tests.tournaments.results.test_table_sheet import hall
from tournaments.models import ResultSubmission, SheetDeal

pytestmark = pytest.mark.django_db(transaction=True)


def _tap(page: Any, name: str, value: str) -> None:
    page.click(f'label.tap:has(input[name="{name}"][value="{value}"])')


def test_an_entry_made_offline_is_sent_once_and_confirmed_from_another_phone(
    live_asgi: str, browser: Any
) -> None:
    h = hall("daguai")
    for user in h.users.values():
        user.set_password(PASSWORD)
        user.save()
    url = f"{live_asgi}/tables/{h.pairing.table_id}/sheet/"
    names = {s.seat: s.player.name for s in h.pairing.table.seats.select_related("player")}

    phone = log_in(browser, live_asgi, h.users[0].username)
    phone.goto(url)
    phone.wait_for_selector("body[data-offline-ready='1']")
    assert names[3] in phone.locator("#deal-form").inner_text()  # names to tap
    cdp = phone.context.new_cdp_session(phone)
    errors = [
        e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    ]
    # Chromium would install the site (manifest, icons), but for the test's private context
    assert set(errors) <= {"in-incognito"}, errors
    phone.context.set_offline(True)
    phone.wait_for_selector("#connection.offline")
    _tap(phone, "first_dealer", "0")
    for place, seat in enumerate([0, 2, 4], start=1):
        _tap(phone, f"d1_{place}", str(seat))
    phone.click("#deal-send")
    waiting = phone.locator("#outbox li")
    waiting.wait_for()
    assert waiting.count() == 1 and names[2] in waiting.inner_text()
    assert not SheetDeal.objects.exists()  # nothing reached the server
    phone.screenshot(path=str(ARTIFACTS / "table-sheet-offline-390.png"), full_page=True)

    cached = "caches.open('luzi-sheet-v1').then(c => c.match(location.pathname)).then(r => !!r)"
    assert phone.evaluate(cached)  # the service worker's cache holds the page
    assert phone.evaluate("fetch('/healthz').then(() => false, () => true)")  # truly offline
    phone.reload()  # still offline: the service worker serves the page, the outbox is kept
    phone.locator("#outbox li").wait_for()
    assert phone.evaluate("navigator.serviceWorker.controller !== null")
    assert phone.locator("#outbox li").count() == 1  # the entry survived the reload
    # Chromium applies its offline emulation to a reloaded document a moment late, so the page
    # may already have sent its outbox here (seen once in CI under load): never more than once.
    assert SheetDeal.objects.count() <= 1

    phone.context.set_offline(False)
    phone.wait_for_selector("#outbox", state="hidden", timeout=15000)
    phone.wait_for_selector("#notices li.ok")
    phone.wait_for_selector("#deals li.status-pending")
    assert SheetDeal.objects.count() == 1
    phone.reload()
    phone.wait_for_selector("#deals li.status-pending")
    assert SheetDeal.objects.count() == 1  # recorded once
    assert SheetDeal.objects.get().deal == {"finish": [0, 2, 4]}

    other = log_in(browser, live_asgi, h.opponent(0).username)
    other.goto(url)
    deal = other.locator("#deals li.status-pending")
    deal.wait_for()
    assert names[0] in deal.inner_text()  # who entered it, by name
    other.click("#deals button.confirm")
    other.wait_for_selector("#deals li.status-confirmed")
    other.wait_for_selector("#sheet-done:not([hidden])")
    other.screenshot(path=str(ARTIFACTS / "table-sheet-confirmed-390.png"), full_page=True)
    assert SheetDeal.objects.get().status == SheetDeal.Status.CONFIRMED
    result = ResultSubmission.objects.get(pairing=h.pairing)
    assert result.status == ResultSubmission.Status.CONFIRMED
    assert result.deals == [{"finish": [0, 2, 4]}]


def test_two_phones_enter_the_same_deal_and_the_second_hears_what_the_first_entered(
    live_asgi: str, browser: Any
) -> None:
    """In English, 小路子: the first phone sees the game's words while tapping; the second,
    whose page still offered deal 1, is told who entered it first and what."""
    h = hall("xiaoluzi", deals=2)
    for user in h.users.values():
        user.set_password(PASSWORD)
        user.save()
    url = f"{live_asgi}/tables/{h.pairing.table_id}/sheet/"
    names = {s.seat: s.player.name for s in h.pairing.table.seats.select_related("player")}
    first = log_in(browser, live_asgi, h.users[0].username, "en")
    second = log_in(browser, live_asgi, h.opponent(0).username, "en")
    for phone in (first, second):
        phone.goto(url)
        phone.wait_for_selector("body[data-offline-ready='1']")
    fields = first.locator("#deal-form fieldset")
    assert fields.count() > 2
    taps = {"d1_mode": "none", "d1_1": "0", "d1_2": "1", "d1_3": "2"}
    for phone in (first, second):
        for name, value in taps.items():
            _tap(phone, name, value)
        for seat, played in enumerate([8, 8, 8, 5]):
            phone.fill(f'input[name="d1_played_{seat}"]', str(played))
    first.locator("#deal-preview.ok").wait_for()
    assert names[0] in first.locator("#deal-preview").inner_text()
    first.click("#deal-send")
    first.wait_for_selector("#deals li.status-pending")
    second.click("#deal-send")
    refused = second.locator("#notices li.refused")
    refused.wait_for()
    text = refused.inner_text()
    assert "already entered by" in text and names[0] in text
    second.screenshot(path=str(ARTIFACTS / "table-sheet-conflict-390-en.png"), full_page=True)
    assert SheetDeal.objects.count() == 1

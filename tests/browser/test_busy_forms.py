"""An action that takes over a second says it is working (issue 26: completing a round took
1.4 s and drawing 1.1 s with no sign of life): the organizer's button reads 正在处理… / Working…
and is disabled while the server answers, and a second press sends nothing. The server is made
slow on purpose (the service sleeps 2 s). Real Chromium at 390x844, both languages."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Table
from tests.browser.events import PASSWORD, log_in
from tests.tournaments.factories import EventFactory, TeamFactory, UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import staff as events_staff
from tournaments.models import Round, RoundLog
from tournaments.results.services import result_confirm, result_submit
from tournaments.rounds import services as rounds_services

pytestmark = pytest.mark.django_db(transaction=True)

WORKING = {"zh-hans": "正在处理…", "en": "Working…"}
#: Installed in every page before its own scripts: records (in sessionStorage, which outlives the
#: navigation) how a pressed button looks while its form is on its way, and presses it again.
WATCH = """
document.addEventListener('submit', (event) => {
  const started = performance.now();
  const form = event.target;
  const button = event.submitter;
  const seen = () => {
    const log = JSON.parse(sessionStorage.getItem('busy-log') || '[]');
    if (log.length) return;
    log.push({text: button.textContent, disabled: button.disabled,
              after: performance.now() - started});
    sessionStorage.setItem('busy-log', JSON.stringify(log));
    button.click();  // a second press while it works
    form.requestSubmit();
  };
  new MutationObserver(seen).observe(button, {childList: true, characterData: true,
                                              subtree: true, attributes: true});
}, true);
"""


def _slow(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, calls: list[str]) -> None:
    real = getattr(module, name)

    def slow(**kwargs: Any) -> Any:
        calls.append(name)
        time.sleep(2)
        return real(**kwargs)

    monkeypatch.setattr(module, name, slow)


def _press_twice(page: Any, selector: str, language: str) -> None:
    """Press the button; the page, while it waits for the answer, shows it working and refuses a
    second press (the watcher below records what the page showed, and presses it again)."""
    page.evaluate("sessionStorage.removeItem('busy-log')")
    pressed = time.monotonic()
    page.locator(selector).first.click(no_wait_after=True)
    page.wait_for_selector(".messages li", timeout=15000)
    page.wait_for_load_state()
    answered = time.monotonic()
    log = json.loads(page.evaluate("sessionStorage.getItem('busy-log') || '[]'"))
    assert log, "the page never showed the button working"
    first = log[0]
    assert first["text"] == WORKING[language] and first["disabled"], log
    assert first["after"] < 1000, log  # shown at once, not when the answer came
    assert answered - pressed > 1.9  # the answer really took two seconds


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_slow_action_says_it_is_working_and_is_sent_once(
    live_asgi: str, browser: Any, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = EventFactory(table_mode=Table.Mode.OFFLINE, deals_per_match=1)
    for i in range(2):
        TeamFactory(event=event, unit=UnitFactory(), name=f"第{i}队")
    users = get_user_model().objects
    organizer = users.create_user(username="organizer", password=PASSWORD)
    checker = users.create_user(username="checker", password=PASSWORD)
    events_staff.event_organizer_add(event=event, user=organizer)
    events_staff.event_organizer_add(event=event, user=checker)
    calls: list[str] = []
    _slow(monkeypatch, draw_services, "round_create_paired", calls)
    _slow(monkeypatch, rounds_services, "round_complete", calls)
    page = log_in(browser, live_asgi, "organizer", language)
    page.context.add_init_script(WATCH)
    page.goto(f"{live_asgi}/events/{event.pk}/manage/")

    # drawing a round
    _press_twice(page, "form[action$='/pair/'] button[type=submit]", language)
    assert calls == ["round_create_paired"]  # sent once
    round_ = Round.objects.get(event=event)
    assert RoundLog.objects.filter(round=round_, action=RoundLog.Action.PAIRED).count() == 1

    # completing it, once its table's result is confirmed
    rounds_services.round_confirm(round=round_, user=organizer)
    rounds_services.round_start(round=round_, user=organizer)
    pairing = round_.pairings.get()
    submission = result_submit(
        pairing=pairing, user=organizer, first_dealer=0, deals=[{"finish": [0, 2, 4]}]
    )
    result_confirm(submission=submission, user=checker)
    page.goto(f"{live_asgi}/events/{event.pk}/manage/")
    _press_twice(page, "form[action$='/complete/']:not(.card) button[type=submit]", language)
    assert calls == ["round_create_paired", "round_complete"]
    round_.refresh_from_db()
    assert round_.status == Round.Status.COMPLETED
    assert RoundLog.objects.filter(round=round_, action=RoundLog.Action.COMPLETED).count() == 1

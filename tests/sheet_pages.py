"""What the score-sheet tests of the tests' trick games share (tests/test_toy_score_sheet.py,
tests/test_pairs_score_sheet.py): an offline round with two organizers, their clients, and the
walk from the sheet's form through its preview to a second person's confirmation."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Match
from tests.games.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import UnitFactory
from tournaments.draw import services as draw_services
from tournaments.events import entries as events_entries
from tournaments.events import staff as events_staff
from tournaments.models import ResultSubmission
from tournaments.rounds import services as rounds_services

__all__ = [
    "client",
    "enter_and_confirm",
    "four_players",
    "offline_round",
    "printed_sheets",
    "refused_picks",
]


def client(user: Any, language: str = "en") -> Client:
    """A client logged in as ``user``, reading the site in ``language``."""
    logged_in = Client()
    logged_in.force_login(user)
    logged_in.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return logged_in


def four_players(event: Any) -> None:
    """Four players of one unit registered for ``event`` (an individual event)."""
    unit = UnitFactory()
    people = PlayerFactory.create_batch(4)
    for player in people:
        events_entries.membership_ensure(player=player, unit=unit)
    events_entries.registration_ensure(event=event, players=people)


def offline_round(event: Any) -> dict[str, Any]:
    """``event``'s first round paired and started, with two organizers (``referee`` enters,
    ``checker`` confirms): its one ``pairing``, the seats' ``names`` and the result page's
    ``url``."""
    referee, checker = UserFactory(), UserFactory()
    events_staff.event_organizer_add(event=event, user=referee)
    events_staff.event_organizer_add(event=event, user=checker)
    round_ = draw_services.round_create_paired(event=event, confirm=True)
    rounds_services.round_start(round=round_)
    pairing = round_.pairings.get()
    names = list(pairing.table.seats.order_by("seat").values_list("player__name", flat=True))
    url = reverse("tournaments:table_result", args=[event.pk, pairing.pk])
    return {"event": event, "pairing": pairing, "names": names, "url": url,
            "referee": referee, "checker": checker}  # fmt: skip


def enter_and_confirm(
    world: Mapping[str, Any],
    picks: Mapping[str, str],
    sheet: Mapping[str, Any],
    *,
    preview: Sequence[str],
    review: str,
) -> Match:
    """The referee picks the sheet of the game's tricks form (``picks``), previews it (every
    text of ``preview`` shown, nothing written), enters it (``sheet``) and cannot confirm it;
    the checker sees the same preview (``review``, in Chinese) and confirms. Returns the match."""
    referee, url, names = client(world["referee"]), world["url"], world["names"]
    form = referee.get(url).content.decode()
    assert 'name="d1_tricks_3"' in form and f"Tricks: {names[3]}" in form
    assert 'name="d1_mode"' not in form and 'name="d1_end"' not in form  # no other game's form
    shown = referee.post(url, picks)
    text = shown.content.decode()
    assert shown.status_code == 200 and all(words in text for words in preview), preview
    assert not ResultSubmission.objects.exists()  # a preview writes nothing
    entered = shown.context["sheet"]
    assert json.loads(entered) == sheet
    assert referee.post(url, {"action": "submit", "sheet": entered}).status_code == 302
    version = ResultSubmission.objects.get()
    assert version.deals == sheet["deals"] and version.status == "pending"
    mine = referee.post(url, {"action": "confirm", "submission": version.pk}, follow=True)
    assert "you entered this version yourself" in mine.content.decode()
    version.refresh_from_db()
    assert version.status == "pending"
    checker = client(world["checker"], "zh-hans")
    seen = checker.get(url).content.decode()
    assert review in seen and 'value="confirm"' in seen  # the same preview
    assert checker.post(url, {"action": "confirm", "submission": version.pk}).status_code == 302
    version.refresh_from_db()
    assert version.status == "confirmed"
    return Match.objects.get(table=world["pairing"].table)


def refused_picks(
    world: Mapping[str, Any], picks: Mapping[str, str], wrong: Mapping[str, str], total: int
) -> None:
    """A pick that is no number is refused naming deal 2; so are ``picks`` changed by ``wrong``,
    whose tricks add up to ``total`` instead of 4. Nothing is written."""
    referee = client(world["referee"])
    bad = referee.post(world["url"], {**picks, "d2_tricks_1": "x"})
    errors = [str(m) for m in bad.context["messages"]]
    assert bad.status_code == 200 and errors == ["Deal 2: tricks: pick a number."]
    added = referee.post(world["url"], {**picks, **wrong})
    assert f"the tricks add up to {total}" in added.content.decode()
    assert not ResultSubmission.objects.exists()


def printed_sheets(world: Mapping[str, Any]) -> str:
    """The table's printed sheet (its columns per seat numbered from 1) and the round's; returns
    the table's."""
    event, pairing = world["event"], world["pairing"]
    referee = client(world["referee"])
    page = referee.get(reverse("tournaments:score_sheet", args=[event.pk, pairing.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "Tricks, seat 1" in text and "Tricks, seat 4" in text
    assert "Tricks, seat 0" not in text
    every = referee.get(reverse("tournaments:score_sheets", args=[event.pk, pairing.round.number]))
    assert every.status_code == 200 and "Tricks, seat 4" in every.content.decode()
    return text

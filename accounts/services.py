"""Writes for accounts: issue and redeem one-time login codes, give a user a player."""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from accounts.models import LoginCode
from config.exceptions import ApplicationError, NotAllowedError
from games.models import Player
from tournaments.models import Event, Registration, Team

logger = logging.getLogger(__name__)

#: Letters and digits that cannot be mistaken for one another when read aloud or copied by hand.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8
CODE_VALID_FOR = timedelta(days=7)
#: Failed code attempts allowed from one address within the window before it must wait.
CODE_ATTEMPTS = 10
CODE_ATTEMPT_WINDOW = 15 * 60


def code_normalize(code: str) -> str:
    """Return ``code`` upper-cased without spaces or dashes (codes are shown as ``ABCD-EFGH``).

    >>> code_normalize(" abcd-efgh ")
    'ABCDEFGH'
    """
    return "".join(ch for ch in code.upper() if ch not in " -\t\r\n")


def code_format(code: str) -> str:
    """Return a normalized code in two groups of four for display: ``ABCD-EFGH``."""
    return f"{code[:4]}-{code[4:]}"


def _digest(code: str) -> str:
    return hashlib.sha256(code_normalize(code).encode()).hexdigest()


@transaction.atomic
def login_code_issue(
    *,
    user: User,
    issued_by: User | None = None,
    valid_for: timedelta = CODE_VALID_FOR,
) -> str:
    """Create a one-time login code for ``user`` and return it in plain text (shown only once).

    Staff and superuser accounts never get one: a code would let whoever issues it in.
    """
    if not user.is_active:
        raise ApplicationError(_("An inactive account cannot get a login code."))
    if _privileged(user):
        raise NotAllowedError(_("Staff and administrator accounts cannot get login codes."))
    code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
    LoginCode.objects.create(
        user=user,
        digest=_digest(code),
        issued_by=issued_by,
        expires_at=timezone.now() + valid_for,
    )
    return code_format(code)


def _privileged(user: User) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def _throttle_key(client: str) -> str:
    return f"accounts:code-failures:{client}"


_UNAVAILABLE = _lazy("Logging in with a code is not possible right now. Try again in a minute.")


def _failures(key: str) -> int:
    """How often ``key`` failed lately; raises ApplicationError when the count cannot be read
    (the throttle fails closed: guessing codes must never become free)."""
    try:
        return int(caches["strict"].get(key, 0))
    except Exception:  # noqa: BLE001 - any cache failure: refuse rather than guess
        logger.warning("login-code throttle unavailable", exc_info=True)
        raise ApplicationError(str(_UNAVAILABLE)) from None


def _failure_add(key: str) -> None:
    cache = caches["strict"]
    try:
        cache.add(key, 0, CODE_ATTEMPT_WINDOW)
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, CODE_ATTEMPT_WINDOW)
    except Exception:  # noqa: BLE001
        logger.warning("login-code throttle unavailable", exc_info=True)
        raise ApplicationError(str(_UNAVAILABLE)) from None


@transaction.atomic
def login_code_redeem(*, code: str, client: str = "") -> User:
    """Use ``code`` once and return its user.

    Raises ApplicationError for an unknown, used or expired code, and when the address ``client``
    has failed too often recently (codes cannot be guessed by trying many).
    """
    key = _throttle_key(client)
    if client and _failures(key) >= CODE_ATTEMPTS:
        raise ApplicationError(_("Too many wrong codes. Wait a quarter of an hour and try again."))
    normalized = code_normalize(code)
    login_code = None
    if len(normalized) == CODE_LENGTH and all(ch in CODE_ALPHABET for ch in normalized):
        login_code = (
            LoginCode.objects.select_for_update()
            .select_related("user")
            .filter(digest=_digest(normalized))
            .first()
        )
    now = timezone.now()
    if login_code is None or login_code.used_at is not None or login_code.expires_at <= now:
        if client:
            _failure_add(key)
        if login_code is not None and login_code.used_at is not None:
            raise ApplicationError(_("This login code has been used already. Ask for a new one."))
        if login_code is not None:
            raise ApplicationError(_("This login code has expired. Ask for a new one."))
        raise ApplicationError(_("This login code is not valid. Check it and try again."))
    if not login_code.user.is_active:
        raise ApplicationError(_("This account is disabled."))
    if _privileged(login_code.user):
        # The account became staff after the code was issued: a code never opens such an account.
        raise ApplicationError(_("This login code is not valid. Check it and try again."))
    login_code.used_at = now
    login_code.save(update_fields=["used_at"])
    return login_code.user


@dataclass(frozen=True, slots=True)
class IssuedCode:
    """A login code issued to one player of a team, or why none was (``refused``)."""

    player: Player
    username: str
    code: str
    refused: str = ""


def _username_for(player: Player) -> str:
    User = get_user_model()
    base = f"player{player.pk}"
    username, n = base, 1
    while User.objects.filter(username=username).exists():
        n += 1
        username = f"{base}-{n}"
    return username


def can_issue_codes(*, user: User, team: Team) -> bool:
    """Whether ``user`` may issue login codes to ``team``: a superuser or one of its organizers."""
    if getattr(user, "is_superuser", False):
        return True
    return bool(user.is_authenticated and team.event.organizers.filter(pk=user.pk).exists())


@transaction.atomic
def team_login_codes_issue(*, team: Team, issued_by: User) -> list[IssuedCode]:
    """Issue a one-time login code to each player of ``team`` and return them, in team order.

    A player without an account gets one (a username ``player<id>`` and no password: they log in
    with codes, or an administrator sets a password). Raises NotAllowedError unless ``issued_by``
    organizes the team's event (or is a superuser).
    """
    if not can_issue_codes(user=issued_by, team=team):
        raise NotAllowedError(_("Only an organizer of this event can issue login codes."))
    members = team.members.select_related("player__user").order_by("order")
    return _codes_issue(event_id=team.event_id, players=[m.player for m in members], by=issued_by)


@transaction.atomic
def players_login_codes_issue(
    *, event: Event, players: Sequence[Player], issued_by: User
) -> list[IssuedCode]:
    """Issue a one-time login code to each of ``players`` (an individual event's) and return
    them in that order; as :func:`team_login_codes_issue`, for players of ``event``."""
    allowed = getattr(issued_by, "is_superuser", False) or (
        issued_by.is_authenticated and event.organizers.filter(pk=issued_by.pk).exists()
    )
    if not allowed:
        raise NotAllowedError(_("Only an organizer of this event can issue login codes."))
    return _codes_issue(event_id=event.pk, players=players, by=issued_by)


def _codes_issue(*, event_id: int, players: Sequence[Player], by: User) -> list[IssuedCode]:
    User = get_user_model()
    issued = []
    registered = set(
        Registration.objects.filter(event_id=event_id).values_list("player_id", flat=True)
    )
    for player in players:
        if player.is_bot:
            continue
        user = player.user
        if player.pk not in registered:
            issued.append(
                IssuedCode(
                    player=player,
                    username=user.get_username() if user else "",
                    code="",
                    refused=_("not registered in this event"),
                )
            )
            continue
        if user is not None and _privileged(user):
            issued.append(
                IssuedCode(
                    player=player,
                    username=user.get_username(),
                    code="",
                    refused=_("a staff or administrator account: ask an administrator"),
                )
            )
            continue
        if user is None:
            user = User.objects.create_user(username=_username_for(player))
            user.set_unusable_password()
            user.save(update_fields=["password"])
            player.user = user
            player.save(update_fields=["user"])
        # A new code replaces the player's earlier ones: a sheet handed out before stops working.
        LoginCode.objects.filter(user=user, used_at__isnull=True).delete()
        code = login_code_issue(user=user, issued_by=by)
        issued.append(IssuedCode(player=player, username=user.get_username(), code=code))
    return issued

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
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from accounts.models import CodeConsent, LoginCode
from config.exceptions import ApplicationError, ConflictError, NotAllowedError
from config.versioned_cache import versioned_key
from games.models import Player
from tournaments.models import Event, Registration, Team, TeamMember

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
    event: Event | None = None,
) -> str:
    """Create a one-time login code for ``user`` and return it in plain text (shown only once).

    Staff and superuser accounts never get one: a code would let whoever issues it in. A code of
    an ``event``'s sheet is that event's (a later sheet of the event revokes it); it logs in an
    account with a password only while its owner allows codes (:func:`codes_allowed`).
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
        event=event,
        expires_at=timezone.now() + valid_for,
    )
    return code_format(code)


def codes_allowed(user: User) -> bool:
    """Whether an organizer's login code may log ``user`` in: always for an account without a
    password (codes are its way in), for one with a password only when its owner said so."""
    if not user.has_usable_password():
        return True
    return CodeConsent.objects.filter(user=user, allows_codes=True).exists()


def code_consent_set(*, user: User, allows_codes: bool) -> CodeConsent:
    """The account owner allows (or forbids) organizers' login codes for their account;
    forbidding revokes the codes not used yet."""
    with transaction.atomic():
        consent, _created = CodeConsent.objects.update_or_create(
            user=user, defaults={"allows_codes": allows_codes}
        )
        if not allows_codes:
            LoginCode.objects.filter(user=user, used_at__isnull=True, event__isnull=False).delete()
    return consent


def _privileged(user: User) -> bool:
    return bool(getattr(user, "is_staff", False) or getattr(user, "is_superuser", False))


def _throttle_key(client: str) -> str:
    return versioned_key("code-failures", client, version=None)


_UNAVAILABLE = _lazy("Logging in with a code is not possible right now. Try again in a minute.")


def _failures(key: str) -> int:
    """How often ``key`` tried lately; raises ApplicationError when the count cannot be read
    (the throttle fails closed: guessing codes must never become free)."""
    try:
        return int(caches["strict"].get(key, 0))
    except Exception:  # noqa: BLE001 - any cache failure: refuse rather than guess
        logger.warning("login-code throttle unavailable", exc_info=True)
        raise ApplicationError(str(_UNAVAILABLE)) from None


def _attempt_count(key: str) -> int:
    """Count one more attempt for ``key`` and return the count, atomically (the cache's ``incr``:
    Redis INCR, or the local cache under its lock), so that concurrent guesses cannot all read
    the same count below the limit. Raises ApplicationError when the count cannot be kept (the
    throttle fails closed: guessing codes must never become free)."""
    cache = caches["strict"]
    try:
        cache.add(key, 0, CODE_ATTEMPT_WINDOW)
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between add and incr
            cache.add(key, 0, CODE_ATTEMPT_WINDOW)
            return int(cache.incr(key))
    except ApplicationError:
        raise
    except Exception:  # noqa: BLE001 - any cache failure: refuse rather than guess
        logger.warning("login-code throttle unavailable", exc_info=True)
        raise ApplicationError(str(_UNAVAILABLE)) from None


def _attempt_forgive(key: str) -> None:
    """A right code does not count against its address."""
    try:
        caches["strict"].decr(key)
    except Exception:  # noqa: BLE001 - gone already: nothing to forgive
        logger.debug("login-code throttle: nothing to forgive", exc_info=True)


def login_code_redeem(*, code: str, client: str = "") -> User:
    """Use ``code`` once and return its user.

    Raises ApplicationError for an unknown, used or expired code, for an event's code when its
    account has a password and its owner does not allow codes, and when the address ``client``
    has tried too many wrong codes recently (codes cannot be guessed by trying many): each attempt
    is counted before the code is looked at, so concurrent guesses are counted one by one.
    """
    key = _throttle_key(client)
    if client and (_failures(key) >= CODE_ATTEMPTS or _attempt_count(key) > CODE_ATTEMPTS):
        raise ApplicationError(_("Too many wrong codes. Wait a quarter of an hour and try again."))
    user = _redeem(code)  # a wrong code raises, and its attempt stays counted
    if client:
        _attempt_forgive(key)
    return user


@transaction.atomic
def _redeem(code: str) -> User:
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
    if login_code is not None and login_code.used_at is not None:
        raise ApplicationError(_("This login code has been used already. Ask for a new one."))
    if login_code is not None and login_code.expires_at <= now:
        raise ApplicationError(_("This login code has expired. Ask for a new one."))
    if login_code is None:
        raise ApplicationError(_("This login code is not valid. Check it and try again."))
    if not login_code.user.is_active:
        raise ApplicationError(_("This account is disabled."))
    if _privileged(login_code.user):
        # The account became staff after the code was issued: a code never opens such an account.
        raise ApplicationError(_("This login code is not valid. Check it and try again."))
    if login_code.event_id is not None and not codes_allowed(login_code.user):
        # The account has a password (set after the sheet, or its owner withdrew consent).
        raise ApplicationError(
            _("This account has a password and does not take login codes. Log in with it.")
        )
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


def _account_create(player: Player) -> User:
    """A code-only account (no password) for ``player``: username ``player<id>``, or
    ``player<id>-2``, ... when that one is taken (by an account made by hand, or by a concurrent
    request: the unique username decides, a savepoint takes the next)."""
    User = get_user_model()
    base = f"player{player.pk}"
    for n in range(1, 50):
        username = base if n == 1 else f"{base}-{n}"
        if User.objects.filter(username=username).exists():
            continue
        try:
            with transaction.atomic():
                user = User.objects.create_user(username=username)
                user.set_unusable_password()
                user.save(update_fields=["password"])
        except IntegrityError:
            continue
        return user
    raise ConflictError(_("Could not name an account for %(name)s.") % {"name": player.name})


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


def _refused(player: Player, user: User | None, reason: str) -> IssuedCode:
    return IssuedCode(
        player=player, username=user.get_username() if user else "", code="", refused=reason
    )


def _foreign_events(player_ids: Sequence[int], by: User) -> set[int]:
    """The players of ``player_ids`` who are in an event that ``by`` does not organize."""
    if getattr(by, "is_superuser", False):
        return set()
    mine = Event.objects.filter(organizers=by).values("pk")
    return set(
        Registration.objects.filter(player_id__in=player_ids)
        .exclude(event_id__in=mine)
        .values_list("player_id", flat=True)
    ) | set(
        TeamMember.objects.filter(player_id__in=player_ids)
        .exclude(event_id__in=mine)
        .values_list("player_id", flat=True)
    )


def _codes_issue(*, event_id: int, players: Sequence[Player], by: User) -> list[IssuedCode]:
    """Issue each player of ``event_id`` one code of that event, revoking their earlier codes of
    that event only.

    A player's row is locked first (in id order, so that concurrent sheets neither deadlock nor
    interleave): one sheet at a time makes a player's account and replaces their code, so any
    burst of sheets leaves exactly one valid code per player and event. A player with an account
    gets a code only when every event they play in is organized by ``by`` (else another event's
    organizer could log in as them), and an account with a password only when its owner allows
    codes."""
    people = [p for p in players if not p.is_bot]
    ids = sorted({p.pk for p in people})
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    users = {u.pk: u for u in get_user_model().objects.filter(player__in=ids)}
    registered = set(
        Registration.objects.filter(event_id=event_id, player_id__in=ids).values_list(
            "player_id", flat=True
        )
    )
    foreign = _foreign_events(ids, by)
    event = Event.objects.get(pk=event_id)
    issued = []
    for given in people:
        player = locked.get(given.pk)
        if player is None:
            continue
        user = users.get(player.user_id) if player.user_id else None
        if player.pk not in registered:
            issued.append(_refused(player, user, _("not registered in this event")))
        elif user is not None and _privileged(user):
            issued.append(
                _refused(player, user, _("a staff or administrator account: ask an administrator"))
            )
        elif user is not None and player.pk in foreign:
            issued.append(
                _refused(
                    player,
                    user,
                    _(
                        "also plays in an event you do not organize: they log in with their own "
                        "account, or an organizer of every event of theirs issues the code"
                    ),
                )
            )
        elif user is not None and not codes_allowed(user):
            issued.append(
                _refused(
                    player,
                    user,
                    _(
                        "has a password and has not allowed login codes (on their page, "
                        "我的页面): they log in with the password"
                    ),
                )
            )
        else:
            if user is None:
                user = _account_create(player)
                player.user = user
                player.save(update_fields=["user"])
            # A new code replaces the player's earlier ones of this event: a sheet handed out
            # before stops working; another event's sheet keeps its own.
            LoginCode.objects.filter(user=user, event_id=event_id, used_at__isnull=True).delete()
            code = login_code_issue(user=user, issued_by=by, event=event)
            issued.append(IssuedCode(player=player, username=user.get_username(), code=code))
    return issued

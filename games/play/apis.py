"""The play API (DRF): a table's state, a seat's actions, checking a selection, leaving.

Who sees what is decided in one place: :func:`seat_of_request` gives the seat of the logged-in
player sitting at the table (None for everyone else), and only that seat is passed to
``games.play.state.table_state``, which alone adds a hand to the public view. A request can never
name a seat: acting for a seat means being its player.
"""

from __future__ import annotations

import time
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.exceptions import ApplicationError, NotAllowedError
from engine.errors import EngineError
from engine.game import Verdict
from games.models import Match, Table
from games.play import engine_state, services
from games.play import state as play_state
from games.play.checks import MAX_CARDS_TEXT, SeatView, selection_explain, verdict_json
from games.play.leaving import leave_terms
from games.tables import selectors as tables_selectors
from games.tables.access import table_viewable
from games.tables.messages import engine_message


def seat_of_request(request: Request, table: Table) -> int | None:
    """The seat of the authenticated user at ``table``, or None."""
    if not request.user.is_authenticated:
        return None
    return tables_selectors.table_seat_of_user(table=table, user=request.user)


def _table(table_id: int) -> Table:
    return get_object_or_404(Table, pk=table_id)


def _seated(request: Request, table_id: int) -> tuple[Table, int]:
    """The table and the caller's seat there; 404 without the table, 403 when not seated."""
    found = tables_selectors.table_and_seat_of_user(table_id=table_id, user=request.user)
    if found is None:
        _table(table_id)
        raise NotAllowedError(_("Only the players seated at this table can act here."))
    return found


def _validated(serializer: serializers.Serializer[Any]) -> dict[str, Any]:
    """The serializer's data, or ApplicationError with one readable message (400)."""
    if serializer.is_valid():
        return dict(serializer.validated_data)
    parts = []
    for field, errors in serializer.errors.items():
        text = " ".join(str(e) for e in errors) if isinstance(errors, list) else str(errors)
        parts.append(text if field == "non_field_errors" else f"{field}: {text}")
    raise ApplicationError("; ".join(parts), extra={"errors": serializer.errors})


class ErrorSerializer(serializers.Serializer[Any]):
    """Every refusal: a message for people (in the request's language where the service has one)."""

    detail = serializers.CharField()


class StateSerializer(serializers.Serializer[Any]):
    """The table's state (documentation only: ``games.play.state.table_state`` builds it)."""

    table = serializers.DictField(help_text="id, name, mode, status")
    seats = serializers.ListField(
        child=serializers.DictField(), help_text="seat, side, player, is_bot, cards (a count)"
    )
    match = serializers.DictField(
        allow_null=True,
        help_text="levels, ladder, points, deal number, results, history (each ended deal's "
        "number, ordinal, result and points per seat), status",
    )
    deal = serializers.DictField(
        allow_null=True,
        help_text="the current deal's public view, as the table's game writes it: phase, turn, "
        "awaiting, counts, trick, last_trick, moves (actions so far), result (null until the "
        "deal ends) and the game's own (大怪路子: dealer, level, tributes; 小路子: answers, mode, "
        "declarer, counter, bystanders; 上海斗地主: marked, bids, landlord, kitty (the landlord "
        "only), landlord_hand (摊打), declared, bombs, bomb_limits)",
    )
    seq = serializers.IntegerField(help_text="actions so far in the current deal; send it back")
    deal_number = serializers.IntegerField()
    deal_ordinal = serializers.IntegerField(
        help_text="the deal's place among the deals that count toward the match, as people "
        "count them (a deal dealt again after nobody bid, 荒番, keeps its place)"
    )
    system_play = serializers.ListField(
        child=serializers.DictField(),
        help_text="per seat, what the system has played for it in the deal (托管), the same in "
        "every game: used, limit (0: none), left before it is an escape (null: no limit), "
        "in_a_row, last (the seat's last action was the system's), reached (the escape)",
    )
    deadline = serializers.DateTimeField(allow_null=True, help_text="when the turn times out")
    you = serializers.DictField(
        allow_null=True,
        help_text="only for the seated player: seat, hand, legal actions (each may be sent back "
        "as it is, with seq) and whatever else the game shows that seat alone",
    )


_REFUSALS = {
    400: OpenApiResponse(ErrorSerializer, description="illegal or malformed"),
    403: OpenApiResponse(ErrorSerializer, description="not this table's seated player; no CSRF"),
    404: OpenApiResponse(ErrorSerializer, description="no such table"),
}


def seat_view_of(state: dict[str, Any]) -> SeatView:
    """What :func:`games.play.checks.selection_explain` needs, read from a seat's state."""
    deal = state.get("deal") or {}
    you = state.get("you") or {}
    seat = you.get("seat")
    trick = deal.get("trick") or {}
    return SeatView(
        hand=you.get("hand") or "",
        level=str(deal.get("level") or "2"),
        current=trick.get("current"),
        my_turn=seat is not None and deal.get("phase") == "play" and deal.get("turn") == seat,
        returning=deal.get("phase") == "return" and seat in (deal.get("awaiting") or []),
        seat=seat,
        awaiting=tuple(deal.get("awaiting") or ()),
        legal=tuple(you.get("legal") or ()),
        deal=deal,
    )


def action_as_text(table: Table, seat: int, sent: Any) -> tuple[str, str]:
    """The kind and text (:meth:`engine.game.Game.seat_action`) of an action sent as a JSON
    object, such as one of the state's ``you.legal``: 400 when it is no action of the table's
    game, 403 when it names another seat."""
    if not isinstance(sent, dict) or not isinstance(sent.get("kind"), str):
        raise ApplicationError(_("An action is an object with its kind, as the state lists it."))
    if sent.get("seat", seat) != seat:
        raise NotAllowedError(_("You can only act for your own seat."))
    game = engine_state.game_of(table)
    kind = sent["kind"]
    try:
        wanted = game.action_from_json({**sent, "seat": seat}).to_json()
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        error = engine_message(exc) if isinstance(exc, EngineError) else str(exc)
        message = _("This is no action of this game: %(error)s") % {"error": error}
        raise ApplicationError(message) from None
    value = sent.get("value")
    texts = [sent.get("cards"), "" if value is None else str(value)]
    texts += ["yes" if value else "no", ""]
    for text in texts:
        if not isinstance(text, str):
            continue
        try:
            if game.seat_action(seat, kind, text).to_json() == wanted:
                return kind, text
        except EngineError:
            continue
    raise ApplicationError(_("A player cannot send this action: %(kind)s.") % {"kind": kind})


class TableStateApi(APIView):
    """The table's public state; for the player seated there, also their hand and legal plays."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: StateSerializer, 404: _REFUSALS[404]})
    def get(self, request: Request, table_id: int) -> Response:
        table = _table(table_id)
        seat = seat_of_request(request, table)
        if not table_viewable(table_id=table.pk, user=request.user, seated=seat is not None):
            raise Http404
        return Response(play_state.table_state(table=table, seat=seat))


class TableActionApi(APIView):
    """Play, pass or return (还贡) for the caller's own seat.

    200 with the new state; 400 for an illegal or malformed action (the engine's reason); 403 for
    anyone but the seat's player; 409 when the actions since ``seq`` (or a new deal, when
    ``deal`` is sent) made it stale for this seat. Actions that do not touch each other both
    apply: two receivers returning (还贡) with the same ``seq``.
    """

    permission_classes = [IsAuthenticated]

    class SeqSerializer(serializers.Serializer[Any]):
        seq = serializers.IntegerField(min_value=0)
        deal = serializers.IntegerField(required=False, min_value=1)

    class ActionInputSerializer(serializers.Serializer[Any]):
        action = serializers.CharField(
            max_length=32,
            help_text="the action's kind (大怪路子: play, pass, return; 小路子: declare, "
            "no_declare, counter, no_counter, play, pass; 上海斗地主: bid, pass, open, report, "
            "fight, play), or one of the state's ``you.legal`` objects as it is",
        )
        cards = serializers.CharField(
            required=False, allow_blank=True, default="", max_length=MAX_CARDS_TEXT
        )
        seq = serializers.IntegerField(min_value=0)
        deal = serializers.IntegerField(
            required=False, min_value=1, help_text="the deal's number the player saw"
        )

    @extend_schema(
        request=ActionInputSerializer,
        responses={
            200: StateSerializer,
            **_REFUSALS,
            409: OpenApiResponse(
                ErrorSerializer, description="stale: what happened since seq changed this action"
            ),
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        table, seat = _seated(request, table_id)
        body = request.data if isinstance(request.data, dict) else {}
        sent = body.get("action") if isinstance(body.get("action"), dict) else None
        if sent is None and "kind" in body:  # the legal action itself, with seq (and deal)
            sent = {k: v for k, v in body.items() if k not in ("seq", "deal")}
        if sent is not None:
            data = _validated(self.SeqSerializer(data=body))
            kind, cards = action_as_text(table, seat, sent)
        else:
            data = _validated(self.ActionInputSerializer(data=request.data))
            kind, cards = data["action"], data["cards"]
        began = time.monotonic()
        services.seat_act(
            table=table, seat=seat, kind=kind, cards=cards, seq=data["seq"], deal=data.get("deal")
        )
        # the state this action committed (or a newer one) answers: no read of it again
        return Response(play_state.table_state(table=table, seat=seat, fresh_since=began))


class TableCheckApi(APIView):
    """Explain the caller's selection before it is sent: the play it makes and whether it beats
    the current play (the engine's answer, in words). Changes nothing."""

    permission_classes = [IsAuthenticated]

    class CheckInputSerializer(serializers.Serializer[Any]):
        cards = serializers.CharField(allow_blank=True, max_length=MAX_CARDS_TEXT)

    @extend_schema(
        request=CheckInputSerializer,
        responses={
            200: inline_serializer(
                "SelectionVerdict",
                {
                    "ok": serializers.BooleanField(),
                    "message": serializers.CharField(),
                    "action": serializers.CharField(),
                    "type": serializers.CharField(),
                    "cards": serializers.CharField(),
                },
            ),
            **_REFUSALS,
        },
    )
    def post(self, request: Request, table_id: int) -> Response:
        table, seat = _seated(request, table_id)
        data = _validated(self.CheckInputSerializer(data=request.data))
        state = play_state.table_state(table=table, seat=seat)
        match = state["match"]
        if match is not None and match["status"] != Match.Status.PLAYING:
            # after the match, no "not your turn": there is nothing more to play
            over = Verdict(False, _("The match is over: there is nothing more to play."))
            return Response(verdict_json(over))
        verdict = selection_explain(view=seat_view_of(state), cards=data["cards"], game=table.game)
        return Response(verdict_json(verdict))


class TableLeaveApi(APIView):
    """The caller confirmed leaving the table: an escape (逃跑) during a deal, or leaving between
    deals; the match ends with the contract's penalties. A player who has gone out of the deal
    cannot escape it: they leave between deals if still away when the next deal starts. The
    answer is the state with ``leave``: ``escape``, ``left`` or ``noted``. Closing the page is
    not leaving (the system plays for an absent seat)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={
            200: inline_serializer(
                "LeaveTerms",
                {
                    "kind": serializers.ChoiceField(["escape", "noted", "left", "none"]),
                    "points": serializers.IntegerField(),
                    "text": serializers.CharField(),
                },
            ),
            **_REFUSALS,
        }
    )
    def get(self, request: Request, table_id: int) -> Response:
        """What leaving would cost the caller now, in the table's game (the confirmation)."""
        table, seat = _seated(request, table_id)
        return Response(leave_terms(table=table, seat=seat))

    @extend_schema(request=None, responses={200: StateSerializer, **_REFUSALS})
    def post(self, request: Request, table_id: int) -> Response:
        table, seat = _seated(request, table_id)
        began = time.monotonic()
        outcome = services.seat_escape(table=table, seat=seat)
        state = play_state.table_state(table=table, seat=seat, fresh_since=began)
        return Response({**state, "leave": outcome})

"""The read API's operations (thin: parse, ask the site's selectors, answer).

Visibility is the site's: ``clubs.roles.directs`` says whether the reader (anonymous, or
a token's account) directs a tournament's club; ``tournaments.selectors.standings_view``
says whether the standings (and with them round results, the event file, a table's
sheet) may be shown to such a reader; ``scoring.visibility.results_hidden`` hides a
table's sheet exactly as the table's page does."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.http import http_date
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from api import serializers as s
from api.base import SINCE, ApiView, DetailView, ListView, parse_since
from clubs.models import Club, Player
from clubs.roles import directs
from scoring.games import game_of
from scoring.models import TableSession
from scoring.selectors import round_table_of
from scoring.visibility import results_hidden
from tournaments import ratings, selectors
from tournaments.families.base import games
from tournaments.models import League, Round, Series, StandingsSnapshot, Tournament
from tournaments.selectors.events import event_document, event_exportable
from tournaments.selectors.leagues import league_page
from tournaments.selectors.standings import competition_parts

HIDDEN = "The standings are hidden until the last round is finished."


def stage_label(stage: dict[str, Any]) -> str:
    """The standings' heading, as the page says it: "final" or "after round N of R"."""
    if stage["final"]:
        return "final"
    return f"after round {stage['after']} of {stage['of']}"


def tournament_for(request: Request, slug: str) -> tuple[Tournament, dict[str, Any]]:
    """The tournament and its standings' visibility for this reader (no JSON read)."""
    # The tournament and its standings' state in one read, as the standings page reads them.
    found = selectors.standings_page_state(slug=slug)
    if found is None:
        raise NotFound("No such tournament.")
    tournament, state = found
    view = selectors.standings_view(
        tournament=tournament,
        viewer_is_director=directs(request.user, tournament.club_id),
        with_data=False,
        state=state,
    )
    return tournament, view


@extend_schema(responses=OpenApiTypes.OBJECT)
class Index(ApiView):
    """Where everything is."""

    def get(self, request: Request) -> Response:
        names = ["clubs", "players", "tournaments", "leagues", "series", "ratings"]
        links = {name: reverse(f"api:{name}", request=request) for name in names}
        links["schema"] = reverse("api:schema", request=request)
        links["docs"] = reverse("api:docs", request=request)
        return Response(links)


# ------------------------------------------------------------------------- clubs, players


class ClubList(ListView):
    serializer_class = s.ClubSerializer
    queryset = Club.objects.order_by("pk")


class ClubDetail(DetailView):
    serializer_class = s.ClubSerializer
    queryset = Club.objects.all()


CLUB = OpenApiParameter("club", OpenApiTypes.INT, description="Only this club's.")


def club_filter(request: Request) -> int | None:
    raw = request.query_params.get("club")
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 12:
        raise ValidationError({"club": "A club's id (a whole number)."})
    return int(raw)


@extend_schema(parameters=[CLUB, SINCE])
class PlayerList(ListView):
    """Register rows, by id. ``since``: rows made at or after it."""

    serializer_class = s.PlayerSerializer

    def get_queryset(self) -> QuerySet[Player]:
        players = Player.objects.select_related("club").order_by("pk")
        if (club := club_filter(self.request)) is not None:
            players = players.filter(club_id=club)
        if (since := parse_since(self.request)) is not None:
            players = players.filter(created_at__gte=since)
        return players


class PlayerDetail(DetailView):
    """A register row, with its start numbers in tournaments."""

    serializer_class = s.PlayerDetailSerializer
    queryset = Player.objects.select_related("club")

    def get_object(self) -> Player:
        player: Player = super().get_object()
        player.api_start_numbers = [  # type: ignore[attr-defined]
            {"tournament": slug, "number": number}
            for slug, number in player.entries.order_by("tournament__created_at", "pk").values_list(
                "tournament__slug", "number"
            )
        ]
        return player


GAME = OpenApiParameter("game", OpenApiTypes.STR, description="Only this game's (kop, vint...).")


@extend_schema(parameters=[GAME], responses=s.RatingEventSerializer(many=True))
class PlayerRatings(ApiView):
    """The person's rating history (every register row of the person counts), oldest
    first; ``game`` narrows it to one game."""

    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        wanted = request.query_params.get("game")
        codes = [code for code, _label in games() if wanted in (None, code)]
        if wanted is not None and not codes:
            raise NotFound("No such game.")
        events = [
            {**e, "game": code, "tournament": e["tournament"].slug if e["tournament"] else None}
            for code in codes
            for e in ratings.rating_history(person_id=player.person_id, game=code)
        ]
        return Response(s.RatingEventSerializer(events, many=True).data)


# ----------------------------------------------------------------------------- tournaments


@extend_schema(parameters=[CLUB, SINCE])
class TournamentList(ListView):
    """Newest first. ``since``: tournaments made, with a round seated or their standings
    recomputed at or after it (a club website polls with the time of its last poll)."""

    serializer_class = s.TournamentSerializer

    def get_queryset(self) -> QuerySet[Tournament]:
        found = Tournament.objects.select_related("club").order_by("-created_at", "-pk")
        if (club := club_filter(self.request)) is not None:
            found = found.filter(club_id=club)
        if (since := parse_since(self.request)) is not None:
            mine = {"tournament": OuterRef("pk")}
            found = found.filter(
                Q(created_at__gte=since)
                | Exists(Round.objects.filter(**mine, created_at__gte=since))
                | Exists(StandingsSnapshot.objects.filter(**mine, computed_at__gte=since))
            )
        return found


class TournamentDetail(ApiView):
    @extend_schema(responses=s.TournamentDetailSerializer)
    def get(self, request: Request, slug: str) -> Response:
        tournament, view = tournament_for(request, slug)
        rounds = [
            {"number": r.number, "tables": r.n_tables, "accepted": r.n_accepted}
            for r in selectors_rounds(tournament)
        ]
        stage = selectors.standings_stage(tournament=tournament) if view["visible"] else None
        body = {
            "tournament": s.TournamentSerializer(tournament).data,
            "standings_visible": view["visible"],
            "label": stage_label(stage) if stage else None,
            "stage": stage,
            "rounds": rounds,
            "event_file": view["visible"] and event_exportable(tournament),
        }
        return Response(body)


def selectors_rounds(tournament: Tournament) -> list[Any]:
    return list(
        Round.objects.filter(tournament=tournament)
        .annotate(n_tables=Count("tables"), n_accepted=Count("tables__accepted_at"))
        .order_by("number")
    )


class RoundList(ApiView):
    @extend_schema(responses=s.RoundRefSerializer(many=True))
    def get(self, request: Request, slug: str) -> Response:
        tournament, _view = tournament_for(request, slug)
        return Response(
            [
                {"number": r.number, "tables": r.n_tables, "accepted": r.n_accepted}
                for r in selectors_rounds(tournament)
            ]
        )


class RoundDetail(ApiView):
    """A round's tables with their seats; a table's points once it is accepted and the
    standings are visible to the reader (the round's notice, as printed)."""

    @extend_schema(responses=s.RoundSerializer)
    def get(self, request: Request, slug: str, number: int) -> Response:
        tournament, view = tournament_for(request, slug)
        rnd = get_object_or_404(Round, tournament=tournament, number=number)
        data = None
        if view["visible"] and view["snapshot"] is not None:
            data = selectors.snapshot_data(snapshot=view["snapshot"]) or {}
        tables = selectors.round_tables(rnd=rnd)
        notice = selectors.round_notice(rnd=rnd, data=data, tables=tables)
        sessions = {t["table"].number: t["table"] for t in tables}
        out = []
        for table in notice["tables"]:
            row = sessions[table["number"]]
            shown = data is not None and row.accepted_at is not None
            out.append({**table, "session": row.session_id if shown else None})
        byes = [{"number": b["number"], "name": b["name"]} for b in notice.get("byes", [])]
        return Response(
            {"number": rnd.number, "results_shown": data is not None, "tables": out, "byes": byes}
        )


class Standings(ApiView):
    """The newest stored standings (the rows the standings page shows), with their
    heading ("after round N of R" or "final"). 304 while nothing moved."""

    @extend_schema(responses=s.StandingsSerializer)
    def get(self, request: Request, slug: str) -> Response | HttpResponseBase:
        tournament, view = tournament_for(request, slug)
        if not view["visible"]:
            raise PermissionDenied(HIDDEN)
        snapshot = view["snapshot"]
        if snapshot is None:
            raise NotFound("No standings yet: no table is accepted.")
        director = directs(request.user, tournament.club_id)
        etag = (
            f'"standings-{snapshot.pk}.{snapshot.results_version}.{tournament.results_version}.'
            f'{tournament.rounds_planned}.{int(view["finished"])}{"d" if director else ""}"'
        )
        if (answer := self.not_modified(request, etag, snapshot.computed_at)) is not None:
            return answer
        stage = selectors.standings_stage(tournament=tournament)
        kinds: dict[str, list[Any]] = {"individual": [], "pairs": [], "teams": []}
        for kind, data in (
            selectors.standings_rows(snapshot=snapshot, kind=None)
            .order_by("kind", "position")
            .values_list("kind", "data")
        ):
            kinds.setdefault(kind, []).append(data)
        body = {
            "tournament": tournament.slug,
            "label": stage_label(stage),
            "stage": stage,
            "results_version": snapshot.results_version,
            "computed_at": snapshot.computed_at,
            "current": view["current"],
            **kinds,
            # Each class's standings (a part of the snapshot's document): read only when
            # the tournament has classes (on PostgreSQL the read parses the whole document).
            "classes": competition_parts(snapshot=snapshot)["class_tables"]
            if (tournament.competition or {}).get("classes")
            else [],
        }
        # The rows go out as stored (the schema is StandingsSerializer's): no field of 4,000
        # rows is walked by a serializer.
        response = Response(body)
        response["ETag"] = etag
        response["Last-Modified"] = last_modified(snapshot.computed_at)
        return response


def last_modified(at: datetime) -> str:
    return http_date(at.timestamp())


class EventFile(ApiView):
    """The event file (``tablescore-event/1``, shared/formats/event-json.md), as the
    tournament's page offers it: once a table is accepted, and the standings visible."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, slug: str) -> Response:
        tournament, view = tournament_for(request, slug)
        if not view["visible"]:
            raise PermissionDenied(HIDDEN)
        if not event_exportable(tournament):
            raise NotFound("No table is accepted yet: the event file has nothing to hold.")
        return Response(event_document(tournament))


class Scoresheet(ApiView):
    """A table's scoresheet (shared/formats/scoresheet-json.md), as the table's page shows
    it: a club evening's table to anyone; a tournament's table once it is accepted and its
    tournament's standings are visible to the reader."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        session = get_object_or_404(TableSession, pk=pk)
        table = round_table_of(session)
        readable = (table is None or table.accepted_at is not None) and (
            not results_hidden(session) or directs(request.user, session.club_id)
        )
        if not readable:
            raise NotFound("No such scoresheet.")
        return Response(dict(game_of(session).sheet.sheet_json(session)))


# ------------------------------------------------------------------ leagues, series, ratings


@extend_schema(parameters=[SINCE])
class LeagueList(ListView):
    """``since``: leagues whose tables were recomputed at or after it."""

    serializer_class = s.LeagueSerializer

    def get_queryset(self) -> QuerySet[League]:
        found = League.objects.select_related("organiser").order_by("-season", "name", "pk")
        if (since := parse_since(self.request)) is not None:
            found = found.filter(computed_at__gte=since)
        return found


AFTER = OpenApiParameter("after", OpenApiTypes.INT, description="The table after this event.")


class LeagueDetail(ApiView):
    """The league's table after its newest event (or ``after`` the N-th)."""

    @extend_schema(parameters=[AFTER], responses=s.LeagueDetailSerializer)
    def get(self, request: Request, slug: str) -> Response:
        league = get_object_or_404(League.objects.select_related("organiser"), slug=slug)
        raw = request.query_params.get("after")
        if raw is not None and not (raw.isdigit() and len(raw) < 6):
            raise ValidationError({"after": "An event's place in the league (1, 2, ...)."})
        page = league_page(league=league, after=int(raw) if raw else None)
        body = {
            "league": s.LeagueSerializer(league).data,
            "after_event": page.chosen.after_event if page.chosen else None,
            "final": page.is_final,
            "events": [t.slug for t in page.events],
            "teams": s.LeagueRowSerializer(page.teams, many=True).data,
            "individual": s.LeagueRowSerializer(page.individual, many=True).data,
        }
        return Response(body)


class SeriesList(ListView):
    serializer_class = s.SeriesSerializer
    queryset = Series.objects.select_related("club").order_by("-created_at", "-pk")


class SeriesDetail(ApiView):
    @extend_schema(responses=s.SeriesDetailSerializer)
    def get(self, request: Request, slug: str) -> Response:
        series = get_object_or_404(Series.objects.select_related("club"), slug=slug)
        table = ratings.series_table(series=series)
        return Response(
            {
                "series": s.SeriesSerializer(series).data,
                "tournaments": [t.slug for t in table["held"]],
                "pending": [t.slug for t in table["pending"]],
                "rows": table["rows"],
            }
        )


@extend_schema(responses=OpenApiTypes.OBJECT)
class RatingGames(ApiView):
    """The games with a leaderboard."""

    def get(self, request: Request) -> Response:
        return Response(
            {
                code: reverse("api:rating_leaderboard", args=[code], request=request)
                for code, _label in games()
            }
        )


SEASON = OpenApiParameter("season", OpenApiTypes.INT, description="Ratings at the end of a year.")
MIN_GAMES = OpenApiParameter("min_games", OpenApiTypes.INT, description="At least so many games.")


@extend_schema(parameters=[SEASON, MIN_GAMES, SINCE])
class RatingLeaderboard(ListView):
    """The leaderboard, best first (as the ratings page). ``since``: players whose rating
    changed at or after it."""

    serializer_class = s.RatingRowSerializer

    def get_queryset(self) -> Any:
        game = self.kwargs["game"]
        if game not in dict(games()):
            raise NotFound("No such game.")
        season = number_param(self.request, "season")
        minimum = number_param(self.request, "min_games") or 0
        rows = ratings.rating_leaderboard(game=game, min_games=minimum, season=season)
        if (since := parse_since(self.request)) is not None:
            rows = [r for r in rows if r["changed_at"] and r["changed_at"] >= since]
        return rows


def number_param(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 6:
        raise ValidationError({name: "A whole number."})
    return int(raw)

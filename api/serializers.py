"""The shapes the API answers (and its schema documents). Public fields only: no member
account, no table link, no phone id; a federation id only where its club publishes them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import Club, Player
from tournaments.models import League, Series, Tournament


def document() -> serializers.DictField:
    """A free-form JSON object (a row of a stored standings table, a series' line)."""
    return serializers.DictField(child=serializers.JSONField())


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "city", "kind", "association", "publishes_federation_ids"]


class ClubRefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name"]


class PlayerSerializer(serializers.ModelSerializer):
    club = ClubRefSerializer()
    federation_id = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "name", "number", "club", "person", "federation_id"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_federation_id(self, player: Player) -> str | None:
        if player.club.publishes_federation_ids and player.federation_id:
            return player.federation_id
        return None


class StartNumberSerializer(serializers.Serializer):
    tournament = serializers.SlugField()
    number = serializers.IntegerField()


class PlayerDetailSerializer(PlayerSerializer):
    start_numbers = StartNumberSerializer(many=True, source="api_start_numbers")

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "start_numbers"]


class TournamentSerializer(serializers.ModelSerializer):
    club = ClubRefSerializer(allow_null=True)

    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "game",
            "club",
            "date",
            "rounds_planned",
            "deals_per_round",
            "hide_standings",
            "results_version",
            "created_at",
        ]


class StageSerializer(serializers.Serializer):
    final = serializers.BooleanField()
    after = serializers.IntegerField()
    of = serializers.IntegerField()
    partial = serializers.DictField(child=serializers.IntegerField(), allow_null=True)


class RoundRefSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    tables = serializers.IntegerField()
    accepted = serializers.IntegerField()


class TournamentDetailSerializer(serializers.Serializer):
    tournament = TournamentSerializer()
    standings_visible = serializers.BooleanField()
    label = serializers.CharField(allow_null=True)
    stage = StageSerializer(allow_null=True)
    rounds = RoundRefSerializer(many=True)
    event_file = serializers.BooleanField()


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    small_points = serializers.JSONField(allow_null=True)
    big_points = serializers.JSONField(allow_null=True)
    place = serializers.JSONField(allow_null=True)


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    accepted = serializers.BooleanField()
    seats = SeatSerializer(many=True)
    session = serializers.IntegerField(allow_null=True)


class ByeSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    results_shown = serializers.BooleanField()
    tables = TableSerializer(many=True)
    byes = ByeSerializer(many=True)


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.SlugField()
    label = serializers.CharField()
    stage = StageSerializer()
    results_version = serializers.IntegerField()
    computed_at = serializers.DateTimeField()
    current = serializers.BooleanField()
    individual = serializers.ListField(child=document())
    pairs = serializers.ListField(child=document())
    teams = serializers.ListField(child=document())
    classes = serializers.ListField(child=serializers.JSONField())


class LeagueSerializer(serializers.ModelSerializer):
    organiser = ClubRefSerializer()

    class Meta:
        model = League
        fields = ["slug", "name", "game", "season", "organiser", "counting", "computed_at"]


class LeagueRowSerializer(serializers.Serializer):
    rank = serializers.CharField()
    name = serializers.CharField()
    club = serializers.CharField()
    big_points = serializers.CharField(source="big")
    small_points = serializers.CharField(source="small")
    event_wins = serializers.IntegerField(source="wins")
    events = serializers.IntegerField()
    results = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ListField(child=document()))
    def get_results(self, row: Any) -> list[dict[str, Any]]:
        return [
            {"rank": c.rank, "points": c.points, "counted": c.counted, "members": c.members}
            for c in row.cells
        ]


class LeagueDetailSerializer(serializers.Serializer):
    league = LeagueSerializer()
    after_event = serializers.IntegerField(allow_null=True)
    final = serializers.BooleanField()
    events = serializers.ListField(child=serializers.SlugField())
    teams = LeagueRowSerializer(many=True)
    individual = LeagueRowSerializer(many=True)


class SeriesSerializer(serializers.ModelSerializer):
    club = ClubRefSerializer(allow_null=True)

    class Meta:
        model = Series
        fields = ["slug", "name", "game", "club", "points_table", "min_tournaments", "drop_worst"]


class SeriesDetailSerializer(serializers.Serializer):
    series = SeriesSerializer()
    tournaments = serializers.ListField(child=serializers.SlugField())
    pending = serializers.ListField(child=serializers.SlugField())
    rows = serializers.ListField(child=document())


class RatingRowSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    rating = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()
    tables = serializers.IntegerField()
    change = serializers.FloatField(allow_null=True)
    changed_at = serializers.DateTimeField(allow_null=True)


class RatingEventSerializer(serializers.Serializer):
    game = serializers.CharField()
    at = serializers.DateTimeField()
    tournament = serializers.SlugField(allow_null=True)
    club_evening = serializers.BooleanField()
    games = serializers.IntegerField()
    rating = serializers.FloatField()
    change = serializers.FloatField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()

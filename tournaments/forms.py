from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubs.forms import PlayerChoiceField
from clubs.models import Club, Player
from clubs.roles import directed_clubs
from clubs.selectors import players_similar_to
from scoring.models import RuleProfile
from scoring.selectors import default_profile, usable_profiles

if TYPE_CHECKING:
    from scoring.models import RuleProfile
from tournaments.families import family_for
from tournaments.seating.generate import MAX_SEED


class DirectedClubField(forms.ModelChoiceField):
    """The club that owns what a form makes (a player of its register, a tournament, a
    series, an imported event): one of the clubs the user directs. A director of one
    club has it chosen, even by a form sent without the field (a one-club installation's
    forms and scripts, as before clubs owned things). ``limit_to(user)`` in the form's
    ``__init__`` sets the choice."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Club"))
        super().__init__(queryset=Club.objects.none(), empty_label=None, **kwargs)
        self.only: Club | None = None

    def limit_to(self, user: Any) -> None:
        clubs = directed_clubs(user).order_by("name")
        self.queryset = clubs
        found = list(clubs[:2])
        self.only = found[0] if len(found) == 1 else None
        if self.initial is None and self.only is not None:
            self.initial = self.only.pk

    def clean(self, value: Any) -> Any:
        if value in self.empty_values and self.only is not None and not self.disabled:
            return self.only
        return super().clean(value)


class PlayerForm(forms.Form):
    club = DirectedClubField()
    name = forms.CharField(label=_("Name"), max_length=120)
    federation_id = forms.CharField(label=_("Federation id"), max_length=40, required=False)
    different_person = forms.BooleanField(
        label=_("This is a different person: add them anyway"), required=False
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(DirectedClubField, self.fields["club"]).limit_to(user)
        self.similar: list[Player] = []

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Type the player's name."))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        club, name = data.get("club"), data.get("name")
        if club and name and not data.get("different_person"):
            self.similar = players_similar_to(club=club, name=name)
            if self.similar:
                raise forms.ValidationError(
                    _("Same person? A player with a similar name is already registered."),
                    code="similar",
                )
        return data


class TournamentForm(forms.Form):
    club = DirectedClubField()
    name = forms.CharField(label=_("Name"), max_length=160)
    profile: forms.ModelChoiceField[RuleProfile] = forms.ModelChoiceField(
        label=_("Rule profile"), queryset=None, empty_label=None
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30, initial=5)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round (Kop, Baśka)"), min_value=1, max_value=200, initial=32
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes per round (Vint, optional)"), min_value=10, max_value=600, required=False
    )
    seed = forms.IntegerField(
        label=_("Seating seed (optional)"), min_value=0, max_value=MAX_SEED, required=False
    )
    hide_standings = forms.BooleanField(
        label=_("Hide standings until the last round is finished"), required=False
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(DirectedClubField, self.fields["club"]).limit_to(user)
        cast(forms.ModelChoiceField, self.fields["profile"]).queryset = usable_profiles(user)
        self.fields["profile"].initial = default_profile()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        club, profile = data.get("club"), data.get("profile")
        if club and profile and profile.club_id not in (None, club.pk):
            # A custom profile is its club's: another club's tournament may not use it.
            self.add_error("profile", _("This rule profile belongs to another club."))
        return data


class EntryForm(forms.Form):
    player = PlayerChoiceField(
        label=_("Registered player"), queryset=Player.objects.none(), required=False
    )
    new_name = forms.CharField(label=_("or a new player's name"), max_length=120, required=False)
    pair = forms.CharField(label=_("Pair"), max_length=80, required=False)
    team = forms.CharField(label=_("Team"), max_length=80, required=False)

    def __init__(self, *args: Any, tournament: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        taken = tournament.entries.values_list("player_id", flat=True)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = Player.objects.exclude(
            pk__in=taken
        ).select_related("club")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("new_name") or "").strip():
            raise forms.ValidationError(_("Choose a registered player or type a new name."))
        return data


class SeatingImportForm(forms.Form):
    csv_file = forms.FileField(label=_("Seating table (CSV: round, table, seat, player number)"))


class AcceptForm(forms.Form):
    """Who accepts comes from the phone's seat or the director's account, never from the
    form; a director gives a reason."""

    reason = forms.CharField(label=_("Reason"), max_length=500, required=False)


class MendReasonField(forms.CharField):
    """Why the director mends: it goes into the tournament's history."""

    def __init__(self, *, required: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Reason (kept in the tournament's history)"))
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 2}))
        super().__init__(max_length=500, required=required, **kwargs)
        self.error_messages["required"] = _(
            "Say why: the reason goes into the tournament's history."
        )


class TournamentEditForm(forms.Form):
    """What a director may change after creation (the service says what is refused)."""

    name = forms.CharField(label=_("Tournament name"), max_length=160)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round (Kop, Baśka)"), min_value=1, max_value=200
    )
    hide_standings = forms.BooleanField(
        label=_("Hide standings until the last round is finished"), required=False
    )
    profile: forms.ModelChoiceField[RuleProfile] = forms.ModelChoiceField(
        label=_("Rule profile"), queryset=None, empty_label=None
    )
    recompute = forms.BooleanField(
        label=_(
            "Deals are already stored: I confirm that the standings are recomputed with the new rule profile."  # noqa: E501
        ),
        required=False,
    )
    reason = MendReasonField(required=False)

    def __init__(self, *args: Any, tournament: Any, user: Any, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "name": tournament.name,
                "rounds": tournament.rounds_planned,
                "deals_per_round": tournament.deals_per_round,
                "hide_standings": tournament.hide_standings,
                "profile": tournament.profile_version.profile_id,
            },
        )
        super().__init__(*args, **kwargs)
        # The shared profiles, the custom ones of the tournament's club (if the user
        # directs it) and the one it has now.
        current = tournament.profile_version.profile_id
        usable = usable_profiles(user).filter(club_id__in=[tournament.club_id])
        cast(forms.ModelChoiceField, self.fields["profile"]).queryset = RuleProfile.objects.filter(
            Q(builtin=True) | Q(pk__in=usable.values("pk")) | Q(pk=current), game=tournament.game
        )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Type the tournament's name."))
        return name


class WithdrawalForm(forms.Form):
    """Withdraw or reinstate a player (``action`` says which the director confirmed)."""

    action = forms.ChoiceField(
        choices=[("withdraw", "withdraw"), ("reinstate", "reinstate")], widget=forms.HiddenInput
    )
    reason = MendReasonField()


def _seated_choices(seated: list[tuple[int, str, int]]) -> list[tuple[str, str]]:
    return [("", gettext("(choose a player)"))] + [
        (
            str(number),
            gettext("%(name)s (no. %(n)s), table %(table)s")
            % {"name": name, "n": number, "table": table},
        )
        for number, name, table in seated
    ]


class ReseatForm(forms.Form):
    reason = MendReasonField()


class SwapForm(forms.Form):
    """Two seated players of the round (start numbers) change tables."""

    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("changes tables with"), coerce=int)
    reason = MendReasonField()

    def __init__(self, *args: Any, seated: list[tuple[int, str, int]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = _seated_choices(seated)
        cast(forms.TypedChoiceField, self.fields["first"]).choices = choices
        cast(forms.TypedChoiceField, self.fields["second"]).choices = choices


class SubstituteForm(forms.Form):
    """A seated no-show (start number) and who plays instead: a player of the register
    (registered here or not) or a new name."""

    absent = forms.TypedChoiceField(label=_("Missing player"), coerce=int)
    player = PlayerChoiceField(
        label=_("plays instead: a registered player"),
        queryset=Player.objects.none(),
        required=False,
    )
    new_name = forms.CharField(label=_("or a new player's name"), max_length=120, required=False)
    reason = MendReasonField()

    def __init__(
        self, *args: Any, seated: list[tuple[int, str, int]], seated_players: Any, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["absent"]).choices = _seated_choices(seated)
        cast(forms.ModelChoiceField, self.fields["player"]).queryset = Player.objects.exclude(
            pk__in=seated_players
        ).select_related("club")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("player") and not (data.get("new_name") or "").strip():
            raise forms.ValidationError(_("Choose a registered player or type a new name."))
        if data.get("player") and (data.get("new_name") or "").strip():
            raise forms.ValidationError(
                _("Choose a registered player or type a new name, not both.")
            )
        return data


# ------------------------------------------------------------------ competition tools


# The most a fixed bye or walkout score gives (far beyond any club's rule).
SCORE_MAX = 100_000


class CompetitionForm(forms.Form):
    """The tournament's competition options (competitions.md §10) as a director chooses
    them; ``options()`` writes them as ``Tournament.competition`` keeps them. A Vint
    tournament shows only the classes."""

    SCORE_MODES = [
        ("average", _("the average of a table")),
        ("fixed", _("fixed points")),
    ]
    bye_mode = forms.ChoiceField(
        label=_("A player who sits out a round (a bye) gets"),
        choices=SCORE_MODES,
        widget=forms.RadioSelect,
    )
    bye_big = forms.IntegerField(
        label=_("big points"), required=False, min_value=0, max_value=SCORE_MAX
    )
    bye_small = forms.IntegerField(
        label=_("small points"), required=False, min_value=-SCORE_MAX, max_value=SCORE_MAX
    )
    walkout_mode = forms.ChoiceField(
        label=_("At a walkout or a short table, each of the three players gets"),
        choices=SCORE_MODES,
        widget=forms.RadioSelect,
    )
    walkout_big = forms.IntegerField(
        label=_("big points"), required=False, min_value=0, max_value=SCORE_MAX
    )
    walkout_small = forms.IntegerField(
        label=_("small points"), required=False, min_value=-SCORE_MAX, max_value=SCORE_MAX
    )
    classes = forms.CharField(
        label=_("Classes: one a line, its code, a space and its name (e.g. W Women)"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    team_size_min = forms.IntegerField(label=_("Smallest team"), min_value=1, max_value=1000)
    team_size_max = forms.IntegerField(label=_("Largest team"), min_value=1, max_value=1000)
    counting_mode = forms.ChoiceField(
        label=_("A team's result adds up"),
        choices=[("best", _("its best players")), ("all", _("all its players"))],
        widget=forms.RadioSelect,
    )
    counting_n = forms.IntegerField(
        label=_("how many of its best players count"), required=False, min_value=1, max_value=1000
    )
    reason = MendReasonField(required=False)

    def __init__(self, *args: Any, tournament: Any, options: Any, **kwargs: Any) -> None:
        # Classes only (Vint): no byes, walkouts or teams (``Family.competition``).
        self.vint = not family_for(tournament.game).competition.walkouts
        initial: dict[str, Any] = {
            "classes": "\n".join(f"{c.code} {c.label}" for c in options.classes)
        }
        if not self.vint:
            for name in ("bye", "walkout"):
                score = getattr(options, f"{name}_score")
                fixed = not isinstance(score, str)
                initial[f"{name}_mode"] = "fixed" if fixed else "average"
                initial[f"{name}_big"] = score.big if fixed else None
                initial[f"{name}_small"] = score.small if fixed else None
            initial["team_size_min"] = options.team_size_min
            initial["team_size_max"] = options.team_size_max
            counting = options.team_counting
            initial["counting_mode"] = "all" if counting == "all" else "best"
            initial["counting_n"] = None if counting == "all" else counting
        kwargs.setdefault("initial", initial)
        super().__init__(*args, **kwargs)
        if self.vint:
            for name in list(self.fields):
                if name not in ("classes", "reason"):
                    del self.fields[name]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.vint:
            return data
        for name in ("bye", "walkout"):
            if data.get(f"{name}_mode") == "fixed":
                for part in ("big", "small"):
                    if data.get(f"{name}_{part}") is None and f"{name}_{part}" not in self.errors:
                        self.add_error(f"{name}_{part}", _("Type the points of the fixed score."))
        counting = data.get("counting_mode") == "best" and data.get("counting_n") is None
        if counting and "counting_n" not in self.errors:
            self.add_error("counting_n", _("Type how many players count."))
        return data

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        classes = []
        for line in data["classes"].splitlines():
            if line.strip():
                code, _space, label = line.strip().partition(" ")
                classes.append({"code": code, "label": " ".join(label.split())})
        out: dict[str, Any] = {}
        if classes:
            out["classes"] = classes
        if self.vint:
            return out
        for name in ("bye", "walkout"):
            out[f"{name}_score"] = (
                {"big": data[f"{name}_big"], "small": data[f"{name}_small"]}
                if data[f"{name}_mode"] == "fixed"
                else "average"
            )
        out["team_size_min"] = data["team_size_min"]
        out["team_size_max"] = data["team_size_max"]
        out["team_counting"] = "all" if data["counting_mode"] == "all" else data["counting_n"]
        return out

    def add_problems(self, problems: list[Any]) -> None:
        """The rules' coded problems, each said in the reader's language beside its field."""
        for field, text in (problem_sentence(p) for p in problems):
            self.add_error(field if field in self.fields else None, text)


def problem_sentence(problem: Any) -> tuple[str | None, str]:
    """The form field and the translated sentence of a problem of
    ``tournaments.ranking.competition``'s options (never its English message)."""
    code, params, where = problem.code, problem.params, problem.field or ""
    if code == "competition.score_invalid":
        option = str(params.get("option", where))
        field = "bye_big" if option.startswith("bye") else "walkout_big"
        return field, gettext("The fixed score takes whole numbers; its big points not below 0.")
    if code == "competition.class_code":
        return "classes", gettext("Each class needs a code.")
    if code == "competition.class_label":
        return "classes", gettext("Each class needs a name after its code.")
    if code == "competition.class_repeated":
        return "classes", gettext("The class code %(code)s is given twice.") % {
            "code": params.get("class_code", "")
        }
    if code == "competition.team_size_invalid":
        return str(params.get("option", "team_size_min")), gettext(
            "A team size is a whole number of at least 1."
        )
    if code == "competition.team_sizes_crossed":
        return "team_size_min", gettext(
            "The smallest team (%(low)s) is larger than the largest team (%(high)s)."
        ) % {"low": params.get("low"), "high": params.get("high")}
    if code == "competition.team_counting_invalid":
        if "high" in params:
            return "counting_n", gettext(
                "Count from 1 to the largest team's size (%(high)s) players, or all."
            ) % {"high": params["high"]}
        return "counting_n", gettext("Count at least 1 player, or all.")
    return None, gettext("These options cannot be stored: check them and try again.")


class SituationForm(forms.Form):
    """A walkout (who left, after which deal) or a short table (which seat never came)
    at a table of the round: the seat is chosen as its player."""

    what = forms.ChoiceField(
        label=_("What happened"),
        choices=[
            ("walkout", _("a player walked out")),
            ("short", _("a player never came (short table)")),
        ],
        widget=forms.RadioSelect,
    )
    seat = forms.ChoiceField(label=_("Who"))
    after = forms.IntegerField(
        label=_("after deal (0: before the first deal)"), required=False, min_value=0
    )
    reason = MendReasonField()

    def __init__(self, *args: Any, seats: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["seat"]).choices = [
            ("", gettext("(choose a player)")),
            *seats,
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (
            data.get("what") == "walkout"
            and data.get("after") is None
            and "after" not in self.errors
        ):
            self.add_error("after", _("Say after which deal the player left."))
        return data


class AdjustmentForm(forms.Form):
    """A penalty or award: a player by start number, an optional round, the points (as
    typed: whole numbers or halves) and the reason."""

    number = forms.IntegerField(label=_("Start number"), min_value=1, max_value=999_999)
    round = forms.TypedChoiceField(
        label=_("Round (optional)"), coerce=int, required=False, empty_value=None
    )
    big = forms.CharField(label=_("Big points (e.g. -1 or 1/2)"), required=False, max_length=20)
    small = forms.CharField(label=_("Small points (e.g. -10)"), required=False, max_length=20)
    net = forms.CharField(label=_("Net points (e.g. -5)"), required=False, max_length=20)
    reason = MendReasonField(label=_("Reason (shown under the standings)"))

    def __init__(self, *args: Any, rounds: list[int], vint: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.TypedChoiceField, self.fields["round"]).choices = [
            ("", gettext("the whole tournament")),
            *[(str(n), gettext("round %(n)s") % {"n": n}) for n in rounds],
        ]
        for name in ("big", "small") if vint else ("net",):
            del self.fields[name]


class EventUploadForm(forms.Form):
    """An event file (``formats/event-json.md``) to import: its first step uploads it.
    The tournament is the chosen club's, its players matched in that club's register."""

    event_file = forms.FileField(label=_("Event file (JSON)"))
    club = DirectedClubField(label=_("The tournament's club (players matched in its register)"))

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(DirectedClubField, self.fields["club"]).limit_to(user)


class EventConfirmForm(forms.Form):
    """The second step: the file's text, kept in the page the director confirms."""

    event_text = forms.CharField(widget=forms.Textarea(attrs={"hidden": True}), strip=False)
    club = DirectedClubField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(DirectedClubField, self.fields["club"]).limit_to(user)

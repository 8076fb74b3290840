"""Tournaments and registration: create a tournament, enter players (one by one or a
pasted list), check them in, withdraw them between rounds and reinstate them (each
withdrawal and reinstatement kept in the tournament's history)."""

from __future__ import annotations

import csv
import io
import secrets
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from clubs.selectors import fold_name, names_alike
from clubs.services import club_or_first, player_create
from scoring.engines.sheet_checks import MAX_NAME_LENGTH, name_problem
from scoring.profile_services import create_with_unique_slug
from tournaments.errors import EntriesRejected, TournamentError
from tournaments.models import Registration, Tournament
from tournaments.services.acceptance import results_changed
from tournaments.services.mend import action_record, mend_reason


def tournament_create(
    *,
    name: str,
    game: str,
    profile_version: Any,
    rounds: int = 5,
    deals_per_round: int = 32,
    club: Club | None = None,
    seed: int | None = None,
    hide_standings: bool = False,
    round_minutes: int | None = None,
    created_by: Any = None,
) -> Tournament:
    if profile_version.profile.game != game:
        raise TournamentError(_("The rule profile is for another game."))
    return create_with_unique_slug(
        Tournament,
        base=slugify(name)[:40] or "tournament",
        name=name,
        game=game,
        profile_version=profile_version,
        rounds_planned=rounds,
        deals_per_round=deals_per_round,
        club=club,
        seed=seed if seed is not None else secrets.randbelow(2**31),
        hide_standings=hide_standings,
        round_minutes=round_minutes,
        created_by=created_by,
    )


@transaction.atomic
def registration_add(
    *, tournament: Tournament, player: Player, pair: str = "", team: str = ""
) -> Registration:
    """Enter a player; after round r has been seated they join from round r+1 (late arrival)."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    # One person, one entry: two clubs' register rows of a merged person never play
    # one event twice (nor sit at one table).
    if tournament.entries.filter(player__person_id=player.person_id).exists():
        raise TournamentError(_("%(name)s is already registered.") % {"name": player.name})
    last = tournament.entries.aggregate(m=Max("number"))["m"] or 0
    seated = tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    return Registration.objects.create(
        tournament=tournament,
        player=player,
        number=last + 1,
        first_round=seated + 1,
        checked_in=seated > 0,
        pair=pair,
        team=team,
    )


def _pasted_player(line: int, cells: list[str], club: Club, problems: list[str]) -> Any:
    """The player a pasted line names: by club number when given (checked against the
    name), else by name (a new player of ``club`` when nobody has it)."""
    name = " ".join(cells[0].split())
    if not name:
        problems.append(_("Line %(n)s: the name is missing.") % {"n": line})
        return None
    if name_problem(name) is not None:  # too long, a NUL, a lone surrogate
        problems.append(
            _("Line %(n)s: a name has at most %(max)s letters and no control characters.")
            % {"n": line, "max": MAX_NAME_LENGTH}
        )
        return None
    if len(cells) > 2:
        problems.append(
            _("Line %(n)s: expected a name, or a name and a club number.") % {"n": line}
        )
        return None
    number = cells[1].strip() if len(cells) == 2 else ""
    if number:
        if not number.isdigit():
            problems.append(
                _("Line %(n)s: %(value)s is not a club number.") % {"n": line, "value": number}
            )
            return None
        player = Player.objects.filter(club=club, number=int(number)).first()
        if player is None:
            problems.append(
                _("Line %(n)s: %(club)s has no player number %(number)s.")
                % {"n": line, "club": club.name, "number": number}
            )
        elif not names_alike(player.name, name):
            problems.append(
                _("Line %(n)s: club number %(number)s is %(player)s, not %(name)s.")
                % {"n": line, "number": number, "player": player.name, "name": name}
            )
            return None
        return player
    same = [p for p in Player.objects.all() if fold_name(p.name) == fold_name(name)]
    if len(same) > 1:
        problems.append(
            _("Line %(n)s: more than one player is called %(name)s: add the club number.")
            % {"n": line, "name": name}
        )
        return None
    return same[0] if same else name


@transaction.atomic
def registrations_paste(*, tournament: Tournament, text: str) -> list[Registration]:
    """Register a pasted list at once: one player a line, ``name`` or ``name,club number``
    (CSV, as a spreadsheet copies it). New names become players of the tournament's club.
    All or nothing: ``EntriesRejected`` lists every line's problem; players already
    registered are skipped."""
    club = club_or_first(tournament.club)
    problems: list[str] = []
    wanted: list[Any] = []
    try:
        rows = list(csv.reader(io.StringIO(text.strip())))
    except csv.Error:  # a cell over the csv module's limit (128 KiB), a stray NUL
        raise EntriesRejected([_("The list cannot be read: paste one player a line.")]) from None
    for line, cells in enumerate(rows, 1):
        if not cells or not "".join(cells).strip():
            continue
        if line == 1 and fold_name(cells[0]) in ("name", "nazwisko", "imie i nazwisko"):
            continue  # a spreadsheet's header row
        found = _pasted_player(line, cells, club, problems)
        if found is not None:
            wanted.append(found)
    if problems:
        raise EntriesRejected(problems)
    if not wanted:
        raise EntriesRejected([_("Paste one player a line.")])
    registered = set(tournament.entries.values_list("player__person_id", flat=True))
    added = []
    for found in wanted:
        player = found if isinstance(found, Player) else player_create(club=club, name=found)
        if player.person_id in registered:
            continue
        registered.add(player.person_id)
        added.append(registration_add(tournament=tournament, player=player))
    return added


@transaction.atomic
def registrations_check_in_all(*, tournament: Tournament) -> int:
    """Check in everyone registered and not withdrawn; how many were checked in now."""
    return tournament.entries.filter(withdrawn_after__isnull=True, checked_in=False).update(
        checked_in=True
    )


def registration_check_in(*, registration: Registration, present: bool = True) -> Registration:
    registration.checked_in = present
    registration.save(update_fields=["checked_in"])
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration, user: Any, reason: str) -> Registration:
    """Withdraw between rounds, saying why: the player keeps the rounds played and sits
    out the rest (``registration_reinstate`` takes it back); kept in the history."""
    text = mend_reason(reason)
    Tournament.objects.select_for_update().filter(pk=registration.tournament_id).first()
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.withdrawn_after is not None:
        raise TournamentError(
            _("%(name)s has already withdrawn.") % {"name": registration.player.name}
        )
    seated = registration.tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    registration.withdrawn_after = seated
    registration.save(update_fields=["withdrawn_after"])
    action_record(
        tournament=registration.tournament,
        user=user,
        action="withdrawn",
        reason=text,
        details={"number": registration.number, "after": seated},
    )
    # The standings mark who withdrew: a new version, so no page shows the old mark.
    results_changed(tournament=registration.tournament)
    return registration


@transaction.atomic
def registration_reinstate(*, registration: Registration, user: Any, reason: str) -> Registration:
    """Take a withdrawal back, saying why: the player is seated again from the next
    round seated (the rounds missed meanwhile count as absent); kept in the history."""
    text = mend_reason(reason)
    Tournament.objects.select_for_update().filter(pk=registration.tournament_id).first()
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.withdrawn_after is None:
        raise TournamentError(_("%(name)s has not withdrawn.") % {"name": registration.player.name})
    after = registration.withdrawn_after
    registration.withdrawn_after = None
    registration.save(update_fields=["withdrawn_after"])
    action_record(
        tournament=registration.tournament,
        user=user,
        action="reinstated",
        reason=text,
        details={"number": registration.number, "after": after},
    )
    # The standings mark who withdrew: a new version, so no page shows the old mark.
    results_changed(tournament=registration.tournament)
    return registration

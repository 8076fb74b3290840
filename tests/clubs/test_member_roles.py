"""Roles in a club, given and taken on the members page and by ``manage.py grant`` /
``revoke`` (issue 26): a director manages his own clubs' members only, nobody resets the
password of someone with more rights, a club keeps a director, and each change is kept
as a record."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from clubs.models import ClubRecord, Membership
from clubs.roles import make_director, make_scorer
from tests.clubs.identities import database_state, refused
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _roles(user) -> set[tuple[str, str]]:
    return set(Membership.objects.filter(user=user).values_list("club__name", "role"))


def test_a_director_gives_a_role_in_his_club_to_an_existing_account(people):
    ola = UserFactory(username="ola")
    response = people.client("director_a").post(
        "/accounts/members/roles/",
        {"username": "ola", "club": people.club_a.pk, "role": "scorer"},
    )
    assert response.status_code == 302
    assert _roles(ola) == {("Klub A", "scorer")}
    record = ClubRecord.objects.get(club=people.club_a, action="granted")
    assert record.user == people.users["director_a"] and record.detail["user"] == ola.pk
    page = people.client("director_a").get("/accounts/members/")
    assert b"ola" in page.content and b"Klub A" in page.content


def test_a_new_user_name_makes_an_account_whose_password_is_shown_once(people):
    response = people.client("director_a").post(
        "/accounts/members/roles/",
        {"username": "nowy.sedzia", "club": people.club_a.pk, "role": "scorer"},
    )
    assert response.status_code == 200
    password = response.context["password"]
    user = get_user_model().objects.get(username="nowy.sedzia")
    assert user.check_password(password) and password.encode() in response.content
    assert _roles(user) == {("Klub A", "scorer")}


def test_a_director_gives_no_role_in_another_club(people):
    ola = UserFactory(username="ola")
    before = database_state()
    response = people.client("director_b").post(
        "/accounts/members/roles/",
        {"username": "ola", "club": people.club_a.pk, "role": "director"},
    )
    assert response.status_code == 400  # club A is not among his choices
    assert "username" not in response.context["form"].errors  # what he typed is kept
    assert response.context["form"]["username"].value() == "ola"
    assert database_state() == before and _roles(ola) == set()


def test_a_director_takes_away_roles_in_his_club_only(people):
    scorer_a = Membership.objects.get(user=people.users["scorer_a"])
    before = database_state()
    url = f"/accounts/members/roles/{scorer_a.pk}/revoke/"
    assert refused(people.client("director_b").post(url))
    assert refused(people.client("scorer_a").post(url))
    assert database_state() == before
    assert people.client("director_a").post(url).status_code == 302
    assert _roles(people.users["scorer_a"]) == set()
    assert ClubRecord.objects.filter(club=people.club_a, action="revoked").count() == 1


def test_a_club_keeps_at_least_one_director(people):
    own = Membership.objects.get(user=people.users["director_a"], role="director")
    response = people.client("director_a").post(f"/accounts/members/roles/{own.pk}/revoke/")
    assert response.status_code == 302
    assert Membership.objects.filter(pk=own.pk).exists()


def test_the_members_page_lists_only_my_clubs_members(people):
    page = people.client("director_b").get("/accounts/members/")
    assert page.status_code == 200
    assert b"director-b" in page.content
    assert b"scorer-a" not in page.content and b"director-a" not in page.content


def test_nobody_resets_the_password_of_another_clubs_director_or_member(people):
    """The attack of the issue: club B's director reset club A's director's password."""
    before = database_state()
    for target in ("director_a", "scorer_a"):
        url = f"/accounts/members/{people.users[target].pk}/password/"
        assert people.client("director_b").post(url).status_code == 403
    assert database_state() == before


def test_a_director_of_both_clubs_outranks_a_director_of_one(people):
    """Club A's director cannot reset a member who also directs club B; the site
    administrator can."""
    both = UserFactory(username="both")
    make_director(both, people.club_a)
    make_director(both, people.club_b)
    url = f"/accounts/members/{both.pk}/password/"
    assert people.client("director_a").post(url).status_code == 403
    assert people.client("site_admin").post(url).status_code == 200


def test_a_director_resets_his_own_clubs_scorer(people):
    url = f"/accounts/members/{people.users['scorer_a'].pk}/password/"
    response = people.client("director_a").post(url)
    assert response.status_code == 200
    people.users["scorer_a"].refresh_from_db()
    assert people.users["scorer_a"].check_password(response.context["password"])


def test_grant_and_revoke_from_the_command_line(people):
    ola = UserFactory(username="ola")
    call_command("grant", "ola", club="Klub B", role="director")
    assert _roles(ola) == {("Klub B", "director")}
    call_command("revoke", "ola", club="Klub B", role="director")
    assert _roles(ola) == set()
    with pytest.raises(CommandError, match="No club named"):
        call_command("grant", "ola", club="Klub C", role="scorer")
    with pytest.raises(CommandError, match="No account named"):
        call_command("grant", "nobody", club="Klub B", role="scorer")


def test_a_scorer_of_one_club_is_a_scorer_there_only(people):
    from clubs.roles import scores_for

    make_scorer(people.users["no_role"], people.club_b)
    user = get_user_model().objects.get(pk=people.users["no_role"].pk)
    assert scores_for(user, people.club_b) and not scores_for(user, people.club_a)


def test_a_site_administrator_names_a_new_clubs_first_director_in_the_admin(people):
    ola = UserFactory(username="ola")
    admin = people.client("site_admin")
    response = admin.post(
        "/admin/clubs/club/add/",
        {
            "name": "Klub C",
            "city": "Puck",
            "kind": "club",
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-0-user": ola.pk,
            "memberships-0-role": "director",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    assert _roles(ola) == {("Klub C", "director")}

"""Rule options of rules/kop.md §7.1 and rules/vint.md A31 in the app: profiles, pads,
warnings, exports and imports. Expected values are worked by hand in the comments."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils.translation import override

from scoring import imports, option_text, profile_services, services
from scoring.engines import kop, vint
from scoring.engines.errors import SheetError
from scoring.engines.rules import BUILTIN_PROFILES
from scoring.games.kop.models import KopDeal
from scoring.models import RuleProfile, RuleProfileVersion, TableSession
from scoring.option_fields import rules_defaults
from scoring.profile_forms import ProfileForm
from scoring.profiles import BUILTIN_TEXTS
from tests.actors import home_club
from tests.factories import KOSCIAN, RuleProfileVersionFactory, TableSessionFactory

pytestmark = pytest.mark.django_db

ACTOR = services.Actor(label="t", is_director=True)


def url(name, session, **kw):
    return reverse(f"scoring:{name}", kwargs={"pk": session.pk, **kw})


# ----------------------------------------------------------------- built-in profiles


def test_the_new_builtin_profiles_exist_with_their_sources(profiles):
    assert profiles["kop-koscian"].current.options["soloist_doubling"] == "never"
    assert profiles["baska-puck"].current.options["du_as_suffix"] is True
    assert "grand" not in profiles["baska-no-grand"].current.options["contracts"]
    for slug, profile in profiles.items():
        if profile.builtin:
            # Each cites its source; Wolsztyn says which numbers come from practice.
            assert "Source:" in profile.description, slug
    assert "From practice, not from a published regulation" in profiles["kop-wolsztyn"].description


def test_every_builtin_has_translated_texts(profiles):
    assert set(BUILTIN_TEXTS) == set(BUILTIN_PROFILES)
    with override("pl"):
        assert profiles["baska-no-grand"].display_name == "Baśka bez granda"
        assert str(profiles["kop-koscian"].current).startswith("Kop, regulamin Kościana")
        assert "Źródło" in profiles["kop-wolsztyn"].display_description
    with override("en"):
        assert profiles["baska-no-grand"].display_name == "Baśka without grand"


def test_a_changed_builtin_gets_a_new_version(profiles):
    # As a database made before §7.1: Kościan's version without soloist_doubling.
    koscian = profiles["kop-koscian"]
    options = dict(koscian.current.options)
    del options["soloist_doubling"]
    RuleProfileVersion.objects.filter(profile=koscian).delete()
    RuleProfileVersion.objects.create(
        profile=koscian,
        version=1,
        options=options,
        tournament=BUILTIN_PROFILES["kop-koscian"].tournament,
    )
    profile_services.profile_sync_builtin()
    assert koscian.current.version == 2
    assert koscian.current.options["soloist_doubling"] == "never"
    profile_services.profile_sync_builtin()
    assert koscian.versions.count() == 2


def test_the_profile_list_shows_names_and_sources(client, profiles):
    html = client.get(reverse("scoring:profiles"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Baśka without grand" in html and "Gorzów" in html


# ----------------------------------------------------------------- the profile editor


def test_the_editor_offers_the_options_with_their_explanations(director_client, profiles):
    html = director_client.get(reverse("scoring:profile_new")).content.decode()
    for name in (
        "contracts",
        "contract_factor__cicha",
        "bez_wyjscia_max__declarers",
        "soloist_doubling",
        "session_structure",
        "big_points_1",
        "tie_break_1",
    ):
        assert f'name="{name}"' in html
    assert "the pad offers only these" in html  # the explanation of "contracts"


def test_the_option_fields_make_the_options_and_each_change_a_version(director_client, profiles):
    data = {
        "name": "Gorzów cup",
        "game": "baska",
        "contracts": ["normal", "cicha", "wesele", "zolo", "zolo_du", "baska"],
        "contract_factor__cicha": "1",
        "bez_wyjscia_max__declarers": "26",
        "bez_wyjscia_max__defenders": "25",
        "soloist_doubling": "never",
        "session_structure": "",
        **KOSCIAN,
        "club": home_club().pk,
    }
    response = director_client.post(reverse("scoring:profile_new"), data)
    assert response.status_code == 302, response.content.decode()
    profile = RuleProfile.objects.get(name="Gorzów cup")
    assert profile.current.options == {
        "contracts": ["normal", "cicha", "wesele", "zolo", "zolo_du", "baska"],
        "contract_factor": {"cicha": 1},
        "bez_wyjscia_max": {"declarers": 26, "defenders": 25},
        "soloist_doubling": "never",
    }
    edit = reverse("scoring:profile_edit", kwargs={"slug": profile.slug})
    # The stored options come back in their own fields.
    html = director_client.get(edit).content.decode()
    assert 'value="26"' in html and 'value="never" selected' in html
    response = director_client.post(edit, {**data, "bez_wyjscia_max__defenders": "26"})
    assert response.status_code == 302
    assert profile.versions.count() == 2
    assert profile.current.options["bez_wyjscia_max"] == 26  # equal sides: one number


def test_bad_option_values_are_refused_beside_their_field(director_client, profiles):
    data = {"name": "X", "game": "kop", **KOSCIAN}
    response = director_client.post(
        reverse("scoring:profile_new"), {**data, "contracts": ["zolo", "grand"]}
    )
    form = response.context["form"]
    # grand is Baśka's; the engine names it beside the contracts.
    assert "grand" in " ".join(form.errors["contracts"])
    response = director_client.post(
        reverse("scoring:profile_new"), {**data, "session_structure": "free"}
    )
    assert "session_structure" in response.context["form"].errors
    response = director_client.post(
        reverse("scoring:profile_new"), {**data, "contract_factor__cicha": "0"}
    )
    assert "contract_factor__cicha" in response.context["form"].errors
    assert not RuleProfile.objects.filter(name="X").exists()


# ------------------------------------------------------------------------- the Kop pad


def test_the_pad_offers_only_the_allowed_contracts(scorer_client, scorer, profiles, four_players):
    session = TableSessionFactory(
        game="baska", profile="baska-no-grand", players=four_players, title="T", created_by=scorer
    )
    html = scorer_client.get(url("session", session)).content.decode()
    assert 'value="zolo_du"' in html and 'value="baska"' in html
    assert 'value="grand"' not in html and 'value="grand_du"' not in html
    # Posted anyway (an old page), it is refused and nothing is saved.
    data = {"contract": "grand", "declarers": ["2"], "doublings": "0", "declarer_points": "70"}
    response = scorer_client.post(url("deal_add", session), data)
    assert response.status_code == 200
    assert KopDeal.objects.count() == 0
    # The paper pad of the session leaves it out too.
    pad = scorer_client.get(url("pad", session)).content.decode()
    assert "grand" not in pad


def test_a_soloist_doubling_the_profile_forbids_is_confirmed_first(
    scorer_client, scorer, profiles, four_players
):
    session = TableSessionFactory(
        profile="kop-koscian", players=four_players, title="T", created_by=scorer
    )
    # Zolo by seat 3; seat 4 kontra, seat 3 rej. R5 allows it; Kościan (never) does not.
    data = {
        "contract": "zolo",
        "declarers": ["3"],
        "doubling_mode": "seats",
        "doubling_seats": "4 3",
        "declarer_points": "70",
    }
    html = scorer_client.post(
        url("deal_add", session), data, HTTP_ACCEPT_LANGUAGE="pl"
    ).content.decode()
    assert 'id="confirm-box"' in html
    assert "Solista (miejsce 3) kontrował" in html  # the Polish sentence
    assert KopDeal.objects.count() == 0
    response = scorer_client.post(url("deal_add", session), {**data, "confirm": "on"})
    assert response.status_code == 302
    deal = KopDeal.objects.get()
    # k = 2 all the same: 5 x 4 = 20 per opponent, the soloist +60.
    assert deal.payments == (-20, -20, 60, -20)
    assert "forbid the soloist any doubling" in deal.warnings_confirmed[0]


# ----------------------------------------------------------------- export and import


def test_export_carries_rules_and_warnings_and_imports_to_the_same_session(
    client, director_client, profiles, four_players
):
    session = TableSessionFactory(profile="kop-koscian", players=four_players, title="T")
    services.deal_record(
        session=session,
        facts={
            "contract": "cicha",
            "declarers": [1],
            "doubling_seats": [2, 1],
            "declarer_points": 61,
        },
        actor=ACTOR,
        confirm_warnings=True,
    )
    services.deal_record(
        session=session,
        facts={"contract": "normal", "declarers": [1, 3], "doublings": 5, "declarer_points": 60},
        actor=ACTOR,
    )
    sheet = json.loads(client.get(url("export_json", session)).content)
    assert sheet["rules"]["soloist_doubling"] == "never"
    assert sheet["rules"]["doubling_cap"]["normal"] == 5
    assert len(sheet["deals"][0]["warnings"]) == 1 and sheet["deals"][1]["warnings"] == []
    imported = imports.session_import_sheet(data=sheet, user=None, club=home_club(), title="again")
    assert imported.profile_version == session.profile_version  # the same Kościan version
    again = json.loads(client.get(url("export_json", imported)).content)
    assert again == sheet
    # The score command shows the warning of deal 1 (cicha 61 with kontra, rej by the
    # cicha player: 4 x 4 = 16 each, seat 1 +48).
    out = StringIO()
    path = _write(sheet)
    call_command("score", path, stdout=out)
    scored = json.loads(out.getvalue())
    assert scored["deals"][0]["payments"] == [48, -16, -16, -16]
    assert "forbid the soloist any doubling" in scored["deals"][0]["warnings"][0]
    err = StringIO()
    call_command("score", "--check", path, stdout=out, stderr=err)
    assert err.getvalue().startswith("deal 1: doubling_seats: seat 1, the soloist, doubled")


def _write(sheet):
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as fh:
        json.dump(sheet, fh)
    return fh.name


def test_an_import_with_a_contract_the_rules_forbid_writes_nothing(director, profiles):
    sheet = {
        "game": "baska",
        "rules": {"contracts": ["normal", "zolo"]},
        "players": ["Ala", "Bartek", "Celina", "Darek"],
        "deals": [{"contract": "grand", "declarers": [2], "doublings": 0, "declarer_points": 70}],
    }
    before = TableSession.objects.count()
    with pytest.raises(SheetError, match="grand is not played under these rules"):
        imports.session_import_sheet(data=sheet, user=director, club=home_club())
    assert TableSession.objects.count() == before


# ----------------------------------------------------------------- Vint session structure


def _vint_sheet(seatings, rules=None):
    return {
        "game": "vint",
        **({"rules": rules} if rules else {}),
        "rubbers": [
            {"seats": dict(zip("NESW", s, strict=True)), "first_dealer": "N", "deals": []}
            for s in seatings
        ],
    }


def test_a_repeated_partnership_is_refused_naming_it(director, profiles):
    # Rubber 2 seats Anna opposite Carl again (as in rubber 1).
    sheet = _vint_sheet([("Anna", "Boris", "Carl", "Dina"), ("Anna", "Dina", "Carl", "Boris")])
    with pytest.raises(SheetError, match="rubber 2: Anna and Carl were partners in rubber 1"):
        imports.session_import_sheet(data=sheet, user=director, club=home_club())
    # Under "free" the same sheet imports.
    sheet["rules"] = {"session_structure": "free"}
    assert imports.session_import_sheet(data=sheet, user=director, club=home_club()).game == "vint"


def test_a_free_session_opens_a_fourth_rubber(profiles, director, vint_players):
    version = RuleProfileVersionFactory(
        profile__slug="vint-free",
        profile__name="Vint free",
        profile__game="vint",
        options={"session_structure": "free"},
    )
    session = TableSessionFactory(
        game="vint", profile_version=version, players=vint_players, title="free"
    )
    from scoring.games.vint.board import vint_scoreboard

    board = vint_scoreboard(session=session)
    assert len(board.rubbers) == 3 and board.current is board.rubbers[0]
    # Rubber 4 seats as rubber 1 again: A+C v B+D.
    from scoring.games.vint.board import standard_seats

    assert standard_seats(4) == standard_seats(1)


def test_the_rotated_session_refuses_a_fourth_rubber_naming_the_partnership(profiles, four_players):
    from scoring.games.vint.board import vint_scoreboard
    from scoring.games.vint.ledger import session_complete_message

    session = TableSessionFactory(game="vint", players=four_players, title="T")
    message = session_complete_message(vint_scoreboard(session=session))
    # Rubber 4 would seat players 1 and 3 (Ala, Celina) together as in rubber 1.
    assert "Ala and Celina partners again" in message


def test_the_editor_shows_no_developer_text(director_client, profiles):
    """Issue 27: no ``null``, no JSON box, no option keys in the hints, no "§7"; every
    option the engines know has a field or is one the import format keeps."""
    for url in (
        reverse("scoring:profile_new"),
        reverse("scoring:profile_new") + "?copy=kop-koscian",
        reverse("scoring:profile_new") + "?copy=vint",
    ):
        html = director_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        text = re.sub(r"<[^>]+>", " ", html)
        for developer in ("null", "JSON", "§", "{", "bez_wyjscia_max", "doubling_cap", "_"):
            assert developer not in text, (url, developer)
    form = ProfileForm()
    names = set(form.fields)
    for option in [
        *rules_defaults(kop.default_rules("baska")),
        *rules_defaults(vint.DEFAULT_RULES),
    ]:
        assert (
            option in option_text.IMPORT_ONLY
            or option in names
            or any(n.startswith(f"{option}__") for n in names)
        ), option
        assert option in option_text.IMPORT_ONLY or option_text.HELP.get(option), option


def test_options_the_editor_does_not_offer_are_kept_on_a_new_version(director_client, profiles):
    """A profile imported with the doubling names ``doubling_names`` keeps them when a
    director changes another option in the editor."""
    profile = profile_services.profile_save(
        profile=None,
        name="Names",
        game="kop",
        options={"doubling_names": ["kontra", "rej"], "auction_end": "all_pass"},
        tournament={"big_points": [5, 3, 1, 0], "tie_breaks": ["small_points"]},
        club=home_club(),
    ).profile
    edit = reverse("scoring:profile_edit", kwargs={"slug": profile.slug})
    html = director_client.get(edit).content.decode()
    assert 'value="all_pass" selected' in html and '"rej"' not in html
    response = director_client.post(
        edit,
        {
            "name": "Names",
            "auction_end": "all_pass",
            "higher_bid_cancels_doublings": "no",
            **KOSCIAN,
            "tie_break_2": "",
        },
    )
    assert response.status_code == 302, response.content.decode()
    profile.refresh_from_db()
    assert profile.current.options == {
        "doubling_names": ["kontra", "rej"],
        "auction_end": "all_pass",
        "higher_bid_cancels_doublings": False,
    }
    assert profile.current.tournament == {
        "big_points": [5, 3, 1, 0],
        "tie_breaks": ["small_points", "second_places", "third_places"],
    }


def test_a_tie_break_named_twice_is_refused(director_client, profiles):
    response = director_client.post(
        reverse("scoring:profile_new"),
        {"name": "Twice", "game": "kop", **KOSCIAN, "tie_break_2": "small_points"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["tie_break_1"]
    assert not RuleProfile.objects.filter(name="Twice").exists()

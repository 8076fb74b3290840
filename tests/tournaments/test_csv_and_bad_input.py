"""Tournament CSV files a spreadsheet can open safely (``config.csvexport``: names that
would run as a formula written as text, tied ranks "1="), and tournament forms that
refuse extreme input.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.translation import gettext, override

from scoring import services as scoring_services
from tests.actors import DIRECTOR_ACCEPTS
from tests.config.test_csvexport import RAW, assert_escaped, read_csv, rename
from tests.factories import play_rounds_then_rate
from tests.strict_db import postgres_rules
from tournaments import services
from tournaments.models import Tournament

TABLE = scoring_services.Actor(label="table link")
# Seats 1 and 3 declare and win: +1 -1 +1 -1, so the table has two shared places.
NORMAL = {"contract": "normal", "declarers": [1, 3], "doublings": 0, "declarer_points": 70}


def test_standings_csv_escapes_names_and_writes_ties_as_1_equals(
    client, kop_tournament, sixteen, commit
):
    rnd = services.round_generate(tournament=kop_tournament)
    table = rnd.tables.get(number=1)
    seated = [s.player for s in table.session.seats.order_by("seat")]
    rename(seated)
    scoring_services.deal_record(session=table.session, facts=NORMAL, actor=TABLE)
    with commit():
        services.round_table_accept(table=table, actor=DIRECTOR_ACCEPTS, reason="on paper")
    rows = read_csv(
        client.get(reverse("tournaments:standings_csv", kwargs={"slug": kop_tournament.slug}), RAW)
    )
    assert rows[0][:4] == ["rank", "place", "number", "name"]
    assert_escaped(rows)
    ranks = [row[0] for row in rows[1:]]
    assert "1=" in ranks and not any(r.startswith("=") for r in ranks)
    by_name = {row[3]: row for row in rows[1:]}
    assert by_name["'-2+3"][5] == "-1"  # small points: a number, not escaped text


def test_rating_leaderboard_csv_escapes_names(client, kop_tournament, sixteen):
    play_rounds_then_rate(kop_tournament, 1)
    rename([e.player for e in sixteen])
    rows = read_csv(
        client.get(reverse("tournaments:rating_leaderboard_csv", args=["kop"]), {"min": 0, **RAW})
    )
    assert rows[0][:3] == ["rank", "number", "name"]
    assert_escaped(rows)
    assert any(row[8].startswith("-") for row in rows[1:])  # a negative change stays a number


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("seed", "ok"), [(2**63 - 1, True), (2**63, False), (10**30, False)])
def test_a_seed_beyond_64_bits_is_a_form_error(director_client, profiles, seed, ok):
    with postgres_rules():
        response = director_client.post(
            reverse("tournaments:new"),
            {
                "name": "Seeded",
                "profile": profiles["kop-koscian"].pk,
                "rounds": 3,
                "deals_per_round": 4,
                "seed": str(seed),
            },
        )
    assert Tournament.objects.filter(name="Seeded").exists() is ok
    assert response.status_code == (302 if ok else 200)


def test_a_seating_cell_over_128_kib_is_a_problem_and_nothing_is_stored(
    director_client, kop_tournament, sixteen
):
    text = "round,table,seat,player\n1,1,1," + "7" * 140_000 + "\n"
    with postgres_rules():
        response = director_client.post(
            reverse("tournaments:round_import", kwargs={"slug": kop_tournament.slug}),
            {"csv_file": SimpleUploadedFile("s.csv", text.encode())},
        )
    assert response.status_code == 200
    assert "field larger than field limit" in response.content.decode()
    kop_tournament.refresh_from_db()
    assert not kop_tournament.seating_plan


def _page_numbers(html: str) -> dict[str, tuple[Decimal, Decimal]]:
    """Start number -> (big, small points) as the standings page shows them."""
    body = html.split('id="standings-current"')[1].split("<tbody")[1].split("</tbody>")[0]
    found = {}
    for row in body.split("</tr>")[:-1]:
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        found[cells[1]] = (_number(cells[3]), _number(cells[4]))
    return found


def _number(text: str) -> Decimal:
    return Decimal(text.strip().replace("\u2212", "-").replace(",", "."))


def test_the_polish_standings_csv_opens_back_with_the_page_s_numbers(
    client, kop_tournament, sixteen, commit
):
    """Issue 27: headings in Polish, ``;`` between cells and a decimal comma (four tied
    players share 5+3+1+0: 2,25 big points each), and the numbers the page shows."""
    rnd = services.round_generate(tournament=kop_tournament)
    table = rnd.tables.get(number=1)
    scoring_services.deal_record(session=table.session, facts=NORMAL, actor=TABLE)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    slug = {"slug": kop_tournament.slug}
    page = client.get(reverse("tournaments:standings", kwargs=slug), HTTP_ACCEPT_LANGUAGE="pl")
    response = client.get(
        reverse("tournaments:standings_csv", kwargs=slug), HTTP_ACCEPT_LANGUAGE="pl"
    )
    text = response.content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    head = rows[0]
    with override("pl"):
        assert head[:6] == [
            gettext("Rank"),
            gettext("Rank as a number"),
            gettext("Start number"),
            gettext("Name"),
            gettext("Big points"),
            gettext("Small points"),
        ]
    assert not [h for h in head if "_" in h]
    assert "2,25" in text and "2.25" not in text
    number, big, small = 2, 4, 5
    in_csv = {r[number]: (_number(r[big]), _number(r[small])) for r in rows[1:]}
    shown = _page_numbers(page.content.decode())
    assert len(in_csv) == 16 and in_csv == shown
    assert any(b != Decimal("2.25") for b, _s in in_csv.values())  # the table that played


def test_the_raw_csv_keeps_the_codes_a_program_reads(client, kop_tournament, sixteen, commit):
    rnd = services.round_generate(tournament=kop_tournament)
    with commit():
        services.round_accept_all(rnd=rnd, actor=DIRECTOR_ACCEPTS, reason="on paper")
    response = client.get(
        reverse("tournaments:standings_csv", kwargs={"slug": kop_tournament.slug}),
        RAW,
        HTTP_ACCEPT_LANGUAGE="pl",
    )
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:5] == ["rank", "place", "number", "name", "big_points"]
    assert rows[1][4] == "2.25"


def test_every_standings_column_has_a_heading_in_words():
    from config.csvexport import HEADINGS
    from tournaments.families.kop import KopRow
    from tournaments.families.vint import VintRow

    keys = {*KopRow.__annotations__, *VintRow.__annotations__} - {"by_round"}
    assert sorted(keys - set(HEADINGS)) == []

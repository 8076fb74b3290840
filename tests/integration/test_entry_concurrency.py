"""Entering deals from several phones at once, on PostgreSQL with real threads.

Every deal answer names its outcome (``X-Deal-Outcome``): one of two phones that
tap save for the same deal number gets ``saved``, the other ``conflict`` with
the next number offered; a form sent twice (double tap, back and resubmit) is
stored once and the second answer is ``replayed``. No answer is a server error,
no deal is lost or stored twice, and deal numbers have no gaps.

The helpers (phones, pads, answers, ``run_together``) are in ``pads.py``.
"""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from functools import partial

import pytest

from scoring.games.kop.models import KopDeal
from scoring.games.vint.models import VintDeal
from scoring.models import DealHistory, TableSession
from tests.factories import TableSessionFactory, UserFactory
from tests.integration.pads import (
    KEY_SHAPE,
    Answer,
    Phone,
    kop_deal,
    new_key,
    run_together,
    server_errors,
    vint_all_pass,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _table(game: str, profile: str, title: str = "") -> TableSession:
    return TableSessionFactory(game=game, profile=profile, title=title, created_by=UserFactory())


def _kop_numbers(session: TableSession) -> list[int]:
    return list(
        KopDeal.objects.filter(session=session).order_by("number").values_list("number", flat=True)
    )


def _created(session: TableSession) -> int:
    return DealHistory.objects.filter(session=session, action="created").count()


def _listed(errors: list[str], most: int = 5) -> str:
    more = f" (and {len(errors) - most} more)" if len(errors) > most else ""
    return f"{len(errors)} server error(s): " + "; ".join(errors[:most]) + more


def _split(answers: list[Answer]) -> tuple[int, int]:
    """(index of the saved answer, index of the conflict answer) of a pair."""
    outcomes = [a.outcome for a in answers]
    return outcomes.index("saved"), outcomes.index("conflict")


# ---------------------------------------------------------------- Kop: two phones


def test_two_kop_phones_tap_save_together_one_saved_one_conflict():
    """20 rounds: both phones hold a pad for deal N and tap at the same instant.

    The test knows N and makes the keys itself (the pad's own fields are read in the
    tests below); the phone that gets the conflict then takes the offered number.
    """
    table = _table("kop", "kop-pagat")
    phones = [Phone(table), Phone(table)]
    with server_errors() as errors:
        for r in range(20):
            n = 2 * r + 1
            facts = [kop_deal(60 + 2 * r), kop_deal(61 + 2 * r)]  # tells the two apart
            keys = [new_key(), new_key()]
            answers = run_together(
                *(
                    partial(p.post, f, expected_number=n, submission_key=k)
                    for p, f, k in zip(phones, facts, keys, strict=True)
                )
            )
            assert not errors, f"round {r + 1}: {_listed(errors)}"
            assert [a.status for a in answers] == [200, 200], f"round {r + 1}: {answers}"
            assert sorted(str(a.outcome) for a in answers) == ["conflict", "saved"], (
                f"round {r + 1} (deal {n}): {answers}; deals stored now: {_kop_numbers(table)}"
            )
            won, lost = _split(answers)
            assert answers[won].number == str(n)
            assert answers[lost].expected_number == n + 1, f"round {r + 1}: {answers[lost]}"
            assert _kop_numbers(table) == list(range(1, n + 1)), "the conflict wrote something"

            # The phone that lost takes the offered number (same key: it is still unsaved).
            retry = phones[lost].post(
                facts[lost],
                expected_number=answers[lost].expected_number,
                submission_key=keys[lost],
            )
            assert (retry.status, retry.outcome, retry.number) == (200, "saved", str(n + 1)), retry
        assert not errors, _listed(errors)

    assert _kop_numbers(table) == list(range(1, 41))
    points = sorted(KopDeal.objects.filter(session=table).values_list("declarer_points", flat=True))
    assert points == list(range(60, 100)), "a deal was lost or stored twice"
    assert _created(table) == 40


# ------------------------------------------------------------- Kop: 25 busy tables

TABLES, DEALS_EACH, MAX_TRIES = 25, 4, 10


def _enter_deals(phone: Phone, tag: int, step: threading.Barrier) -> list[Answer]:
    """One phone enters its DEALS_EACH deals; every deal answer it got, in order.

    Before each deal it waits for its table partner, so the two race; on a conflict it
    takes the offered number. The number and key of the next deal come from the previous
    answer (a saved answer is a fresh pad), or from the pad page if it carries none.
    """
    answers: list[Answer] = []
    try:
        form = phone.pad()
        assert form.status == 200, form
        for i in range(DEALS_EACH):
            if form.expected_number is None:
                form = phone.pad()
                assert form.status == 200, form
            facts = kop_deal(60 + tag * DEALS_EACH + i)  # this phone's i-th deal
            expected, key = form.expected_number, form.submission_key or new_key()
            step.wait()
            for _try in range(MAX_TRIES):
                answer = phone.post(facts, expected_number=expected, submission_key=key)
                answers.append(answer)
                if answer.outcome != "conflict":
                    break
                expected, key = answer.expected_number, answer.submission_key or key
            form = answer
    except BaseException:
        step.abort()  # do not leave the partner waiting
        raise
    return answers


def test_fifty_phones_on_twenty_five_kop_tables_lose_and_duplicate_nothing():
    tables = [_table("kop", "kop-pagat", f"Table {t + 1}") for t in range(TABLES)]
    steps = {t.pk: threading.Barrier(2, timeout=60) for t in tables}
    phones = [(t, tag, Phone(t)) for t in tables for tag in (0, 1)]
    started = time.monotonic()
    with server_errors() as errors:
        runs = run_together(
            *(partial(_enter_deals, phone, tag, steps[t.pk]) for t, tag, phone in phones),
            timeout=120,
        )
    elapsed = time.monotonic() - started
    answers = [a for run in runs for a in run]
    outcomes = Counter(a.outcome for a in answers)
    print(f"\n{len(phones)} phones, {len(answers)} posts in {elapsed:.1f} s: {dict(outcomes)}")

    assert not errors, _listed(errors)
    assert Counter(a.status for a in answers) == {200: len(answers)}
    total = TABLES * 2 * DEALS_EACH
    assert outcomes["saved"] == total and outcomes.keys() <= {"saved", "conflict"}, (
        f"want {total} saved and the rest conflict, got {dict(outcomes)}"
    )
    assert outcomes["conflict"] > 0, "no two phones raced (the test did not test)"
    for t in tables:
        assert _kop_numbers(t) == list(range(1, 2 * DEALS_EACH + 1)), t
        points = sorted(KopDeal.objects.filter(session=t).values_list("declarer_points", flat=True))
        assert points == list(range(60, 60 + 2 * DEALS_EACH)), f"{t}: lost or duplicated"
    assert DealHistory.objects.filter(action="created").count() == total


# ------------------------------------------------------------- Kop: the same form twice


def test_a_double_tap_stores_one_kop_deal():
    """Two requests of one browser carry the same form at the same instant, 10 times."""
    table = _table("kop", "kop-pagat")
    phone = Phone(table)
    twin = Phone(table, like=phone)  # the same browser session: a second request of it
    with server_errors() as errors:
        for n in range(1, 11):
            facts, key = kop_deal(70), new_key()
            answers = run_together(
                partial(phone.post, facts, expected_number=n, submission_key=key),
                partial(twin.post, facts, expected_number=n, submission_key=key),
            )
            assert not errors, f"tap {n}: {_listed(errors)}"
            assert [a.status for a in answers] == [200, 200], answers
            assert sorted(str(a.outcome) for a in answers) == ["replayed", "saved"], (
                f"tap {n}: {answers}; deals stored now: {_kop_numbers(table)}"
            )
            assert [a.number for a in answers] == [str(n), str(n)], answers
            assert _kop_numbers(table) == list(range(1, n + 1))
    assert _created(table) == 10


def test_back_and_resubmit_replays_but_a_fresh_form_with_the_same_facts_is_a_new_deal():
    """The browser's back button and a second submit send the stored form again."""
    table = _table("kop", "kop-pagat")
    phone = Phone(table)
    facts, key = kop_deal(70), new_key()

    first = phone.post(facts, expected_number=1, submission_key=key)
    assert (first.status, first.outcome, first.number) == (200, "saved", "1"), first
    again = phone.post(facts, expected_number=1, submission_key=key)  # back, resubmit
    assert (again.status, again.outcome, again.number) == (200, "replayed", "1"), again
    assert _kop_numbers(table) == [1]
    assert _created(table) == 1

    # Two deals can be alike: a fresh form (a new key) with the same facts is stored.
    fresh = phone.post(facts, expected_number=2, submission_key=new_key())
    assert (fresh.status, fresh.outcome, fresh.number) == (200, "saved", "2"), fresh
    stored = KopDeal.objects.filter(session=table).order_by("number")
    assert [(d.number, d.contract, d.declarer_points) for d in stored] == [
        (1, "normal", 70),
        (2, "normal", 70),
    ]
    assert _created(table) == 2


def test_a_deal_against_the_rules_is_rejected_and_its_key_stays_unused():
    table = _table("kop", "kop-pagat")
    phone = Phone(table)
    key = new_key()
    wrong = phone.post(kop_deal(70, declarers=(1,)), expected_number=1, submission_key=key)
    assert (wrong.status, wrong.outcome) == (200, "rejected"), wrong
    assert _kop_numbers(table) == []
    assert _created(table) == 0

    # Nothing was stored under the key: the corrected form is a new deal, not a replay.
    right = phone.post(kop_deal(70), expected_number=1, submission_key=key)
    assert (right.status, right.outcome, right.number) == (200, "saved", "1"), right


# ---------------------------------------------------------------------------- Vint


def _vint_numbers(session: TableSession) -> list[tuple[int, int]]:
    rows = VintDeal.objects.filter(session=session).order_by("rubber", "number")
    return list(rows.values_list("rubber", "number"))


def test_two_vint_phones_tap_save_together_one_saved_one_conflict():
    """10 rounds of the Kop race above on a Vint table; all-pass deals keep rubber 1 open."""
    table = _table("vint", "vint")
    phones = [Phone(table), Phone(table)]
    with server_errors() as errors:
        for r in range(10):
            n = 2 * r + 1
            facts = [vint_all_pass(ns_tricks=6), vint_all_pass(ns_tricks=7)]
            keys = [new_key(), new_key()]
            answers = run_together(
                *(
                    partial(p.post, f, expected_number=n, submission_key=k)
                    for p, f, k in zip(phones, facts, keys, strict=True)
                )
            )
            assert not errors, f"round {r + 1}: {_listed(errors)}"
            assert [a.status for a in answers] == [200, 200], f"round {r + 1}: {answers}"
            assert sorted(str(a.outcome) for a in answers) == ["conflict", "saved"], (
                f"round {r + 1} (deal 1.{n}): {answers}; deals stored now: {_vint_numbers(table)}"
            )
            won, lost = _split(answers)
            assert answers[won].number == f"1.{n}"
            assert answers[lost].expected_number == n + 1, f"round {r + 1}: {answers[lost]}"
            assert _vint_numbers(table) == [(1, k) for k in range(1, n + 1)]

            retry = phones[lost].post(
                facts[lost],
                expected_number=answers[lost].expected_number,
                submission_key=keys[lost],
            )
            assert (retry.status, retry.outcome, retry.number) == (200, "saved", f"1.{n + 1}"), (
                retry
            )
        assert not errors, _listed(errors)

    assert _vint_numbers(table) == [(1, k) for k in range(1, 21)]
    ns = Counter(d.facts["tricks"]["NS"] for d in VintDeal.objects.filter(session=table))
    assert ns == {6: 10, 7: 10}, "a deal was lost or stored twice"
    assert _created(table) == 20


def test_a_double_tap_stores_one_vint_deal():
    """Five double taps at the same instant, then one back-and-resubmit."""
    table = _table("vint", "vint")
    phone = Phone(table)
    twin = Phone(table, like=phone)
    with server_errors() as errors:
        for n in range(1, 6):
            facts, key = vint_all_pass(ns_tricks=5), new_key()
            answers = run_together(
                partial(phone.post, facts, expected_number=n, submission_key=key),
                partial(twin.post, facts, expected_number=n, submission_key=key),
            )
            assert not errors, f"tap {n}: {_listed(errors)}"
            assert [a.status for a in answers] == [200, 200], answers
            assert sorted(str(a.outcome) for a in answers) == ["replayed", "saved"], (
                f"tap {n}: {answers}; deals stored now: {_vint_numbers(table)}"
            )
            assert [a.number for a in answers] == [f"1.{n}", f"1.{n}"], answers
    again = phone.post(facts, expected_number=5, submission_key=key)  # back, resubmit
    assert (again.status, again.outcome, again.number) == (200, "replayed", "1.5"), again
    assert _vint_numbers(table) == [(1, k) for k in range(1, 6)]
    assert _created(table) == 5


# ---------------------------------------------------------------------- a stale pad


def _shown(points: int, html: str) -> bool:
    # What a person sees, not the data attributes scripts read (the offline pad's plural
    # labels carry every count from 1 to 99).
    visible = re.sub(r'\sdata-[\w-]+="[^"]*"', "", html)
    return re.search(rf"(?<![\d.-]){points}(?![\d.])", visible) is not None


def test_a_stale_pad_gets_a_conflict_showing_the_other_deal_and_the_next_number():
    """Phone A renders the pad for deal 7, phone B stores 7, then A taps save."""
    table = _table("kop", "kop-pagat")
    a, b = Phone(table), Phone(table)
    for n in range(1, 7):
        answer = b.post(kop_deal(60 + n), expected_number=n, submission_key=new_key())
        assert (answer.outcome, answer.number) == ("saved", str(n)), answer

    stale = a.pad()  # phone A shows the pad for deal 7 ...
    assert stale.status == 200
    assert stale.expected_number == 7, (
        f"the pad carries expected_number {stale.value('expected_number')!r}"
    )
    assert stale.submission_key and KEY_SHAPE.fullmatch(stale.submission_key), stale.submission_key

    # ... phone B stores deal 7, with card points A's pad does not show anywhere
    b_points = next(p for p in (87, 91, 79, 83, 97, 89, 93) if not _shown(p, stale.html))
    fresh = b.pad()
    assert fresh.expected_number == 7
    saved = b.post(
        kop_deal(b_points, declarers=(2, 4)),
        expected_number=fresh.expected_number,
        submission_key=fresh.submission_key,
    )
    assert (saved.status, saved.outcome, saved.number) == (200, "saved", "7"), saved

    # ... and A taps save on its stale pad.
    a_facts = kop_deal(45)
    answer = a.post(a_facts, expected_number=7, submission_key=stale.submission_key)
    assert (answer.status, answer.outcome) == (200, "conflict"), answer
    assert _shown(b_points, answer.html), f"the conflict does not show B's deal 7 ({b_points})"
    assert answer.expected_number == 8, "the pad offers A's deal as deal 8"
    assert answer.value("declarer_points") == "45", "the pad keeps what A typed"
    assert _kop_numbers(table) == list(range(1, 8)), "the conflict wrote a deal"
    assert KopDeal.objects.get(session=table, number=7).declarer_points == b_points
    assert _created(table) == 7

    retry = a.post(
        a_facts,
        expected_number=answer.expected_number,
        submission_key=answer.submission_key or stale.submission_key,
    )
    assert (retry.status, retry.outcome, retry.number) == (200, "saved", "8"), retry
    assert KopDeal.objects.get(session=table, number=8).declarer_points == 45
    assert _created(table) == 8

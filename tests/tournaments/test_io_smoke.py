import json
from pathlib import Path
import pytest
from tournaments.services.events import event_import, club_for
from tournaments.selectors.events import event_document
from tournaments.events.event_json import score_event
from tournaments.families import family_for

EV = Path("tests/fixtures/events")

@pytest.mark.django_db
@pytest.mark.parametrize("n", [1, 2, 3])
def test_smoke(n):
    raw = (EV / f"example-{n}-input.json").read_bytes()
    t, m = event_import(raw=raw, club=club_for(), user=None)
    doc = event_document(t)
    print(json.dumps(doc, ensure_ascii=False)[:3000])
    assert score_event(doc)["individual"] == score_event(json.loads(raw))["individual"]
    t2, _ = event_import(raw=json.dumps(doc), club=club_for(), user=None)
    assert event_document(t2) == {**doc, "name": doc["name"]}
    st = family_for(t.game).standings(t)
    print(st["individual"][:2])

"""factory_boy factories for rows, shared by the Django tiers."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, Player


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")

    @factory.post_generation
    def password(self, create, extracted, **kwargs):
        self.set_password(extracted or "pw-secret-123")
        if create:
            self.save(update_fields=["password"])


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    number = factory.Sequence(lambda n: n + 1)
    name = factory.Sequence(lambda n: f"Player {n} Surname{n}")


def record_kop_deals(*, session, deals, entered_by="scorer"):
    """Engine deals (``scoring.engines.kop.KopDeal``, e.g. ``random_kop_deals``) entered at
    a Kop or Baśka table at once, through the write path (``deals_record``)."""
    from scoring import services
    from scoring.games.kop.deals import facts_from_deal

    return services.deals_record(
        session=session,
        deals=[facts_from_deal(deal) for deal in deals],
        actor=services.Actor(label=entered_by, is_director=True),
    )

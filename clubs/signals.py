"""Signals the clubs app sends; the apps that seat players listen (clubs imports
neither scoring nor tournaments).

* ``person_merge_check``: sent by ``clubs.services.player_merge`` before it writes, with
  keyword arguments ``keep_rows`` and ``other_rows`` (the register row ids of the two
  persons to become one). A receiver returns a sentence saying why they cannot be one
  person (two of the rows sat at one table: a person does not sit twice at a table), or
  None. Any sentence refuses the merge.
* ``person_rows_changed``: sent inside the transaction of a merge or a split with
  ``rows``, the register row ids whose person changed. The ratings listen: they follow
  the person, so they are rated again from the first game one of the rows played.
"""

from __future__ import annotations

from django.dispatch import Signal

person_merge_check = Signal()
person_rows_changed = Signal()

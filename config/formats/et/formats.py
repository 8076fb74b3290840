"""Estonian date and time formats Django does not carry: without them a date and time fell
back to the American "11/27/2026 3:31 p.l."; Estonians write 27.11.2026 15:31."""

DATETIME_FORMAT = "j. F Y G:i"
SHORT_DATETIME_FORMAT = "d.m.Y G:i"

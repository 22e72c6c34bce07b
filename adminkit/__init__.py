"""What every app's admin pages share (issue 37): a date-range filter, a filter
by one user that never lists them all, and the CSV export. The lowest floor, so
that games, the ladder and moderation can all use it; it names no model of theirs."""

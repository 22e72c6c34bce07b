"""Row ids as the site receives them (issue 35, 11): in a route, a form field
or a socket frame. The lowest floor: every app's routes use its converter."""

"""Tournaments (issue 11): Swiss, round robin, single and double elimination.

The pure parts, with no Django import, are modules of their own: ``results``
(who played whom, as TRF-16 records it), ``swiss`` (FIDE Dutch pairings and
TRF-16 in and out, with ``swiss_entrants`` and ``swiss_weights``), ``berger``
(round-robin tables), ``brackets`` (single and double elimination), ``tiebreaks``
(FIDE C.07) and ``bracket_svg``. Running a tournament, each change under its row
lock (``changes``): ``entering``, ``organizing``, ``advancing`` (the rounds, what
the Celery tasks call), ``pairers``, ``recording`` (a game's result) and
``scoring`` (records, standings, bracket).
"""

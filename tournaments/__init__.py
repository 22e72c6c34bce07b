"""Tournaments (issue 11): Swiss, round robin, single and double elimination.

The pure parts, with no Django import, are modules of their own: ``results``
(who played whom, as TRF-16 records it), ``swiss`` (FIDE Dutch pairings and
TRF-16 in and out), ``berger`` (round-robin tables), ``brackets`` (single and
double elimination), ``tiebreaks`` (FIDE C.07) and ``bracket_svg``.
"""

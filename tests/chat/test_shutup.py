"""The abuse filter (chat.shutup, issue 25): insults in four languages through
look-alike letters, and plain game talk left alone."""

from __future__ import annotations

import pytest

from chat import shutup


@pytest.mark.parametrize("line", [
    "you idiot", "what a moron", "u r so stupid", "LOSER", "f.u.c.k off", "sh!t player", "@sshole",
    "i d i o t", "idiooooot", "іdiоt",  # Cyrillic і and о
    "Du Vollidiot", "du bist so dumm", "Arschloch!", "Scheiße gespielt", "halt die Fresse",
    "eres un imbécil", "qué pendejo", "gilipollas", "ESTUPIDO",
    "ты идиот", "дебил!!!", "дуррррак", "сука", "сykа",  # Latin y and a inside Cyrillic
    "cyka", "blyat",
])
def test_an_insult_weighs(line: str) -> None:
    assert shutup.INSULT <= shutup.weight(line) < shutup.CRITICAL


@pytest.mark.parametrize("line", [
    # A one-letter word just before (or after) the spaced letters is a word of its own (issue 35):
    "what a l o s e r", "such a m o r o n", "you are a i d i o t", "you l o s e r", "a s s h o l e",
    "du bist n i d i o t", "was für n t r o t t e l", "d u m m k o p f",
    "tonto y i m b e c i l", "eres a i d i o t a", "p e n d e j o y",
    "ну и д е б и л", "а у р о д", "и д и о т",
])
def test_spaced_letters_weigh_beside_a_one_letter_word(line: str) -> None:
    assert shutup.INSULT <= shutup.weight(line) < shutup.CRITICAL


@pytest.mark.parametrize("line", [
    "kys", "kill yourself", "Hurensohn", "du Missgeburt", "hijo de puta", "maricón", "убей себя", "пидор",
    "п и д о р",
])
def test_a_slur_or_a_call_to_self_harm_is_critical(line: str) -> None:
    assert shutup.weight(line) == shutup.CRITICAL


@pytest.mark.parametrize("line", [
    "good game", "Good luck, have fun!", "well played, thanks", "I resign, gg", "Scunthorpe", "class pass",
    "what a sacrifice", "Danke, gutes Spiel", "Das war ein Opfer", "gracias, buena partida", "mucha suerte",
    "Спасибо за игру", "хорошая игра", "ход конём", "cocktail", "dumbbell", "Dumpling", "assassin",
    "hello!", "this is it!", "I pass", "sushi", "skyscraper",
])
def test_game_talk_weighs_nothing(line: str) -> None:
    assert shutup.weight(line) == 0


def test_each_insult_counts() -> None:
    assert shutup.weight("idiot moron loser") == 3 * shutup.INSULT

"""Words read in the language of the page (games.names: name_list, name_of)."""

from __future__ import annotations

from django.utils import translation

from games import names


def test_a_list_of_words_uses_the_separator_of_the_active_language():
    words = [names.FEATURES["menqing"], names.FEATURES["gangkai"]]
    with translation.override("zh-hans"):
        assert names.name_list(words) == "门清、杠开"
    with translation.override("en"):
        assert names.name_list(words) == "Concealed hand, Win on a replacement"


def test_an_empty_list_is_empty_text():
    assert names.name_list([]) == ""


def test_a_word_is_in_the_active_language_each_time_it_is_asked_for():
    """`name_of` is memoised per language: asking in one language never answers another's."""
    from games.names import WINDS, name_of

    for _ in range(2):
        with translation.override("zh-hans"):
            assert name_of(WINDS, "1z") == "东"
        with translation.override("en"):
            assert name_of(WINDS, "1z") == "East"
    assert name_of(WINDS, "not-a-code") == "not-a-code"

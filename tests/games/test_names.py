"""Lists of words read in the language of the page (games.names.name_list)."""

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

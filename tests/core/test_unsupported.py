"""Words of a claim its sources do not have (core/unsupported.py): a reviewer's aid."""

import json
import unicodedata

from hypothesis import example, given
from hypothesis import strategies as st

from sourcecheck.core.analysis import Analysis
from sourcecheck.core.unsupported import _WORDS, missing_words, said, stem, unsupported_words, words
from tests.support.helpers import claim, session, source

OVERSTATED = "Ours is faster than every C implementation on every workload."
OFTEN = "It is often faster than C implementations."


def analysis(article: str, sources: list[dict], report: str = OFTEN) -> Analysis:
    documents = [{"path": "article", "content": article}, {"path": "report", "content": report}]
    value = session([{"claim": claim(start=(1, "faster"), end=(1, "workload")), "sources": sources}], documents)
    return Analysis(json.dumps(value))


def test_a_claim_saying_more_than_its_source_names_the_words_its_source_lacks():
    found = analysis(OVERSTATED, [source(start=(1, "often"), end=(1, "implementations"))])
    assert found.unsupported.of(("annotations", 0)) == ("every", "workload")
    assert said(("every", "workload")) == "not in its sources: every, workload"


def test_case_punctuation_and_stems_aside_and_stop_words_left_out():
    assert missing_words("Faster, than C-implementations!", ["faster than C implementation"]) == ()
    assert missing_words("The trials were run", ["a trial ran"]) == ("run",)  # Porter2 does not know ran
    assert stem("implementations") == stem("implementation")
    assert missing_words("It is not the case", ["it is the case"]) == ("not",)  # a negation is a content word


def test_words_are_given_as_the_claim_writes_them_once_each_in_its_order():
    assert missing_words("Workloads and every workload, Every time", ["time"]) == ("Workloads", "every")


def test_numbers_are_words_and_must_be_there_as_written():
    assert words("2.4 times 1,000 820ms") == ["2.4", "times", "1,000", "820", "ms"]
    assert missing_words("2.4 times faster", ["2.5 times faster"]) == ("2.4",)


def test_text_written_without_spaces_is_left_out_rather_than_judged():
    assert words("東京は日本の首都 Tokyo タイ語 ภาษาไทย") == ["Tokyo"]
    assert missing_words("東京は日本の首都です Tokyo", ["Tokyo"]) == ()
    assert missing_words("Ελλάδα Москва", ["Москва"]) == ("Ελλάδα",)  # scripts with spaces are compared
    translated = ["内存占用从 820 MB 降至 517 MB"]  # the claim's words may be there, in another script
    assert missing_words("Memory use falls from 820 MB to 500 MB", translated) == ("500",)


def test_only_counted_supporting_sources_are_read():
    often = source(start=(1, "often"), end=(1, "implementations"))
    refuting = source(start=(1, "often"), end=(1, "implementations"), polarity="refutes")
    whole = source(start=(2, "Ours"), end=(2, "workload"))  # the claim's own words
    uncounted = source(start=(2, "Ours"), end=(2, "workload"), confidence=7)
    both = OFTEN + "\n" + OVERSTATED
    assert unsupported_words(analysis(OVERSTATED, [refuting]).session.annotations[0]) is None
    assert unsupported_words(analysis(OVERSTATED, [uncounted]).session.annotations[0]) is None
    assert analysis(OVERSTATED, [often, uncounted], both).unsupported.of(("annotations", 0)) == ("every", "workload")
    against = source(start=(2, "Ours"), end=(2, "workload"), polarity="refutes")
    assert analysis(OVERSTATED, [often, against], both).unsupported.of(("annotations", 0)) == ("every", "workload")
    assert analysis(OVERSTATED, [often, whole], both).unsupported.of(("annotations", 0)) == ()  # any source may


def test_a_claim_that_does_not_resolve_or_an_item_that_is_no_annotation_has_none():
    broken = session([{"claim": claim(start=(1, "nowhere")), "sources": [source()]}, 7])
    found = Analysis(json.dumps(broken)).unsupported
    assert found.of(("annotations", 0)) is None and found.of(("annotations", 1)) is None


def test_opening_a_session_and_its_summary_compute_none():
    opened = analysis(OVERSTATED, [source(start=(1, "often"), end=(1, "implementations"))])
    assert opened.summary.verdicts[0].verdict == "supported"
    assert "unsupported" not in vars(opened)


@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=60))
def test_a_claim_cited_to_its_own_text_lacks_nothing_and_any_word_found_is_the_claims(text):
    assert missing_words(text, [text]) == ()
    assert set(missing_words(text, [])) <= set(words(text))


@given(
    st.text(
        alphabet=st.one_of(
            st.sampled_from("ab1,.' \u2019\u02bc\uff07\u5185\u3042\u0e01\u00e9\ufb01\u00bd-"),
            st.characters(codec="utf-8", exclude_categories=["Cs"]),
        ),
        max_size=40,
    )
)
@example("don\u2019t \u5185\u5b58 it\u02bcs caf\u00e9")
def test_words_found_the_quick_way_are_those_the_definition_finds(text):
    # words() skips the look ahead at each letter when no script written without spaces is
    # in the text, and replaces apostrophes only when there is one: the same words as the
    # definition, one pattern over the text with its apostrophes made plain
    plain = unicodedata.normalize("NFKC", text).translate({0x2019: "'", 0x02BC: "'", 0xFF07: "'"})
    assert words(text) == _WORDS.findall(plain)


# Words whose Porter2 stems take its special cases and its steps one by one.
_STEMMED = (
    "skies dying lying news atlas generously early only singly gently ugly idly howe cosmos "
    "consigned knightly hopefulness relational conditional rationalize hopping caresses ponies "
    "cats feed agreed plastered bled motoring sing conflated troubled sized hopping tanned falling "
    "hissing fizzed failing filing happy sky generalizations o'neill commune communism arsenal "
    "naïveté résumé façades Überprüfung"
).split()


@given(st.lists(st.text(alphabet=st.characters(categories=["Ll", "Lu", "Lo"]) | st.just("'"), min_size=1)))
@example(_STEMMED)
def test_the_stems_are_snowballs_english_ones_whichever_stemmer_makes_them(found: list[str]):
    """PyStemmer (Snowball compiled, installed with the package) stems the words here; where
    it is not installed (the VS Code extension's bundle) snowballstemmer's Python does: the
    same stems, word for word."""
    import snowballstemmer
    from snowballstemmer.english_stemmer import EnglishStemmer

    assert type(snowballstemmer.stemmer("english")).__module__ == "Stemmer"  # the compiled one is used
    python = EnglishStemmer()
    for word in (each.casefold() for each in found):
        assert stem(word) == python.stemWord(word), word

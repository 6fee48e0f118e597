"""TRACE-lite stripper: each artifact kind is removed, content that looks similar is kept."""
from __future__ import annotations

import pytest

from tjb_lib.pairs.render import CUES, Candidate, Evidence, render, split_answer
from tjb_lib.pairs.strip import ARTIFACT_KINDS, detect_artifacts, strip_artifacts

C = Candidate(answer="Chief of Protocol",
              evidence=(Evidence("Kiss and Tell is a 1945 film.", "Kiss and Tell (1945 film)",
                                 "sentence 0", "doc6:s0"),
                        Evidence("She served as Chief of Protocol.", "Shirley Temple",
                                 "sentence 1", "doc1:s1")),
              reasoning=("The film names Shirley Temple.",))


@pytest.mark.parametrize("cue", CUES)
def test_every_cue_is_stripped(cue):
    cited = render(C, {cue})
    assert detect_artifacts(cited) and cited != render(C)
    assert strip_artifacts(cited) == strip_artifacts(render(C)) == render(C)


@pytest.mark.parametrize("style", ["structured", "answer_first", "evidence_first", "key_facts"])
def test_all_cues_together_in_every_style(style):
    cited = render(C, set(CUES), style)
    assert strip_artifacts(cited) == render(C, (), style)
    assert detect_artifacts(cited) == set(ARTIFACT_KINDS)


@pytest.mark.parametrize("text", [
    'According to a Kansas City website, "jazz grew up in Kansas City".',
    "The Dimond Center is a 728,000 ft² (67,000 m²) shopping mall.",
    "Sources say the band (formed 1990) split in [...] 2001.",
    "december 31 , the settlements of 2014 is -29 ( 29 ) ;",
])
def test_content_is_not_an_artifact(text):
    assert detect_artifacts(text) == set() and strip_artifacts(text) == text


def test_code_answer_survives_stripping():
    code = Candidate(answer="    if x > 0:\n\n        return list(range(x))\n    return []",
                     evidence=(Evidence("Return ones.", "HumanEval/0 docstring", "line 1", "doc:l1"),),
                     code=True)
    plain, cited = render(code), render(code, {"markers", "sentence_ids", "verification"})
    assert split_answer(strip_artifacts(cited)) == split_answer(plain)
    assert split_answer(plain)[0] == code.answer


def test_code_with_marker_like_content_is_refused():
    from tjb_lib.pairs.candidates import is_clean
    assert not is_clean(Candidate(answer="    return [1]", code=True))


def test_unknown_cue_and_style_are_refused():
    with pytest.raises(ValueError, match="unknown cues"):
        render(C, {"glitter"})
    with pytest.raises(ValueError, match="unknown style"):
        render(C, (), "haiku")

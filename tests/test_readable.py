"""What a careful reader stops at is caught by a rule (``tjb_lib.pairs.readable``), and the builder
avoids it: names that are names, sentences taken whole, comparisons with both values, every hop
used, openings that stand, gold answers their evidence supports."""
from __future__ import annotations

import dataclasses

import pytest

from tjb_lib.pairs import readable
from tjb_lib.data import load_hotpotqa
from tjb_lib.pairs.chain_rules import as_read
from tjb_lib.pairs.candidates import hop_sentences, hops, hotpot_candidate
from tjb_lib.pairs.common import hotpot_meta, make_pair
from tjb_lib.pairs.conflicts import gold_unsupported
from tjb_lib.pairs.reasoning import clause, spelt_out_beside, steps
from tjb_lib.pairs.render import render
from tjb_lib.pairs.standalone import Entity, name_form, paragraph_entity, resolve

ACTOR = Entity("James Franco", True, "he", frozenset({"actor"}))
SEASON = Entity("2009 Cleveland Browns season", False, None, frozenset({"season", "team"}),
                "the ", season=True)


@pytest.fixture(scope="module")
def items():
    return {i.id: as_read(i) for i in load_hotpotqa()}    # as the builders read them


def pair(item, reasoning: str | None = None):
    """A mechanical pair of ``item`` (both sides plain), its reasoning replaced if given."""
    c = hotpot_candidate(item)
    if reasoning is not None:
        c = dataclasses.replace(c, reasoning=(reasoning,))
    text = render(c)
    return make_pair("mechanical_hotpotqa", "hotpotqa", item.id, 0, target_relation="equivalent",
                     gold="tie", task=item.question, plain=text, cited=text, variant="t",
                     artifact="", meta=hotpot_meta(item))


@pytest.mark.parametrize("sentence", [
    "Petra Kvitová career statistics was the bronze medallist at the 2016 Rio Olympics.",
    "2009 Cleveland Browns season placed fourth in the AFC North with a record of 5–11.",
    "Guns N' Roses discography has released six studio albums.",
    "The calls of Strip search phone call scam were made to restaurants.",
])
def test_a_title_that_is_no_name_is_caught(sentence):
    assert readable.non_names(sentence)


@pytest.mark.parametrize("sentence", [
    "The 2009 Cleveland Browns season was the franchise's 61st season.",
    "Petra Kvitová was the bronze medallist at the 2016 Rio Olympics.",
    "Georges-Henri Bousquet was Professor of law at the University of Algiers where he was a "
    "specialist.",
])
def test_a_name_passes(sentence):
    assert not readable.non_names(sentence)


def test_the_builder_names_the_subject_of_a_page_or_no_one():
    stats = paragraph_entity("Petra Kvitová career statistics",
                             ("Petra Kvitová is a Czech tennis player.", " She won Wimbledon."))
    assert stats.name == "Petra Kvitová"
    assert name_form("List of major opera composers", "") is None
    assert name_form("Sodium-chloride symporter", "A sodium-chloride symporter is a protein.") \
        == ("sodium-chloride symporter", "the ")
    assert resolve("The team placed fourth in the AFC North.", SEASON) is None
    assert resolve("The season marked Romeo Crennel's fourth year.", SEASON) == \
        "The 2009 Cleveland Browns season marked Romeo Crennel's fourth year."
    assert resolve("The sole species is D. album.", Entity("Dictyosperma", False, None,
                                                          frozenset({"genus"}))) is None


@pytest.mark.parametrize("sentence", [
    "General Mills is headquartered in Golden Valley, Minnesota,.",
    "Hanggin Rear Banner is 1,767 km², 300,000, so the reply is Shanghai.",
    "(1965) is Bill Cosby's third album.",
    "It followed the publication of Norwegian Wood and that.",
])
def test_a_cut_sentence_is_caught(sentence):
    assert readable.cut(sentence)


@pytest.mark.parametrize("sentence", [
    "The 1984 South Asian Games was held in Kathmandu, Nepal from September 17 to 23, 1984, so "
    "the reply is 1984 South Asian Games.",
    "Shirley Temple served as Chief of Protocol of the United States, so the answer is Chief of "
    "Protocol.",
])
def test_a_whole_sentence_passes(sentence):
    assert not readable.cut(sentence)


def test_a_clause_is_taken_whole_or_the_sentence_is():
    step = clause("Bratislava is the capital of Slovakia, and with a population of about "
                  "450,000, the country's largest city.", "about 450,000")
    assert not readable.cut(step + ", so the answer is about 450,000.")
    assert step.endswith("the country's largest city")
    whole = clause("A Democrat, Marion Greene was a health policy analyst for St. Jude Medical.",
                   "St. Jude Medical")
    assert whole.startswith("A Democrat, Marion Greene was")       # not "A Democrat was ..."


def test_a_step_states_the_link_not_the_padding_around_it():
    """The opening phrase that names the next hop is the step, not the coach beside it."""
    step = clause("Playing as a member of the Southeastern Conference (SEC), the 1984 Tennessee "
                  "Volunteers football team was led by head coach Johnny Majors, in his eighth "
                  "year, and played their home games at Neyland Stadium in Knoxville, Tennessee.",
                  "Southeastern Conference")
    assert step == ("The 1984 Tennessee Volunteers football team was playing as a member of the "
                    "Southeastern Conference")
    assert clause("Originally sold as a variant of the popular Jeep Wagoneer, the Cherokee has "
                  "evolved from a full-size SUV to one of the first compact SUVs.",
                  "Jeep Wagoneer") == ("The Cherokee was originally sold as a variant of the "
                                       "popular Jeep Wagoneer")


@pytest.mark.parametrize("sentence, caught", [
    ("Later he resigned from the job.", True),
    ("Since then the band has toured Europe.", True),
    ("For his role in 127 Hours, Franco was nominated for an Academy Award.", True),
    ("For James Franco's role in 127 Hours, he was nominated for an Academy Award.", False),
    ("In 1990, Smith resigned from the job.", False),
])
def test_an_opening_that_leans_on_an_unshown_sentence_is_caught(sentence, caught):
    assert readable.leaning(sentence) is caught


def test_the_builder_makes_such_an_opening_stand():
    assert resolve("Later he resigned from the job.", ACTOR) == "James Franco resigned from the job."
    assert resolve("For his role in 127 Hours, Franco was nominated.", ACTOR) == \
        "For James Franco's role in 127 Hours, he was nominated."
    assert resolve("In his early career, the club signed him.", ACTOR) is None


def test_a_comparison_must_state_both_values(items):
    item = items["5a7be2595542997c3ec972ac"]          # born earlier, Emma Bull or Virginia Woolf
    assert readable.problems(pair(item), items) == []
    bare = pair(item, "Emma Bull is an American author. Virginia Woolf was an English writer, so "
                      "the answer is Adeline Virginia Woolf.")
    assert ("comparison without both values" in
            [rule for rule, _ in readable.problems(bare, items)])


def test_every_hop_is_used_and_the_answer_hop_decides(items):
    item = items["5a8c7595554299585d9e36b6"]          # Kiss and Tell -> Shirley Temple
    assert readable.problems(pair(item), items) == []
    skipped = pair(item, "Shirley Temple Black was an American actress and diplomat, so the "
                         "answer is Chief of Protocol.")
    assert ("reasoning without the deciding fact" in
            [rule for rule, _ in readable.problems(skipped, items)])
    judd = items["5a7a276d5542996c55b2dd27"]          # Chamberlain and Colonel of the staff
    support = {h: hop_sentences(judd, h) for h in hops(judd)}
    said = steps(judd, support, hops(judd), "Charles Hastings Judd", judd.answer)
    assert "Chamberlain" in said["Charles Hastings Judd"]


def test_a_gold_answer_its_evidence_does_not_support_is_caught(items):
    devils = items["5a8488f45542992a431d1a47"]        # "Peter Hall" wrote The Devils
    assert "John Whiting" in gold_unsupported(devils)
    assert "neither option" in gold_unsupported(items["5a8e3dc05542995085b37401"])   # "1964"
    assert gold_unsupported(items["5a8c7595554299585d9e36b6"]) is None
    assert ("gold not supported by its evidence" in
            [rule for rule, _ in readable.problems(pair(devils), items)])


def test_a_closing_on_a_stock_connective_is_caught_and_the_builder_states_the_relation(items):
    walker = items["5add673e5542992ae4cec54d"]        # Joe Walker -> Oregon Ducks football
    step = ("The Oregon Ducks football program is a college football team for the University of "
            "Oregon")
    for bad in (f"{step}, which leaves Oregon Ducks football.", f"{step}; Oregon Ducks football "
                f"follows.", f"{step}, and that points to Oregon Ducks football."):
        assert readable.templated_closing(bad, [walker.answer])
        assert ("templated closing" in
                [rule for rule, _ in readable.problems(pair(walker, bad), items)])
    fixed = f"{step}, so the team is Oregon Ducks football."
    assert not readable.templated_closing(fixed, [walker.answer])
    assert readable.problems(pair(walker), items) == []
    assert render(hotpot_candidate(walker)).endswith(", so the team is Oregon Ducks football.")


def test_a_yes_no_comparison_states_both_facts(items):
    item = items["5ab6f0c25542995eadef00ea"]          # Buried Country, South of the Border
    assert readable.problems(pair(item), items) == []
    assert hotpot_candidate(item).reasoning[-1].endswith(
        "so no, Buried Country and South of the Border are not both films turned into stage "
        "performances.")
    one = pair(item, "South of the Border is a 2009 American documentary film directed by Oliver "
                     "Stone, so no, they are not both films turned into stage performances.")
    assert ("reasoning without the deciding fact" in
            [rule for rule, _ in readable.problems(one, items)])


def test_a_restated_line_is_joined_on_not_introduced():
    """A step that repeats its evidence line is joined to the next by a semicolon, no lead-in;
    a hop the other side drops, with nothing of its own to join, is joined to the sentence that
    follows it in the chain (a colon lead-in, "One fact decides it: ...", read as a template)."""
    from tjb_lib.pairs.reasoning import joined
    line = "The English Electric Canberra is a British jet-powered medium bomber."
    steps = [("a", line), ("b", "No. 2 Squadron flew the Canberra, so the answer is B.")]
    together = ("The English Electric Canberra is a British jet-powered medium bomber; No. 2 "
                "Squadron flew the Canberra, so the answer is B.",)
    assert joined(steps, [line]) == together
    assert joined(steps, [line], frozenset({"a"})) == together
    based = "Based in Southaven, the Memphis Hustle play at the Landers Center."
    out = joined([("a", based), *steps[1:]], [based], frozenset({"a"}))
    assert out == (based[:-1] + "; " + steps[1][1],)
    assert not readable.STOCK_LEAD_IN.search(out[0])


def test_a_colon_lead_in_counts_and_a_title_with_a_colon_does_not():
    """"Crucial here: ..." before a restated line read as a template (B); a title that holds a
    colon ("Freakonomics: The Movie is ...") is the evidence's own."""
    shown = "Freakonomics: The Movie is a 2010 American documentary film."
    for lead in ("One fact decides it", "Crucial here", "A single link carries the chain"):
        assert readable.colon_lead_in(f"{lead}: {shown}", shown)
    assert not readable.colon_lead_in(shown, shown)
    assert not readable.colon_lead_in("Sacred Planet is a 2004 documentary.", shown)


def test_the_dropped_hops_line_takes_no_empty_lead_in(items):
    """The line a moderate pair's full side restates for the hop the other side drops was let
    keep a stock lead-in ("As stated, ..."): blind readers read it as filler, so it counts."""
    from tjb_lib.pairs.graded import moderate_hotpotqa
    item = items["5ab25004554299722f9b4cd7"]
    p = moderate_hotpotqa("moderate_hotpotqa", [item], 0)[0]
    assert "stock lead-in" not in [r for r, _ in readable.problems(p, items)]
    head, reasoning = p.plain.split("Reasoning: ", 1)
    led = dataclasses.replace(p, plain=f"{head}Reasoning: As stated, {reasoning[0].lower()}{reasoning[1:]}")
    assert "stock lead-in" in [r for r, _ in readable.problems(led, items)]


@pytest.mark.parametrize("sentence, caught", [
    ("Note that Shusett was executive producer.", True),
    ("Shusett was executive producer, as noted.", True),
    ("To start with, the film was shot in Edmonton.", True),
    ("Shusett was executive producer.", False),
    ("First Lady Michelle Obama spoke.", False),
])
def test_a_stock_lead_in_is_caught(sentence, caught):
    assert bool(readable.STOCK_LEAD_IN.search(sentence)) is caught


def test_the_reasoning_states_the_fact_that_decides(items):
    """"Who was executive producer of the film scored by Jerry Goldsmith?": the reasoning must
    say "Shusett was executive producer", not conclude it from the screenplay credit."""
    item = items["5a85fb085542994775f606de"]
    built = pair(item)
    assert readable.problems(built, items) == []
    assert "Shusett was executive producer" in hotpot_candidate(item).reasoning[-1]
    bare = pair(item, "The score to the film \"Alien\" was composed by Jerry Goldsmith. Dan "
                      "O'Bannon wrote the screenplay from a story he co-authored with Ronald "
                      "Shusett, so the executive producer is Ronald Shusett.")
    assert ("deciding fact left out" in [rule for rule, _ in readable.problems(bare, items)])
    friedman = " ".join(hotpot_candidate(items["5a7b8749554299294a54a9db"]).reasoning)
    assert "three time Pulitzer Prize winner" in friedman


@pytest.mark.parametrize("raw, shown", [
    ("Newark ( or also locally ) is the most populous city in New Jersey.",
     "Newark is the most populous city in New Jersey."),
    ("Gaines was born on 18January 1826 in Ohio.", "Gaines was born on 18 January 1826 in Ohio."),
    ("The word banshee comes from \"ban síde\", ], a fairy woman.", None),
    ("() is a county-level city in northeastern Ningde prefecture.", None),
])
def test_a_garbled_sentence_is_repaired_or_not_used(raw, shown):
    from tjb_lib.pairs.standalone import clean
    assert clean(raw) == shown


def test_a_year_the_question_asks_about_stays_in_the_step(items):
    """"What American ... surfer born 18 October 1992 ...?": the birth date decides, so the
    step keeps the aside that holds it."""
    item = next(i for i in items.values() if "Hawaiian surfer born 18 October 1992" in i.question)
    support = {h: hop_sentences(item, h) for h in hops(item)}
    said = steps(item, support, hops(item), hops(item)[-1], item.answer)
    assert any("(born 18 October 1992)" in s for s in said.values())


def test_evidence_copied_whole_is_caught_and_the_builder_trims_it(items):
    """Blind readers of 7 December quoted reasoning that copies its source whole: a tail that
    says nothing the question asks ("and tells the story of Anna's birthday party ..."), a list
    cut to "X and others", a full name spelled out in brackets, a source's odd span."""
    from tjb_lib.pairs.reasoning import pruned
    frozen = items["5a7cb9b95542990527d55515"]
    padded = ('Frozen Fever is a sequel to the 2013 feature film "Frozen", and tells the story of '
              "Anna's birthday party given by Elsa with the help of Kristoff, Sven, and Olaf, so the "
              "answer is 2013.")
    assert "padded tail" in [r for r, _ in readable.problems(pair(frozen, padded), items)]
    assert pruned(padded.split(", so")[0], frozen) == 'Frozen Fever is a sequel to the 2013 feature film "Frozen"'
    assert "birthday" not in " ".join(hotpot_candidate(frozen).reasoning)
    assert not [r for r, _ in readable.problems(pair(frozen), items)]
    sykes = items["5a7b4bc35542992d025e67e0"]
    assert "M602" not in " ".join(hotpot_candidate(sykes).reasoning)       # "2.7 mi west of ..."
    odd = "Marco Da Silva (born May, 30th, 1977) is a Portuguese dancer and choreographer"
    assert pruned(odd, frozen) == "Marco Da Silva (born May 30, 1977) is a Portuguese dancer and choreographer"
    assert pruned("He won medals between 1984 to 1991", frozen) == "He won medals from 1984 to 1991"
    for bad in ("Revengers Tragedy stars Christopher Eccleston and Diana Quick as the Duchess and "
                "others, so the answer is 23 November 1946.",
                "Michael C. Hall (Michael Carlyle Hall) is an American actor, so the answer is Dexter."):
        assert readable.CLIPPED_LIST.search(bad) or spelt_out_beside(bad)
    for good in ("Revengers Tragedy stars Christopher Eccleston and Diana Quick as the Duchess, "
                 "among others.", "Nicki Minaj (born Onika Tanya Maraj) is a rapper.",
                 "Michael C. Hall is an American actor."):
        assert not (readable.CLIPPED_LIST.search(good) or spelt_out_beside(good))


def test_a_side_fact_before_the_conclusion_is_caught_and_cut(items):
    """Blind readers of 7 December quoted a conclusion that hangs on an off-topic clause joined
    on with no comma before it ("... founded in 1963 and moved to its current stadium, Tameside
    Stadium, in 2005, so the year is 1963"), a participle tail ("... completed in 1894 to the
    designs of ..."), an "after" clause, and a main clause idle behind the description that
    carries the link ("the daughter of detective novelist C. W. Grafton, Sue Grafton has said
    ..."). Each is a padded tail to the reader rules, and the builder cuts it."""
    from tjb_lib.pairs.reasoning import pruned
    clark = items["5ab5499e5542992aa134a295"]
    padded = ("Curzon Ashton F.C. was founded in 1963 and moved to its current stadium, Tameside "
              "Stadium, in 2005, so the year is 1963.")
    assert "padded tail" in [r for r, _ in readable.problems(pair(clark, padded), items)]
    assert pruned(padded.split(", so")[0], clark) == "Curzon Ashton F.C. was founded in 1963"
    assert "Tameside" not in " ".join(hotpot_candidate(clark).reasoning)
    tower = items["5a834ed95542990548d0b1ca"]
    assert pruned("The Manhattan Life Insurance Building was a 348 ft tower at 64-66 Broadway in New "
                  "York City completed in 1894 to the designs of the architects of Kimball & Thompson",
                  tower) == "The Manhattan Life Insurance Building was a 348 ft tower at 64-66 Broadway in New York City"
    usher = items["5ae7ba7a5542993210983f12"]
    assert pruned('"Yeah!" was released as the lead single from Usher\'s fourth studio album '
                  '"Confessions" on January 27, 2004, after Usher was told by Arista Records, his '
                  "label at the time, to record more tracks", usher).endswith("on January 27, 2004")
    grafton = items["5a8b987f5542997f31a41d7a"]
    assert pruned("the daughter of detective novelist C. W. Grafton, Sue Grafton has said the strongest "
                  "influence on her crime novels is author Ross Macdonald", grafton) == (
        "Sue Grafton is the daughter of detective novelist C. W. Grafton")
    draft = items["5a88658955429938390d3f47"]          # a list's last item is no tail
    listed = ("Conscription in the United States has been employed by the federal government of the "
              "United States in four conflicts: the American Civil War, World War I, World War II, "
              "and the Cold War")
    assert pruned(listed, draft) == listed
    assert pruned("Casino was founded in 1850", clark) == "Casino was founded in 1850"  # its verb
    trolls = ("Tunnels & Trolls is a fantasy role-playing game designed by Ken St. Andre and first "
              "published in 1975 by Flying Buffalo")
    assert not pruned(trolls, items["5a8a3e745542996c9b8d5e70"]).endswith("and first")
    assert pruned("He served from 1997-1998", clark) == "He served from 1997 to 1998"
    assert pruned("Robert Gascoyne-Cecil was 3rd Marquess of Salisbury", clark) == (
        "Robert Gascoyne-Cecil was the 3rd Marquess of Salisbury")


def test_a_title_line_is_no_use_of_a_name_and_an_upbringing_is_past(items):
    """"so the answer is 1999 Odisha cyclone": the paragraph title, on a line of its own, is no
    use without the article; "so the singer of "B Boy" is raised in Philadelphia": the tense."""
    from tjb_lib.pairs import capitals, closing
    cyclone = items["5a75f79555429976ec32bcca"]
    assert closing.articled(cyclone.answer, capitals.item_text(cyclone)) == "the 1999 Odisha cyclone"
    assert closing.where('Where is the singer of "B Boy" raised?', "Philadelphia") == (
        'the singer of "B Boy" was raised in Philadelphia')
    assert readable.BORN_NOW.search('so the singer of "B Boy" is raised in Philadelphia')
    assert not readable.BORN_NOW.search('so the singer of "B Boy" was raised in Philadelphia')
    manson = items["5a8f45ca5542997ba9cb320e"]        # "500 Years Later": a title, no cue
    assert not [r for r, _ in readable.problems(pair(manson), items)]


def test_a_participle_opening_is_lowered_after_a_semicolon(items):
    """"...; Centered on the town of El Nacimiento ..., the Mascogos are ...": a capital after a
    semicolon to the reader rules, lowered by the builder."""
    from tjb_lib.pairs import capitals
    mascogos = items["5a85eed75542996432c5713b"]
    text = capitals.item_text(mascogos)
    joined = ("The Black Seminoles are black Indians associated with the Seminole people; Centered "
              "on the town of El Nacimiento in Múzquiz Municipality, the Mascogos are descendants "
              "of Black Seminoles.")
    assert capitals.capitals_after_semicolons(joined, text)
    assert capitals.lowered("Centered on the town of El Nacimiento", text).startswith("centered")
    assert "; centered on" in " ".join(hotpot_candidate(mascogos).reasoning)

"""Blind workbooks: round trip through xlsx and CSV with a known answer key, and every error."""
from __future__ import annotations

import csv
import time

import pandas as pd
import pytest

from tjb_lib.validation import agreement, annotate
from tjb_lib.records import Pair

openpyxl = pytest.importorskip("openpyxl")
stats = pytest.importorskip("tjb_lib.analysis.stats")


def _pairs(n: int, relation: str, prefix: str) -> list[Pair]:
    gold = {"equivalent": "tie", "quality_moderate": "plain", "quality_soft": "tie"}[relation]
    return [Pair(pair_id=f"{prefix}-{i:03d}", split=f"{prefix}_hotpotqa", source="hotpotqa",
                 source_id=f"q{i}", target_relation=relation, gold=gold,
                 task=f"Question {prefix} {i}?", plain=f"Answer {i}. Because fact {i}.",
                 cited=f"Answer {i}. Because fact {i}. [1] Source: Page {i}")
            for i in range(n)]


def _key(paths) -> pd.DataFrame:
    return pd.read_csv(paths["key"], dtype=str, keep_default_na=False)


def _fill_xlsx(path, answers: dict[str, dict[str, str]]) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb["items"]
    header = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        item = row[0].value
        for col, value in answers.get(item, {}).items():
            row[header.index(col)].value = value
    wb.save(path)


def _fill_csv(path, answers: dict[str, dict[str, str]]) -> None:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
        header = list(rows[0].keys())
    for r in rows:
        r.update(answers.get(r["item_id"], {}))
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rows)


def _shown(side: str, a_side: str) -> str:
    """The positional answer that names ``side`` for an item whose A is ``a_side``."""
    return "A" if side == a_side else "B"


def test_workbook_is_blind_and_balanced(tmp_path):
    pairs = _pairs(11, "equivalent", "nat")
    out = annotate.export_workbooks(pairs, "natural", tmp_path, seed=7)
    wb = openpyxl.load_workbook(out["xlsx"])
    assert wb.sheetnames == ["items", "guidelines"]
    ws = wb["items"]
    assert [c.value for c in ws[1]] == list(annotate.label_columns("natural"))
    text = " ".join(str(c.value) for row in ws.iter_rows() for c in row if c.value)
    for p in pairs:  # no pair id, split or gold leaks into what annotators see
        assert p.pair_id not in text
    assert "cited" not in text.lower().replace("candidate", "")
    assert "nat_hotpotqa" not in text
    lists = {dv.formula1 for dv in ws.data_validations.dataValidation}
    assert '"equivalent,A_more_correct,B_more_correct,unclear"' in lists
    assert '"yes,no"' in lists
    key = _key(out)
    assert sorted(key["pair_id"]) == sorted(p.pair_id for p in pairs)
    assert (key["a_side"] == "cited").sum() == 6  # half, rounded up
    # the shown A really is the side the key says
    by_pair = {p.pair_id: p for p in pairs}
    for row, k in zip(ws.iter_rows(min_row=2, values_only=True), key.itertuples()):
        assert row[0] == k.item_id
        assert row[2] == getattr(by_pair[k.pair_id], k.a_side)
    with open(out["csv"], encoding="utf-8") as f:
        assert next(csv.reader(f)) == list(annotate.label_columns("natural"))
    guide = " ".join(str(c.value) for row in wb["guidelines"].iter_rows() for c in row if c.value)
    assert "Display is not" in guide and "A_more_correct" in guide


def test_export_is_deterministic_in_the_seed(tmp_path):
    pairs = _pairs(20, "equivalent", "nat")
    a = _key(annotate.export_workbooks(pairs, "natural", tmp_path / "a", seed=1))
    b = _key(annotate.export_workbooks(pairs, "natural", tmp_path / "b", seed=1))
    c = _key(annotate.export_workbooks(pairs, "natural", tmp_path / "c", seed=2))
    assert a.equals(b)
    assert not a.equals(c)


def test_natural_round_trip_maps_labels_to_sides_and_gives_table2_statistics(tmp_path):
    pairs = _pairs(20, "equivalent", "nat")
    out = annotate.export_workbooks(pairs, "natural", tmp_path, seed=3)
    key = _key(out)
    # Truth per pair: items 0-16 equivalent for both; item 17 rater 2 says plain is better;
    # item 18 both say the cited side is better; item 19 rater 1 unclear, rater 2 equivalent.
    truth1, truth2 = {}, {}
    for k in key.itertuples():
        i = int(k.pair_id.split("-")[1])
        t1 = t2 = "equivalent"
        if i == 17:
            t2 = "base_more_correct"
        if i == 18:
            t1 = t2 = "citation_more_correct"
        if i == 19:
            t1 = "unclear"
        truth1[k.item_id], truth2[k.item_id] = t1, t2

    def shown(label, a_side):
        if label == "citation_more_correct":
            return f"{_shown('cited', a_side)}_more_correct"
        if label == "base_more_correct":
            return f"{_shown('plain', a_side)}_more_correct"
        return label

    def answers(truth):
        return {k.item_id: {"primary_label": shown(truth[k.item_id], k.a_side),
                            "new_facts": _shown("cited", k.a_side) if k.item_id == key.item_id[0]
                            else "neither",
                            "display_could_sway": "yes", "answer_mismatch": "no"}
                for k in key.itertuples()}

    _fill_xlsx(out["xlsx"], answers(truth1))
    _fill_csv(out["csv"], answers(truth2))
    r1 = annotate.import_workbook(out["xlsx"], out["key"], "R1")
    r2 = annotate.import_workbook(out["csv"], out["key"], "R2")
    assert dict(zip(r1["item_id"], r1["label"])) == truth1
    assert dict(zip(r2["item_id"], r2["label"])) == truth2
    first = r1.set_index("item_id").loc[key.item_id[0]]
    assert first["new_facts_side"] == "cited" and first["cited_adds_new_facts"] == "yes"
    assert (r1["cited_adds_new_facts"] == "no").sum() == 19

    s = agreement.agreement_summary(r1, r2)
    assert s["n"] == 20
    assert s["raw_agreement_pct"] == pytest.approx(90.0)
    assert s["pabak"] == pytest.approx(2 * 0.9 - 1)
    assert s["pabak_q"] == pytest.approx((4 * 0.9 - 1) / 3)
    assert s["main_human_label_signal"] == "17/20 both equivalent"
    assert s["gwet_ac1"] == pytest.approx(stats.gwet_ac1(s["table"])["coefficient"])
    assert s["table"].shape == (4, 4)  # all four labels count for AC1, empty ones too
    assert s["field_agreement_pct"]["answer_mismatch"] == 100.0


def test_published_natural_pattern_reproduces_table2_row():
    """183 both-equivalent + 1 other agreement + 16 split items gives the printed 92.0% / 0.840;
    AC1 over the four labels lands at the printed 0.918 for this disagreement pattern."""
    items = [f"N{i:03d}" for i in range(200)]
    a = ["equivalent"] * 183 + ["unclear"] + ["equivalent"] * 8 + ["base_more_correct"] * 8
    b = ["equivalent"] * 183 + ["unclear"] + ["base_more_correct"] * 8 + ["equivalent"] * 8
    base = {"pair_id": items, "target_relation": "equivalent"}
    fa = pd.DataFrame({"item_id": items, **base, "label": a})
    fb = pd.DataFrame({"item_id": items, **base, "label": b})
    for col in annotate.fields("natural"):
        if col != "label":
            fa[col] = fb[col] = "no"
    fa.attrs["kind"] = fb.attrs["kind"] = "natural"
    s = agreement.agreement_summary(fa, fb)
    assert round(s["raw_agreement_pct"], 1) == 92.0
    assert round(s["pabak"], 3) == 0.840
    assert round(s["gwet_ac1"], 3) == 0.918
    assert s["main_human_label_signal"] == "183/200 both equivalent"


def _graded_answers(key, pref):
    return {k.item_id: {"q1_answers_equivalent": "yes",
                        "q2_more_complete_support": _shown(pref[k.item_id], k.a_side)
                        if pref[k.item_id] != "tie" else "neither",
                        "q3_more_specific_reasoning": "neither",
                        "q4_display_adds_substance": "no",
                        "q5_preference": "Tie" if pref[k.item_id] == "tie"
                        else _shown(pref[k.item_id], k.a_side)}
            for k in key.itertuples()}


def test_graded_round_trip_adjudication_and_per_tier_table(tmp_path):
    pairs = _pairs(10, "quality_moderate", "mod") + _pairs(10, "quality_soft", "soft")
    out = annotate.export_workbooks(pairs, "graded", tmp_path, seed=11)
    key = _key(out)
    blank_csv = out["csv"].read_text(encoding="utf-8")  # the adjudicator gets a fresh copy
    # moderate: both say better plain on 9, one splits (plain vs tie); soft: all Tie.
    p1 = {k.item_id: "plain" if k.target_relation == "quality_moderate" else "tie"
          for k in key.itertuples()}
    p2 = dict(p1)
    split_item = key.loc[key.pair_id == "mod-004", "item_id"].item()
    p2[split_item] = "tie"
    _fill_xlsx(out["xlsx"], _graded_answers(key, p1))
    r1 = annotate.import_workbook(out["xlsx"], out["key"], "R1")
    _fill_csv(out["csv"], _graded_answers(key, p2))
    r2 = annotate.import_workbook(out["csv"], out["key"], "R2")
    assert dict(zip(r1["item_id"], r1["preference"])) == p1
    assert set(r1.loc[r1.target_relation == "quality_moderate", "more_complete_support"]) \
        == {"plain"}

    table = agreement.agreement_table(r1, r2).set_index("validation_set")
    assert list(table.index) == ["quality_moderate", "quality_soft", "overall"]
    assert table.loc["quality_moderate", "main_human_label_signal"] == "9/10 both better plain"
    assert table.loc["quality_moderate", "raw_agreement_pct"] == pytest.approx(90.0)
    assert table.loc["quality_soft", "raw_agreement_pct"] == pytest.approx(100.0)
    assert table.loc["overall", "n"] == 20

    final = agreement.adjudicate(r1, r2)
    row = final.set_index("item_id").loc[split_item]
    assert row["disagreement"] and not row["resolved"] and pd.isna(row["preference"])
    assert final["disagreement"].sum() == 1

    # the third annotator fills only the disputed row of a fresh copy of the CSV workbook
    adj_path = tmp_path / "adj.csv"
    adj_path.write_text(blank_csv, encoding="utf-8")
    _fill_csv(adj_path, {split_item: _graded_answers(key, p1)[split_item]})
    adj = annotate.import_workbook(adj_path, out["key"], "ADJ", partial=True)
    assert list(adj["item_id"]) == [split_item]
    final = agreement.adjudicate(r1, r2, adj)
    row = final.set_index("item_id").loc[split_item]
    assert row["adjudicated"] and row["resolved"] and row["preference"] == "plain"
    assert final["adjudicated"].sum() == 1 and final["resolved"].all()


@pytest.fixture
def filled(tmp_path):
    pairs = _pairs(6, "quality_moderate", "mod")
    out = annotate.export_workbooks(pairs, "graded", tmp_path, seed=5)
    key = _key(out)
    answers = _graded_answers(key, {k.item_id: "plain" for k in key.itertuples()})
    _fill_csv(out["csv"], answers)
    _fill_xlsx(out["xlsx"], answers)
    return out, key


def _rewrite_csv(path, edit):
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    header = list(rows[0].keys())
    rows = edit(rows)
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerows(rows)


def test_unknown_label_names_file_sheet_row_and_field(filled):
    out, key = filled
    wb = openpyxl.load_workbook(out["xlsx"])
    ws = wb["items"]
    col = [c.value for c in ws[1]].index("q5_preference")
    ws.cell(row=4, column=col + 1).value = "maybe"
    wb.save(out["xlsx"])
    with pytest.raises(annotate.WorkbookError) as e:
        annotate.import_workbook(out["xlsx"], out["key"], "R1")
    msg = str(e.value)
    assert out["xlsx"].name in msg and "sheet 'items'" in msg and "row 4" in msg
    assert "q5_preference" in msg and "'maybe'" in msg


def test_missing_duplicated_and_unknown_items_are_errors(filled):
    out, key = filled
    _rewrite_csv(out["csv"], lambda rows: rows[1:] + [dict(rows[2])])
    with pytest.raises(annotate.WorkbookError) as e:
        annotate.import_workbook(out["csv"], out["key"], "R1")
    msg = str(e.value)
    assert "duplicated" in msg and "row 7" in msg  # header is row 1; the copy is the 6th item
    assert key.item_id[0] in msg and "no row" in msg

    def unknown(rows):
        rows[0]["item_id"] = "G999"
        return rows
    _rewrite_csv(out["csv"], unknown)
    with pytest.raises(annotate.WorkbookError, match=r"row 2: item 'G999' is not in the key"):
        annotate.import_workbook(out["csv"], out["key"], "R1")


def test_blank_answer_is_an_error_unless_partial(filled):
    out, key = filled

    def blank(rows):
        rows[3]["q1_answers_equivalent"] = ""
        return rows
    _rewrite_csv(out["csv"], blank)
    with pytest.raises(annotate.WorkbookError, match=r"row 5.*q1_answers_equivalent.*blank"):
        annotate.import_workbook(out["csv"], out["key"], "R1")
    part = annotate.import_workbook(out["csv"], out["key"], "R1", partial=True)
    assert part["answers_equivalent"].isna().sum() == 1


def test_answers_are_case_insensitive_but_canonical(filled):
    out, key = filled

    def lower(rows):
        for r in rows:
            r["q5_preference"] = " tie "
        return rows
    _rewrite_csv(out["csv"], lower)
    df = annotate.import_workbook(out["csv"], out["key"], "R1")
    assert set(df["preference"]) == {"tie"}


def test_agreement_refuses_different_item_sets(filled):
    out, _ = filled
    r1 = annotate.import_workbook(out["csv"], out["key"], "R1")
    r2 = r1.iloc[1:].copy()
    r2.attrs["kind"] = "graded"
    with pytest.raises(ValueError, match="different items"):
        agreement.agreement_summary(r1, r2)


def test_export_rejects_duplicate_pairs_and_unknown_kind(tmp_path):
    pairs = _pairs(2, "equivalent", "nat")
    with pytest.raises(ValueError, match="appears twice"):
        annotate.export_workbooks(pairs + pairs[:1], "natural", tmp_path, seed=0)
    with pytest.raises(ValueError, match="kind"):
        annotate.export_workbooks(pairs, "mechanical", tmp_path, seed=0)


def test_exporting_twice_gives_byte_identical_workbooks(tmp_path):
    pairs = _pairs(6, "equivalent", "nat")
    a = annotate.export_workbooks(pairs, "natural", tmp_path / "a", seed=3)
    time.sleep(1.1)  # the writer stamps times to the second
    b = annotate.export_workbooks(pairs, "natural", tmp_path / "b", seed=3)
    for k in ("xlsx", "csv", "key"):
        assert a[k].read_bytes() == b[k].read_bytes()


def test_label_sets_pair_each_key_with_its_filled_workbooks(tmp_path):
    (tmp_path / "graded_workbook.key.csv").write_text("item_id\n", encoding="utf-8")
    (tmp_path / "natural_workbook.key.csv").write_text("item_id\n", encoding="utf-8")
    folder = tmp_path / "labels" / "graded_workbook"
    folder.mkdir(parents=True)
    for name in ("R1.xlsx", "R2.csv", "ADJ.xlsx", "~$R1.xlsx", "notes.txt"):
        (folder / name).write_text("", encoding="utf-8")
    sets = annotate.label_sets(tmp_path)
    assert len(sets) == 1  # the natural key has no filled workbook yet
    s = sets[0]
    assert s["stem"] == "graded_workbook" and sorted(s["annotators"]) == ["R1", "R2"]
    assert s["adjudicator"].name == "ADJ.xlsx"
    (folder / "R1.csv").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="annotator 'R1' has two files"):
        annotate.label_sets(tmp_path)

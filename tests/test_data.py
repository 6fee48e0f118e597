"""Loaders: the real records load, and bad input names the file, the item, the id and the field."""
from __future__ import annotations

import json

import pytest

from tjb_lib.data import (DataError, load_finqa, load_hotpotqa, load_humaneval, FINQA_FILES,
                          HOTPOTQA_FILE, HUMANEVAL_FILE)


def test_real_records_load():
    hot, fin, he = load_hotpotqa(), load_finqa(), load_humaneval()
    assert len(hot) == 500 and hot[0].id == "5a8b57f25542995d1e6f1371" and hot[0].answer == "yes"
    assert len(fin) == 709 and all(i.steps and i.gold_inds for i in fin)
    assert len(he) == 164 and he[0].task_id == "HumanEval/0"
    assert hot[0].sentence("Scott Derrickson", 0).startswith("Scott Derrickson (born July 16")


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


def _hot(n=3):
    return json.loads(HOTPOTQA_FILE.read_text(encoding="utf-8"))[:n]


def test_malformed_json_names_file(tmp_path):
    path = _write(tmp_path, "broken.json", '[{"_id": "x",')
    with pytest.raises(DataError, match=r"broken\.json.*malformed JSON"):
        load_hotpotqa(path)


def test_missing_field_names_file_item_id_field(tmp_path):
    recs = _hot()
    del recs[1]["answer"]
    path = _write(tmp_path, "hot.json", recs)
    with pytest.raises(DataError) as e:
        load_hotpotqa(path)
    msg = str(e.value)
    assert "hot.json" in msg and "item 1" in msg and recs[1]["_id"] in msg and "'answer'" in msg
    assert isinstance(e.value, ValueError) and e.value.field == "answer" and e.value.index == 1


def test_wrong_type_and_dangling_support(tmp_path):
    recs = _hot()
    recs[2]["question"] = 7
    with pytest.raises(DataError, match=r"item 2.*'question'.*expected str, got int"):
        load_hotpotqa(_write(tmp_path, "a.json", recs))
    recs = _hot()
    recs[0]["supporting_facts"][1] = ["Ed Wood", 99]
    with pytest.raises(DataError, match=r"item 0.*supporting_facts\[1\].*no context sentence"):
        load_hotpotqa(_write(tmp_path, "b.json", recs))
    with pytest.raises(DataError, match=r"expected a JSON array"):
        load_hotpotqa(_write(tmp_path, "c.json", {"not": "a list"}))


def test_finqa_nested_field_errors(tmp_path):
    recs = json.loads(FINQA_FILES[0].read_text(encoding="utf-8"))[:2]
    recs[1]["qa"]["steps"][0]["res"] = 3.5
    with pytest.raises(DataError) as e:
        load_finqa([_write(tmp_path, "fin.json", recs)])
    assert e.value.field == "qa.steps[0].res" and e.value.item_id == recs[1]["id"]
    assert "fin.json" in str(e.value) and "item 1" in str(e.value)
    recs = json.loads(FINQA_FILES[0].read_text(encoding="utf-8"))[:2]
    del recs[0]["qa"]
    with pytest.raises(DataError, match=r"item 0.*'qa'.*missing field"):
        load_finqa([_write(tmp_path, "fin2.json", recs)])


def test_humaneval_errors(tmp_path):
    lines = HUMANEVAL_FILE.read_text(encoding="utf-8").splitlines()[:3]
    rec = json.loads(lines[1])
    del rec["entry_point"]
    path = _write(tmp_path, "he.jsonl", "\n".join([lines[0], json.dumps(rec), lines[2]]))
    with pytest.raises(DataError) as e:
        load_humaneval(path)
    assert e.value.field == "entry_point" and e.value.index == 1 and "HumanEval/1" in str(e.value)
    path = _write(tmp_path, "he2.jsonl", lines[0] + "\n{oops\n")
    with pytest.raises(DataError, match=r"he2\.jsonl.*item 1.*malformed JSON"):
        load_humaneval(path)

"""The shared serial protocol: round trips, every kind of bad line, fuzzing, line framing."""

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware.tray import protocol
from firmware.tray.protocol import (
    COMMANDS,
    MAX_LINE,
    MESSAGES,
    LineReader,
    Rejects,
    Sequencer,
    command,
    decode_command,
    decode_message,
    encode,
    seq_ahead,
)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def msg(kind, **fields):
    obj = {"v": 1, "seq": 5, "t": 1234, "type": kind}
    obj.update(fields)
    return obj


def line(obj):
    return json.dumps(obj).encode()


# -- strategies that build valid messages from the schema itself -------------
def value_for(rule):
    kind = rule[0]
    if kind == "int":
        return st.integers(rule[1], rule[2])
    if kind == "int_or_null":
        return st.none() | st.integers(rule[1], rule[2])
    if kind == "num":
        return st.floats(rule[1], rule[2], allow_nan=False).map(lambda x: round(x, 3)).filter(
            lambda x: rule[1] <= x <= rule[2]
        )
    if kind == "bool":
        return st.booleans()
    if kind == "str":
        return st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=rule[1])
    if kind == "enum":
        return st.sampled_from(rule[1])
    raise AssertionError(kind)


@st.composite
def valid_messages(draw):
    kind = draw(st.sampled_from(sorted(MESSAGES)))
    required, optional = MESSAGES[kind]
    obj = {"v": 1, "type": kind}
    for name, rule in protocol.MESSAGE_COMMON + required:
        obj[name] = draw(value_for(rule))
    for name, rule in optional:
        if draw(st.booleans()):
            obj[name] = draw(value_for(rule))
    return obj


@st.composite
def valid_commands(draw):
    cmd = draw(st.sampled_from(sorted(COMMANDS)))
    required, optional = COMMANDS[cmd]
    obj = {"v": 1, "cmd": cmd}
    for name, rule in protocol.COMMAND_COMMON + required:
        obj[name] = draw(value_for(rule))
    for name, rule in optional:
        if draw(st.booleans()):
            obj[name] = draw(value_for(rule))
    return obj


# -- round trips ------------------------------------------------------------
def test_a_collapse_message_survives_the_trip():
    data = encode(msg("collapse", fell=3, standing=2))
    assert data.endswith(b"\n") and b"\n" not in data[:-1]
    decoded, code, detail = decode_message(data[:-1])
    assert (code, detail) == (None, None)
    assert decoded["fell"] == 3 and decoded["standing"] == 2 and decoded["seq"] == 5


def test_commands_carry_version_and_id():
    obj, code, _ = decode_command(encode(command("budget", 7, ms=20))[:-1])
    assert code is None and obj == {"v": 1, "id": 7, "cmd": "budget", "ms": 20}


@FUZZ
@given(valid_messages())
def test_every_valid_message_decodes_to_itself(obj):
    data = encode(obj)
    decoded, code, detail = decode_message(data[:-1])
    assert code is None, detail
    assert decoded == obj


@FUZZ
@given(valid_commands())
def test_every_valid_command_decodes_to_itself(obj):
    decoded, code, detail = decode_command(encode(obj)[:-1])
    assert code is None, detail
    assert decoded == obj


def _longest(rule):
    kind = rule[0]
    if kind in ("int", "int_or_null"):
        return rule[2] if len(str(rule[2])) >= len(str(rule[1])) else rule[1]
    if kind == "num":
        return -123.457 if rule[1] < 0 else float(rule[2]) - 0.123
    if kind == "bool":
        return False
    if kind == "str":
        return '"' * rule[1]  # the worst case: every character escaped
    if kind == "enum":
        return max(rule[1], key=len)


@pytest.mark.parametrize("version", protocol.VERSIONS)
@pytest.mark.parametrize("kind", sorted(MESSAGES))
def test_the_largest_possible_message_still_fits_a_line(kind, version):
    required, optional = MESSAGES[kind]
    obj = {"v": version, "type": kind, "seq": protocol.MAX_SEQ, "t": 10**12}  # t: 31 years of uptime
    for name, rule in required + optional:
        obj[name] = _longest(rule)
    assert len(encode(obj)) <= MAX_LINE + 1


# -- every kind of bad line is rejected with a reason -------------------------
BAD_LINES = [
    (b"x" * (MAX_LINE + 1), "too_long"),
    (b"\xff\xfe{}", "not_utf8"),
    (b'{"v":1,"seq":1', "not_json"),
    (b"[1,2,3]", "not_object"),
    (b'"hello"', "not_object"),
    (line({"seq": 1, "t": 0, "type": "height", "dice": 2}), "missing_field"),
    (line(msg("height", dice=2) | {"v": 3}), "version"),  # 3: a version neither side speaks yet
    (line(msg("height", dice=2) | {"v": "1"}), "version"),
    (line(msg("height", dice=2) | {"v": True}), "version"),
    (line(msg("teleport", dice=2)), "unknown_type"),
    (line({"v": 1, "seq": 1, "t": 0, "dice": 2}), "missing_field"),
    (line(msg("collapse", fell=2)), "missing_field"),
    (line(msg("height", dice=-1)), "bad_value"),
    (line(msg("height", dice=65)), "bad_value"),
    (line(msg("height", dice=2.5)), "bad_value"),
    (line(msg("height", dice=True)), "bad_value"),
    (line(msg("height", dice="2")), "bad_value"),
    (line(msg("impact", strength=1.5)), "bad_value"),
    (b'{"v":1,"seq":1,"t":0,"type":"impact","strength":NaN}', "bad_value"),
    (b'{"v":1,"seq":1,"t":0,"type":"impact","strength":Infinity}', "bad_value"),
    (line(msg("impact", strength=0.5, zone="nearby")), "bad_value"),
    (line(msg("error", code="sensor_missing", detail="x" * 81)), "bad_value"),
    (line(msg("height", dice=2) | {"seq": -1}), "bad_value"),
    (line(msg("sample", mm="far")), "bad_value"),
    (line(msg("error", code="internal", detail="caf\u00e9")), "bad_value"),
    (line(msg("error", code="internal", detail="a\nb")), "bad_value"),
]


@pytest.mark.parametrize("data,expected", BAD_LINES)
def test_bad_tray_lines_are_rejected_with_a_reason(data, expected):
    decoded, code, detail = decode_message(data)
    assert decoded is None
    assert code == expected
    assert code in protocol.REJECT_CODES and detail


def test_a_version_mismatch_names_both_versions():
    _, code, detail = decode_message(line(msg("height", dice=2) | {"v": 3}))
    assert code == "version" and "3" in detail and "1 and 2" in detail


def test_the_reason_names_the_field_and_its_range():
    _, code, detail = decode_message(line(msg("collapse", fell=0, standing=3)))
    assert code == "bad_value" and "fell" in detail and "1..64" in detail


@pytest.mark.parametrize(
    "obj,expected",
    [
        ({"v": 1, "id": 1, "cmd": "budget", "ms": 40}, "bad_value"),
        ({"v": 1, "id": 1, "cmd": "budget"}, "missing_field"),
        ({"v": 1, "id": 1, "cmd": "selfdestruct"}, "unknown_type"),
        ({"v": 1, "cmd": "ping"}, "missing_field"),
        ({"v": 1, "id": -3, "cmd": "ping"}, "bad_value"),
        ({"v": 1, "id": 1, "cmd": "raw", "on": 1}, "bad_value"),
        ({"v": 1, "id": 1, "cmd": "calibrate", "step": "stack", "dice": 0}, "bad_value"),
        ({"v": 0, "id": 1, "cmd": "ping"}, "version"),
    ],
)
def test_bad_commands_are_rejected_with_a_reason(obj, expected):
    decoded, code, _ = decode_command(line(obj))
    assert decoded is None and code == expected


def test_text_makes_any_value_fit_a_string_field():
    assert protocol.text("caf\u00e9\nbar", 6) == "caf??b"
    assert protocol.text(ValueError("x"), 80) == "x"


def test_encode_refuses_a_line_over_the_limit():
    with pytest.raises(ValueError, match="limit"):
        encode(msg("error", code="internal", detail="x" * 600))


# -- fuzzing: random and mutated lines never crash either decoder ------------
def _check_outcome(result):
    decoded, code, detail = result
    if decoded is None:
        assert code in protocol.REJECT_CODES and isinstance(detail, str) and detail
    else:
        assert code is None and isinstance(decoded, dict)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_never_crash(data):
    _check_outcome(decode_message(data))
    _check_outcome(decode_command(data))


@FUZZ
@given(valid_messages(), st.data())
def test_mutated_messages_are_accepted_only_if_still_valid(obj, data):
    raw = bytearray(encode(obj)[:-1])
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["flip", "delete", "insert", "truncate"]))
        if not raw:
            break
        at = data.draw(st.integers(0, len(raw) - 1))
        if action == "flip":
            raw[at] = data.draw(st.integers(0, 255))
        elif action == "delete":
            del raw[at]
        elif action == "insert":
            raw.insert(at, data.draw(st.sampled_from(list(b'{}[]",:-.0123456789eE\\ nultrfa\x00\xff'))))
        else:
            del raw[at:]
    result = decode_message(bytes(raw))
    _check_outcome(result)
    if result[0] is not None:  # still a valid message: then it really obeys the schema
        again, code, _ = decode_message(encode(result[0])[:-1])
        assert code is None and again == result[0]


@FUZZ
@given(valid_messages(), st.sampled_from(sorted({n for r, o in MESSAGES.values() for n, _ in r + o})), st.data())
def test_fields_of_the_wrong_kind_are_rejected_not_crashed(obj, field, data):
    wrong = data.draw(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(-(10**20), 10**20),
            st.floats(),
            st.text(max_size=20),
            st.lists(st.integers(), max_size=3),
            st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        )
    )
    obj = dict(obj)
    obj[field] = wrong
    try:
        raw = json.dumps(obj).encode()
    except ValueError:
        return
    _check_outcome(decode_message(raw))


# -- framing ----------------------------------------------------------------
def test_lines_split_across_reads_are_joined():
    reader = LineReader()
    data = encode(msg("height", dice=3)) + encode(msg("height", dice=4))
    out = []
    for i in range(0, len(data), 7):
        out += reader.feed(data[i : i + 7])
    assert [decode_message(x)[0]["dice"] for x in out] == [3, 4]
    assert reader.rejects.total == 0


def test_an_oversized_line_is_dropped_and_the_next_one_kept():
    rejects = Rejects()
    reader = LineReader(rejects)
    good = encode(msg("height", dice=3))
    out = reader.feed(good) + reader.feed(b"{" + b"a" * 1000) + reader.feed(b"a" * 5000 + b"\n") + reader.feed(good)
    assert len(out) == 2
    assert rejects.by_code == {"too_long": 1}
    assert len(reader._buf) == 0


def test_the_buffer_never_grows_past_the_limit():
    reader = LineReader()
    for _ in range(100):
        reader.feed(b"z" * 97)
        assert len(reader._buf) <= MAX_LINE


def test_a_partial_line_after_a_reconnect_is_discarded_and_counted():
    rejects = Rejects()
    reader = LineReader(rejects)
    full = encode(msg("collapse", fell=3, standing=1))
    assert reader.feed(full[:20]) == []
    reader.reset()  # the cable was pulled mid-line
    # The tray resumes mid-way through another line, then sends whole ones.
    out = reader.feed(full[25:] + encode(msg("height", dice=1)))
    assert [decode_message(x)[0]["type"] for x in out] == ["height"]
    assert rejects.by_code == {"partial": 2}


def test_carriage_returns_and_blank_lines_are_harmless():
    reader = LineReader()
    out = reader.feed(b"\r\n\n" + encode(msg("height", dice=2))[:-1] + b"\r\n")
    assert len(out) == 1 and decode_message(out[0])[0]["dice"] == 2
    assert reader.rejects.total == 0


@FUZZ
@given(st.lists(st.binary(max_size=400), max_size=20))
def test_the_reader_never_returns_an_oversized_or_newline_line(chunks):
    reader = LineReader()
    for chunk in chunks:
        for got in reader.feed(chunk):
            assert len(got) <= MAX_LINE and b"\n" not in got
        assert len(reader._buf) <= MAX_LINE + 1  # room for the \r of a \r\n, never more


# -- sequence numbers -------------------------------------------------------
def test_sequence_numbers_count_up_and_wrap():
    seq = Sequencer()
    seq.seq = protocol.MAX_SEQ - 1
    got = [seq.message("height", 0, {"dice": 1})["seq"] for _ in range(3)]
    assert got == [protocol.MAX_SEQ - 1, protocol.MAX_SEQ, 0]


@pytest.mark.parametrize(
    "expected,seq,gap",
    [
        (5, 5, 0),
        (5, 8, 3),
        (protocol.MAX_SEQ, 1, 2),  # wrapped: MAX_SEQ and 0 were lost
        (protocol.MAX_SEQ, protocol.MAX_SEQ, 0),
        (0, 0, 0),
    ],
)
def test_gaps_in_sequence(expected, seq, gap):
    assert seq_ahead(expected, seq) == gap


@pytest.mark.parametrize(
    "expected,seq",
    [
        (5, 4),  # the last one again: a duplicate
        (5, 0),  # older
        (0, protocol.MAX_SEQ),  # just before the wrap, seen already
        (3, protocol.MAX_SEQ - 10),  # from before the wrap
        (protocol.MAX_SEQ // 2 - 10, 0),  # more than half the circle back counts as behind
    ],
)
def test_a_sequence_number_already_seen_or_older_is_stale(expected, seq):
    assert seq_ahead(expected, seq) is None


# -- the documentation and the code name the same messages ------------------
DOC = Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md"


def _documented(section):
    text = DOC.read_text()
    start = text.index(section)
    end = text.find("\n## ", start + 1)
    return set(re.findall(r"^### `([a-z_]+)`", text[start : end if end > 0 else None], re.M))


def test_protocol_md_lists_exactly_the_messages_in_the_code():
    assert _documented("## Messages") == set(MESSAGES)


def test_protocol_md_lists_exactly_the_commands_in_the_code():
    assert _documented("## Commands") == set(COMMANDS)


def test_protocol_md_states_the_limits_the_code_uses():
    text = DOC.read_text()
    assert f"version {protocol.PROTOCOL_VERSION}" in text
    assert f"**{MAX_LINE} bytes**" in text
    for code in protocol.REJECT_CODES + protocol.ERROR_CODES:
        assert f"`{code}`" in text, code


def test_the_example_session_in_protocol_md_is_valid():
    text = DOC.read_text()
    example = text[text.index("## An example session") :]
    lines = re.findall(r"^(Pi|tray) +(\{.*\}(?:\*[0-9A-F]{4})?)$", example, re.M)
    assert len(lines) >= 8
    assert any(body.endswith("}") for _, body in lines) and any(not body.endswith("}") for _, body in lines)
    for who, body in lines:
        decoded, code, detail = (decode_command if who == "Pi" else decode_message)(body.encode())
        assert code is None, (body, detail)


def test_no_float_special_values_leak_out_of_encode():
    assert math.isfinite(decode_message(encode(msg("impact", strength=0.25))[:-1])[0]["strength"])


# -- version 2: the CRC (issue 19, defect 10) ----------------------------------------
def test_the_crc_is_crc16_ccitt_false_in_both_implementations():
    assert protocol.crc16(b"123456789") == protocol.crc16_py(b"123456789") == 0x29B1
    assert protocol.crc16(b"") == 0xFFFF


@FUZZ
@given(st.binary(max_size=600))
def test_the_trays_plain_python_crc_matches_the_pis(data):
    import binascii

    assert protocol.crc16_py(data) == binascii.crc_hqx(data, 0xFFFF)


def test_a_version_2_line_is_the_json_then_star_and_four_hex_digits():
    data = encode(msg("collapse", fell=3, standing=2) | {"v": 2})
    body, _, check = data[:-1].rpartition(b"*")
    assert re.fullmatch(rb"[0-9A-F]{4}", check) and int(check, 16) == protocol.crc16(body)
    assert json.loads(body)["fell"] == 3


@FUZZ
@given(valid_messages())
def test_every_valid_message_decodes_to_itself_in_version_2(obj):
    obj["v"] = 2
    decoded, code, detail = decode_message(encode(obj)[:-1])
    assert code is None, detail
    assert decoded == obj


@FUZZ
@given(valid_commands())
def test_every_valid_command_decodes_to_itself_in_version_2(obj):
    obj["v"] = 2
    decoded, code, detail = decode_command(encode(obj)[:-1])
    assert code is None, detail
    assert decoded == obj


@FUZZ
@given(valid_messages(), st.data())
def test_any_one_damaged_byte_in_a_version_2_line_is_caught(obj, data):
    obj["v"] = 2
    raw = bytearray(encode(obj)[:-1])
    at = data.draw(st.integers(0, len(raw) - 1))
    new = data.draw(st.integers(0, 255).filter(lambda b: b != raw[at]))
    raw[at] = new
    decoded, code, _ = decode_message(bytes(raw))
    assert decoded is None and code in protocol.REJECT_CODES


def test_a_damage_that_keeps_the_json_valid_is_caught_by_the_crc_alone():
    good = encode(msg("collapse", fell=3, standing=2) | {"v": 2})[:-1]
    damaged = good.replace(b'"fell":3', b'"fell":5')
    assert decode_message(damaged)[:2] == (None, "crc")
    v1 = encode(msg("collapse", fell=3, standing=2))[:-1].replace(b'"fell":3', b'"fell":5')
    assert decode_message(v1)[0]["fell"] == 5  # what version 1 could not see


def _with_crc(body):
    return body + b"*%04X" % protocol.crc16(body)


@pytest.mark.parametrize(
    "data,expected",
    [
        (line(msg("height", dice=2) | {"v": 2}), "crc"),  # version 2 without its CRC
        (_with_crc(encode(msg("height", dice=2))[:-1]), "version"),  # version 1 with a (right) CRC
        (encode(msg("height", dice=2) | {"v": 2})[:-5] + b"*0000", "crc"),
        (encode(msg("height", dice=2) | {"v": 2})[:-1].lower(), "not_json"),  # lower-case hex is not a CRC
    ],
)
def test_a_version_and_its_crc_must_go_together(data, expected):
    decoded, code, detail = decode_message(data)
    assert decoded is None and code == expected and detail


def test_commands_are_written_in_the_version_asked_for():
    assert encode(command("ping", 1))[:-1].endswith(b"}")
    two = encode(command("ping", 1, 2))[:-1]
    assert two.startswith(b'{"v":2,') and decode_command(two)[0] == {"v": 2, "id": 1, "cmd": "ping"}


# -- line endings at the limit --------------------------------------------------------
def _exactly(size):
    obj = msg("height", dice=2, pad="")
    obj["pad"] = "p" * (size - len(json.dumps(obj, separators=(",", ":"))))
    data = json.dumps(obj, separators=(",", ":")).encode()
    assert len(data) == size
    return data


@pytest.mark.parametrize("ending", [b"\n", b"\r\n"], ids=["LF", "CRLF"])
def test_a_line_of_exactly_the_limit_is_kept_however_the_reads_split_it(ending):
    data = _exactly(MAX_LINE) + ending
    for cut in range(len(data) - 5, len(data) + 1):
        reader = LineReader()
        out = reader.feed(data[:cut]) + reader.feed(data[cut:])
        assert out == [data[: MAX_LINE]] and reader.rejects.total == 0, cut


@pytest.mark.parametrize("tail", [b"\n", b"\r\n", b"\rx\n"])
def test_one_byte_over_the_limit_is_too_long_with_any_ending(tail):
    reader = LineReader()
    good = encode(msg("height", dice=3))
    out = reader.feed(_exactly(MAX_LINE + 1) + tail + good) if tail != b"\rx\n" else reader.feed(
        _exactly(MAX_LINE) + tail + good
    )
    assert out == [good[:-1]]
    assert reader.rejects.by_code == {"too_long": 1}


def test_an_impact_round_trips_the_disc_that_felt_it_and_is_fine_without_it():
    told, code, _ = decode_message(encode(msg("impact", strength=0.5, piezo=2))[:-1])
    assert code is None and told["piezo"] == 2
    untold, code, _ = decode_message(encode(msg("impact", strength=0.5))[:-1])
    assert code is None and "piezo" not in untold  # a tray before firmware 0.3.1
    _, code, _ = decode_message(encode(msg("impact", strength=0.5, piezo=-1))[:-1])
    assert code == "bad_value"

"""The bench's weighing steps cannot pass a wrong count (hardware/weigh_bench.py)."""

from __future__ import annotations

import pytest

from firmware.tray.weight import TOO_VARIED
from hardware.weigh_bench import CHECK_COUNTS, judge_count, learn_set, retare
from hardware.weighing import DiceSet, ScaleDesign, WeighingChain


def learnt(seed: int = 1, spread: float = 0.01):
    chain = WeighingChain(ScaleDesign(dice=DiceSet(spread=spread)), seed=seed)
    return chain, learn_set([chain.still_codes(k, 60) for k in range(15)])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_check_passes_the_right_count_and_fails_one_die_off_either_way(seed):
    chain, (calibration, verdict) = learnt(seed)
    assert verdict.passed and calibration is not None
    for k in CHECK_COUNTS:
        right = judge_count(k, chain.still_codes(k, 90), calibration)
        assert right.passed and right.title == ("1 die weighed" if k == 1 else f"{k} dice weighed")
        low = judge_count(k, chain.still_codes(k - 1, 90), calibration)
        assert not low.passed and f"weighs {k - 1} dice, not {k}" in low.advice
        if k < 14:
            high = judge_count(k, chain.still_codes(k + 1, 90), calibration)
            assert not high.passed and f"weighs {k + 1} dice, not {k}" in high.advice


def test_a_set_that_would_miscount_fourteen_dice_is_refused_in_one_sentence():
    _, (calibration, verdict) = learnt(seed=4, spread=0.06)
    assert calibration is None and not verdict.passed
    assert verdict.advice == TOO_VARIED


def test_a_leaning_die_fails_the_check_it_would_spoil():
    chain, (calibration, _) = learnt(seed=5)
    assert calibration is not None
    verdict = judge_count(8, chain.still_codes(8, 90, extra_g=0.5 * chain.design.dice.mean_g), calibration)
    assert not verdict.passed


def test_re_tare_follows_a_drifted_zero_and_refuses_a_loaded_plinth():
    chain, (calibration, _) = learnt(seed=6)
    assert calibration is not None
    chain.zero_code += 500
    assert retare(chain.still_codes(0, 60), calibration).passed
    assert judge_count(3, chain.still_codes(3, 90), calibration).passed
    refused = retare(chain.still_codes(2, 60), calibration)
    assert not refused.passed and "take every die off" in refused.advice

"""The weighing chain's model (hardware/weighing.py): what a maker with a scale on a bench would see."""

from __future__ import annotations

import statistics

import pytest

from hardware.weighing import SCALE_DESIGNS, Mount, ScaleDesign, WeighingChain


def grams(chain: WeighingChain, codes: list[tuple[float, int]], zero: float) -> list[float]:
    return [(c - zero) / chain.design.counts_per_g for _, c in codes]


def empty_zero(chain: WeighingChain) -> float:
    return statistics.median(chain.still_codes(0, 50))


def test_a_still_stack_weighs_its_dice_and_the_noise_is_a_hundredth_of_a_die():
    chain = WeighingChain(seed=1, start_dice=5)
    zero = empty_zero(chain)
    readings = grams(chain, chain.codes_until(2.0), zero)
    assert len(readings) == 160  # 80 conversions a second
    assert statistics.mean(readings) == pytest.approx(sum(chain.set[:5]), abs=0.05)
    spread = statistics.stdev(readings)
    assert 0.01 < spread < 0.06  # 0.1 uV over 3 uV per gram: 0.033 g, under 1 % of a 4.4 g die


def test_a_die_put_on_settles_within_three_conversions_of_the_hand_letting_go():
    chain = WeighingChain(seed=2, start_dice=3)
    zero = empty_zero(chain)
    chain.codes_until(1.0)
    chain.put(1.0, press=False)
    codes = chain.codes_until(1.2)
    after = [g for (t, _), g in zip(codes, grams(chain, codes, zero)) if t >= 1.0 + 0.02 + 3 * chain.period + 0.01]
    assert after and all(abs(g - sum(chain.set[:4])) < 0.3 for g in after)
    first = grams(chain, codes[:1], zero)[0]
    assert first < sum(chain.set[:3]) + 2.0  # the filter has not seen the die yet


def test_fingers_pushing_a_die_home_read_as_many_grams_too_many():
    chain = WeighingChain(seed=3, start_dice=3)
    zero = empty_zero(chain)
    chain.codes_until(1.0)
    chain.put(1.1)
    codes = chain.codes_until(1.13)
    pushed = [g for (t, _), g in zip(codes, grams(chain, codes, zero)) if 1.08 <= t <= 1.13]
    assert max(pushed) > sum(chain.set[:4]) + 5.0


def test_a_d10_striking_the_stack_rings_for_a_few_conversions_then_dies_away():
    chain = WeighingChain(seed=4, start_dice=8)
    zero = empty_zero(chain)
    chain.codes_until(1.0)
    chain.strike(1.0, strength=1.0)
    codes = chain.codes_until(1.5)
    g = grams(chain, codes, zero)
    truth = sum(chain.set[:8])
    near = [abs(x - truth) for (t, _), x in zip(codes, g) if t < 1.05]
    late = [abs(x - truth) for (t, _), x in zip(codes, g) if t > 1.15]
    assert max(near) > 0.2
    assert max(late) < 0.15


def test_a_cell_on_its_own_base_hardly_feels_a_d10_landing_on_the_tray_but_a_bolted_one_does():
    def worst(design: ScaleDesign) -> float:
        chain = WeighingChain(design, seed=5, start_dice=6)
        zero = empty_zero(chain)
        chain.codes_until(1.0)
        chain.floor_knock(1.0)
        codes = chain.codes_until(1.2)
        return max(abs(x - sum(chain.set[:6])) for x in grams(chain, codes, zero))

    own, bolted = worst(SCALE_DESIGNS["nau7802"]), worst(SCALE_DESIGNS["nau7802-bolted"])
    assert own < 0.5 * 4.4  # under half a die for a conversion or two: the tracker waits them out
    assert bolted > 3 * own


def test_a_fall_takes_the_dice_off_one_after_another_and_leaves_the_rest_weighed():
    chain = WeighingChain(seed=6, start_dice=10)
    zero = empty_zero(chain)
    chain.codes_until(1.0)
    end = chain.fall(1.0, 4)
    assert chain.dice == 6
    assert 1.0 <= end < 1.0 + 3 * 0.006 + 0.06 + 1e-9
    codes = chain.codes_until(1.6)
    g = grams(chain, codes, zero)
    assert abs(g[-1] - sum(chain.set[:6]) - chain.extras_g) < 0.15


def test_a_leaning_die_and_a_d10_on_top_add_weight_that_is_not_a_standing_die():
    design = ScaleDesign(scenery=ScaleDesign().scenery.__class__(lean_chance=1.0))
    chain = WeighingChain(design, seed=7, start_dice=6)
    chain.fall(1.0, 2)
    assert 0.05 * 4.4 * 0.9 < chain.extras_g < 0.4 * 4.4 * 1.1
    chain.rest_d10(2.0)
    assert chain.extras_g > design.dice.d10_g
    chain.clear_extras(3.0)
    assert chain.extras_g == 0.0


def test_an_hour_of_creep_and_a_warming_room_move_a_full_heat_by_far_less_than_a_die():
    chain = WeighingChain(seed=8, start_dice=14)
    zero = empty_zero(chain)
    chain.codes_until(3600.0 - 1.0)
    late = statistics.mean(grams(chain, chain.codes_until(3600.0), zero))
    drift = late - sum(chain.set[:14])
    assert 0.05 < drift < 0.25 * 4.4  # it moves (so the tray re-tares when empty), but not by a quarter die


def test_damping_the_mount_shortens_the_ringing():
    def ring_left(damping: float) -> float:
        chain = WeighingChain(ScaleDesign(mount=Mount(damping=damping)), seed=9, start_dice=8)
        zero = empty_zero(chain)
        chain.codes_until(1.0)
        chain.impulse(1.0, 0.01)
        codes = chain.codes_until(1.3)
        return max(abs(x - sum(chain.set[:8])) for (t, _), x in zip(codes, grams(chain, codes, zero)) if t > 1.06)

    assert ring_left(0.15) < ring_left(0.03)


def test_the_set_spread_is_the_one_asked_for():
    chain = WeighingChain(ScaleDesign(dice=ScaleDesign().dice.__class__(spread=0.05)), seed=10, set_size=2000)
    assert statistics.stdev(chain.set) / statistics.mean(chain.set) == pytest.approx(0.05, rel=0.1)

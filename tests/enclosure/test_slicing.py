"""Supportless as a slicer sees it: every part sliced with supports on auto gets none, or its declared exception.

`python -m enclosure.slicing` slices every part with PrusaSlicer (supports on auto) and records the
support grams in docs/build/print_times.toml; slicing all parts takes minutes, so the suite checks
the record, and where prusa-slicer is installed slices one small part live to check the method.
The old record (before issue 32) had no support figure at all: the first test fails on it.
"""

import shutil

import pytest

from enclosure import guide, slicing


def test_every_part_has_a_support_figure_within_its_exception():
    assert slicing.support_problems(guide.print_times()) == []


def test_a_part_that_gains_support_is_caught():
    times = {"plinth": {"support_grams": 0.8}, "pad_body": {"support_grams": 25.0}, "arm_joiner": {}}
    found = slicing.support_problems(times)
    assert len(found) == 3 and "plinth" in found[0] and "8.6" in found[1] and "no support figure" in found[2]


def test_support_grams_counts_only_support_moves():
    gcode = "\n".join([";TYPE:Perimeter", "G1 X1 Y1 E5.0", ";TYPE:Support material", "G1 X2 Y2 E2.0",
                       "G1 X3 Y3 E-0.8", ";TYPE:Support material interface", "G1 X4 E1.0", ";TYPE:Solid infill",
                       "G1 X5 E9"])
    grams = slicing.support_grams(gcode)
    assert grams == pytest.approx(3.0 * 3.14159265 * 0.875 ** 2 * 1.24 / 1000)


@pytest.mark.skipif(shutil.which("prusa-slicer") is None, reason="prusa-slicer is not installed (apt-get install prusa-slicer)")
def test_a_small_part_sliced_live_needs_no_support(built, tmp_path):
    out, _ = built
    minutes, grams, _, support = slicing.slice_part(shutil.which("prusa-slicer"), out / "plinth.stl", 0.2, False, tmp_path)
    assert minutes > 0 and grams > 0 and support == 0

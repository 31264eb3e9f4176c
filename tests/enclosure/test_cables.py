"""Every cable path in the assembly is a checked rule: the plug against each bore, each corner, the steps' order.

On the files before issue 32 the joiner's bore was 6 mm (the post's minus 2): the sensor
cable's JST-SH plug (6.7 mm across its corners) could not be threaded up the arm.
"""

from enclosure import cables, guide
from enclosure.cables import JST_SH_4, Run

from .conftest import needs_openscad


def test_a_plug_wider_than_a_bore_is_named_with_both_sizes():
    found = cables.plug_problems(JST_SH_4, [Run("a 6 mm joiner", 6.0)])
    assert len(found) == 1 and "6.0 mm" in found[0] and "7.2 mm" in found[0]
    assert cables.plug_problems(JST_SH_4, [Run("an 8 mm post", 8.0)]) == []


def test_a_plug_too_long_for_a_corner_is_caught():
    long = cables.Plug("a long plug", 6.0, 3.0, 20.0)
    found = cables.plug_problems(long, [Run("the foot", 8.0, turns_into_next=True), Run("the post", 8.0)])
    assert found and "round the corner" in found[0]


@needs_openscad
def test_the_sensor_cable_plug_passes_every_bore_of_the_assembled_arm(built, mesh):
    _, parts = built
    runs = cables.sensor_cable_runs(mesh("arm_assembly"), parts["arm_assembly"]["facts"])
    assert all(run.diameter >= 7.5 for run in runs), runs            # the 8 mm bores, at their facets
    assert cables.plug_problems(JST_SH_4, runs) == []


def _arm_steps(config):
    items = guide.blocks(config)
    start = next(n for n, b in enumerate(items) if isinstance(b, guide.Heading) and b.text.startswith("2. "))
    steps = next(b for b in items[start:] if isinstance(b, guide.Items)).items
    after = [b.text for b in items[start:] if isinstance(b, guide.Para)]
    return list(steps) + after


def test_the_guide_threads_the_cable_after_the_joiners_and_before_any_glue(config):
    assert cables.order_problems(_arm_steps(config), cables.SENSOR_CABLE_STEPS) == []


def test_a_guide_that_threads_too_late_or_too_early_is_caught():
    rule = cables.SENSOR_CABLE_STEPS
    assert cables.order_problems(["Thread the 500 mm cable", "Push a joiner in"], rule)
    assert cables.order_problems(["Push a joiner in", "Only then glue", "Thread the 500 mm cable"], rule)


def test_a_route_longer_than_the_short_cable_is_caught():
    route = [("a long way", 220.0, [])]
    found = cables.qt_short_problems(route)
    assert found and "200 mm" in found[0] and "a long way 220 mm" in found[0]


@needs_openscad
def test_the_short_cable_reaches_from_the_nau7802_to_the_qt_py_through_open_channels(built, mesh):
    """The BOM's cable is long enough (a 100 mm one, the BOM's first choice, is not) and its way is open."""
    from enclosure.bom import load_bom
    _, parts = built
    tray = parts["tray_quarter_mcu"]["facts"]
    route = cables.qt_short_route(tray, parts["cell_base"]["facts"])
    line = next(p for p in load_bom().part if p.id == "qt_cable_adc")
    assert f"{cables.QT_SHORT_MM:g} mm" in line.name
    assert cables.qt_short_problems(route) == []
    assert cables.qt_short_problems(route, length=100.0), "a 100 mm cable now reaches: the BOM could buy the shorter one"
    quarter = mesh("tray_quarter_mcu")
    bed = -tray["under_h"]
    for what, _, points in route:
        solid = quarter.any_inside([(x, y, bed + 2) for x, y in points[1:-1]])
        assert solid is None, f"the short cable's way {what} runs into the tray at {solid}"

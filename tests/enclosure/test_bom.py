"""The bill of materials is complete, priced, and agrees with the models and the configuration."""

import pytest

from enclosure import bom
from enclosure.stl import Mesh
from hardware import wiring
from hardware.config import parse_config

from .conftest import needs_openscad
from .test_printability import box


@pytest.fixture(scope="module")
def parts_list():
    return bom.load_bom()


def test_every_part_has_a_supplier_number_a_quantity_and_a_dated_price(parts_list):
    assert parts_list.prices.date and parts_list.prices.currency
    for part in parts_list.part:
        assert part.supplier and part.part_number and part.qty >= 1 and part.price > 0, part.id
    assert {p.assembly for p in parts_list.part} == set(bom.ASSEMBLIES)


def test_the_parts_the_issue_found_missing_are_listed(parts_list):
    names = " ".join(p.name.lower() for p in parts_list.part)
    for wanted in ("display cable", "cooler", "heat-set insert", "stripboard", "hook-up wire", "feet",
                   "glue", "box header", "ribbon", "4.7 kohm", "1 kohm"):
        assert wanted in names, wanted
    assert "1n5817" in names and "bat54" not in names          # through-hole clamp diodes
    assert all(p.length_mm in (None, 50, 100, 200, 300, 400, 500) for p in parts_list.part)   # stock lengths only


def test_the_pad_board_parts_match_the_generated_wiring(parts_list, config):
    on_board = wiring.pad_board_parts(config.pads)
    qty = {p.id: p.qty for p in parts_list.part}
    assert qty["pad_socket"] == qty["pad_plug"] == on_board["sockets"]
    assert qty["series_r"] == on_board["series"] and qty["pullup_r"] == on_board["pullups"]
    assert qty["filter_c"] == on_board["caps"]


@needs_openscad
def test_quantities_match_what_the_models_and_the_config_need(parts_list, built, config):
    _, parts = built
    facts = {name: item["facts"] for name, item in parts.items()}
    assert bom.shortfalls(parts_list, facts, config) == []


@needs_openscad
def test_a_table_with_fewer_pads_or_a_longer_arm_is_caught(parts_list, built, config):
    _, parts = built
    facts = {name: item["facts"] for name, item in parts.items()}
    four = parse_config({"pads": {"pins": [p.model_dump() for p in config.pads.pins[:4]]}})
    problems = bom.shortfalls(parts_list, facts, four)
    assert any(p.startswith("button: the BOM has 18, the table needs 12") for p in problems)
    # a taller post: the run from the board up to the join on the boom outgrows the 500 mm cable
    taller = {**facts, "arm_boom": {**facts["arm_boom"], "cable_to_join": facts["arm_boom"]["cable_to_join"] + 40}}
    assert any(p.startswith("sensor cable:") for p in bom.shortfalls(parts_list, taller, config))


@needs_openscad
def test_the_cable_join_fits_its_bay_on_the_boom(built, mesh):
    _, parts = built
    f = parts["arm_boom"]["facts"]
    arm = mesh("arm_assembly")
    top = f["seat_z"] - 1.0 + 14                                   # the boom's top face (lens + head_above)
    half = 25.4 / 2 - 0.1                                           # SparkFun Qwiic MultiPort, 25.4 mm square
    corners = [(f["join_x"] + sx * half, sy * half, top - z) for sx in (-1, 1) for sy in (-1, 1) for z in (0.5, f["join_depth"] - 0.5)]
    assert arm.any_inside(corners) is None
    assert arm.contains((f["join_x"] + half + 1.2, 10, top - 2))           # walls round it (off the groove)
    assert arm.contains((f["join_x"], half + 1.2, top - 2))


@needs_openscad
def test_the_readme_bom_is_generated_from_the_file_and_the_models(parts_list, built):
    out, parts = built
    manifest = [dict(item, file=f"{name}.stl") for name, item in parts.items()]
    printed = bom.printed_parts(manifest, out, parts_list.filament)
    assert {r.name for r in printed} == set(bom.PRINTED_IN)
    readme = bom.README.read_text()
    assert bom.section(parts_list, printed) in readme, "hardware/README.md's BOM is out of date: run  python -m enclosure.bom --write"
    total = sum(bom.subtotals(parts_list, printed).values())
    assert f"**Total: {total:,.2f} {parts_list.prices.currency}**" in readme


def test_filament_follows_volume_surface_and_infill(parts_list):
    cube = Mesh(tuple(box(0, 0, 0, 20, 20, 20)))
    volume, area = bom.volume_and_area(cube)
    assert volume == pytest.approx(8000) and area == pytest.approx(2400)
    f = parts_list.filament
    solid = bom.filament_grams(volume, area, 1.0, f)
    hollow = bom.filament_grams(volume, area, 0.0, f)
    assert solid == pytest.approx(8.0 * f.density_g_cm3)
    assert hollow == pytest.approx(2400 * f.shell_mm / 1000 * f.density_g_cm3)
    assert hollow < bom.filament_grams(volume, area, 0.2, f) < solid


def test_a_bad_bom_line_is_named(tmp_path):
    bad = tmp_path / "bom.toml"
    text = bom.BOM_FILE.read_text().replace('part_number = "4900"', 'part_number = ""', 1)
    bad.write_text(text)
    with pytest.raises(bom.BomError) as err:
        bom.load_bom(bad)
    assert "part 'mcu', part_number" in str(err.value)

"""Issue 19, defect 7: no control of the sim panel can crash the kiosk."""


from testkit import drive


def panel_note() -> str:
    """What the sim panel says under its Heat buttons."""
    return next(w.note.text for root in drive.roots() for w in drive.walk(root) if hasattr(w, "tray_do"))


def test_take_and_topple_with_no_stack_say_why_and_the_kiosk_goes_on(app):
    tray = app.sim_tray
    tray.build_to(0)
    tray.step_until_idle()
    assert tray.heat == 0
    app.toggle_sim()
    drive.pump(2)
    for tag in ("sim:heat:remove", "sim:heat:topple", "sim:heat:remove"):
        drive.press(tag)  # raised ValueError out of the button's callback, killing the process
        drive.pump(1)
    assert "Nothing happened: there is no die on the tray to take off" in panel_note()
    drive.press("sim:heat:add")  # the panel still works, and a done action clears the note
    drive.pump(1)
    tray.step_until_idle()
    drive.pump(2)
    assert tray.heat == 1
    assert panel_note() == ""
    app.toggle_sim()

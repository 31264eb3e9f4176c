"""Play a game through the kiosk's real widgets, choosing answers with the random bot.

The bot only decides *what* to answer; the answer is then given the way a
person would: touching buttons on the screen, typing names, passing the
screen for secrets, or pressing a player's pad on the simulated table.
"""

from __future__ import annotations

import random

from hardware.events import ButtonColour
from kiosk import adapters, drive
from kiosk.rules import bot


def close_overlays(app) -> None:
    for _ in range(5):
        if drive.find_all("reveal:close"):
            drive.press("reveal:close")
        else:
            return


def bot_step(app, rng, skip: tuple[str, ...] = ()) -> bool | None:
    """Move the game on by one required action the bot picks (straight to the rules, not
    through the widgets), then close any reveal it opened. False if the bot's pick was
    illegal (nothing happened), None if no action outside ``skip`` is required."""
    from kiosk.rules import RuleError

    required = [p for p in app.runner.awaiting() if not p.optional and p.action not in skip]
    if not required:
        return None
    try:
        app.runner.propose(bot.fill(rng.choice(required), rng))
        return True
    except RuleError:
        return False
    finally:
        close_overlays(app)


def set_field(field, value, inputs) -> None:
    """Give one field its value through its widget."""
    widget = inputs[field.name]
    if field.kind == "choice":
        drive.press(f"{field.name}={value!r}")
    elif field.kind == "int":
        if drive.find_all(f"{field.name}={value!r}"):
            drive.press(f"{field.name}={value!r}")
        else:
            while widget.value != value:
                step = 5 if abs(value - widget.value) >= 5 else 1
                drive.press(f"{field.name}{'+' if value > widget.value else '-'}{step}")
    elif field.kind == "text":
        widget.box.focus = True
        widget.box.text = ""
        widget.box.insert_text(value)  # what the on-screen keyboard does, key by key
        widget.box.focus = False
        drive.pump(1)
    else:
        for item in value:
            drive.press(f"{field.name}={item!r}")


def pad_presses(app, prompt, data) -> list[ButtonColour] | None:
    """The pad presses that give this answer, if the game takes it from the pads."""
    adapter = adapters.for_game(app.runner.engine.game)
    presses = adapter.presses_for(prompt, data) if hasattr(adapter, "presses_for") else None
    if presses is not None:
        return presses
    if len(prompt.fields) == 1 and prompt.fields[0].kind == "choice":
        for colour in ButtonColour:
            if adapter.pick(prompt.fields[0].choices, colour.value) == data[prompt.fields[0].name]:
                return [colour]
    return None


def answer(app, prompt, data, rng) -> None:
    players = app.runner.players()
    if prompt.secret:
        presses = pad_presses(app, prompt, data)
        if presses is not None and rng.random() < 0.7 and prompt.player in players:
            pad = players.index(prompt.player) + 1
            for colour in presses:
                app.sim_pads.tap(pad, colour)
                drive.pump(1)
            drive.pump(1)
            return
        drive.press(f"secret:{prompt.player}")
        assert app.overlays, [w.tag for w in drive.find_all("", prefix=True)]
        drive.press("private:show")
        look = app.overlays[-1]
        for f in prompt.fields:
            set_field(f, data[f.name], look.inputs)
        drive.press("private:lock")
        if app.overlays and app.overlays[-1] is look:  # refused: the look stays open with the reason
            drive.press("private:hide")
        return
    public = [p for p in app.runner.awaiting() if not p.secret and not p.optional]
    if drive.find_all("prompt:back"):  # a refused answer left a single prompt open: go back to the menu
        drive.press("prompt:back")
    if prompt.optional:
        drive.press(f"optional:{prompt.action}:{prompt.player}")
    elif len(public) > 1:
        drive.press(f"act:{public.index(prompt)}")
        if not prompt.fields:
            return
    confirm = drive.find_all("prompt:confirm")  # this prompt's own button, not the next prompt's
    for f in prompt.fields:
        set_field(f, data[f.name], app.play.inputs)
    if confirm and confirm[0].get_root_window() is not None:
        drive.press(confirm[0])


def sim_table(app, prompt, rng) -> bool:
    """Let the simulated tray answer what it can: a d10 thrown onto the target, a die added to the Heat."""
    requests = [p for p in app.runner.awaiting() if p.action == "request"]
    if requests and rng.random() < 0.3:  # clincher: someone slams a pad button to ask for a redraw
        who = rng.choice(requests).player
        app.sim_pads.tap(app.runner.players().index(who) + 1, rng.choice(["black", "white", "gray"]))
        drive.pump(2)
        return True
    tray = app.sim_tray
    if tray is None or prompt.secret:
        return False
    if prompt.action == "land" and rng.random() < 0.8:
        tray.throw(accuracy=0.9, zone=rng.choice(["inside", "touching", "outside"]), face=rng.randint(1, 10))
    elif prompt.action == "risk" and rng.random() < 0.5:
        heat = app.runner.session.view()["heat"]["dice"]
        if heat >= tray.sim.geometry.max_heat_dice:
            return False
        tray.build_to(heat)  # the table follows the screen's "add N dice" first
        tray.step_until_idle()
        drive.pump(2)
        tray.add_die()
    else:
        return False
    tray.step_until_idle()
    drive.pump(2)
    return True


def play_game(app, game: str, seed: int, max_steps: int = 3000, tray_hook=sim_table,
              not_before: tuple[str, int] | None = None, setup_presses: tuple[str, ...] = ()) -> int:
    """Start ``game`` from the home screen and play it to the end; return the number of actions."""
    rng = random.Random(seed)
    drive.press(f"home:new:{game}")
    for tag in setup_presses:
        drive.press(tag)
    drive.press("setup:start")
    assert app.sm.current == "play", app.setup_screen.error.text
    for _ in range(max_steps):
        close_overlays(app)
        if app.runner.outcome is not None:
            break
        prompts = app.runner.awaiting()
        if not_before and len(app.runner.session.log) < not_before[1]:  # keep the game going a while
            prompts = [p for p in prompts if p.action != not_before[0]] or prompts
        required = [p for p in prompts if not p.optional]
        pool = prompts if not required or rng.random() < 0.02 else required
        prompt = rng.choice(pool)
        if tray_hook is not None and tray_hook(app, prompt, rng):
            continue
        answer(app, prompt, bot.fill(prompt, rng), rng)
    close_overlays(app)
    assert app.runner.outcome is not None, "the game did not finish"
    return len(app.runner.session.log)

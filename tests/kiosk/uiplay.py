"""Play a game through the kiosk's real widgets, choosing answers with the random bot.

The bot only decides *what* to answer; the answer is then given the way a
person would: touching buttons on the screen, typing names, passing the
screen for secrets, or pressing a player's pad on the simulated table.
"""

from __future__ import annotations

import random
import time

from hardware.events import ButtonColour
from kiosk import adapters
from kiosk.rules import bot
from testkit import drive


def close_overlays(app) -> None:
    """Close what a table closes: each reveal ("Carry on"), and a fall screen left open
    (its "Carry on" after the Curse, else "Back")."""
    for _ in range(5):
        if drive.find_all("reveal:close"):
            drive.press("reveal:close")
        elif getattr(app.play, "fall", None) is not None:
            drive.press("fall:close" if app.play.fall.result_shown else "prompt:back")
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


def back_home(app) -> None:
    """Close whatever is open (reveals, overlays, the sim panel) and go to the home screen."""
    close_overlays(app)
    for o in list(app.overlays):
        o.dismiss()
    if app.sim_panel is not None:
        app.toggle_sim()
    app.go_home()


def wait_for(condition, seconds: float = 10.0) -> bool:
    """Run frames until ``condition()`` holds or ``seconds`` pass (for work on other threads:
    a serial tray, a bench walk); the condition's last answer."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        drive.pump(1)
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def hold_gray(app, pad: int, seconds: float = 1.2) -> None:
    """Hold Gray on a simulated pad for ``seconds`` (on the event clock), then let go."""
    start = app.sim_pads._clock()
    app.sim_pads.press(pad, "gray", start)
    app.sim_pads.release(pad, "gray", start + seconds)
    drive.pump(2)


def prove_it_is(app, player: str) -> None:
    """Answer the kiosk's "is it really you?" for ``player``: hold Gray on their pad, or,
    with no pad, the host types the operator PIN."""
    if drive.find_all("hold:cancel"):
        hold_gray(app, app.runner.players().index(player) + 1)
    elif drive.find_all("pin:OK"):
        pin_in(app)


PIN = {"now": "2468"}
"""The operator PIN in force on the shared test kiosk (it starts with the shipped one)."""


def pin_in(app) -> None:
    """Type the operator PIN into the open PIN pad; the shipped PIN makes the kiosk ask
    for a new one first, which is then in force."""
    from kiosk.pin import DEFAULT_PIN, check

    shipped = check(DEFAULT_PIN, app.pin_hash)
    if shipped:
        PIN["now"] = DEFAULT_PIN
    drive.type_digits("pin", PIN["now"])
    if shipped and drive.find_all("newpin:OK"):
        PIN["now"] = "8642"
        drive.type_digits("newpin", PIN["now"])
        drive.type_digits("newpin", PIN["now"])


def open_operator(app) -> None:
    app.ask_operator()
    pin_in(app)


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
        prove_it_is(app, prompt.player)
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
    if prompt.action in ("add_name", "name_system") and drive.find_all("names:confirm"):
        # Promise Hollows names on one form (kiosk.ui.naming): the bot's name (and card) in its
        # first row, the rest as suggested, all written at one tap
        text, card = app.play._names_form.rows[0]
        text.box.text = data["name"]
        if card is not None:
            drive.press(f"system1={data['system']!r}")
        drive.press("names:confirm")
        return
    if prompt.action == "add_detail" and drive.find_all("names:detail"):
        drive.press("names:detail")  # a detail instead of the names: its own entry, below
    elif prompt.optional:
        drive.press(f"optional:{prompt.action}:{prompt.player}")
        if prompt.action == "heat_fall":
            answer_fall(app, data)
            return
    elif len(public) > 1:
        drive.press(f"act:{public.index(prompt)}")
        if not prompt.fields:
            return
    confirm = drive.find_all("prompt:confirm")  # this prompt's own button, not the next prompt's
    for f in prompt.fields:
        set_field(f, data[f.name], app.play.inputs)
    if confirm and confirm[0].get_root_window() is not None:
        drive.press(confirm[0])


def answer_fall(app, data) -> None:
    """Enter a fall on the fall screen (kiosk.ui.fall) as a table does: the count, each face,
    whose throw when asked; then read the Curse and carry on."""
    fall = app.play.fall
    while fall.fell != len(data["faces"]):
        drive.press("fall:more" if fall.fell < len(data["faces"]) else "fall:fewer")
    for face in data["faces"]:
        drive.press(f"fall:face={face}")
    if drive.find_all(f"fall:thrower={data['thrower']}"):
        drive.press(f"fall:thrower={data['thrower']}")
    fall.cause = data.get("cause", fall.cause)
    drive.press("fall:confirm")
    if drive.find_all("fall:close"):
        drive.press("fall:close")
    elif drive.find_all("prompt:back"):  # refused: the reason is on the fall screen; nothing was entered
        drive.press("prompt:back")


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


# -- the families of tests that make a class of bug go away ---------------------------

GAMES = ("hell-for-leather", "promise-hollows", "even-odd", "clincher")


def draw_everything(app) -> int:
    """Draw what the table sees now and each player's private sheet, through the real
    widgets; fail on any fallback. Returns the number of private sheets drawn."""
    from kivy.core.window import Window

    drive.pump(1)
    assert not app.play.panel.failed, "the status panel fell back to plain lines"
    assert not drive.find_all("plain:", prefix=True), "the prompt area fell back to its plain form"
    sheets = 0
    for player in app.runner.players():
        app.play.open_private(player)
        look = app.overlays[-1]
        look._open()  # what the player sees after "show me"
        drive.pump(1)
        assert "could not be drawn" not in " ".join(getattr(w, "text", "") for w in drive.walk(look))
        look.dismiss()
        sheets += 1
    assert Window.children, "nothing on the window"
    return sheets


def render_every_state(app, game: str, seed: int, max_steps: int = 3000, sheets_every: int = 1) -> tuple[int, int]:
    """Play a random game (the bot proposes, the screen follows as it would in play) and draw
    every state it passes through, public and private. Returns (states, private sheets)."""
    rng = random.Random(seed)
    app.start_game(game, {"seed": seed})
    states = sheets = 0
    for step in range(max_steps):
        close_overlays(app)
        states += 1
        if step % sheets_every == 0 or app.runner.outcome is not None:
            sheets += draw_everything(app)
        if app.runner.outcome is not None:
            break
        prompts = app.runner.awaiting()
        required = [p for p in prompts if not p.optional]
        pool = prompts if not required or rng.random() < 0.05 else required
        try:
            app.runner.propose(bot.fill(rng.choice(pool), rng))
        except Exception as err:  # noqa: BLE001 - only the rules may refuse
            from kiosk.rules import RuleError

            if not isinstance(err, RuleError):
                raise
    close_overlays(app)
    return states, sheets


SKIP_TOUCH = {"op:exit"}
"""Buttons the monkey leaves alone: this one closes the kiosk, as it should."""


def monkey(app, game: str, seed: int, touches: int) -> int:
    """Random touches on whatever is on screen (buttons, overlays, the sim panel, the
    operator menu once the PIN is in, and bare spots), ``touches`` of them, in one game.
    Returns how many landed on a button."""
    from kivy.core.window import Window

    rng = random.Random(seed)
    app.start_game(game, {"seed": seed})
    pressed = 0
    for i in range(touches):
        roll = rng.random()
        if roll < 0.02:
            app.toggle_sim()
        elif roll < 0.03:
            app.ask_operator()
            pin_in(app)
        elif roll < 0.05 and app.runner is not None:  # now and then the game moves on by itself
            prompts = [p for p in app.runner.awaiting() if not p.optional]
            if prompts:
                try:
                    app.runner.propose(bot.fill(rng.choice(prompts), rng))
                except Exception as err:  # noqa: BLE001
                    from kiosk.rules import RuleError

                    if not isinstance(err, RuleError):
                        raise
        buttons = [w for w in drive.find_all("", prefix=True)
                   if w.tag not in SKIP_TOUCH and hasattr(w, "on_release") and not w.disabled]
        if buttons and rng.random() < 0.85:
            w = rng.choice(buttons)
            x, y = w.to_window(*w.center)
            pressed += 1
        else:
            x, y = rng.uniform(0, Window.width), rng.uniform(0, Window.height)
            if any(w.collide_point(*w.to_widget(x, y)) for tag in SKIP_TOUCH for w in drive.find_all(tag)):
                continue
        drive.tap_at(x, y)
        drive.pump(1)
        if app.sm.current == "home" and rng.random() < 0.5 and drive.find_all("home:resume"):
            drive.press("home:resume")
        elif app.sm.current in ("home", "attract") and rng.random() < 0.3:
            app.start_game(game, {"seed": seed + i})
    return pressed

"""Random complete games in every mode: the rules' promises hold after every single action."""

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from kiosk.rules.hell_for_leather import ENGINE
from kiosk.rules.hell_for_leather.charts import HEAT_FLOOR, RIP

from ..harness import assert_replays, assert_undo_redo, choices, play_checked

NAMES = ["Daniel", "Roger", "Eoin", "Jason", "Susan", "Alex"]
DRIVE_CAUSES = {"trauma", "goal_heal", "reward_heal", "reward_trauma", "dying_rule", "death"}


@st.composite
def setups(draw):
    mode = draw(st.sampled_from(["team", "coop"]))
    fluency = draw(st.sampled_from([1, 2, 3]))
    setup = {"mode": mode, "fluency": fluency, "goal_target": draw(st.integers(1, 3)),
             "felony_track": draw(st.integers(2, 8)), "practice_conflicts": draw(st.integers(1, 15)),
             "felony_dice": draw(st.sampled_from(["count", "drive"]))}
    if mode == "coop":
        setup["players"] = NAMES[: draw(st.integers(2, 3))]
        setup["coop_finale"] = draw(st.sampled_from(["gauntlet", "showdown"]))
    else:
        setup["players"] = NAMES[: draw(st.integers(2, 6))]
        setup["exams"] = len(setup["players"]) >= 4 and draw(st.booleans())
        setup["wipeout"] = draw(st.sampled_from(["gauntlet", "win"]))
        setup["dying"] = fluency == 3 and draw(st.booleans())
    return setup


class Watcher:
    """Remembers the last state and checks the step from it to the next one."""

    def __init__(self):
        self.drive = None
        self.felony = None
        self.dead = set()

    def __call__(self, session):
        state = session.state
        heats = [t.heat for t in state.teams]
        if state.finale is not None:
            heats += [s.heat for s in state.finale.sides]
        assert min(heats) >= HEAT_FLOOR, f"Heat below its floor: {heats}"
        vps = [t.vp for t in state.teams] + ([s.vp for s in state.finale.sides] if state.finale else [])
        assert min(vps) >= 0, f"negative VP: {vps}"
        drive = {p: c.drive for p, c in state.contestants.items()}
        felony = {p: c.felony for p, c in state.contestants.items()}
        if self.drive is not None and session.log:
            events = session._events[-1]  # what the last action caused
            explained = {}
            for e in events:
                if e.kind == "drive":
                    assert e.data["cause"] in DRIVE_CAUSES, e.data
                    explained.setdefault(e.data["player"], self.drive[e.data["player"]])
                    assert e.data["before"] == explained[e.data["player"]], (e.text, explained)
                    explained[e.data["player"]] = e.data["after"]
            for p, d in drive.items():
                assert d == explained.get(p, self.drive[p]), f"{p}'s Drive moved without a listed cause: {events}"
            last = session.log[-1]
            assert last.player is None or last.player not in self.dead, f"{last.player} acted after R.I.P."
            for p, f in felony.items():
                assert self.felony[p] <= f <= state.felony_track
        self.dead = {p for p, d in drive.items() if d >= RIP}
        for prompt in session.awaiting():
            assert prompt.player is None or prompt.player not in self.dead, f"a prompt for the dead: {prompt}"
            assert not prompt.secret
        self.drive, self.felony = drive, felony


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups(), seed=st.integers(0, 2**16), moves=choices())
def test_random_complete_games_keep_every_invariant(setup, seed, moves):
    # Every move is a Hypothesis draw: a failure shrinks to a short game and lists its actions.
    session = play_checked(ENGINE, {**setup, "seed": seed}, moves, Watcher())
    assert session.outcome
    assert_replays(session)
    assert_undo_redo(session, steps=6)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), players=st.integers(2, 3))
def test_coop_games_end_and_replay(seed, players):
    session = play_checked(ENGINE, {"mode": "coop", "players": NAMES[:players], "seed": seed}, seed, Watcher())
    assert session.outcome
    assert any(word in session.outcome for word in ("died", "dead", "Surviving"))
    assert_replays(session)


def test_the_public_view_is_json_and_every_player_sees_the_same_table():
    session = play_checked(ENGINE, {"seed": 7}, 7)
    public = session.view(None)
    json.dumps(public)
    mine = session.view("Daniel")
    assert mine.pop("you") == "Daniel"
    assert mine == public     # Hell for Leather keeps no secrets from anyone at the table

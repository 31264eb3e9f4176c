"""Turn a game's setup model (pydantic) into the questions of a setup wizard.

Each field of ``Engine.setup_model`` becomes a ``Question`` the screen knows
how to ask: a stepper for whole numbers, big buttons for a fixed set of
values, a switch for yes/no, a list of names for the players, a text box for
the rest. The seed is not asked: a new game gets a fresh random seed, stored
with it, so replays still repeat every virtual die.

``answers_to_setup`` validates the answers with the model itself and turns a
refusal into a sentence per field, so the wizard can say exactly what to fix.
"""

from __future__ import annotations

import enum
import random
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined

from kiosk.rules import Setup


@dataclass
class Question:
    name: str
    kind: Literal["int", "float", "bool", "choice", "names", "records", "group", "text", "json"]
    label: str
    default: Any
    help: str = ""
    choices: list[Any] = field(default_factory=list)
    min: float | None = None
    max: float | None = None
    columns: list[str] = field(default_factory=list)
    """For ``records``: the text fields of each row (e.g. name and character)."""
    parts: list["Question"] = field(default_factory=list)
    """For ``group``: the questions inside a small nested model (e.g. token counts)."""
    optional: bool = False
    """The model takes None (a blank answer means its default): the wizard offers Skip."""


STAND_IN_NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]


SHORT_WORDS = {"gm": "GM", "gms": "GM's", "vp": "VP"}
"""Words a field name spells in lower case that a label must not."""


def _label(name: str) -> str:
    """``gm_tokens`` reads "GM tokens", ``team_a`` "Team A" (a field's own ``title`` wins over this)."""
    words = [SHORT_WORDS.get(w, w.upper() if len(w) == 1 else w) for w in name.split("_")]  # team_a: "Team A"
    first = words[0] if words[0] in SHORT_WORDS.values() else words[0].capitalize()
    return " ".join([first, *words[1:]])


def _bounds(info) -> tuple[float | None, float | None, int | None, int | None]:
    lo = hi = min_len = max_len = None
    for m in info.metadata:
        lo = getattr(m, "ge", None) if getattr(m, "ge", None) is not None else lo
        if getattr(m, "gt", None) is not None:
            lo = m.gt + 1
        hi = getattr(m, "le", None) if getattr(m, "le", None) is not None else hi
        if getattr(m, "lt", None) is not None:
            hi = m.lt - 1
        min_len = getattr(m, "min_length", None) if getattr(m, "min_length", None) is not None else min_len
        max_len = getattr(m, "max_length", None) if getattr(m, "max_length", None) is not None else max_len
    return lo, hi, min_len, max_len


def _strip_optional(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def _text_model(item: Any) -> bool:
    """A small model made only of text fields (a player and their character, say)."""
    return isinstance(item, type) and issubclass(item, BaseModel) and bool(item.model_fields) and all(
        f.annotation is str for f in item.model_fields.values())


def questions(model: type[Setup]) -> list[Question]:
    """The wizard's questions, in the model's field order, without the seed."""
    return questions_of(model)


def questions_of(model: type[BaseModel]) -> list[Question]:
    out: list[Question] = []
    for name, info in model.model_fields.items():
        if name == "seed":
            continue
        annotation = _strip_optional(info.annotation)
        origin = typing.get_origin(annotation)
        default = info.get_default(call_default_factory=True)
        if default is PydanticUndefined:
            default = None
        if isinstance(default, enum.Enum):
            default = default.value
        label = info.title or _label(name)
        help_text = info.description or ""
        lo, hi, min_len, max_len = _bounds(info)
        if annotation is bool:
            q = Question(name, "bool", label, default, help_text)
        elif annotation is int:
            q = Question(name, "int", label, default, help_text, min=lo, max=hi)
        elif annotation is float:
            q = Question(name, "float", label, default, help_text, min=lo, max=hi)
        elif origin is Literal:
            q = Question(name, "choice", label, default, help_text, choices=list(typing.get_args(annotation)))
        elif isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            q = Question(name, "choice", label, default, help_text, choices=[m.value for m in annotation])
        elif origin is list and typing.get_args(annotation) in ((str,),):
            if default is None:  # required: offer stand-in names the group overwrites
                default = STAND_IN_NAMES[: max(min_len or 3, 3)]
            q = Question(name, "names", label, list(default), help_text, min=min_len, max=max_len)
        elif origin is list and _text_model(typing.get_args(annotation)[0]):
            item = typing.get_args(annotation)[0]
            rows = [_jsonable(r) for r in default] if default else [
                {c: f"{n}" for c in item.model_fields} for n in STAND_IN_NAMES[: max(min_len or 3, 3)]]
            q = Question(name, "records", label, rows, help_text, min=min_len, max=max_len,
                         columns=list(item.model_fields))
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel) and all(
                f.annotation in (int, bool) for f in annotation.model_fields.values()):
            q = Question(name, "group", label, _jsonable(default), help_text, parts=questions_of(annotation))
        elif annotation is str:
            q = Question(name, "text", label, default if default is not None else "", help_text, max=max_len)
        else:
            q = Question(name, "json", label, _jsonable(default), help_text)
        q.optional = annotation is not info.annotation  # ``str | None``: blank is an answer
        out.append(q)
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return value


def answers_to_setup(model: type[Setup], answers: dict[str, Any], seed: int | None = None) -> Setup:
    """Validate the wizard's answers; raise ``SetupError`` naming each wrong field."""
    data = dict(answers)
    data["seed"] = seed if seed is not None else random.SystemRandom().randrange(1, 2**31)
    try:
        return model.model_validate(data)
    except ValidationError as err:
        labels = {q.name: q.label for q in questions(model)}
        problems = []
        for e in err.errors():
            where = labels.get(str(e["loc"][0]), str(e["loc"][0])) if e["loc"] else "setup"
            problems.append(f"{where}: {e['msg'].removeprefix('Value error, ')}")
        raise SetupError(problems) from None


class SetupError(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems

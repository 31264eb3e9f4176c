"""Hell for Leather: a team-against-team game show of escape, played on a dice target.

The package splits the rules by topic:

* ``charts``: the numbers (landings, results, the Curse chart, Drive, Heat);
* ``models``: the setup and the game state; ``actions``: every move;
* ``setup_phase``: Exams, contestants and Goals; ``play``: turns, conflicts,
  Curses, Felonies, VP and Goals; ``finale``: the Objective, the Finale, the
  Gauntlet and the Epilogue; ``engine``: routes actions and builds views.
"""

from .engine import ENGINE, HellForLeather
from .models import HellForLeatherSetup

__all__ = ["ENGINE", "HellForLeather", "HellForLeatherSetup"]

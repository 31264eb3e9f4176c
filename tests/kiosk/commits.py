"""A stand-in for SQLite under a store's commit worker: it can hold, slow or fail a COMMIT."""

import threading
import time


class CommitGate:
    """Put between ``store``'s commit worker and its connection (only a ``commit_behind`` store has one)."""

    def __init__(self, store) -> None:
        self.store = store
        self.real = store._committer.db
        self.open = threading.Event()
        self.open.set()
        self.delay = 0.0
        self.fail_next: Exception | None = None
        store._committer.db = self

    def execute(self, sql, *args):
        if sql == "COMMIT":
            self.open.wait()
            time.sleep(self.delay)
            if self.fail_next is not None:
                error, self.fail_next = self.fail_next, None
                raise error
        return self.real.execute(sql, *args)

    def remove(self) -> None:
        self.open.set()
        self.store.settled()
        self.store._committer.db = self.real

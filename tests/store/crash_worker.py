"""Child processes for the crash test.

This script is a small "zygote": it imports Riverboat once, then for every ``go URL TABLE`` line on stdin it
forks a real child process that plays cash hands at one table in an endless loop (start_hand, then settle_hand
with random pot movements and rake) until the test kills it with SIGKILL.  Forking from a single-threaded,
already-initialised process makes each kill cycle cheap while every victim is still a separate OS process with
its own database connections (created after the fork).

Protocol: ``go URL TABLE`` -> the zygote answers ``<pid>`` once the child has settled its first hand, then
``exit <signal number or -exit code>`` when the child has died.
"""

from __future__ import annotations

import os
import random
import sys
import uuid

from riverboat.store import Store


def play(url: str, table: str, ready_fd: int) -> None:
    if url.startswith("postgresql"):  # lets the test see when the server has dropped this process's connection
        url += ("&" if "?" in url else "?") + f"application_name=rbcrash{os.getpid()}"
    store = Store(url)
    rng = random.Random()
    while True:
        stacks = store.ledger.table_stacks(table)
        seated = sorted(stacks)
        hand_id = uuid.uuid4().hex
        store.ledger.start_hand(table, hand_id, stacks)
        winner = rng.choice(seated)
        changes = {p: -rng.randint(0, min(stacks[p], 150)) for p in seated if p != winner}
        pot = -sum(changes.values())
        rake = min(pot // 20, 5)
        changes[winner] = pot - rake
        store.ledger.settle_hand(table, hand_id, changes, rake, f"# hand {hand_id}", [{"pot": pot}])
        if ready_fd >= 0:
            os.write(ready_fd, b"r")
            os.close(ready_fd)
            ready_fd = -1


def main() -> None:
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        _, url, table = line.split()
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(r)
            try:
                play(url, table, w)
            finally:
                os._exit(1)
        os.close(w)
        os.read(r, 1)
        os.close(r)
        print(pid, flush=True)
        _, status = os.waitpid(pid, 0)
        code = os.WTERMSIG(status) if os.WIFSIGNALED(status) else -os.WEXITSTATUS(status)
        print(f"exit {code}", flush=True)


if __name__ == "__main__":
    main()

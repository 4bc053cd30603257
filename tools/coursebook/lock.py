"""One run at a time in a checkout: `make book`, `make refresh`, `make editions` (and the commands that write the
chapters, figures or editions) hold <build>/run.lock while they run.

The lock is the kernel's (`fcntl.flock` on the file): a run killed at any point, even by SIGKILL, holds it no
more, so the next run never waits for a dead one; the Sphinx build a run starts inherits it (`HELD`), so a build
left running by a killed run still keeps a second one out. The file says who holds it (command, pid, start time), so a
second run stops at once with `이미 실행 중: make refresh (pid 4242, 10:31:07 UTC부터)`; what the holder left is
named too when the named pid no longer runs (a stale lock file: the next run takes it over, and repairs what the
killed run left: the build record is removed before every build, `coursebook built`).
"""
from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from pathlib import Path

HELD: int | None = None   # the lock's file descriptor while this process holds it: a build it starts holds it too


class Busy(RuntimeError):
    """Another run holds the checkout's lock: the message names it."""


def lock_path(build_dir: Path) -> Path:
    return build_dir / "run.lock"


def holder(build_dir: Path) -> dict | None:
    """What the lock file says of its last holder (command, pid, started), or None."""
    try:
        said = json.loads(lock_path(build_dir).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return said if isinstance(said, dict) else None


def alive(pid) -> bool:
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def describe(said: dict | None) -> str:
    if not said:
        return "다른 실행 (누가 잡았는지 적혀 있지 않다)"
    started = time.strftime("%H:%M:%S UTC", time.gmtime(said.get("started", 0)))
    return f"{said.get('command', '?')} (pid {said.get('pid', '?')}, {started}부터)"


@contextlib.contextmanager
def held(build_dir: Path, command: str):
    """Hold the checkout's lock while the block runs, or raise Busy naming the run that holds it."""
    build_dir.mkdir(parents=True, exist_ok=True)
    path = lock_path(build_dir)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            said = holder(build_dir)
            orphan = " (그 프로세스는 끝났지만 그것이 띄운 빌드가 아직 돈다)" if said and not alive(said.get("pid")) else ""
            raise Busy(f"이미 실행 중: {describe(said)}{orphan}. 그 실행이 끝난 뒤에 다시 실행하자") from None
        said = holder(build_dir)
        if said and said.get("pid") != os.getpid() and not alive(said.get("pid")):
            print(f"지난 실행 {describe(said)}은(는) 끝나지 못하고 멈췄다: 이번 실행이 이어받아 남은 것을 고친다")
        os.ftruncate(fd, 0)
        os.write(fd, json.dumps({"command": command, "pid": os.getpid(), "started": int(time.time())}).encode())
        global HELD
        HELD = fd
        try:
            yield
        finally:
            HELD = None
            os.ftruncate(fd, 0)
    finally:
        os.close(fd)   # (closing releases the flock)

"""Process pools whose workers never outlive the command that started them.

A build killed with SIGKILL or SIGTERM must leave no process behind: a forked worker that
survives its parent keeps working for nobody and, before the run-directory lock stopped being
inherited, kept the run directory locked. Each worker asks the kernel to kill it when its parent
dies (``PR_SET_PDEATHSIG``, Linux), and a pool left by an exception is stopped at once instead
of finishing its queue.
"""

from __future__ import annotations

import os
import signal

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


DEFERRED = {signal.SIGINT, signal.SIGTERM}


def process_pool(workers: int):
    """A ``ProcessPoolExecutor`` of ``workers`` processes that die with this process, started
    at once with Ctrl-C and SIGTERM held back: an exception raised by a signal handler in the
    middle of a fork runs inside an at-fork hook, where Python prints and drops it."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent,
                               initargs=(os.getpid(),))
    held = signal.pthread_sigmask(signal.SIG_BLOCK, DEFERRED)
    try:
        try:
            pool.submit(int).result()  # forks every worker now, under the mask
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal is raised here
    except BaseException:
        stop_pool(pool, failed=True)
        raise
    return pool


def stop_pool(pool, failed: bool) -> None:
    """Shut ``pool`` down: wait for its work after success; after a failure (an exception,
    Ctrl-C, SIGTERM), drop the queued work and end the workers now."""
    if not failed:
        pool.shutdown()
        return
    # No public way to end running workers before Python 3.14 (terminate_workers); shutdown
    # forgets them, so they are listed first.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def _die_with_parent(parent: int) -> None:
    """Pool initializer: SIGKILL this worker when its parent dies; leave Ctrl-C and SIGTERM
    to the parent, which stops the pool itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, DEFERRED)  # forked under process_pool's mask
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent's stop_pool still ends workers
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def ordered_map(function, items, workers: int, ahead: int = 2):
    """``function(item)`` for each of ``items``, yielded in the items' order: in this process
    with one worker, else in a pool of ``workers`` processes that die with this one, with at
    most ``ahead`` items per worker queued at a time (``items`` may be a generator reading
    data: no more of it is held than the queue needs)."""
    if workers <= 1:
        yield from map(function, items)
        return
    from collections import deque

    pool = process_pool(workers)
    failed = True
    try:
        queue: deque = deque()
        for item in items:
            queue.append(pool.submit(function, item))
            if len(queue) >= workers * ahead:
                yield queue.popleft().result()
        while queue:
            yield queue.popleft().result()
        failed = False
    finally:
        stop_pool(pool, failed)

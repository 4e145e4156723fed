"""Process pools whose workers never outlive the command that started them.

A build killed with SIGKILL or SIGTERM must leave no process behind: a forked worker that
survives its parent keeps working for nobody and, before the run-directory lock stopped being
inherited, kept the run directory locked. Each worker asks the kernel to kill it when its parent
dies (``PR_SET_PDEATHSIG``, Linux), and a pool left by an exception is stopped at once instead
of finishing its queue.
"""

from __future__ import annotations

import contextlib
import os
import signal
from contextlib import contextmanager

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


DEFERRED = {signal.SIGINT, signal.SIGTERM}


def process_pool(workers: int):
    """A ``ProcessPoolExecutor`` of ``workers`` processes that die with this process, started
    at once with Ctrl-C and SIGTERM held back (see ``signals_held``)."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent,
                               initargs=(os.getpid(),))
    try:
        with signals_held():
            pool.submit(int).result()  # forks every worker now
    except BaseException:
        stop_pool(pool, failed=True)
        raise
    return pool


@contextlib.contextmanager
def signals_held():
    """Ctrl-C and SIGTERM arriving in the block are acted on when it ends.

    Forking workers must not be interrupted: an exception raised by a signal handler in the
    middle of a fork runs inside an at-fork hook, where Python prints and drops it, and a pool
    half started is a pool nobody stops. Blocking the signals in this thread is not enough
    (the kernel hands a signal for the process to any thread not blocking it, a library's
    thread say, and Python then runs the handler in the main thread all the same), so the
    handlers are swapped for one that only notes the signal; the mask still covers the
    children, which inherit it and unblock it once their handlers are reset."""
    noted: list[int] = []

    def note(signum, frame):
        noted.append(signum)

    try:
        handlers = {signum: signal.signal(signum, note) for signum in DEFERRED}
    except ValueError:  # not the main thread: Python runs no handler here
        handlers = {}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, DEFERRED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a blocked one is noted now
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(noted):
            signal.raise_signal(signum)  # its own handler raises here


MANAGER_GRACE = 10.0  # seconds stop_pool waits for a stopped pool's own thread


def stop_pool(pool, failed: bool) -> None:
    """Shut ``pool`` down: wait for its work after success; after a failure (an exception,
    Ctrl-C, SIGTERM), drop the queued work and end the workers now.

    Ended with SIGKILL, which a worker cannot hold back (one forked a moment ago still has the
    parent's mask, see process_pool) and which needs no cleanup there (workers write no
    files). The queue feeding the workers is not waited for at exit: its feeder thread may be
    stuck writing to a worker that died in the middle of a read, and Python would join it
    forever."""
    if not failed:
        pool.shutdown()
        return
    # No public way to end running workers before Python 3.14 (terminate_workers); shutdown
    # forgets them, so they are listed first.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    call_queue = getattr(pool, "_call_queue", None)
    if call_queue is not None:
        call_queue.cancel_join_thread()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.kill()  # reaped by the pool's own thread: a second waiter would confuse it
    # The pool's thread sees the dead workers, fails the futures and closes its wakeup pipe.
    # Waiting for it here keeps that close from racing Python's exit hook, which writes to the
    # same pipe without the pool's lock (before 3.12: "Exception ignored ... Bad file
    # descriptor" on stderr after a clean stop). Bounded: a worker killed mid-write of a
    # result could leave the thread reading forever.
    if manager is not None and manager.is_alive():
        manager.join(timeout=MANAGER_GRACE)


def pool_map(pool, function, items: list, chunksize: int = 1) -> list:
    """``[function(item) for item in items]`` on ``pool``, ``chunksize`` items to a task.

    Unlike ``Executor.map`` it cancels no future when interrupted (``stop_pool`` ends the
    work): on Python before 3.12, a future cancelled by this thread just as the pool's own
    thread fails it for a killed worker raises ``InvalidStateError`` in that thread, which then
    dies before it closes the pool's queues, and the command hangs at exit."""
    chunks = [items[k:k + chunksize] for k in range(0, len(items), max(1, chunksize))]
    futures = [pool.submit(_apply, function, chunk) for chunk in chunks]
    return [result for future in futures for result in future.result()]


def _apply(function, chunk: list) -> list:
    return [function(item) for item in chunk]


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


def ordered_map(function, items, workers: int, ahead: int = 2, pool=None):
    """``function(item)`` for each of ``items``, yielded in the items' order: in this process
    with one worker, else in a pool of ``workers`` processes that die with this one, with at
    most ``ahead`` items per worker queued at a time (``items`` may be a generator reading
    data: no more of it is held than the queue needs). ``pool``: a ``kept_pool`` to run in
    (its workers keep what they loaded and cached from one call to the next), else a pool of
    this call's own."""
    if workers <= 1:
        yield from map(function, items)
        return
    from collections import deque

    own = pool is None
    if own:
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
        if own or failed:
            stop_pool(pool, failed)


@contextmanager
def kept_pool(workers: int):
    """A ``process_pool`` of ``workers`` processes for several ``ordered_map`` calls (None
    with one worker), stopped on leaving the block: at once after an exception."""
    if workers <= 1:
        yield None
        return
    pool = process_pool(workers)
    failed = True
    try:
        yield pool
        failed = False
    finally:
        stop_pool(pool, failed)

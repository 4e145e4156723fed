"""Stopping a process pool: the pool's own thread is done when ``stop_pool`` returns."""

from __future__ import annotations

import time

from longnovel import workers


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_failed_stop_leaves_no_pool_thread_to_race_the_exit_hook():
    # Python's exit hook writes to the pool's wakeup pipe without the pool's lock; if the
    # pool's thread is still closing that pipe, the write fails on stderr after a clean stop.
    pool = workers.process_pool(2)
    futures = [pool.submit(_sleep, 30) for _ in range(4)]
    time.sleep(0.5)  # the workers have started the tasks
    manager = pool._executor_manager_thread
    wakeup = pool._executor_manager_thread_wakeup
    processes = list(pool._processes.values())
    started = time.monotonic()
    workers.stop_pool(pool, failed=True)
    assert not manager.is_alive()
    assert wakeup._closed
    assert all(not process.is_alive() for process in processes)
    assert all(future.done() for future in futures)
    assert time.monotonic() - started < workers.MANAGER_GRACE


def test_a_successful_stop_waits_for_the_work():
    pool = workers.process_pool(2)
    futures = [pool.submit(_sleep, 0.1) for _ in range(3)]
    workers.stop_pool(pool, failed=False)
    assert [future.result() for future in futures] == [0.1, 0.1, 0.1]

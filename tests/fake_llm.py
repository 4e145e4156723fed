"""A scriptable OpenAI-compatible chat server on 127.0.0.1 for tests and benchmarks.

Real HTTP (``ThreadingHTTPServer``, one thread per connection, so slow replies overlap).
Both SDKs post to ``<base_url>/chat/completions``: the openai SDK and the zhipuai SDK given the
same ``base_url`` (``http://127.0.0.1:PORT/v1``) hit ``/v1/chat/completions``.

Script it per test:

- ``server.reply = fn``: messages -> reply text (or a Fault); default echoes the last message;
- ``server.enqueue("text", status(429, retry_after="1"), DROP, ...)``: served first, in order;
- ``server.latency = 0.1``: seconds before each answer;
- ``server.chaos(fail=0.2, garble=0.1, seed=1)``: random HTTP 500s and unparseable replies;
- ``server.omit_usage = True``: replies without ``usage``;
- ``server.finish = fn``: messages -> ``finish_reason`` (default ``"stop"``; ``"length"`` plays a
  reply cut off at ``max_tokens``).

``python tests/fake_llm.py 0.1`` serves alone (100 ms latency) and prints its base URL;
``GET /fake/stats`` then returns the counts.

It records every request (``server.requests``: path, body, headers with lower-case names and
arrival time ``at`` on ``time.monotonic``), the prompts it answered with HTTP 200
(``server.answered``), and the highest number of requests in flight at once.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

GARBLED = "Sorry, I would rather talk about something else today."


@dataclass(frozen=True)
class Fault:
    """A scripted misbehaviour: ``status``, ``hang`` (sleep, then answer), ``malformed``, ``drop``."""

    kind: str
    code: int = 500
    retry_after: str | None = None
    seconds: float = 0.0
    message: str | None = None


def status(code: int, retry_after: str | None = None, message: str | None = None) -> Fault:
    """An HTTP error reply, optionally with a Retry-After header and an error message."""
    return Fault("status", code=code, retry_after=retry_after, message=message)


def hang(seconds: float) -> Fault:
    """Sleep (past the client's timeout, say) before answering."""
    return Fault("hang", seconds=seconds)


MALFORMED = Fault("malformed")  # HTTP 200 whose body is not JSON
DROP = Fault("drop")  # close the connection without any response


def echo(messages: list[dict]) -> str:
    """The default reply: the last message's content."""
    return f"echo: {messages[-1]['content']}"


def words(text: str) -> int:
    """The fake server's token count: whitespace-separated words."""
    return len(text.split())


class FakeLLM:
    """The server's script and records; see the module docstring."""

    def __init__(self):
        self.reply: Callable[[list[dict]], str | Fault] = echo
        self.latency = 0.0
        self.omit_usage = False
        self.finish: Callable[[list[dict]], str] = lambda messages: "stop"
        self.requests: list[dict] = []
        self.answered: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque = deque()
        self._fail_rate = self._garble_rate = 0.0
        self._rng = random.Random(0)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _handler_for(self))
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def enqueue(self, *items: str | Fault) -> None:
        """Replies and faults served to the next requests, in arrival order."""
        with self._lock:
            self._queue.extend(items)

    def chaos(self, fail: float = 0.0, garble: float = 0.0, seed: int = 0) -> None:
        """Fail a share of requests with HTTP 500 and garble a share of replies."""
        self._fail_rate, self._garble_rate = fail, garble
        self._rng = random.Random(seed)

    def count(self) -> int:
        """Requests received so far."""
        with self._lock:
            return len(self.requests)

    def stats(self) -> dict:
        """Counts for a client in another process (served at ``GET /fake/stats``)."""
        with self._lock:
            return {
                "requests": len(self.requests),
                "answered": len(self.answered),
                "max_in_flight": self.max_in_flight,
            }

    def start(self) -> FakeLLM:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    # -- used by the handler ----------------------------------------------------------------

    def _record(self, path: str, headers, body: dict) -> None:
        with self._lock:
            self.requests.append(
                {
                    "path": path,
                    "body": body,
                    "headers": {k.lower(): v for k, v in headers.items()},
                    "at": time.monotonic(),
                }
            )
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _done(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _action(self, messages: list[dict]) -> str | Fault:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            roll = self._rng.random()
        if roll < self._fail_rate:
            return status(500)
        if roll < self._fail_rate + self._garble_rate:
            return GARBLED
        return self.reply(messages)

    def _completion(self, body: dict, text: str) -> dict:
        messages = body.get("messages", [])
        prompt = sum(words(str(m.get("content", ""))) for m in messages)
        reply = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", ""),
            "choices": [
                {
                    "index": 0,
                    "finish_reason": self.finish(messages),
                    "message": {"role": "assistant", "content": text},
                }
            ],
        }
        if not self.omit_usage:
            completion = words(text)
            reply["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
        return reply


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        pass  # clients that time out or hang up are part of the script


def _handler_for(fake: FakeLLM):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in two writes; with Nagle on, the second waits for the
        # client's delayed ACK (40 ms on Linux) and every reply would be that much late.
        disable_nagle_algorithm = True

        def log_message(self, *args):
            pass

        def do_GET(self):
            if self.path == "/fake/stats":
                self._send(200, fake.stats())
            else:
                self._send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if not self.path.endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            body = json.loads(raw or b"{}")
            fake._record(self.path, self.headers, body)
            try:
                self._serve(body)
            finally:
                fake._done()

        def _serve(self, body: dict):
            action = fake._action(body.get("messages", []))
            if fake.latency:
                fake._stop.wait(fake.latency)
            if isinstance(action, Fault) and action.kind == "hang":
                fake._stop.wait(action.seconds)
                action = fake.reply(body.get("messages", []))
            if isinstance(action, str):
                self._send(200, fake._completion(body, action))
                with fake._lock:
                    fake.answered.append(body["messages"][-1]["content"])
            elif action.kind == "status":
                headers = {"Retry-After": action.retry_after} if action.retry_after else {}
                text = action.message or f"fake {action.code}"
                self._send(action.code, {"error": {"message": text}}, headers)
            elif action.kind == "malformed":
                self._send_bytes(200, b'{"id": "chatcmpl-fake", "choices": [{"ind', {})
            elif action.kind == "drop":
                self.close_connection = True

        def _send(self, code: int, payload: dict, headers: dict | None = None):
            self._send_bytes(code, json.dumps(payload).encode(), headers or {})

        def _send_bytes(self, code: int, data: bytes, headers: dict):
            try:
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)
            except OSError:
                self.close_connection = True

    return Handler


def serve_forever(latency: float) -> None:
    """Run a server until killed, printing its base URL (for benchmarks in another process)."""
    server = FakeLLM().start()
    server.latency = latency
    print(server.base_url, flush=True)
    threading.Event().wait()


@pytest.fixture
def llm_server():
    """A started FakeLLM, stopped after the test."""
    server = FakeLLM().start()
    yield server
    server.stop()


if __name__ == "__main__":
    import sys

    serve_forever(float(sys.argv[1]) if len(sys.argv) > 1 else 0.0)

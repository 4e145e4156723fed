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
- ``server.usage = {...}``: the ``usage`` object sent as is (absurd counts, say), instead of
  word counts; a reply of any size is just ``server.reply = lambda m: "word " * 2_000_000``;
- ``server.finish = fn``: messages -> ``finish_reason`` (default ``"stop"``; ``"length"`` plays a
  reply cut off at ``max_tokens``).

``python tests/helpers/fake_llm.py 0.1`` serves alone (100 ms latency) and prints its base URL;
``GET /fake/stats`` then returns the counts.

It records every request (``server.requests``: path, body, headers with lower-case names and
arrival time ``at`` on ``time.monotonic``), the prompts it answered with HTTP 200
(``server.answered``), and the highest number of requests in flight at once.

It also serves the files + batches API both SDKs use in batch mode (``/v1/files``,
``/v1/files/{id}/content``, ``/v1/batches``, ``/v1/batches/{id}``): a batch completes at its
``server.batch_polls``-th retrieval (default 2; set it high to keep batches pending; its
counts grow with each poll before that), its lines answered by the same script as chat
requests (``reply``, ``enqueue``, ``chaos``, ``finish``);
a scripted ``status(...)`` becomes an error line with that status and ``EXPIRE`` a line left
unanswered when the batch expires. ``server.enqueue_api(status(401))`` answers the next
files/batches calls with errors. Batch calls are recorded in ``server.batch_calls`` (method,
path), created batches in ``server.batches`` (with their ``custom_ids``); none of them counts
in ``server.requests``.
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

GARBLED = "Sorry, I would rather talk about something else today."


@dataclass(frozen=True)
class Fault:
    """A scripted misbehaviour: ``status``, ``hang`` (sleep, then answer), ``malformed``,
    ``drop``."""

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
EXPIRE = Fault("expire")  # a batch line left unanswered: the batch expires


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
        self.usage: dict | None = None
        self.finish: Callable[[list[dict]], str] = lambda messages: "stop"
        self.requests: list[dict] = []
        self.answered: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque = deque()
        self._api_queue: deque = deque()
        self.batch_polls = 2
        self.files: dict[str, dict] = {}
        self.batches: dict[str, dict] = {}
        self.batch_calls: list[tuple[str, str]] = []
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

    def enqueue_api(self, *faults: Fault) -> None:
        """Errors served to the next files/batches calls, in arrival order."""
        with self._lock:
            self._api_queue.extend(faults)

    def submitted(self) -> list[str]:
        """Every ``custom_id`` put in a batch so far, in creation order (repeats included)."""
        with self._lock:
            return [cid for batch in self.batches.values() for cid in batch["custom_ids"]]

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
                "batches": len(self.batches),
                "batch_calls": len(self.batch_calls),
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
        if self.usage is not None:
            reply["usage"] = dict(self.usage)
        elif not self.omit_usage:
            completion = words(text)
            reply["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            }
        return reply


    # -- files + batches ------------------------------------------------------------------------

    def _batch_call(self, method: str, path: str) -> Fault | None:
        with self._lock:
            self.batch_calls.append((method, path))
            return self._api_queue.popleft() if self._api_queue else None

    def _new_file(self, data: bytes, purpose: str, filename: str) -> dict:
        with self._lock:
            file_id = f"file-{len(self.files) + 1}"
            self.files[file_id] = {"data": data, "purpose": purpose, "filename": filename}
        return _file_object(file_id, self.files[file_id])

    def _new_batch(self, body: dict) -> dict | None:
        with self._lock:
            source = self.files.get(body.get("input_file_id", ""))
            if source is None:
                return None
            lines = [json.loads(raw) for raw in source["data"].splitlines() if raw.strip()]
            batch_id = f"batch-{len(self.batches) + 1}"
            self.batches[batch_id] = {
                "id": batch_id, "object": "batch", "endpoint": body.get("endpoint", ""),
                "input_file_id": body["input_file_id"], "completion_window": "24h",
                "created_at": int(time.time()), "status": "validating", "polls": 0,
                "output_file_id": None, "error_file_id": None, "errors": None,
                "lines": lines, "custom_ids": [line["custom_id"] for line in lines],
                "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
            }
            return _batch_object(self.batches[batch_id])

    def _poll_batch(self, batch_id: str) -> dict | None:
        with self._lock:
            batch = self.batches.get(batch_id)
            if batch is None:
                return None
            batch["polls"] += 1
            due = batch["status"] in ("validating", "in_progress") and \
                batch["polls"] >= self.batch_polls
            if batch["status"] == "validating":
                batch["status"] = "in_progress"
            elif batch["status"] == "in_progress" and not due:  # lines done so far, for ETAs
                counts = batch["request_counts"]
                counts["completed"] = counts["total"] * batch["polls"] // (self.batch_polls + 1)
        if due:
            self._run_batch(batch)
        with self._lock:
            return _batch_object(batch)

    def _run_batch(self, batch: dict) -> None:
        """Answer every line with the chat script; write the output and error files."""
        answered, errors, expired = [], [], False
        for n, line in enumerate(batch["lines"]):
            body = line["body"]
            action = self._action(body.get("messages", []))
            record = {"id": f"{batch['id']}-req-{n}", "custom_id": line["custom_id"],
                      "response": None, "error": None}
            if isinstance(action, str):
                record["response"] = {"status_code": 200, "request_id": f"req-{n}",
                                      "body": self._completion(body, action)}
                answered.append(record)
            elif action.kind == "expire":
                expired = True
                record["error"] = {"code": "batch_expired",
                                   "message": "This request could not be executed before the "
                                              "completion window expired."}
                errors.append(record)
            else:
                code = action.code if action.kind == "status" else 500
                text = action.message or f"fake {code}"
                record["response"] = {"status_code": code, "request_id": f"req-{n}",
                                      "body": {"error": {"message": text}}}
                errors.append(record)
        output = self._new_file(_jsonl(answered), "batch_output", "output.jsonl")["id"] \
            if answered else None
        error = self._new_file(_jsonl(errors), "batch_output", "errors.jsonl")["id"] \
            if errors else None
        with self._lock:
            batch.update(status="expired" if expired else "completed", output_file_id=output,
                         error_file_id=error)
            batch["request_counts"].update(completed=len(answered), failed=len(errors))


def _jsonl(records: list[dict]) -> bytes:
    return b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records)


def _file_object(file_id: str, file: dict) -> dict:
    return {"id": file_id, "object": "file", "bytes": len(file["data"]), "created_at": 0,
            "filename": file["filename"], "purpose": file["purpose"], "status": "processed"}


def _batch_object(batch: dict) -> dict:
    hidden = ("polls", "lines", "custom_ids")
    shown = {k: v for k, v in batch.items() if k not in hidden}
    shown["request_counts"] = dict(batch["request_counts"])
    return shown


def _multipart(content_type: str, raw: bytes) -> dict[str, tuple[str | None, bytes]]:
    """Fields of a multipart/form-data body: name -> (filename, bytes)."""
    from email.parser import BytesParser
    from email.policy import HTTP

    message = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
    fields = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        fields[name] = (part.get_filename(), part.get_payload(decode=True) or b"")
    return fields


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
            path = self.path.split("?")[0]
            if path == "/fake/stats":
                self._send(200, fake.stats())
            elif path.startswith(("/v1/files/", "/v1/batches")):
                self._batch_get(path)
            else:
                self._send(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if len(raw) < length:
                return  # the client hung up before its body was sent (a killed build)
            if self.path in ("/v1/files", "/v1/batches"):
                self._batch_post(self.path, raw)
                return
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

        def _batch_post(self, path: str, raw: bytes):
            if self._api_fault("POST", path):
                return
            if path == "/v1/files":
                fields = _multipart(self.headers.get("Content-Type", ""), raw)
                filename, data = fields.get("file", ("upload.jsonl", b""))
                purpose = fields.get("purpose", (None, b""))[1].decode()
                self._send(200, fake._new_file(data, purpose, filename or "upload.jsonl"))
                return
            batch = fake._new_batch(json.loads(raw or b"{}"))
            if batch is None:
                self._send(400, {"error": {"message": "no such input file"}})
            else:
                self._send(200, batch)

        def _batch_get(self, path: str):
            if self._api_fault("GET", path):
                return
            parts = path.strip("/").split("/")  # v1 files ID content | v1 batches [ID]
            if parts[1] == "files" and len(parts) == 4 and parts[3] == "content":
                file = fake.files.get(parts[2])
                if file is None:
                    self._send(404, {"error": {"message": "no such file"}})
                else:
                    self._send_bytes(200, file["data"], {}, "application/octet-stream")
            elif parts[1] == "batches" and len(parts) == 2:
                with fake._lock:
                    data = [_batch_object(b) for b in reversed(fake.batches.values())]
                self._send(200, {"object": "list", "data": data, "has_more": False})
            elif parts[1] == "batches" and len(parts) == 3:
                batch = fake._poll_batch(parts[2])
                if batch is None:
                    self._send(404, {"error": {"message": "no such batch"}})
                else:
                    self._send(200, batch)
            else:
                self._send(404, {"error": {"message": f"no route {path}"}})

        def _api_fault(self, method: str, path: str) -> bool:
            fault = fake._batch_call(method, path)
            if fault is None:
                return False
            headers = {"Retry-After": fault.retry_after} if fault.retry_after else {}
            self._send(fault.code, {"error": {"message": fault.message or f"fake {fault.code}"}},
                       headers)
            return True

        def _send(self, code: int, payload: dict, headers: dict | None = None):
            self._send_bytes(code, json.dumps(payload).encode(), headers or {})

        def _send_bytes(self, code: int, data: bytes, headers: dict,
                        content_type: str = "application/json"):
            try:
                self.send_response(code)
                self.send_header("Content-Type", content_type)
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


if __name__ == "__main__":
    import sys

    serve_forever(float(sys.argv[1]) if len(sys.argv) > 1 else 0.0)

"""The files + batches APIs of the openai and zhipuai SDKs behind one small async interface.

A batch is made from an uploaded JSONL file (``purpose="batch"``) whose lines are chat requests
(``custom_id``, ``method``, ``url``, ``body``); the provider answers within 24 hours in an output
file (one line per answered request) and an error file (failed or expired requests). Errors of
these calls are ProviderErrors with the same reason codes as live chat requests.
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from longnovel.llm.config import ModelConfig
from longnovel.llm.providers.base import ProviderError, Reply, tls_verify, translate_sdk_error

COMPLETION_WINDOW = "24h"
TERMINAL = ("completed", "failed", "expired", "cancelled")
LIST_PAGE = 100  # batches looked at to find one created from a file before a kill
# The chat endpoint each provider's batch lines and batches name.
CHAT_URL = {"openai": "/v1/chat/completions", "zhipuai": "/v4/chat/completions"}


@dataclass
class BatchInfo:
    """What a poll tells about one batch."""

    id: str
    status: str
    done: int  # requests finished (answered or failed) so far
    total: int
    output_file_id: str | None = None
    error_file_id: str | None = None
    errors: str = ""  # batch-level errors (a file that failed validation), joined

    @property
    def finished(self) -> bool:
        return self.status in TERMINAL


def request_line(config: ModelConfig, custom_id: str, messages: list[dict]) -> bytes:
    """One JSONL line of a batch input file: the same body as the live request."""
    body = {
        **config.extra_body,
        "model": config.model,
        "messages": messages,
        "temperature": config.temperature,
        "max_tokens": config.max_tokens,
    }
    line = {"custom_id": custom_id, "method": "POST", "url": CHAT_URL[config.provider],
            "body": body}
    return (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def reply_from_body(body: dict) -> Reply:
    """Text, usage and finish reason of a chat completion given as JSON (a batch output line)."""
    choices = body.get("choices") if isinstance(body, dict) else None
    if not choices or not isinstance(choices[0], dict):
        raise ProviderError("bad_response", "the batch reply has no choices", retryable=True)
    choice = choices[0]
    usage = body.get("usage") or {}
    return Reply(
        text=(choice.get("message") or {}).get("content") or "",
        prompt_tokens=usage.get("prompt_tokens"),
        completion_tokens=usage.get("completion_tokens"),
        finish_reason=choice.get("finish_reason"),
    )


def batch_info(batch) -> BatchInfo:
    """A BatchInfo from either SDK's Batch object."""
    counts = getattr(batch, "request_counts", None)
    completed = getattr(counts, "completed", 0) or 0
    failed = getattr(counts, "failed", 0) or 0
    errors = getattr(getattr(batch, "errors", None), "data", None) or []
    return BatchInfo(
        id=batch.id,
        status=batch.status,
        done=completed + failed,
        total=getattr(counts, "total", 0) or 0,
        output_file_id=getattr(batch, "output_file_id", None),
        error_file_id=getattr(batch, "error_file_id", None),
        errors="; ".join(str(getattr(e, "message", "") or getattr(e, "code", "")) for e in errors),
    )


class OpenAIBatchAPI:
    """``openai.AsyncOpenAI``'s files and batches, SDK retries off (the runner retries)."""

    def __init__(self, config: ModelConfig, api_key: str):
        import openai

        self.config = config
        self._openai = openai
        self._secret = api_key
        self._client = openai.AsyncOpenAI(
            api_key=api_key, base_url=config.base_url, max_retries=0, timeout=config.timeout_s,
            http_client=openai.DefaultAsyncHttpxClient(verify=tls_verify(config.base_url)))

    async def upload(self, data: bytes, name: str) -> str:
        """Upload a request file; its id."""
        file = await self._call(self._client.files.create(
            file=(name, data, "application/jsonl"), purpose="batch"))
        return file.id

    async def create(self, file_id: str) -> str:
        """Create a batch from an uploaded file; its id."""
        batch = await self._call(self._client.batches.create(
            input_file_id=file_id, endpoint=CHAT_URL["openai"],
            completion_window=COMPLETION_WINDOW))
        return batch.id

    async def retrieve(self, batch_id: str) -> BatchInfo:
        """The batch's status and counts."""
        return batch_info(await self._call(self._client.batches.retrieve(batch_id)))

    async def find(self, file_id: str) -> str | None:
        """The id of a recent batch made from ``file_id``, if any."""
        page = await self._call(self._client.batches.list(limit=LIST_PAGE))
        return next((b.id for b in page.data if b.input_file_id == file_id), None)

    async def download(self, file_id: str) -> bytes:
        """The content of an output or error file."""
        return (await self._call(self._client.files.content(file_id))).content

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._client.close()

    async def _call(self, awaitable):
        try:
            return await awaitable
        except Exception as exc:
            raise translate_sdk_error(self._openai, exc, self._secret) from exc


class ZhipuAIBatchAPI:
    """``zhipuai.ZhipuAI``'s files and batches, run on a small thread pool."""

    def __init__(self, config: ModelConfig, api_key: str):
        import zhipuai

        self.config = config
        self._zhipuai = zhipuai
        self._secret = api_key
        self._client = zhipuai.ZhipuAI(api_key=api_key, base_url=config.base_url,
                                       max_retries=0, timeout=config.timeout_s)
        self._pool = ThreadPoolExecutor(2, thread_name_prefix="zhipuai-batch")

    async def upload(self, data: bytes, name: str) -> str:
        """Upload a request file; its id."""
        file = await self._call(self._client.files.create,
                                file=(name, data, "application/jsonl"), purpose="batch")
        return file.id

    async def create(self, file_id: str) -> str:
        """Create a batch from an uploaded file; its id. The input file is kept (the SDK
        would delete it), so a batch lost in a kill can be found by it."""
        batch = await self._call(self._client.batches.create, input_file_id=file_id,
                                 endpoint=CHAT_URL["zhipuai"],
                                 completion_window=COMPLETION_WINDOW,
                                 auto_delete_input_file=False)
        return batch.id

    async def retrieve(self, batch_id: str) -> BatchInfo:
        """The batch's status and counts."""
        return batch_info(await self._call(self._client.batches.retrieve, batch_id))

    async def find(self, file_id: str) -> str | None:
        """The id of a recent batch made from ``file_id``, if any."""
        page = await self._call(self._client.batches.list, limit=LIST_PAGE)
        return next((b.id for b in page.data if b.input_file_id == file_id), None)

    async def download(self, file_id: str) -> bytes:
        """The content of an output or error file."""
        return (await self._call(self._client.files.content, file_id)).content

    async def aclose(self) -> None:
        """Stop the threads and close connections."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._client.close()

    async def _call(self, method, *args, **kwargs):
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, lambda: method(*args, **kwargs))
        except Exception as exc:
            raise translate_sdk_error(self._zhipuai, exc, self._secret) from exc


def make_batch_api(config: ModelConfig, api_key: str):
    """The batch client of a model in batch mode."""
    if config.provider == "zhipuai":
        return ZhipuAIBatchAPI(config, api_key)
    return OpenAIBatchAPI(config, api_key)

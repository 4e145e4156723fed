"""ZhipuAI (GLM-4 family) through its synchronous SDK, run on a thread pool."""

from __future__ import annotations

import asyncio
import copy
from concurrent.futures import ThreadPoolExecutor

from longnovel.llm.config import ModelConfig
from longnovel.llm.providers.base import (
    Reply,
    reply_from_completion,
    tls_verify,
    translate_sdk_error,
)


class ZhipuAIProvider:
    """``zhipuai.ZhipuAI`` with SDK retries off.

    Calls run on a pool sized to ``max_concurrency`` rather than asyncio's default executor,
    which has only a few threads on a small machine and would serialize requests.
    The SDK posts to ``<base_url>/chat/completions`` and raises ``APIStatusError`` (with
    ``status_code`` and ``response``) for HTTP errors, ``APITimeoutError`` and
    ``APIConnectionError`` for transport failures.
    """

    def __init__(self, config: ModelConfig, api_key: str):
        import httpx
        import zhipuai

        self.config = config
        self._secret = api_key
        self._zhipuai = zhipuai
        self._http = httpx.Client(
            verify=tls_verify(config.base_url),
            timeout=httpx.Timeout(config.timeout_s, connect=min(10.0, config.timeout_s)),
            limits=httpx.Limits(
                max_connections=config.max_concurrency,
                max_keepalive_connections=config.max_concurrency,
            ),
        )
        self._client = zhipuai.ZhipuAI(
            api_key=api_key,
            base_url=config.base_url,
            max_retries=0,
            timeout=config.timeout_s,
            http_client=self._http,
        )
        self._pool = ThreadPoolExecutor(config.max_concurrency, thread_name_prefix="zhipuai")

    async def complete(self, messages: list[dict]) -> Reply:
        """Send one chat completion without blocking the event loop."""
        loop = asyncio.get_running_loop()
        try:
            response = await loop.run_in_executor(self._pool, self._create, messages)
        except Exception as exc:
            raise translate_sdk_error(self._zhipuai, exc, self._secret) from exc
        return reply_from_completion(response)

    def _create(self, messages: list[dict]):
        # The SDK rewrites message contents in place, so it gets a copy.
        return self._client.chat.completions.create(
            model=self.config.model,
            messages=copy.deepcopy(messages),
            temperature=self.config.temperature,
            max_tokens=self.config.max_tokens,
            extra_body=self.config.extra_body or None,
        )

    async def aclose(self) -> None:
        """Close connections; threads still in flight end at their timeout."""
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._http.close()

"""OpenAI and OpenAI-compatible servers (vLLM, SGLang, Ollama, llama.cpp, DeepSeek, DashScope)."""

from __future__ import annotations

from longnovel.llm.config import ModelConfig
from longnovel.llm.providers.base import (
    Reply,
    reply_from_completion,
    tls_verify,
    translate_sdk_error,
)


class OpenAIProvider:
    """``openai.AsyncOpenAI`` with the SDK's own retries off: the runner retries.

    ``extra_body`` keys are merged into the request body (e.g. ``chat_template_kwargs`` for
    vLLM); they cannot override model, messages, temperature or max_tokens.
    """

    def __init__(self, config: ModelConfig, api_key: str):
        import openai
        from openai.types.chat import ChatCompletion

        self.config = config
        self._completion_type = ChatCompletion
        self._secret = api_key
        self._openai = openai
        self._client = openai.AsyncOpenAI(
            api_key=api_key,
            base_url=config.base_url,
            max_retries=0,
            timeout=config.timeout_s,
            http_client=openai.DefaultAsyncHttpxClient(verify=tls_verify(config.base_url)),
        )

    async def complete(self, messages: list[dict]) -> Reply:
        """Send one chat completion."""
        body = {
            **self.config.extra_body,
            "model": self.config.model,
            "messages": messages,
            "temperature": self.config.temperature,
            "max_tokens": self.config.max_tokens,
        }
        try:
            # The SDK's documented raw ``post``: ``chat.completions.create`` would first walk the
            # messages through its typed-params transform, about a third of the client's CPU
            # per request, although they are plain JSON already. Errors, auth, base_url and
            # timeouts are the SDK's as with ``create``.
            response = await self._client.post(
                "/chat/completions", cast_to=self._completion_type, body=body
            )
        except Exception as exc:
            raise translate_sdk_error(self._openai, exc, self._secret) from exc
        return reply_from_completion(response)

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._client.close()

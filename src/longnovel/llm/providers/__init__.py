"""Provider clients behind one small async interface; SDKs are imported only when used."""

from __future__ import annotations

from longnovel.llm.config import ModelConfig
from longnovel.llm.providers.base import Provider, ProviderError, Reply, resolve_key

__all__ = ["Provider", "ProviderError", "Reply", "make_provider", "resolve_key"]


def make_provider(name: str, config: ModelConfig) -> Provider:
    """Build the client for one configured model (the key is read from the environment here)."""
    if config.provider == "openai":
        from longnovel.llm.providers.openai_provider import OpenAIProvider

        return OpenAIProvider(config, resolve_key(name, config))
    if config.provider == "zhipuai":
        from longnovel.llm.providers.zhipuai_provider import ZhipuAIProvider

        return ZhipuAIProvider(config, resolve_key(name, config))
    from longnovel.llm.providers.transformers_provider import TransformersProvider

    return TransformersProvider(config)

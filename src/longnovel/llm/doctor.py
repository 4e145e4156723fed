"""``longnovel doctor`` for models: key present, and one tiny request per model (no cache)."""

from __future__ import annotations

import asyncio
import time

from longnovel.errors import LongnovelError
from longnovel.llm.config import ModelConfig
from longnovel.llm.parsing import strip_think
from longnovel.llm.providers import ProviderError, make_provider
from longnovel.llm.providers.base import first_line, key_status, resolve_key

PING = [{"role": "user", "content": "Reply with the single word OK."}]
PING_MAX_TOKENS = 16
# Where each provider's SDK sends requests when the config gives no base_url.
DEFAULT_ENDPOINTS = {"openai": "https://api.openai.com/v1",
                     "zhipuai": "https://open.bigmodel.cn/api/paas/v4"}


def endpoint_url(config: ModelConfig) -> str:
    """The URL a model's requests go to (a local model directory for transformers)."""
    if config.provider == "transformers":
        return config.model
    return config.base_url or DEFAULT_ENDPOINTS[config.provider]


def run_doctor(models: dict[str, ModelConfig]) -> list[dict]:
    """One row per model: name, provider, model, endpoint, key, latency_s, status ("ok" or the
    error).

    Sends exactly one tiny request per model whose key is available, without retries and
    without the cache. Keys are reported only as present / missing / not needed.
    """
    return asyncio.run(_check_all(models))


async def _check_all(models: dict[str, ModelConfig]) -> list[dict]:
    return list(await asyncio.gather(*(_check(name, cfg) for name, cfg in models.items())))


async def _check(name: str, config: ModelConfig) -> dict:
    row = {
        "name": name,
        "provider": config.provider,
        "model": config.model,
        "endpoint": endpoint_url(config),
        "key": key_status(config),
        "latency_s": None,
        "status": "",
        "reply": "",
    }
    if row["key"] == "missing":
        row["status"] = f"missing key: set {config.api_key_env}"
        return row
    ping_config = config.model_copy(update={"max_tokens": PING_MAX_TOKENS, "max_retries": 0})
    started = time.perf_counter()
    try:
        provider = make_provider(name, ping_config)
    except LongnovelError as exc:
        row["status"] = str(exc)
        return row
    try:
        reply = await provider.complete(PING)
        row["status"] = "ok"
        row["reply"] = strip_think(reply.text)[:40]
    except ProviderError as exc:
        row["status"] = f"{exc.reason}: {exc}"
    except Exception as exc:  # noqa: BLE001 - a doctor reports every failure, never stops
        row["status"] = f"{type(exc).__name__}: {first_line(exc, resolve_key(name, config))}"
    finally:
        row["latency_s"] = round(time.perf_counter() - started, 3)
        await provider.aclose()
    return row

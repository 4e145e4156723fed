"""A local Hugging Face model directory, loaded on first use and run in a worker thread.

Needs the optional ``local`` extra (transformers, and torch for real models). ``extra_body``
may hold ``chat_template_kwargs`` (e.g. ``{enable_thinking: false}`` for Qwen3); its other keys
are passed to ``generate``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from concurrent.futures import ThreadPoolExecutor

from longnovel.errors import ConfigError
from longnovel.llm.config import ModelConfig
from longnovel.llm.providers.base import ProviderError, Reply


def load_local_model(path: str) -> tuple[object, object]:
    """(model, tokenizer) from a local directory, never from a hub."""
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError as exc:
        raise ConfigError("provider transformers needs: pip install 'longnovel[local]'") from exc
    try:
        tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
        model = AutoModelForCausalLM.from_pretrained(
            path, local_files_only=True, torch_dtype="auto", device_map="auto"
        )
    except (OSError, ValueError, ImportError) as exc:
        raise ConfigError(f"cannot load local model {path}: {exc}".splitlines()[0]) from exc
    model.eval()
    return model, tokenizer


class TransformersProvider:
    """Generates with ``model.generate`` on one thread (a GPU runs one batch at a time)."""

    def __init__(self, config: ModelConfig):
        self.config = config
        self._loaded: tuple[object, object] | None = None
        self._load_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="transformers")
        self._turn = asyncio.Lock()  # requests queue here, outside their timeout

    async def complete(self, messages: list[dict]) -> Reply:
        """Generate one reply in the worker thread; ``timeout_s`` covers this generation only,
        not loading the model nor waiting for the generations ahead of it."""
        loop = asyncio.get_running_loop()
        async with self._turn:
            if self._loaded is None:
                await loop.run_in_executor(self._pool, self._model)
            try:
                return await asyncio.wait_for(
                    loop.run_in_executor(self._pool, self._generate, messages),
                    self.config.timeout_s,
                )
            except asyncio.TimeoutError as exc:
                raise ProviderError(
                    "timeout", "local generation timed out", retryable=False
                ) from exc

    def _model(self) -> tuple[object, object]:
        with self._load_lock:
            if self._loaded is None:
                self._loaded = load_local_model(self.config.model)
            return self._loaded

    def _generate(self, messages: list[dict]) -> Reply:
        model, tokenizer = self._model()
        extra = dict(self.config.extra_body)
        template_kwargs = extra.pop("chat_template_kwargs", {}) or {}
        inputs = tokenizer.apply_chat_template(
            messages,
            add_generation_prompt=True,
            return_dict=True,
            return_tensors="pt",
            **template_kwargs,
        )
        device = getattr(model, "device", None)
        if device is not None and hasattr(inputs, "to"):
            inputs = inputs.to(device)
        n_prompt = len(inputs["input_ids"][0])
        with _inference_mode():
            output = model.generate(**inputs, **self._sampling(tokenizer), **extra)
        new_tokens = output[0][n_prompt:]
        text = tokenizer.decode(new_tokens, skip_special_tokens=True)
        finish = "length" if len(new_tokens) >= self.config.max_tokens else "stop"
        return Reply(text, n_prompt, len(new_tokens), finish)

    def _sampling(self, tokenizer) -> dict:
        sampling = {"max_new_tokens": self.config.max_tokens}
        if self.config.temperature > 0:
            sampling.update(do_sample=True, temperature=self.config.temperature)
        else:
            sampling["do_sample"] = False
        pad = getattr(tokenizer, "pad_token_id", None) or getattr(tokenizer, "eos_token_id", None)
        if pad is not None:
            sampling["pad_token_id"] = pad
        return sampling

    async def aclose(self) -> None:
        """Stop the worker thread; the loaded model is dropped with the provider."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def _inference_mode():
    try:
        import torch
    except ImportError:
        return contextlib.nullcontext()
    return torch.inference_mode()

"""Where a judge's calls go, and which key may go with them.

A provider's key goes only to that provider's own host, whatever the environment says: the
OpenAI and Anthropic SDKs read ``OPENAI_BASE_URL`` / ``ANTHROPIC_BASE_URL`` when no base URL is
given, so every API judge here passes its endpoint explicitly, and a registered provider's key
variable is refused for any host but its endpoint's (``provider_hosts``). Other endpoints (a
vLLM server, a proxy) use ``OPENAI_COMPATIBLE_API_KEY``; a server on this machine needs none.

The endpoint actually called is part of each judge's identity (so replies from a proxy or an
emulator are never filed as the provider's) and of the run metadata. A base URL that cannot be
called (no scheme, no host, a scheme other than http/https) is refused before any call.
"""
from __future__ import annotations

import os
from urllib.parse import urlsplit

from tjb_lib.judges.base import FatalJudgeError
from tjb_lib.judges.provider import registered

#: Key for endpoints that are not a judge's own provider.
COMPATIBLE_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY"
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")
LOCAL_PLACEHOLDER_KEY = "EMPTY"  # what vLLM accepts when it was started without --api-key
#: The environment variables the SDKs would read for a base URL; ignored here, named in errors.
SDK_BASE_URL_ENVS = ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL")


class MissingAPIKey(FatalJudgeError):
    """The environment variable that should hold a judge's API key is unset or empty."""


class UnusableEndpoint(FatalJudgeError):
    """A base URL that cannot be called, or a provider key asked to go to another host."""


def checked_url(base_url: str, judge_name: str) -> str:
    """``base_url`` if it can be called (http or https, with a host), else ``UnusableEndpoint``."""
    parts = urlsplit(base_url.strip()) if isinstance(base_url, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnusableEndpoint(
            f"judge {judge_name!r}: base URL {base_url!r} cannot be called: give an http(s) URL "
            "with a host, e.g. http://localhost:8000/v1")
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError as e:
        raise UnusableEndpoint(f"judge {judge_name!r}: base URL {base_url!r}: {e}") from None
    return base_url.strip().rstrip("/")


def provider_hosts() -> dict[str, tuple[str, ...]]:
    """Key variable -> the hosts that key may be sent to, from the registered providers."""
    return {p.key_env: p.hosts for p in registered().values() if p.key_env and p.hosts}


def host(base_url: str) -> str:
    return (urlsplit(base_url).hostname or "").lower()


def is_local(base_url: str) -> bool:
    return host(base_url) in LOCAL_HOSTS


def endpoint_id(base_url: str) -> str:
    """The endpoint as it enters a judge's identity: scheme, host, port and path (every name of
    this machine is ``localhost``; no user or password). The port is part of it: two servers on
    one host under the same judge name and model are two endpoints, and neither's replies are
    served as the other's."""
    parts = urlsplit(base_url)
    name = "localhost" if is_local(base_url) else (parts.hostname or "").lower()
    netloc = f"{name}:{parts.port}" if parts.port is not None else name
    return f"{parts.scheme}://{netloc}{parts.path.rstrip('/')}"


def kind(base_url: str) -> str:
    """The provider whose domain ``base_url`` is on, localhost, or other: for the run metadata."""
    h = host(base_url)
    if h in LOCAL_HOSTS:
        return "localhost"
    for name, provider in registered().items():
        for own in provider.hosts:
            domain = ".".join(own.split(".")[-2:])
            if h == domain or h.endswith("." + domain):
                return name
    return "other"


def api_key(env_var: str, base_url: str, judge_name: str) -> str:
    """The key to send to ``base_url``: from ``env_var``, which must be allowed for that host;
    a server on this machine may go without one (vLLM takes "EMPTY")."""
    allowed = provider_hosts().get(env_var)
    if allowed is not None and host(base_url) not in allowed:
        raise UnusableEndpoint(
            f"judge {judge_name!r}: refusing to send ${env_var} to {host(base_url)}: a "
            f"provider's key goes only to {', '.join(allowed)}. For another endpoint put its "
            f"key in ${COMPATIBLE_KEY_ENV}.")
    value = os.environ.get(env_var, "").strip()
    if value:
        return value
    if is_local(base_url):
        return LOCAL_PLACEHOLDER_KEY
    raise MissingAPIKey(
        f"judge {judge_name!r} needs an API key in the environment variable {env_var} "
        f"(it is unset or empty): export {env_var}=... before running, or replay stored calls "
        "with --replay-only")


def key_env_for(base_url: str, provider_key_env: str | None) -> str:
    """The key variable for calls to ``base_url``: the provider's own where ``base_url`` is that
    provider's host, else ``OPENAI_COMPATIBLE_API_KEY``."""
    if provider_key_env and host(base_url) in provider_hosts().get(provider_key_env, ()):
        return provider_key_env
    return COMPATIBLE_KEY_ENV

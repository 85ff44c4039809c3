"""Fixtures for the end-to-end tests: one real server per test module and client profile.

Starting a server and initializing it takes about half a second, so the tests of a module
share one (``client``, module-scoped) and each gets a fresh ``editor`` on it, which closes
what it opened when the test ends. A test that changes the server's settings or counts its
requests starts a server of its own (``fresh_editor``, or ``started(...)``).
"""

import os

import pytest_asyncio
import pytest_lsp
from hypothesis import HealthCheck, Phase, Verbosity, settings
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.support.lsp_support import PROFILES, SERVER, Editor

# Hypothesis, as the test command runs it: no deadline (a busy machine is not a failing test),
# and a failure told in a few lines, the falsifying example as a `@reproduce_failure` blob
# rather than every draw. `HYPOTHESIS_PROFILE=dev` shows the draws (and explains them).
_UNHURRIED = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.register_profile(
    "sourcecheck",
    verbosity=Verbosity.quiet,
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    **_UNHURRIED,
)
settings.register_profile("dev", **_UNHURRIED)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "sourcecheck"))


async def initialized(request, lsp_client: LanguageClient):
    capabilities = client_capabilities(request.param)
    lsp_client.init_result = await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    watched = capabilities.workspace.did_change_watched_files if capabilities.workspace else None
    lsp_client.init_capabilities_watch = bool(watched and watched.dynamic_registration)
    yield
    await lsp_client.shutdown_session()


client = pytest_lsp.fixture(initialized, config=SERVER, params=PROFILES, scope="module")
"""The real server over stdio, initialized as a real client (VS Code, Neovim 0.11) does."""

own_client = pytest_lsp.fixture(initialized, config=SERVER, params=PROFILES)
"""A server for one test alone."""


@pytest_asyncio.fixture(loop_scope="module")
async def editor(client):
    """An editor on the module's server: open, change and ask, positions in the negotiated
    encoding. What it opened is closed afterwards, and the next test starts clean."""
    editor = Editor(client, client.init_result)
    client.published.clear()
    yield editor
    await editor.close_all()


@pytest_asyncio.fixture
async def fresh_editor(own_client):
    """An editor on a server of its own (for a test that changes the server's settings)."""
    return Editor(own_client, own_client.init_result)

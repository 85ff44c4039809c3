import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.support.lsp_support import PROFILES, SERVER, Editor


@pytest_lsp.fixture(config=SERVER, params=PROFILES)
async def client(request, lsp_client: LanguageClient):
    """The real server over stdio, initialized as a real client (VS Code, Neovim 0.11) does."""
    lsp_client.init_result = await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities(request.param)))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def editor(client):
    """An editor on that server: open, change and ask, positions in the negotiated encoding."""
    return Editor(client, client.init_result)

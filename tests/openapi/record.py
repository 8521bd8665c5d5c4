"""Records what google-adk 2.13.0's OpenAPIToolset does with tests/openapi/app.py's generated spec:
the function declarations an LlmAgent sends its model, and the function response of each call (the
app echoes the request it got, so a response pins the request too). The native tests
(tests/openapi.rs) and the browser test (tests/browser/openapi.html) hold adk-wasm's OpenAPIToolset
to them. Run with the MCP venv (it has ADK and FastAPI): .venv/mcp/bin/python tests/openapi/record.py
(writes tests/fixtures/openapi/adk-2.13.0.json).
"""

import json
import sys
import urllib.request
from pathlib import Path

from fastapi.openapi.models import APIKey, APIKeyIn
from google.adk.agents import LlmAgent
from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes
from google.adk.tools.openapi_tool import OpenAPIToolset

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / 'common'))
from record_tools import Scripted, record_against, record_calls  # noqa: E402  (shared recorder code)
OUT = HERE.parent / 'fixtures' / 'openapi' / 'adk-2.13.0.json'
LONG = 'delete_pet_with_a_very_long_operation_id_that_goes_on_and_on'

# (tool, args): each called once, in a turn of its own. Shared with the tests through the fixture.
CALLS = [
    ('list_pets', {}),
    ('list_pets', {'limit': 5, 'status': 'sold', 'tag': ['a', 'b c'], 'name_contains': 'r&x'}),
    ('list_pets', {'limit': 'many'}),
    ('get_pet_by_id', {'pet_id': 7, 'x_request_id': 'req-1'}),
    ('get_pet_by_id', {'pet_id': 404}),
    ('get_pet_by_id', {'pet_id': '..'}),
    ('get_pet_by_id', {}),
    ('create_pet', {'name': 'Rex', 'owner': {'name': 'Ann'}, 'tags': ['good', '착한']}),
    ('replace_pet_tags', {'pet_id': 3, 'array': ['a', 'b']}),
    ('add_note', {'title': 'hi there', 'text': 'a b&c=d'}),
    ('readme', {}),
    ('build_tree', {'label': 'root', 'children': [{'label': 'a', 'children': [{'label': 'b'}]}]}),
    (LONG, {'pet_id': 2}),
    ('who_am_i', {}),
]


async def record(base_url: str) -> dict:
    spec = urllib.request.urlopen(f'{base_url}/openapi.json').read().decode()
    model = Scripted(model='scripted-openapi')
    # Every operation but the keyed one as the spec says; the keyed one with the toolset's API key.
    plain = OpenAPIToolset(spec_str=spec, allow_private_network_access=True, tool_filter=lambda t, _=None: t.name != 'who_am_i')
    keyed = OpenAPIToolset(
        spec_str=spec,
        allow_private_network_access=True,
        tool_filter=['who_am_i'],
        auth_scheme=APIKey(**{'in': APIKeyIn.header, 'name': 'X-Api-Key'}),
        auth_credential=AuthCredential(auth_type=AuthCredentialTypes.API_KEY, api_key='sesame'),
    )
    agent = LlmAgent(name='api_user', model=model, instruction='Use the tools.', tools=[plain, keyed])
    recorded = await record_calls(agent, model, CALLS)
    # The spec as the tests read it, its server a placeholder they replace with the running app's.
    spec = json.loads(spec.replace(base_url, 'http://127.0.0.1:PORT'))
    return {'spec': spec, **recorded}


if __name__ == '__main__':
    record_against(HERE / 'app.py', record, OUT)

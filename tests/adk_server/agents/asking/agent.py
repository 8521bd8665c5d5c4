"""`asking`: an LlmAgent over a scripted model whose tools ask the person before anything happens.

The model `scripted-asking` answers by looking at the request: with no function response in the
last content it calls `get_user_choice` when the user's text mentions a colour, else
`read_inbox` when it mentions mail (which asks the person for an API key), else `whoami` when
it mentions who (which asks the person to sign in at the OpenID provider the tests start, named
by ADK_TEST_OIDC, and asks that provider who they are: as its public client `adk-page` on ADK
2.x, as the confidential `adk-server` on 1.x, which refuses a client without a secret), else
`transfer_money(to="Bob", amount=500)`, which needs the person's confirmation; after a function
response it answers with text quoting it.
"""

import json
import os
import urllib.request
from collections.abc import AsyncGenerator

from fastapi.openapi.models import APIKey, OAuth2, OAuthFlowAuthorizationCode, OAuthFlows
import google.adk
from google.adk.agents import LlmAgent
from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes, OAuth2Auth
from google.adk.auth.auth_tool import AuthConfig
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.get_user_choice_tool import get_user_choice_tool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

INBOX_AUTH = AuthConfig(auth_scheme=APIKey(**{'in': 'header', 'name': 'X-Api-Key'}),
                        raw_auth_credential=AuthCredential(auth_type=AuthCredentialTypes.API_KEY))

OIDC = os.environ.get('ADK_TEST_OIDC', 'http://127.0.0.1:9')
ADK_2 = not google.adk.__version__.startswith('1.')
WHOAMI_AUTH = AuthConfig(
    auth_scheme=OAuth2(flows=OAuthFlows(authorizationCode=OAuthFlowAuthorizationCode(
        authorizationUrl=f'{OIDC}/auth', tokenUrl=f'{OIDC}/token',
        scopes={'openid': '', 'profile': '', 'offline_access': ''}))),
    raw_auth_credential=AuthCredential(
        auth_type=AuthCredentialTypes.OAUTH2,
        oauth2=OAuth2Auth(client_id='adk-page') if ADK_2 else OAuth2Auth(client_id='adk-server', client_secret='adk-server-secret')))


def transfer_money(to: str, amount: int) -> dict:
    """Sends money to someone."""
    return {'status': 'sent', 'to': to, 'amount': amount}


def read_inbox(folder: str, tool_context: ToolContext) -> dict:
    """Reads the user's inbox with the key they give."""
    credential = tool_context.get_auth_response(INBOX_AUTH)
    if not credential:
        tool_context.request_credential(INBOX_AUTH)
        return {'status': 'Waiting for the key.'}
    return {'folder': folder, 'unread': 2, 'key_ends': credential.api_key[-3:]}


def whoami(tool_context: ToolContext) -> dict:
    """Says who the person is, once they signed in."""
    credential = tool_context.get_auth_response(WHOAMI_AUTH)
    token = credential.oauth2.access_token if credential and credential.oauth2 else None
    if not token:
        tool_context.request_credential(WHOAMI_AUTH)
        return {'status': 'Waiting for the sign-in.'}
    request = urllib.request.Request(f'{OIDC}/me', headers={'Authorization': f'Bearer {token}'})
    with urllib.request.urlopen(request, timeout=10) as response:
        return {'name': json.load(response)['name']}


class AskingLlm(BaseLlm):
    model: str = 'scripted-asking'

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r'scripted-asking']

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1] if llm_request.contents else None
        parts = (last.parts or []) if last else []
        result = next((p.function_response.response for p in parts if p.function_response), None)
        if result is None:
            text = ''.join(p.text or '' for p in parts)
            if 'colour' in text:
                call = types.FunctionCall(name='get_user_choice', args={'options': ['red', 'blue']})
            elif 'mail' in text:
                call = types.FunctionCall(name='read_inbox', args={'folder': 'inbox'})
            elif 'who' in text.lower():
                call = types.FunctionCall(name='whoami', args={})
            else:
                call = types.FunctionCall(name='transfer_money', args={'to': 'Bob', 'amount': 500})
            yield LlmResponse(content=types.Content(role='model', parts=[types.Part(function_call=call)]))
            return
        yield LlmResponse(
            content=types.Content(role='model', parts=[types.Part(text=f'Done: {json.dumps(result, sort_keys=True)}')])
        )


LLMRegistry.register(AskingLlm)

root_agent = LlmAgent(
    name='asking',
    model='scripted-asking',
    description='Asks the person before it sends money, and lets them pick a colour.',
    instruction='Ask before acting.',
    tools=[FunctionTool(transfer_money, require_confirmation=True), get_user_choice_tool, read_inbox, whoami],
)

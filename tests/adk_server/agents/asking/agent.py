"""`asking`: an LlmAgent over a scripted model whose tools ask the person before anything happens.

The model `scripted-asking` answers by looking at the request: with no function response in the
last content it calls `get_user_choice` when the user's text mentions a colour, else
`read_inbox` when it mentions mail (which asks the person for an API key), else
`transfer_money(to="Bob", amount=500)`, which needs the person's confirmation; after a function
response it answers with text quoting it.
"""

import json
from collections.abc import AsyncGenerator

from fastapi.openapi.models import APIKey
from google.adk.agents import LlmAgent
from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes
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
    tools=[FunctionTool(transfer_money, require_confirmation=True), get_user_choice_tool, read_inbox],
)

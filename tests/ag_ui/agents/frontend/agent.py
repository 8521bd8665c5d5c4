"""`frontend`: an LlmAgent over a scripted model whose one tool lives in the AG-UI client.

`tools=[AGUIToolset()]` is ag-ui-adk's placeholder for the front-end tools a client declares in
`RunAgentInput.tools`; `ADKAgent` swaps it for proxies of those tools per run. Loaded without
`ADKAgent` (`.venv/agui/bin/adk api_server tests/ag_ui/agents`; it needs ag-ui-adk installed, which
the adk-* venvs are not) the placeholder raises, ADK 2.13 logs that and runs with no tools, so the
call is answered with ADK's "no tool with that name" error response and the model quotes it.

The model `scripted-frontend` answers by looking at the request:
  - without a function response in the last content, ONE response whose parts are a thought
    (`The user wants a blue background.`, thought=True) followed by the call
    `change_background(color='blue')`;
  - after a function response, the text `Background changed to <X>.`, where X is the response's
    `color`, else its `result`, else the response as JSON.
Streaming (stream=True) yields the same single non-partial response. Deterministic, no network.
"""

import json
from collections.abc import AsyncGenerator

from ag_ui_adk import AGUIToolset
from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.genai import types


class FrontendLlm(BaseLlm):
    """A model that follows a fixed script; `model='scripted-frontend'` resolves to it through LLMRegistry."""

    model: str = 'scripted-frontend'

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r'scripted-frontend']

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1] if llm_request.contents else None
        parts = (last.parts or []) if last else []
        result = next((p.function_response.response for p in parts if p.function_response), None)

        if result is None:
            yield LlmResponse(
                content=types.Content(
                    role='model',
                    parts=[
                        types.Part(text='The user wants a blue background.', thought=True),
                        types.Part(function_call=types.FunctionCall(name='change_background', args={'color': 'blue'})),
                    ],
                ),
                finish_reason=types.FinishReason.STOP,
            )
            return

        said = result.get('color', result.get('result', json.dumps(result, sort_keys=True)))
        yield LlmResponse(
            content=types.Content(role='model', parts=[types.Part(text=f'Background changed to {said}.')]),
            finish_reason=types.FinishReason.STOP,
        )


LLMRegistry.register(FrontendLlm)

root_agent = LlmAgent(
    name='frontend',
    model='scripted-frontend',
    description='Changes the page background with a front-end tool (scripted model, thinks first).',
    instruction='Use the front-end tools.',
    tools=[AGUIToolset()],
)

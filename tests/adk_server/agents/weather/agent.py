"""`weather`: an LlmAgent over a scripted model (no key, no network) with one function tool.

The model `scripted` answers by looking at the request: without a function response in the last
content it calls `get_weather(city=<the user's text>)`; after one it answers with text that quotes
the tool's result. When the run streams (`/run_sse` with `"streaming": true`, i.e. stream=True) the
text comes as partial chunks followed by the aggregated final response, as Gemini streams.
"""

from collections.abc import AsyncGenerator

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.genai import types


def get_weather(city: str) -> dict:
    """Returns the current weather in a city.

    Args:
      city: The city's name, e.g. "Seoul".
    """
    return {'city': city, 'condition': 'sunny', 'temp_c': 21}


class ScriptedLlm(BaseLlm):
    """A model that follows a fixed script; `model='scripted'` resolves to it through LLMRegistry."""

    model: str = 'scripted'

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r'scripted']

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        last = llm_request.contents[-1] if llm_request.contents else None
        parts = (last.parts or []) if last else []
        result = next((p.function_response.response for p in parts if p.function_response), None)

        if result is None:
            city = ''.join(p.text or '' for p in parts).strip() or 'Seoul'
            yield LlmResponse(
                content=types.Content(
                    role='model',
                    parts=[types.Part(function_call=types.FunctionCall(name='get_weather', args={'city': city}))],
                ),
                finish_reason=types.FinishReason.STOP,
            )
            return

        chunks = [
            f"It is {result.get('condition')} ",
            f"and {result.get('temp_c')} °C ",
            f"in {result.get('city')} ☀️ (맑음).",
        ]
        if stream:
            for chunk in chunks:
                yield LlmResponse(content=types.Content(role='model', parts=[types.Part(text=chunk)]), partial=True)
        yield LlmResponse(
            content=types.Content(role='model', parts=[types.Part(text=''.join(chunks))]),
            # Gemini's aggregated final response says partial=False; the one-shot answer leaves it unset.
            partial=False if stream else None,
            finish_reason=types.FinishReason.STOP,
        )


LLMRegistry.register(ScriptedLlm)

root_agent = LlmAgent(
    name='weather',
    model='scripted',
    description='Answers weather questions with the get_weather tool (scripted model).',
    instruction='Use get_weather to answer.',
    tools=[get_weather],
)

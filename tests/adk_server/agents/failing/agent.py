"""`failing`: yields one text event, then raises, so `/run_sse` ends with the server's error frame
(`data: {"error": ...}`) and `/run` answers 500."""

from collections.abc import AsyncGenerator

from google.adk.agents import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event
from google.genai import types


class ScriptedFailure(RuntimeError):
    pass


class FailingAgent(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        yield Event(
            author=self.name,
            invocation_id=ctx.invocation_id,
            content=types.Content(role='model', parts=[types.Part(text='about to fail…')]),
        )
        raise ScriptedFailure('scripted failure 💥 after one event')


root_agent = FailingAgent(name='failing', description='Yields one event, then raises.')

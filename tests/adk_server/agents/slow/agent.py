"""`slow`: one text event every 200 ms, 60 in all (12 s), to test aborting a run mid-stream:
after the client goes away the server must stop, so the session keeps fewer than 60 agent events."""

import asyncio
from collections.abc import AsyncGenerator

from google.adk.agents import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event
from google.genai import types

COUNT = 60
INTERVAL_S = 0.2


class SlowAgent(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        for i in range(1, COUNT + 1):
            yield Event(
                author=self.name,
                invocation_id=ctx.invocation_id,
                content=types.Content(role='model', parts=[types.Part(text=f'tick {i}/{COUNT}')]),
            )
            if i < COUNT:
                await asyncio.sleep(INTERVAL_S)


root_agent = SlowAgent(name='slow', description=f'{COUNT} text events, one every {INTERVAL_S} s.')

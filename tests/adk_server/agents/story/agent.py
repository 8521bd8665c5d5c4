"""`story`: a deterministic BaseAgent (no model) whose events cover what a client must decode.

Per run, in order:
  1. model text naming the run number (`story_runs` in session state);
  2. an actions-only event (no content) with `state_delta` for a session key, a `user:` key and an
     `app:` key;
  3. model text plus `artifact_delta`: `story.txt` (text/plain) is saved through the context, so the
     first run stores version 0, the second version 1, …  `/run_sse` splits this event in two
     frames (content without the delta, then the delta without content);
  4. non-ASCII text: Korean and emoji, incl. one outside the BMP.
After the first, when the run's config carries `custom_metadata` or `service_tier`: text naming them.
"""

import json
from collections.abc import AsyncGenerator

from google.adk.agents import BaseAgent
from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events import Event, EventActions
from google.genai import types

ARTIFACT = 'story.txt'


class StoryAgent(BaseAgent):
    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        run = int(ctx.session.state.get('story_runs', 0)) + 1

        def text_event(text: str, **kwargs) -> Event:
            return Event(
                author=self.name,
                invocation_id=ctx.invocation_id,
                content=types.Content(role='model', parts=[types.Part(text=text)]),
                **kwargs,
            )

        yield text_event(f'Once upon a time (run {run})…')

        # What of the request reached the run's config (google-adk 2.13 sets both from /run's body).
        config = ctx.run_config
        told = {key: getattr(config, key, None) for key in ('custom_metadata', 'service_tier')}
        told = {key: getattr(value, 'value', value) for key, value in told.items() if value}
        if told:
            yield text_event(f'run config: {json.dumps(told, sort_keys=True)}')

        yield Event(
            author=self.name,
            invocation_id=ctx.invocation_id,
            actions=EventActions(
                state_delta={'story_runs': run, 'user:reader': 'ada', 'app:title': 'The Scripted Tale'}
            ),
        )

        # Saving through a context records the version in its actions' artifact_delta.
        saver = CallbackContext(ctx)
        chapter = f'Chapter {run}: the weather was fine. 날씨가 좋았다 ☀️\n'
        version = await saver.save_artifact(
            ARTIFACT, types.Part(inline_data=types.Blob(mime_type='text/plain', data=chapter.encode('utf-8')))
        )
        yield text_event(f'Saved {ARTIFACT} version {version}.', actions=saver._event_actions)

        yield text_event('끝! 안녕히 가세요 👋🌏 (The end.)')


root_agent = StoryAgent(name='story', description='Deterministic story: text, state delta, artifact, non-ASCII.')

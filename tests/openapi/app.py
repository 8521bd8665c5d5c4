"""OpenAPI test service: a FastAPI app whose generated /openapi.json is what adk-wasm's OpenAPIToolset
and google-adk 2.13.0's OpenAPIToolset both read (tests/openapi/record.py, tests/browser/openapi.html).
Each operation answers with what it was sent — method, path, query, the headers a tool sets, the
body — so a recorded function response pins the request as well as the answer. Its operations come in
the shapes a page meets:

  listPets          GET, query parameters (an integer with a default, an enum, an array, optional text)
  getPetById        GET, an integer path parameter, an optional header; 404 for an unknown id
  createPet         POST, a JSON body from a $ref'd model (nested object, enum, array, required fields)
  replacePetTags    PUT, a JSON array body and a path parameter
  addNote           POST, a form body
  readme            GET, text/plain out
  buildTree         POST, a recursive ($ref cycle) body
  whoAmI            GET, an API key in a header (a security scheme)
  waitFor           GET, sleeps (for a run stopped during a call); never called by the recorder
  deletePetWithAVeryLongOperationIdThatGoesOnAndOnPastSixtyCharacters
                    DELETE, no operationId-derived name under 60 characters

Usage: app.py [--port N]   (prints `READY http://127.0.0.1:PORT`; the spec is at /openapi.json)
"""

import asyncio
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

from fastapi import Body, FastAPI, Form, Header, HTTPException, Query, Request, Security
from fastapi.responses import PlainTextResponse
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, Field

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'a2a'))
from _serve import add_cors, bind, serve  # noqa: E402  (shared launch code)

# The headers a tool call may set, echoed back (not User-Agent: a page cannot set it).
ECHOED_HEADERS = ('content-type', 'x-request-id', 'x-api-key', 'authorization')


class Status(str, Enum):
    available = 'available'
    sold = 'sold'


class Owner(BaseModel):
    name: str = Field(description='Who looks after the pet.')
    phone: Optional[str] = None


class Pet(BaseModel):
    """A pet in the store."""

    name: str = Field(description='The name it answers to.')
    status: Status = Status.available
    tags: list[str] = []
    owner: Owner
    weight_kg: float = Field(default=1.5, ge=0)


class TreeNode(BaseModel):
    label: str
    children: list['TreeNode'] = []


async def echo(request: Request) -> dict:
    """What the request carried, as the app received it."""
    content_type = request.headers.get('content-type', '')
    # FastAPI has read the body already: as a form (then only the form is kept) or as bytes.
    if content_type.startswith('application/x-www-form-urlencoded'):
        body = dict((await request.form()).items())
    elif content_type.startswith('application/json'):
        body = await request.json()
    else:
        body = (await request.body()).decode() or None
    query = {k: (v if len(v) > 1 else v[0]) for k in request.query_params for v in [request.query_params.getlist(k)]}
    headers = {h: request.headers[h] for h in ECHOED_HEADERS if h in request.headers}
    return {'method': request.method, 'path': request.url.path, 'query': query, 'headers': headers, 'body': body}


def make_app(base_url: str) -> FastAPI:
    app = FastAPI(title='Pet store', version='1.0.0', servers=[{'url': base_url}])
    api_key = APIKeyHeader(name='X-Api-Key', description='The key the store gave you.')

    @app.get('/pets', operation_id='listPets', summary='List the pets, a page at a time.')
    async def list_pets(
        request: Request,
        limit: Annotated[int, Query(description='How many to return.', le=100)] = 10,
        status: Optional[Status] = None,
        tag: Annotated[Optional[list[str]], Query(description='Only pets with all these tags.')] = None,
        name_contains: Optional[str] = None,
    ):
        return {'pets': [{'id': 1, 'name': 'Rex'}], 'request': await echo(request)}

    @app.get('/pets/{pet_id}', operation_id='getPetById', description='Finds one pet by its id.')
    async def get_pet(request: Request, pet_id: int, x_request_id: Annotated[Optional[str], Header()] = None):
        if pet_id == 404:
            raise HTTPException(status_code=404, detail='no such pet')
        return {'id': pet_id, 'request': await echo(request)}

    @app.post('/pets', operation_id='createPet', summary='Adds a pet.', status_code=201)
    async def create_pet(request: Request, pet: Pet):
        return {'created': pet.model_dump(), 'request': await echo(request)}

    @app.put('/pets/{pet_id}/tags', operation_id='replacePetTags', summary='Replaces the tags of a pet.')
    async def replace_tags(request: Request, pet_id: int, tags: Annotated[list[str], Body()]):
        return await echo(request)

    @app.post('/notes', operation_id='addNote', summary='Leaves a note.')
    async def add_note(request: Request, title: Annotated[str, Form()], text: Annotated[str, Form()] = ''):
        return await echo(request)

    @app.get('/readme', operation_id='readme', summary='The store in a sentence.', response_class=PlainTextResponse)
    async def readme():
        return 'A small pet store for tests.'

    @app.post('/trees', operation_id='buildTree', summary='Counts the nodes of a tree.')
    async def build_tree(request: Request, tree: TreeNode):
        def count(node: TreeNode) -> int:
            return 1 + sum(count(c) for c in node.children)

        return {'nodes': count(tree), 'request': await echo(request)}

    @app.get('/me', operation_id='whoAmI', summary='Who the API key belongs to.')
    async def who_am_i(request: Request, key: Annotated[str, Security(api_key)]):
        return {'owner': 'tester' if key == 'sesame' else 'nobody', 'request': await echo(request)}

    @app.get('/wait', operation_id='waitFor', summary='Answers after a while.')
    async def wait_for(seconds: float = 1.0):
        await asyncio.sleep(min(seconds, 30.0))
        return {'waited': seconds}

    @app.delete(
        '/pets/{pet_id}',
        operation_id='deletePetWithAVeryLongOperationIdThatGoesOnAndOnPastSixtyCharacters',
        summary='Removes a pet.',
    )
    async def delete_pet(request: Request, pet_id: int):
        return await echo(request)

    return app


def main() -> None:
    sock, base_url = bind(__doc__.splitlines()[0])
    app = make_app(base_url)
    add_cors(app)
    serve(app, sock, base_url)


if __name__ == '__main__':
    main()

"""A2A 1.x conformance client, run with the interpreter of ``.venv-a2a1``.

a2a-sdk 1.x cannot share a virtualenv with 0.3.22, so the tests run this
script in its own venv: ``python a2a1_client.py BASE_URL {stream|send} TEXT``.
It resolves the card with the SDK's resolver, builds a client with
``ClientFactory`` and prints one JSON line: the interface the client chose,
the kind of each event and the reply text it carried.
"""

import asyncio
import json
import sys
import uuid

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.types import Message, Part, Role, SendMessageRequest, TaskState


def _texts(parts) -> list[str]:
    return [part.text for part in parts if part.HasField("text")]


async def main(base_url: str, mode: str, text: str) -> dict:
    async with httpx.AsyncClient(timeout=60) as http:
        card = await A2ACardResolver(http, base_url).get_agent_card()
        # The SDK adds the A2A-Version header only to clients it creates itself.
        config = ClientConfig(streaming=mode == "stream")
        client = ClientFactory(config).create(card)
        request = SendMessageRequest(
            message=Message(
                message_id=uuid.uuid4().hex, role=Role.ROLE_USER, parts=[Part(text=text)]
            )
        )
        events, replies = [], []
        async for event in client.send_message(request):
            kind = event.WhichOneof("payload")
            events.append(kind)
            if kind == "message":
                replies.extend(_texts(event.message.parts))
            elif kind == "task":
                events[-1] = f"task:{TaskState.Name(event.task.status.state)}"
                for artifact in event.task.artifacts:
                    replies.extend(_texts(artifact.parts))
        await client.close()
        versions = [i.protocol_version for i in card.supported_interfaces]
        return {"versions": versions, "events": events, "reply": "\n".join(replies)}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:4]))))

# netmend as an A2A participant (AgentBeats "purple" agent).
#   docker build --platform linux/amd64 -t netmend .
#   docker run --rm -p 9009:9009 netmend
# Arguments after the image name are appended to the entrypoint, so the
# AgentBeats convention `--host 0.0.0.0 --port 9009 --card-url http://NAME:9009`
# works as is (for repeated options the last one wins).
FROM --platform=linux/amd64 python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# curl serves the health check below (and the AgentBeats compose health checks).
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/netmend
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install . && useradd --create-home --uid 10001 netmend

USER netmend
EXPOSE 9009
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
    CMD curl -fsS http://127.0.0.1:9009/.well-known/agent-card.json >/dev/null || exit 1

ENTRYPOINT ["netmend", "serve", "--host", "0.0.0.0", "--port", "9009"]

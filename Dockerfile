# Hermes WebUI on Node. Build: docker build -t hermes-webui .
# Run:   docker run -p 8787:8787 -v hermes-data:/data -e HERMES_WEBUI_PASSWORD=… hermes-webui
# It listens on 0.0.0.0 inside the container, so it refuses to start without a password.
# Node 24: the LTS line with the longest support left among 22 (ends April 2027) and 24 (April
# 2028), and one better-sqlite3 ~12.9 ships prebuilt binaries for (it declares 20.x to 25.x).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
# tini forwards SIGTERM to node (which finishes requests and saves state) and reaps children
# of the agent's shell commands; ripgrep and git are what the agent's tools reach for.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ripgrep git ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 10001 --shell /bin/bash hermes \
 && mkdir -p /data /workspace \
 && chown hermes:hermes /data /workspace
ENV NODE_ENV=production \
    HERMES_HOME=/data/hermes \
    HERMES_WEBUI_STATE_DIR=/data/webui \
    HERMES_WEBUI_DEFAULT_WORKSPACE=/workspace \
    HERMES_WEBUI_HOST=0.0.0.0 \
    HERMES_WEBUI_PORT=8787
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/public ./public
USER hermes
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.HERMES_WEBUI_PORT||8787)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server.js"]

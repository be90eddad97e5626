# The server as a container image (docs/operations.md, "Container").
#   docker build -t mobileapp-asmx .
#   docker run -p 8080:8080 -v mobileapp-data:/data mobileapp-asmx
#   docker run -p 8080:8080 -e DATABASE_URL=postgres://app:secret@db:5432/mobileapp -e WORKERS=2 mobileapp-asmx

# Production dependencies only; the SQLite driver compiles from source (package.json's postinstall),
# hence the tools.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
# The image's own headers, so node-gyp builds against this Node without downloading them.
ENV npm_config_nodedir=/usr/local
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund

# The build: every dependency (TypeScript), then the compiled JavaScript in dist/.
FROM deps AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY scripts ./scripts
COPY wsdl ./wsdl
RUN npm run build

# The runtime: Node, tini as PID 1 (signals reach the server, so SIGTERM stops it gracefully, and
# exited children are reaped), the production node_modules, dist/ and the WSDL files it reads.
FROM node:24-bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data \
 && chown node:node /data
WORKDIR /app
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATABASE_URL=sqlite:/data/mobileapp.db \
    LOG_LEVEL=info \
    WORKERS=1 \
    SHUTDOWN_TIMEOUT_MS=10000
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json package-lock.json ./
COPY wsdl ./wsdl
COPY bin ./bin
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["bin/serve"]

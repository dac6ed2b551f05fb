# svc-admin: a multi-stage image. The first stage installs the production dependencies; the image
# bundles the sources into .build/service.mjs (src/bundle.ts), which the service runs.
# Build: docker build -t svc-admin .
# Run behind a TLS-terminating proxy (docs/operations.md):
#   docker run -p 8080:8080 -v svc-data:/data -e TRUST_PROXY=true -e SUPERADMIN_EMAIL=... svc-admin
# Without TRUST_PROXY=true or TLS_CERT_FILE/TLS_KEY_FILE the service refuses plain HTTP on 0.0.0.0
# and says so: the image does not decide for the operator that a proxy stands in front.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the sources are not here yet to be bundled (the `prepare` script); that is done below.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# The web console (issue 28): built with the development dependencies (Vite, React...) into
# .build/console, of which only the built files go into the image.
FROM node:24-bookworm-slim AS console
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY console ./console
COPY docs/openapi.json ./docs/openapi.json
RUN npm run -s console:build

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=1
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY scripts ./scripts
# The bundle, made once here: every start finds it as new as its sources and runs it.
RUN npm run -s build
COPY --from=console /app/.build/console ./.build/console
# The embedded database lives in /data (a volume); the image runs as the unprivileged user node.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# /health answers without the database; /ready is for the load balancer.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node is PID 1 and receives SIGTERM itself (no npm, no shell in between): it drains and exits 0.
# --init is not needed: the service reaps no children.
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=50", "--experimental-strip-types", "--disable-warning=ExperimentalWarning", "src/main.ts"]

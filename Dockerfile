# One image definition for every Baton service. SERVICE names a folder of services/:
#
#   docker build --build-arg SERVICE=sales-agent -t baton/sales-agent .
#
# The container runs `node --env-file=services/node.env <V8 flags> dist/services/$SERVICE/src/main.mjs`:
# the Node options and V8 flags every launcher gives a service (see services/node.env), and the service's bundle,
# compiled from TypeScript at build time (scripts/bundle-services.ts bundles every service), so it
# runs on plain Node. SERVICE is set in the last layer only, so the images of all services share
# every other layer, and SERVICE can also be overridden at run time (`docker run -e SERVICE=router`).
# Only BuildKit-independent instructions are used, so the classic builder (docker-compose 1.x) builds it too.

ARG NODE_VERSION=22

# --- manifests: the workspace package.json files and the lock, nothing else --------------------------
# The dependency layer below depends on these alone, so editing a source file does not reinstall.
FROM node:${NODE_VERSION}-alpine AS manifests
WORKDIR /app
COPY . .
RUN find . -type f \
      ! -path ./package.json ! -path ./package-lock.json \
      ! -path ./schemas/package.json ! -path './libs/*/package.json' ! -path './services/*/package.json' \
      -delete \
 && (find . -depth -mindepth 1 -type d -exec rmdir {} + 2>/dev/null || true)

# --- deps: production dependencies of the services (tsx included) ------------------------------------
# Only the services' workspaces and the root are installed: dev tooling (vitest, eslint, typescript)
# and libs/local-infra's testcontainers stay out. `npm install`, not `npm ci`: the lock records no
# entries for other platforms' optional packages, which `npm ci` reports as missing (see .ci/run);
# `npm install` still installs the locked versions. Install scripts are not needed (esbuild finds its
# platform package without its postinstall).
FROM node:${NODE_VERSION}-alpine AS deps
WORKDIR /app
COPY --from=manifests /app ./
RUN workspaces="$(for dir in services/*/; do printf -- '--workspace=%s ' "${dir%/}"; done)" \
 && npm install $workspaces --include-workspace-root --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

# --- runtime -------------------------------------------------------------------------------------------
FROM node:${NODE_VERSION}-alpine AS runtime
ENV NODE_ENV=production \
    HTTP_PORT=8080 \
    HTTP_HOST=0.0.0.0
WORKDIR /app
# Files stay owned by root and read-only for the service's user.
COPY --from=deps /app ./
COPY tsconfig.json tsconfig.base.json ./
COPY schemas/ ./schemas/
COPY libs/ ./libs/
COPY services/ ./services/
COPY scripts/ ./scripts/
RUN node --import tsx scripts/bundle-services.ts
# The unprivileged user of the node image (uid 1000).
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HTTP_PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ARG SERVICE=router
ENV SERVICE=${SERVICE}
# exec: node is PID 1 and receives SIGTERM itself, which drains the service (work in progress commits).
CMD ["sh", "-c", "exec node --env-file=services/node.env --single-threaded-gc --no-memory-reducer --no-flush-bytecode \"dist/services/${SERVICE}/src/main.mjs\""]

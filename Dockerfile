# One image for every service; docker-compose.yml picks the entry point per container.
FROM node:22.23.3-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY schemas ./schemas
COPY pipelines ./pipelines
COPY services ./services
COPY tsconfig.json ./
# The console's bundle, built once into the image (a process would otherwise build it at its first start).
RUN node --import tsx services/console/build.ts
ENV OPS_PORT=8080 LOG_LEVEL=info
EXPOSE 8080
CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "services/main.ts"]

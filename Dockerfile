# Waddle in a container, for docker-compose.yml (PostgreSQL, Redis and two Waddle instances).
FROM node:20-bookworm-slim
WORKDIR /app
COPY . .
RUN npm ci && npm run build
ENV HOST=0.0.0.0 PORT=8787 NODE_ENV=production
EXPOSE 8787
CMD ["node", "server/dist/main.js"]

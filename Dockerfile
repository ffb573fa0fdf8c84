# kurel's service image, built from the packed npm package: `docker build -t kurel:0.1.0 .`
# The build stage packs exactly what `npm publish` would ship; the runtime stage installs that
# package with its production dependencies only, pinned by package-lock.json.
# Pinned by digest, so a rebuild gets the same base; to move it, read the tag's current digest
# (`docker buildx imagetools inspect node:22-bookworm-slim`) and replace it here. Node 22 is an LTS
# line (Node 20 reached its end of life in April 2026); CI runs the tests on Node 20 and 22.
ARG NODE_IMAGE=node:22-bookworm-slim@sha256:f32b81066cde10a75dbac96646099533316d94bac4150c55da1636e1f0ffdc46

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build \
 && mkdir /pack \
 && npm pack --ignore-scripts --pack-destination /pack \
 && mv /pack/kurel-*.tgz /pack/kurel.tgz

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /opt/kurel
COPY --from=build /pack/kurel.tgz /tmp/kurel.tgz
COPY --from=build /src/package-lock.json /tmp/package-lock.json
RUN tar -xzf /tmp/kurel.tgz --strip-components=1 -C /opt/kurel \
 && cp /tmp/package-lock.json /opt/kurel/package-lock.json \
 && npm ci --omit=dev --no-audit --no-fund --ignore-scripts \
 && npm cache clean --force \
 && rm /tmp/kurel.tgz /tmp/package-lock.json \
 && groupadd --system --gid 10001 kurel \
 && useradd --system --uid 10001 --gid kurel --no-create-home --shell /usr/sbin/nologin kurel
# Numeric, so Kubernetes can check runAsNonRoot without reading /etc/passwd.
USER 10001:10001
EXPOSE 8443
ENTRYPOINT ["node", "/opt/kurel/dist/cli.cjs", "serve"]
# `docker run -p 8443:8443 IMAGE` serves on every interface at the port exposed above (plain
# HTTP until --tls-cert and --tls-key are given); arguments after IMAGE replace these.
CMD ["--host", "0.0.0.0", "--port", "8443"]

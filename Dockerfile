# MapRaster as a container image: docker build -t mapraster . && docker run --rm -v "$PWD:/out" mapraster -o /out/map.png
#
# Stage 1 builds with the Swift toolchain's Debian 12 (bookworm) image and installs into /opt/mapraster with
# Scripts/install.sh (release build, Swift runtime linked statically, resources under share/mapraster).
# Stage 2 is Debian 12 slim with only the runtime libraries the binary links (checked against `ldd` of the
# release binary; see Notes/hostile-input.md) the fonts MapRaster pins by path or falls back to (as Scripts/install-system-deps.sh lists them) and
# Leaflet for the viewer of `mapraster serve`. No compiler, no -dev
# packages, no network at run time.
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
WORKDIR /src
COPY . .
RUN Scripts/install.sh /opt/mapraster

FROM debian:12-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libcairo2 \
        libfreetype6 \
        libharfbuzz0b \
        libspng0 \
        libpixman-1-0 \
        libpng16-16 \
        libsqlite3-0 \
        libimagequant0 \
        libdeflate0 \
        libmicrohttpd12 \
        libturbojpeg0 \
        libwebp7 \
        librsvg2-2 \
        libstdc++6 \
        libjs-leaflet \
        fonts-dejavu-core \
        fonts-ipaexfont-gothic \
        fonts-open-sans \
        fonts-lohit-deva \
        fonts-nanum \
        fonts-droid-fallback \
        fonts-noto-core \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /opt/mapraster/ /usr/local/
# A fixed unprivileged user (uid 10001), so that volumes can be given to it (Kubernetes: fsGroup 10001).
RUN useradd --system --uid 10001 --user-group --no-create-home --home-dir /work mapraster \
    && mkdir -p /work && chown mapraster:mapraster /work
USER mapraster
WORKDIR /work
# Fails the build if the installed binary cannot find its resources or libraries.
RUN mapraster -o /tmp/check.png && rm /tmp/check.png
ENTRYPOINT ["mapraster"]

#!/usr/bin/env bash
# Builds mapraster in release mode and installs it under a prefix: Scripts/install.sh PREFIX
#   PREFIX/bin/mapraster                                  the executable (Swift runtime linked in statically)
#   PREFIX/share/mapraster/MapRaster_<Module>.resources   the shipped data (styles, Natural Earth, geocoding, ...)
#   PREFIX/share/bash-completion/completions/mapraster, PREFIX/share/zsh/site-functions/_mapraster,
#   PREFIX/share/man/man1/mapraster.1                     when this version of the CLI can generate them
# The installed binary finds its data under ../share/mapraster (see ShippedResources in MapData), so the whole
# PREFIX can be copied elsewhere. It needs the runtime libraries of Scripts/install-system-deps.sh (the
# Dockerfile lists them) and the fonts pinned by path (fonts-dejavu-core, fonts-ipaexfont-gothic).
set -euo pipefail

if [[ $# -ne 1 || -z $1 ]]; then
    echo "usage: $0 PREFIX   (for example /usr/local or \$HOME/.local)" >&2
    exit 64
fi
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
prefix=$(cd "$1" && pwd)

# The modules that ship resources (Package.swift's `resources:`).
RESOURCE_MODULES=(MapBaseMap MapGeocoding)

cd "$root"
Scripts/install-system-deps.sh
build=(swift build -c release --product mapraster --static-swift-stdlib)
"${build[@]}" >&2
bin=$("${build[@]}" --show-bin-path)

install -d "$prefix/bin" "$prefix/share/mapraster"
install -m 0755 "$bin/mapraster" "$prefix/bin/mapraster.new"
mv -f "$prefix/bin/mapraster.new" "$prefix/bin/mapraster"
for module in "${RESOURCE_MODULES[@]}"; do
    bundle=MapRaster_$module.resources
    if [[ ! -d $bin/$bundle ]]; then
        echo "install: the build made no $bin/$bundle; was a resource target renamed? (see RESOURCE_MODULES in $0)" >&2
        exit 1
    fi
    rm -rf "$prefix/share/mapraster/$bundle.new"
    cp -R "$bin/$bundle" "$prefix/share/mapraster/$bundle.new"
    rm -rf "$prefix/share/mapraster/$bundle"
    mv "$prefix/share/mapraster/$bundle.new" "$prefix/share/mapraster/$bundle"
done

# Shell completions and the man page, when the CLI can write them.
exe=$prefix/bin/mapraster
if "$exe" completions bash >/dev/null 2>&1; then
    install -d "$prefix/share/bash-completion/completions" "$prefix/share/zsh/site-functions"
    "$exe" completions bash >"$prefix/share/bash-completion/completions/mapraster"
    "$exe" completions zsh >"$prefix/share/zsh/site-functions/_mapraster"
fi
if "$exe" man >/dev/null 2>&1; then
    install -d "$prefix/share/man/man1"
    "$exe" man >"$prefix/share/man/man1/mapraster.1"
fi

# The installed copy must run from its new place: render the default map to standard output.
if ! "$exe" -o - >/dev/null; then
    echo "install: $exe was installed but does not render; see its message above" >&2
    exit 1
fi
echo "installed $exe and $prefix/share/mapraster" >&2

# apt-private.sh: sourced by scripts that fetch Debian packages (binary or source) into a
# private cache without touching the machine's own APT configuration.
#
#   . ci/apt-private.sh
#   apt_private CACHE "deb ... sid main" "deb-src ... bookworm main" ...
#
# Each LINE may use @URI@ for the Debian mirror the machine already uses (read from its apt
# sources; never a hard-coded host). Writes CACHE/apt/{sources.list,apt.conf}, exports
# APT_CONFIG, and runs `apt-get update` when the lists are missing or a day old. Returns 1
# with a message on stderr when there is no mirror or the update fails.

apt_mirror_uri() {
    local uri
    uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' \
          | grep -v security | head -n1 || true)
    if [ -z "$uri" ]; then
        uri=$(grep -hE '^deb ' /etc/apt/sources.list 2>/dev/null | awk '{print $2}' | head -n1 || true)
    fi
    [ -n "$uri" ] || { echo "apt-private: no Debian mirror URI found in the apt sources" >&2; return 1; }
    echo "$uri"
}

apt_private() {
    local cache=$1 uri line
    shift
    uri=$(apt_mirror_uri) || return 1
    mkdir -p "$cache"/apt/{lists/partial,cache/archives/partial}
    : > "$cache/apt/sources.list.new"
    for line in "$@"; do
        echo "${line//@URI@/$uri}" >> "$cache/apt/sources.list.new"
    done
    # New sources invalidate the lists.
    if ! cmp -s "$cache/apt/sources.list.new" "$cache/apt/sources.list"; then
        mv "$cache/apt/sources.list.new" "$cache/apt/sources.list"
        rm -f "$cache/apt/updated"
    else
        rm -f "$cache/apt/sources.list.new"
    fi
    cat > "$cache/apt/apt.conf" <<CONF
Dir::Etc::SourceList "$cache/apt/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::State::Lists "$cache/apt/lists";
Dir::Cache "$cache/apt/cache";
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT::Get::List-Cleanup "0";
CONF
    export APT_CONFIG="$cache/apt/apt.conf"
    local stamp="$cache/apt/updated"
    if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +1440 2>/dev/null)" ]; then
        apt-get update -qq >"$cache/apt/update.log" 2>&1 \
            || { echo "apt-private: apt-get update failed (see $cache/apt/update.log)" >&2; return 1; }
        touch "$stamp"
    fi
}

# apt_private_fetch WHO CACHE SETUP PKG SUITE: download PKG from SUITE into CACHE/debs (once)
# and unpack it into CACHE/unpacked (once; CACHE/unpacked/PKG.done marks it). SETUP is the
# caller's function that runs apt_private with its sources, called only when the .deb is
# missing (so the network is used only then). WHO prefixes the messages.
apt_private_fetch() {
    local who=$1 cache=$2 setup=$3 pkg=$4 suite=$5
    if ! ls "$cache/debs/${pkg}_"*.deb >/dev/null 2>&1; then
        "$setup" || return 1
        mkdir -p "$cache/debs"
        (cd "$cache/debs" && apt-get download -qq "$pkg/$suite" >/dev/null 2>&1) ||
            { echo "$who: cannot download $pkg ($suite): no network, or the suite no longer has it" >&2
              return 1; }
    fi
    if [ ! -f "$cache/unpacked/$pkg.done" ]; then
        mkdir -p "$cache/unpacked"
        dpkg-deb -x "$cache/debs/${pkg}_"*.deb "$cache/unpacked" \
            || { echo "$who: cannot unpack $pkg" >&2; return 1; }
        touch "$cache/unpacked/$pkg.done"
    fi
}

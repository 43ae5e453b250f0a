# shellcheck shell=bash
# scripts/lib/debian-source.sh: fetch an upstream tarball from a Debian source package, checked against a
# pinned SHA-256 (sourced by scripts/build/pg-build and scripts/build/partman-build, after scripts/lib/common.sh).
#
#   debsrc_fetch SRCPKG ORIG SUITE SHA256 DEST LABEL
#       leaves DEST/ORIG (e.g. pg-partman_5.2.4.orig.tar.gz), or dies. With `apt-get source
#       --download-only` in a private apt configuration under DEST/apt (its own sources list with one
#       deb-src line for SUITE, own lists and cache directories; the system's /etc/apt is never
#       touched), of the Debian version whose source package lists ORIG with SHA256; when SUITE's index
#       lists no such version, or apt-get fails (a pool that lacks a file the index names), ORIG is
#       fetched by its pool path. Its SHA-256 must be SHA256. LABEL prefixes the log lines.
#
# Environment: ULID_DEBIAN_MIRROR (default http://deb.debian.org/debian).

DEBSRC_MIRROR="${ULID_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

# debsrc_apt_opts DIR: apt-get/apt-cache options for the configuration of our own under DIR
debsrc_apt_opts() {
    local dir="$1"
    printf '%s\n' -o "Dir::Etc::sourcelist=$dir/sources.list" -o "Dir::Etc::sourceparts=$dir/sources.list.d" \
        -o "Dir::Etc::preferencesparts=$dir/preferences.d" -o "Dir::State::lists=$dir/lists" \
        -o "Dir::Cache=$dir/cache" -o "Dir::State::status=/var/lib/dpkg/status" \
        -o "APT::Sandbox::User=root" -o "Acquire::Languages=none" -o "Acquire::Retries=3"
}

# debsrc_apt_setup DIR SUITE: that configuration, knowing only SUITE's source index
debsrc_apt_setup() {
    local dir="$1" suite="$2"
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/sources.list.d" "$dir/preferences.d"
    printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
        "$DEBSRC_MIRROR" "$suite" >"$dir/sources.list"
}

debsrc_fetch() {
    local srcpkg="$1" orig="$2" suite="$3" sha="$4" dest="$5" label="$6" apt="$5/apt" debver got url
    local -a opts
    mapfile -t opts < <(debsrc_apt_opts "$apt")
    debsrc_apt_setup "$apt" "$suite"
    ulid_log "$label: apt-get update (private configuration: $suite deb-src only)"
    if apt-get "${opts[@]}" -q update >"$dest/apt-update.log" 2>&1; then
        # the Debian version whose source package lists the pinned tarball with the pinned checksum
        debver="$(apt-cache "${opts[@]}" showsrc "$srcpkg" 2>/dev/null | awk -v f="$orig" -v s="$sha" '
            /^Version: / { v = $2 }
            $1 == s && $3 == f { print v; exit }')"
    else
        ulid_warn "$label: apt-get update failed (log: $dest/apt-update.log)"
        debver=""
    fi
    if [[ -n $debver ]]; then
        ulid_log "$label: apt-get source --download-only $srcpkg=$debver"
        (cd "$dest" && apt-get "${opts[@]}" -q source --download-only "$srcpkg=$debver") ||
            ulid_warn "$label: apt-get source failed; trying the pool path"
    else
        ulid_log "$label: $suite's index does not list $orig with the pinned checksum; using the pool path"
    fi
    if [[ ! -f $dest/$orig ]]; then
        url="$DEBSRC_MIRROR/pool/main/${srcpkg:0:1}/$srcpkg/$orig"
        [[ $srcpkg == lib* ]] && url="$DEBSRC_MIRROR/pool/main/${srcpkg:0:4}/$srcpkg/$orig"
        ulid_log "$label: fetching $url"
        curl -fsSL --retry 3 -o "$dest/$orig" "$url" ||
            ulid_die "$label: could not fetch $url (is it still in Debian's pool? update the pin)"
    fi
    got="$(sha256sum "$dest/$orig" | cut -d' ' -f1)"
    if [[ $got != "$sha" ]]; then
        ulid_die "$label: SHA-256 mismatch for $orig: got $got, the pin is $sha; not building"
    fi
    ulid_log "$label: $orig SHA-256 ok ($sha)"
}

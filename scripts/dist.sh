#!/usr/bin/env bash
# `make dist`: a feedsite that stands alone on any x86_64/aarch64 glibc Linux.
#
# Writes dist/feedsite-<version>-linux-<arch>.tar.gz (the binary, README.md, LICENSE, shell
# completions for bash/zsh/fish, the man page) and its .sha256. The binary is linked statically
# against the Swift runtime and Foundation (--static-swift-stdlib) and against Debian's static
# archives of cmark-gfm, gumbo and libxml2 (with what libxml2's archive needs: ICU, zlib, liblzma)
# and libstdc++/libgcc, so it needs only the C library family at run time.
#
# How the C libraries become static without touching Package.swift: SwiftPM links them as
# `-L/usr/lib/<triple> -lxml2 …`, from their pkg-config files. PKG_CONFIG_PATH puts copies of those
# files first whose `-L` names .build/static-libs instead, where each library's `.so` name holds a
# one-line GNU ld script naming the static archive(s); the linker reads such a script in place of
# a shared object. Debian ships no static mimalloc, so an empty libmimalloc.a there makes the
# stand-alone binary use glibc's allocator (about 14 % slower on a cold build; see RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"

arch="$(uname -m)"
multiarch="$(gcc -print-multiarch 2>/dev/null || true)"
libdir="/usr/lib/${multiarch:-$arch-linux-gnu}"
static="$PWD/.build/static-libs"
rm -rf "$static"
mkdir -p "$static"

archive() {  # the static archive of library $1 (libNAME.a), or an error naming the package
  local path="$libdir/lib$1.a"
  if [[ ! -f "$path" ]]; then
    path="$(gcc -print-file-name="lib$1.a")"
    [[ "$path" == /* && -f "$path" ]] || { echo "error: lib$1.a not found; run scripts/install-deps.sh" >&2; exit 1; }
  fi
  echo "$path"
}
script() {  # script NAME ARCHIVE…: lib<NAME>.so, read by the linker as "these archives"
  echo "GROUP ( ${*:2} )" > "$static/lib$1.so"
}
# libxml2's archive and everything `pkg-config --static` says it needs (ICU, zlib, liblzma: zlib
# is linked directly too, for Content-Encoding); libm,
# libdl and libpthread stay with the C library.
xml2=()
for flag in $(pkg-config --static --libs-only-l libxml-2.0); do
  name="${flag#-l}"
  case "$name" in
    m|dl|pthread|c|xml2) ;;
    *) xml2+=("$(archive "$name")"); script "$name" "$(archive "$name")" ;;
  esac
done
script xml2 "$(archive xml2)" "${xml2[@]}"
# ICU's regular expressions (the filter patterns' bounded search) link ICU directly too: each name
# is the three archives, so their order on the command line does not matter.
icu=("$(archive icui18n)" "$(archive icuuc)" "$(archive icudata)")
for name in icui18n icuuc icudata; do script "$name" "${icu[@]}"; done
cmark=("$(archive cmark-gfm-extensions)" "$(archive cmark-gfm)")
script cmark-gfm "${cmark[@]}"
script cmark-gfm-extensions "${cmark[@]}"
script gumbo "$(archive gumbo)"
# ICU is C++: libstdc++ comes in as an archive too (libgcc's unwinder through -static-libgcc).
script stdc++ "$(archive stdc++)"
ar rc "$static/libmimalloc.a"
# The pkg-config files SwiftPM reads, with -L pointing here (Cflags unchanged: no recompilation).
mkdir -p "$static/pkgconfig"
for package in libxml-2.0 gumbo libcmark-gfm zlib; do
  sed "s|^Libs: -L\${libdir}|Libs: -L$static|" "$(pkg-config --variable=pcfiledir "$package")/$package.pc" \
    > "$static/pkgconfig/$package.pc"
  grep -q "^Libs: -L$static " "$static/pkgconfig/$package.pc" || { echo "error: cannot redirect $package.pc" >&2; exit 1; }
done
export PKG_CONFIG_PATH="$static/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

"$SWIFT" build -c release --product feedsite --static-swift-stdlib -Xswiftc -Xclang-linker -Xswiftc -static-libgcc
binary="$("$SWIFT" build -c release --show-bin-path)/feedsite"

version="$("$binary" --version)"
name="feedsite-$version-linux-$arch"
stage="$PWD/.build/dist/$name"
rm -rf "$stage"
mkdir -p "$stage/completions" "$stage/man" dist
cp "$binary" "$stage/feedsite"
strip "$stage/feedsite" 2>/dev/null || true
cp README.md LICENSE "$stage/"
"$stage/feedsite" --generate-completion-script bash > "$stage/completions/feedsite.bash"
"$stage/feedsite" --generate-completion-script zsh > "$stage/completions/_feedsite"
"$stage/feedsite" --generate-completion-script fish > "$stage/completions/feedsite.fish"
scripts/manpage.py "$stage/feedsite" > "$stage/man/feedsite.1"

# Reproducible: sorted names, no owners, every mtime the last commit's.
epoch="$(git log -1 --format=%ct 2>/dev/null || echo 0)"
tarball="dist/$name.tar.gz"
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$PWD/.build/dist" -cf - "$name" \
  | gzip -9n > "$tarball"
(cd dist && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")

echo "wrote $tarball ($(du -h "$tarball" | cut -f1)) and $tarball.sha256"
echo "shared libraries the binary needs:"
ldd "$stage/feedsite" | sed 's/^/  /'

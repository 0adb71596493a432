#!/usr/bin/env bash
# check_install.sh — installs asobi into a temporary prefix and builds a program against it with pkg-config.
# Usage: check_install.sh BUILD_DIR C_COMPILER   (run by CTest as install_pkg_config)
#        check_install.sh --skip REASON          (exits 77: CTest reports the test as skipped)
# Checks: `cmake --install` lays out bin/asobi, the public headers, libasobi.a, libasobi.so
# (with its soname links) and asobi.pc; each installed header compiles on its own (so none
# needs an internal header); tests/install/tiny_game.c builds with `pkg-config --cflags
# --libs asobi` against the shared library and with `--static` against the static one, and
# both programs play every game to the end.
set -euo pipefail
if [ "${1:-}" = --skip ]; then echo "skipped: $2"; exit 77; fi
build=$1 cc=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log" >&2; fail "cmake --install"; }
prefix=$tmp/prefix
pcfile=$(find "$prefix" -name asobi.pc -path '*/pkgconfig/*' | head -n 1)
[ -n "$pcfile" ] || fail "no asobi.pc installed"
libdir=$(dirname "$(dirname "$pcfile")")
[ -x "$prefix/bin/asobi" ] || fail "no bin/asobi installed"
[ -f "$libdir/libasobi.a" ] || fail "no libasobi.a in $libdir"
[ -f "$libdir/libasobi.so" ] || fail "no libasobi.so in $libdir"
soname=$(objdump -p "$libdir/libasobi.so" | awk '/SONAME/ {print $2}')
[ -n "$soname" ] && [ -e "$libdir/$soname" ] || fail "libasobi.so has no SONAME or no $soname link"
[ -f "$prefix/include/asobi/asobi.h" ] || fail "no include/asobi/asobi.h installed"
"$prefix/bin/asobi" games >/dev/null || fail "the installed asobi command does not run"

export PKG_CONFIG_PATH=$(dirname "$pcfile")
pkg-config --exists asobi || fail "pkg-config does not find asobi"
cflags=$(pkg-config --cflags asobi)

# Every public header on its own, strictly: only <asobi/...> and system headers.
for h in "$prefix"/include/asobi/*.h; do
  echo "#include <asobi/$(basename "$h")>" >"$tmp/one.c"
  # shellcheck disable=SC2086
  "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror $cflags -c "$tmp/one.c" -o "$tmp/one.o" ||
    fail "installed header asobi/$(basename "$h") does not compile on its own"
done

# Against the shared library (the default when both are installed).
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $cflags "$here/tiny_game.c" -o "$tmp/tiny_shared" \
  $(pkg-config --libs asobi) || fail "building against the shared library"
readelf -d "$tmp/tiny_shared" | grep -q "NEEDED.*libasobi" || fail "tiny_shared does not use libasobi.so"
LD_LIBRARY_PATH=$libdir "$tmp/tiny_shared" 7 || fail "tiny_shared"

# Against the static library: --static adds the private libraries; -l:libasobi.a picks the
# archive over the .so beside it.
static_libs=$(pkg-config --static --libs asobi | sed 's/-lasobi\b/-l:libasobi.a/')
# shellcheck disable=SC2086
"$cc" -std=c11 -Wall -Wextra -Werror $cflags "$here/tiny_game.c" -o "$tmp/tiny_static" $static_libs ||
  fail "building against the static library"
if readelf -d "$tmp/tiny_static" | grep -q "NEEDED.*libasobi"; then fail "tiny_static uses libasobi.so"; fi
"$tmp/tiny_static" 7 || fail "tiny_static"
echo "install, pkg-config, shared and static: ok"

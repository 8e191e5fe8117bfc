#!/bin/bash
# Remote caching of lowering: a local HTTP cache (Debian's nginx with WebDAV PUT, on loopback,
# in a temporary directory) serves the second build's lowering actions.
#   1. Output base 1 (fresh): builds the ember_pte targets with --remote_cache=http://127.0.0.1:PORT
#      and no disk cache: every EmberLower action executes (execution log) and is uploaded.
#   2. Output base 2 (fresh, nothing shared with base 1 but the HTTP cache): the same build;
#      every EmberLower action is a remote cache hit (execution log; Bazel's summary line says
#      "remote cache hit"), none executes, and the .pte files equal base 1's byte for byte.
# In both bases the lower binary is first built from the shared disk cache, so the HTTP cache
# only sees the lowering actions and the run takes a minute or two, not two cold builds.
# Skips (status 0) when nginx is not installed (scripts/setup.sh installs it).
#
#   tests/bazel_rules/remote_cache.sh [TARGET...]        (run by .ci/run)
set -uo pipefail
cd "$(dirname "$0")/../.."
# --symlink_prefix=/: the checkout's bazel-* links keep pointing at its usual output base.
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(//tests/fixtures:all_ptes //tests/bazel_rules:mlp_xnnpack
  //tests/bazel_rules:ptq_mlp_int8 //tests/bazel_rules:two_methods)
nginx_bin="$(command -v nginx || ls /usr/sbin/nginx 2> /dev/null)"
if [[ -z "$nginx_bin" ]]; then
  echo "SKIP: nginx is not installed (Debian package nginx; scripts/setup.sh installs it)"
  exit 0
fi
disk="${EMBER_DISK_CACHE:-$HOME/.cache/ember-bazel-disk}"
work="$(mktemp -d "${TMPDIR:-/tmp}/ember_remote_cache.XXXXXX")"
nginx_pid=""
cleanup() {
  [[ -n "$nginx_pid" ]] && kill "$nginx_pid" 2> /dev/null && wait "$nginx_pid" 2> /dev/null
  for b in "$work/ob1" "$work/ob2"; do
    [[ -d "$b" ]] && bazel --output_base="$b" shutdown > /dev/null 2>&1
  done
  chmod -R u+w "$work" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [[ -f "$work/error.log" ]] && tail -5 "$work/error.log"; exit 1; }

# The cache: nginx on a free loopback port, WebDAV PUT into $work/cache.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$work/cache" "$work/body"
# Started as root, nginx's workers would switch to "nobody" and could not write the cache.
user_line=""
[[ $(id -u) == 0 ]] && user_line="user $(id -un) $(id -gn);"
cat > "$work/nginx.conf" <<CONF
$user_line
daemon off;
pid $work/nginx.pid;
error_log $work/error.log;
events {}
http {
  access_log $work/access.log;
  client_body_temp_path $work/body;
  server {
    listen 127.0.0.1:$port;
    location / {
      root $work/cache;
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw group:rw all:r;
      client_max_body_size 1g;
    }
  }
}
CONF
"$nginx_bin" -e "$work/error.log" -p "$work" -c "$work/nginx.conf" &
nginx_pid=$!
for _ in $(seq 50); do
  (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null && break
  sleep 0.1
done
(exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null || fail "nginx did not start on 127.0.0.1:$port"
cache="--remote_cache=http://127.0.0.1:$port"
echo "== HTTP cache: nginx (pid $nginx_pid) on 127.0.0.1:$port, root $work/cache"

for i in 1 2; do
  base="$work/ob$i"
  echo "== output base $i: $base"
  # The lower binary, from the shared disk cache (its compile actions never reach nginx).
  bazel --output_base="$base" build --symlink_prefix=/ --disk_cache="$disk" //apps/lower || fail "build lower in base $i"
  # The lowering, with the HTTP cache only.
  bazel --output_base="$base" build --symlink_prefix=/ --disk_cache= "$cache" --execution_log_json_file="$work/exec$i.json" \
    "${targets[@]}" 2>&1 | tee "$work/build$i.log"
  [[ ${PIPESTATUS[0]} == 0 ]] || fail "build in output base $i"
  bin="$(bazel --output_base="$base" info bazel-bin 2> /dev/null)"
  (cd "$bin" && find . -name '*.pte' -path '*tests/*' | sort | xargs sha256sum) > "$work/ob$i.sha256"
  n=$(wc -l < "$work/ob$i.sha256")
  if [[ $i == 1 ]]; then
    python3 tests/bazel_rules/exec_log.py "$work/exec1.json" EmberLower --expect-hits none --expect-count "$n" ||
      fail "base 1: every EmberLower action should have executed"
  else
    python3 tests/bazel_rules/exec_log.py "$work/exec2.json" EmberLower --expect-hits all --expect-count "$n" ||
      fail "base 2: every EmberLower action should be a remote cache hit"
    grep -Eq "INFO: [0-9]+ processes: ([^,]*, )*$n remote cache hit" "$work/build2.log" ||
      fail "base 2: Bazel's summary does not count $n remote cache hits"
  fi
  bazel --output_base="$base" shutdown > /dev/null 2>&1
done
diff "$work/ob1.sha256" "$work/ob2.sha256" || fail "the cached .pte files differ from the built ones"
puts=$(grep -c '"PUT /ac/' "$work/access.log")
gets=$(grep -c '"GET /ac/[0-9a-f]* HTTP/1.1" 200' "$work/access.log")
echo "nginx: $puts action results stored, $gets served"
[[ $gets -ge $n ]] || fail "nginx served $gets action results, expected at least $n"
echo "PASS: $n lowering actions served from the HTTP cache in a fresh output base, none executed"

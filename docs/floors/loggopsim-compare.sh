#!/usr/bin/env bash
# Usage: loggopsim-compare.sh [DIR [CHECKOUT]] -- not a floor: jspin project's replay against LogGOPSim itself
# (docs/replay.md, "Against LogGOPSim itself"). Builds spcl/LogGOPSim at a pinned commit in DIR (default
# /tmp/loggopsim-76451de) with its own Makefile, then prints LogGopsimComparison's markdown table.
# LogGOPSim comes from a clone of GitHub, or from CHECKOUT (or $LOGGOPSIM_SRC): an existing checkout of that
# commit, copied into DIR (never built in place). Not run in CI. Debian 12; installs missing build tools as root.
set -euo pipefail
PIN=76451de16546c7ea39651c183cbc532f4a3457c0
URL=https://github.com/spcl/LogGOPSim
DIR=$(realpath -m "${1:-/tmp/loggopsim-${PIN:0:7}}")
SRC=${2:-${LOGGOPSIM_SRC:-}}
[[ -z $SRC ]] || SRC=$(realpath -m "$SRC")
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
# sha256sum of these files of src/LogGOPSim at $PIN, hashed again: a checkout without .git can be checked too
FILES="Goal.hpp LogGOPSim.cpp LogGOPSim.hpp Makefile Network.hpp Noise.hpp Parser.hpp TimelineVisualization.hpp
  loggopsim_cmdline.ggo txt2bin.re txt2bin_cmdline.ggo"
SOURCES_SHA=5d551be1592ba5fc5e9244f2237d13853cd5fa2cec08727e712977ef4a5d5690

die() { echo "loggopsim-compare: $*" >&2; exit 1; }
say() { echo "loggopsim-compare: $*" >&2; }

# Installs the Debian packages whose command (or file) is missing, or says exactly what to install.
need() {
  local pair missing=()
  for pair in "$@"; do
    local what=${pair%%:*} pkg=${pair#*:}
    if [[ $what == /* ]]; then [[ -e $what ]] || missing+=("$pkg"); else command -v "$what" >/dev/null || missing+=("$pkg"); fi
  done
  (( ${#missing[@]} )) || return 0
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    say "installing ${missing[*]}"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >&2 \
      || die "apt-get could not install ${missing[*]}; install them and retry"
  else
    die "missing ${missing[*]}; as root: apt-get install -y ${missing[*]}"
  fi
}

# True when $1/src/LogGOPSim holds LogGOPSim's sources at $PIN.
pinned() {
  [[ -f $1/src/LogGOPSim/LogGOPSim.cpp ]] || return 1
  [[ $(cd "$1/src/LogGOPSim" && sha256sum $FILES 2>/dev/null | sha256sum | cut -d" " -f1) == "$SOURCES_SHA" ]]
}

# A JDK 25 or newer: $JAVA_HOME, or the first under /usr/lib/jvm (as ./jspin looks).
jdk() {
  local d
  for d in "${JAVA_HOME:-}" /usr/lib/jvm/*25* /usr/lib/jvm/*; do
    [[ -x $d/bin/javac ]] && "$d/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])' && { echo "$d"; return; }
  done
  die "no JDK 25 or newer (set JAVA_HOME; README says how to install one)"
}

need re2c:re2c gengetopt:gengetopt g++:g++ make:make /usr/include/graphviz/cgraph.h:libgraphviz-dev
BIN=$DIR/src/LogGOPSim
if [[ -e $DIR ]]; then
  pinned "$DIR" || die "$DIR exists but is not LogGOPSim ${PIN:0:7}; remove it or give another DIR"
  say "using $DIR"
elif [[ -n $SRC ]]; then
  pinned "$SRC" || die "$SRC is not a checkout of LogGOPSim ${PIN:0:7} (its src/LogGOPSim differs)"
  say "copying $SRC to $DIR"
  cp -a "$SRC" "$DIR"
  make -s -C "$BIN" clean >/dev/null # what the checkout had built is rebuilt here
else
  need git:git
  say "cloning $URL at ${PIN:0:7} into $DIR"
  if ! { git clone -q "$URL" "$DIR" && git -C "$DIR" checkout -q "$PIN"; }; then
    rm -rf "$DIR"
    die "cannot clone $URL at ${PIN:0:7} (no route to GitHub?). Give an existing checkout of that commit:
  $0 $DIR CHECKOUT   or   LOGGOPSIM_SRC=CHECKOUT $0 $DIR"
  fi
  pinned "$DIR" || die "$DIR at ${PIN:0:7} does not have the sources this script expects"
fi
if [[ ! -x $BIN/LogGOPSim || ! -x $BIN/txt2bin ]]; then
  # its own Makefile, unchanged: LogGOPSim with g++ -O0 -g, txt2bin with -O3
  say "building LogGOPSim in $BIN"
  make -C "$BIN" >"$DIR/build.log" 2>&1 || die "make failed; see $DIR/build.log:
$(tail -n 20 "$DIR/build.log")"
fi

# jspin's side: the replay module's test classes (LogGopsimComparison, ScheduleGenerator), built when stale
JAVA_HOME=$(jdk)
CLASS=replay/target/test-classes/org/jspin/replay/testkit/LogGopsimComparison.class
if [[ ! -f $CLASS || ! -d base/target/classes
      || -n $(find base/src replay/src replay/pom.xml pom.xml -type f -newer "$CLASS" -print -quit) ]]; then
  need mvn:maven
  say "building jspin's replay module and its test classes"
  JAVA_HOME=$JAVA_HOME MAVEN_OPTS=${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow} \
    mvn -B -q -pl replay -am test-compile >&2 || die "the replay module did not build"
fi
"$JAVA_HOME/bin/java" -cp replay/target/classes:replay/target/test-classes:base/target/classes \
  org.jspin.replay.testkit.LogGopsimComparison "$BIN"
